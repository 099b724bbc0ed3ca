import type { RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { bodyRow, type ColumnDef, type DataRow } from './data-table.tsx';

const ROW_HEIGHT = 52;

/**
 * The rows in view of a long page, between spacers; rendered rows are measured (an estimate alone
 * left the last rows of a page of shorter rows out of reach of the scroll). Its own component: the virtualizer measures
 * the scroll box in a layout effect (a forced layout, then a second render), which a short page,
 * shown whole, must not pay.
 */
export default function VirtualRows<T>({ rows, columns, scrollRef }: { rows: DataRow<T>[]; columns: ColumnDef<T>[]; scrollRef: RefObject<HTMLDivElement | null> }) {
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
      {items.map((item) => bodyRow(rows[item.index], columns, true, virtualizer.measureElement))}
      {padBottom > 0 ? (
        <tr aria-hidden="true">
          <td colSpan={columnCount} style={{ height: padBottom, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </>
  );
}
