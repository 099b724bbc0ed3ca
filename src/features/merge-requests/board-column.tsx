import { memo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { MergeRequest } from '../../api/merge-requests.ts';
import { BoardCard } from './board-card.tsx';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';

const CARD_HEIGHT = 120;

const countText = (count: number) => formatCountOf(count, 'merge request', 'merge requests');

interface BoardColumnProps {
  columnKey: string;
  title: string;
  requests: readonly MergeRequest[];
  /** Show `group/project!12` rather than `!12` (a group's board, the review queue). */
  fullReference: boolean;
  /** More requests may still come (pages loading): the count says so. */
  loading: boolean;
}

/**
 * One read-only column: a labelled list that says its count, only the cards in view in the DOM (a
 * column of 500 requests keeps a few dozen nodes). Cards are not dragged: a request's review state
 * is not something one sets by moving it.
 */
export const BoardColumn = memo(function BoardColumn({ columnKey, title, requests, fullReference, loading }: BoardColumnProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: requests.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT,
    overscan: 4,
    getItemKey: (index) => requests[index].id,
  });
  const headingId = `mr-board-column-${columnKey}`;
  const count = `${countText(requests.length)}${loading ? ' so far' : ''}`;
  return (
    <section className="board-column" aria-labelledby={headingId}>
      <header className="board-column__header">
        <h2 id={headingId} className="board-column__title">
          {title}
        </h2>
        <span className="board-column__count" aria-hidden="true">
          {formatCount(requests.length)}
          {loading ? '+' : ''}
        </span>
      </header>
      <div ref={scroller} className="board-column__cards">
        {requests.length === 0 ? <p className="board-column__note">{loading ? 'Loading…' : 'No merge requests'}</p> : null}
        <ul className="board-column__list" style={{ height: virtualizer.getTotalSize() }} aria-label={`${title}: ${count}`}>
          {virtualizer.getVirtualItems().map((row) => (
            <li key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="board-column__row" style={{ top: row.start }}>
              <BoardCard request={requests[row.index]} fullReference={fullReference} />
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
});
