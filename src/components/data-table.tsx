import { useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

// pages longer than this render only the rows in view
const VIRTUALIZE_FROM = 60;
const ROW_HEIGHT = 52;

/** One row of a page as its cells see it. */
export interface DataRow<T> {
  id: string;
  /** Its place in the page, from 0. */
  index: number;
  original: T;
}

/**
 * A column: its header, and its cell called as a function with the row (not mounted as a
 * component: columns rebuilt with a new closure, after a selection or a role that loaded, update
 * their cells in place instead of remounting every cell of the page).
 */
export interface ColumnDef<T> {
  id: string;
  header: string | (() => ReactNode);
  cell: (context: { row: DataRow<T> }) => ReactNode;
}

interface DataTableProps<T> {
  /** Names the table for assistive technology (rendered as its caption). */
  caption: string;
  columns: ColumnDef<T>[];
  data: T[];
  getRowId: (row: T) => string;
  /** Dims the rows while the next page or filter loads; the previous rows stay in place. */
  stale?: boolean;
  footer?: ReactNode;
}

/**
 * A server-paginated table: sorting and filtering happen in the API, so rows arrive ready and the
 * table only lays them out (a table engine's row models, built again for each page, were a tenth
 * of a cold screen's script time here, for features a server-side list never uses).
 */
export function DataTable<T>({ caption, columns, data, getRowId, stale, footer }: DataTableProps<T>) {
  const rows = useMemo(() => data.map((original, index): DataRow<T> => ({ id: getRowId(original), index, original })), [data, getRowId]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = rows.length >= VIRTUALIZE_FROM;
  return (
    <div className={`data-table${stale ? ' data-table--stale' : ''}`} aria-busy={stale || undefined}>
      <div ref={scrollRef} className={virtual ? 'data-table__scroll data-table__scroll--virtual' : 'data-table__scroll'}>
        <table aria-rowcount={virtual ? rows.length + 1 : undefined}>
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.id} scope="col">
                  {typeof column.header === 'function' ? column.header() : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{virtual ? <VirtualRows rows={rows} columns={columns} scrollRef={scrollRef} /> : rows.map((row) => bodyRow(row, columns, false))}</tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}

function bodyRow<T>(row: DataRow<T>, columns: ColumnDef<T>[], virtual: boolean) {
  return (
    <tr key={row.id} aria-rowindex={virtual ? row.index + 2 : undefined}>
      {columns.map((column) => (
        <td key={column.id}>{column.cell({ row })}</td>
      ))}
    </tr>
  );
}

/**
 * The rows in view of a long page, between spacers. Its own component: the virtualizer measures
 * the scroll box in a layout effect (a forced layout, then a second render), which a short page,
 * shown whole, must not pay.
 */
function VirtualRows<T>({ rows, columns, scrollRef }: { rows: DataRow<T>[]; columns: ColumnDef<T>[]; scrollRef: RefObject<HTMLDivElement | null> }) {
  const columnCount = columns.length;
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
      {items.map((item) => bodyRow(rows[item.index], columns, true))}
      {padBottom > 0 ? (
        <tr aria-hidden="true">
          <td colSpan={columnCount} style={{ height: padBottom, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </>
  );
}
