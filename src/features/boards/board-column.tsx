import { memo, useEffect, useRef } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useVirtualizer } from '@tanstack/react-virtual';
import { issuesQueries, labelNames, type Issue, type IssueScope } from '../../api/issues.ts';
import { useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { cardReference, type Column } from './columns.ts';
import { columnCards } from './use-card-move.ts';
import { formatCount } from '../../lib/numbers.ts';

export const cardId = (issue: Pick<Issue, 'id'>) => `issue-${issue.id}`;
export const columnDropId = (column: Column) => `column-${column.key}`;

/** What the drag carries: the card and the column it came from (or the column it is over). */
export interface DragData {
  column: Column;
  issue?: Issue;
}

const CARD_HEIGHT = 84;

interface ColumnProps {
  column: Column;
  scope: IssueScope;
  moving: ReadonlySet<number>;
  /** The caller may move cards: each has a drag handle. */
  movable: boolean;
  onRemove?: (column: Column) => void;
}

/**
 * One column: its issues page after page as it scrolls, only the cards in view in the DOM
 * (a column of 3,000 issues keeps a few dozen nodes), each card sortable by pointer and keyboard.
 */
export const BoardColumn = memo(function BoardColumn({ column, scope, moving, movable, onRemove }: ColumnProps) {
  const connection = useConnection();
  const query = useInfiniteQuery(issuesQueries.pages(connection, scope, column.filter));
  const cards = columnCards(query.data);
  const total = query.data?.pages[0]?.total;
  const scroller = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const virtualizer = useVirtualizer({
    count: cards.length + (hasNextPage ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => CARD_HEIGHT,
    overscan: 4,
    getItemKey: (index) => cards[index]?.id ?? 'more',
  });
  const virtualItems = virtualizer.getVirtualItems();
  const lastIndex = virtualItems.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastIndex >= cards.length - 1) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, cards.length]);

  const { setNodeRef, isOver } = useDroppable({ id: columnDropId(column), data: { column } satisfies DragData });
  const headingId = `board-column-${column.key}`;
  const count = total ?? (query.data ? `${cards.length}${hasNextPage ? '+' : ''}` : undefined);

  return (
    <section className={isOver ? 'board-column board-column--over' : 'board-column'} aria-labelledby={headingId}>
      <header className="board-column__header">
        <h2 id={headingId} className="board-column__title">
          {column.list?.label ? <span className="board-column__swatch" style={{ background: column.list.label.color }} aria-hidden="true" /> : null}
          <span>
            <ListTitle title={column.title} />
          </span>
        </h2>
        {count !== undefined ? (
          <span className="board-column__count">
            {typeof count === 'number' ? formatCount(count) : count}
            <span className="sr-only"> issues</span>
          </span>
        ) : null}
        {onRemove && column.list ? (
          <button type="button" className="button button--danger-quiet" onClick={() => onRemove(column)} aria-label={`Remove list ${column.title}`}>
            Remove
          </button>
        ) : null}
      </header>
      <div ref={(node) => { scroller.current = node; setNodeRef(node); }} className="board-column__cards">
        {query.isPending ? <p className="board-column__note">Loading…</p> : null}
        {query.isError ? (
          <div className="board-column__note" role="alert">
            {errorText(query.error)}{' '}
            <button type="button" className="button" onClick={() => void query.refetch()}>
              Retry
            </button>
          </div>
        ) : null}
        {query.isSuccess && cards.length === 0 ? <p className="board-column__note">No issues</p> : null}
        <SortableContext id={column.key} items={cards.map(cardId)} strategy={verticalListSortingStrategy}>
          <ul className="board-column__list" style={{ height: virtualizer.getTotalSize() }} aria-label={`${column.title} issues`}>
            {virtualItems.map((row) => {
              const issue = cards[row.index];
              return (
                <li key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="board-column__row" style={{ top: row.start }}>
                  {issue ? <BoardCard issue={issue} column={column} busy={moving.has(issue.id)} movable={movable} /> : <p className="board-column__note">Loading more…</p>}
                </li>
              );
            })}
          </ul>
        </SortableContext>
      </div>
    </section>
  );
});

function BoardCard({ issue, column, busy, movable }: { issue: Issue; column: Column; busy: boolean; movable: boolean }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: cardId(issue),
    data: { column, issue } satisfies DragData,
    disabled: busy || !movable,
  });
  return (
    <article
      ref={setNodeRef}
      className={isDragging ? 'board-card board-card--dragging' : 'board-card'}
      style={{ transform: transform ? `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)` : undefined, transition }}
      aria-busy={busy || undefined}
    >
      <CardBody issue={issue} />
      {movable ? (
        <button ref={setActivatorNodeRef} type="button" className="board-card__handle" data-card={issue.id} {...attributes} {...listeners} aria-label={`Move ${cardReference(issue)} ${issue.title}`}>
          <span aria-hidden="true">⠿</span>
        </button>
      ) : null}
    </article>
  );
}

/** The card's text: reference, title, labels and assignees, all as text. */
export function CardBody({ issue }: { issue: Issue }) {
  const labels = labelNames(issue);
  return (
    <div className="board-card__body">
      <p className="board-card__title">{issue.title}</p>
      <p className="board-card__meta">
        <span>{cardReference(issue)}</span>
        {issue.assignees.length ? <span> · {issue.assignees.map((user) => user.username).join(', ')}</span> : null}
      </p>
      {labels.length ? (
        <ul className="board-card__labels" aria-label="Labels">
          {labels.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** A scoped label's list breaks after its scope ("workflow::" / "in dev"), not inside a word. */
function ListTitle({ title }: { title: string }) {
  const scope = title.lastIndexOf('::') + 2;
  return scope < 2 ? title : (
    <>
      {title.slice(0, scope)}
      <wbr />
      {title.slice(scope)}
    </>
  );
}
