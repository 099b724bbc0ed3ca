import { useRef, type ReactNode } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';

// pages longer than this render only the rows in view
const VIRTUALIZE_FROM = 60;
const ROW_HEIGHT = 52;

interface DataTableProps<T> {
  /** Names the table for assistive technology (rendered as its caption). */
  caption: string;
  columns: ColumnDef<T, any>[];
  data: T[];
  getRowId: (row: T) => string;
  /** Dims the rows while the next page or filter loads; the previous rows stay in place. */
  stale?: boolean;
  footer?: ReactNode;
}

/** A server-paginated table: sorting and filtering happen in the API, so rows arrive ready. */
export function DataTable<T>({ caption, columns, data, getRowId, stale, footer }: DataTableProps<T>) {
  const table = useReactTable({ data, columns, getRowId, getCoreRowModel: getCoreRowModel(), manualPagination: true, manualSorting: true });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length >= VIRTUALIZE_FROM;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    enabled: virtual,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const shown = virtual ? items.map((item) => rows[item.index]) : rows;
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const columnCount = table.getVisibleLeafColumns().length;
  return (
    <div className={`data-table${stale ? ' data-table--stale' : ''}`} aria-busy={stale || undefined}>
      <div ref={scrollRef} className={virtual ? 'data-table__scroll data-table__scroll--virtual' : 'data-table__scroll'}>
        <table aria-rowcount={virtual ? rows.length + 1 : undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <th key={header.id} scope="col">
                    {header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {padTop > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={columnCount} style={{ height: padTop, padding: 0, border: 0 }} />
              </tr>
            ) : null}
            {shown.map((row) => (
              <tr key={row.id} aria-rowindex={virtual ? row.index + 2 : undefined}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
            {padBottom > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={columnCount} style={{ height: padBottom, padding: 0, border: 0 }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}
