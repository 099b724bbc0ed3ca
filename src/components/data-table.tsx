import { useMemo, useRef, type ReactNode } from 'react';
import type VirtualRowsOf from './data-table-virtual-rows.tsx';
import { chunk, lazyPart } from './lazy-part.ts';

// the virtualizer's code comes only with the first long page: most pages are 20 rows (a lazy part drops the generic)
// until its code is in, a long page shows all its rows
const VirtualRows = lazyPart(
  chunk(() => import('./data-table-virtual-rows.tsx')),
  (module) => module.default,
  ({ rows, columns }) => rows.map((row) => bodyRow(row, columns, false)),
) as unknown as typeof VirtualRowsOf;

// pages longer than this render only the rows in view
const VIRTUALIZE_FROM = 60;

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
          <tbody>
            {virtual ? (
              <VirtualRows rows={rows} columns={columns} scrollRef={scrollRef} />
            ) : (
              rows.map((row) => bodyRow(row, columns, false))
            )}
          </tbody>
        </table>
      </div>
      {footer}
    </div>
  );
}

/** `measure`: the virtualizer's, so a row taller or shorter than its estimate still places the rest right. */
export function bodyRow<T>(row: DataRow<T>, columns: ColumnDef<T>[], virtual: boolean, measure?: (element: HTMLTableRowElement | null) => void) {
  return (
    <tr key={row.id} ref={measure} data-index={measure ? row.index : undefined} aria-rowindex={virtual ? row.index + 2 : undefined}>
      {columns.map((column) => (
        <td key={column.id}>{column.cell({ row })}</td>
      ))}
    </tr>
  );
}
