import { useRef, type ReactNode, type RefObject } from 'react';
import { getCoreRowModel, useReactTable, type ColumnDef, type ColumnDefTemplate, type Row } from '@tanstack/react-table';
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
                    {header.isPlaceholder ? null : renderTemplate(header.column.columnDef.header, header.getContext())}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody>{virtual ? <VirtualRows rows={rows} scrollRef={scrollRef} columnCount={columnCount} /> : rows.map((row) => bodyRow(row, false))}</tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}

/**
 * A column's header or cell called as a function, not mounted as a component (as flexRender does):
 * columns rebuilt with a new closure (a selection, a role that loaded) then update their cells in
 * place instead of remounting every cell of the page.
 */
function renderTemplate<P extends object>(template: ColumnDefTemplate<P> | undefined, props: P): ReactNode {
  return typeof template === 'function' ? template(props) : (template ?? null);
}

function bodyRow<T>(row: Row<T>, virtual: boolean) {
  return (
    <tr key={row.id} aria-rowindex={virtual ? row.index + 2 : undefined}>
      {row.getVisibleCells().map((cell) => (
        <td key={cell.id}>{renderTemplate(cell.column.columnDef.cell, cell.getContext())}</td>
      ))}
    </tr>
  );
}

/**
 * The rows in view of a long page, between spacers. Its own component: the virtualizer measures
 * the scroll box in a layout effect (a forced layout, then a second render), which a short page,
 * shown whole, must not pay.
 */
function VirtualRows<T>({ rows, scrollRef, columnCount }: { rows: Row<T>[]; scrollRef: RefObject<HTMLDivElement | null>; columnCount: number }) {
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0].start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return (
    <>
      {padTop > 0 ? (
        <tr aria-hidden="true">
          <td colSpan={columnCount} style={{ height: padTop, padding: 0, border: 0 }} />
        </tr>
      ) : null}
      {items.map((item) => bodyRow(rows[item.index], true))}
      {padBottom > 0 ? (
        <tr aria-hidden="true">
          <td colSpan={columnCount} style={{ height: padBottom, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </>
  );
}
