import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import {
  DndContext, DragOverlay, KeyboardSensor, PointerSensor, closestCenter, pointerWithin, rectIntersection, useSensor, useSensors,
  type Announcements, type CollisionDetection, type KeyboardCoordinateGetter, type DragEndEvent, type DragStartEvent, type ScreenReaderInstructions,
} from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { boardsQueries, type Board } from '../../api/boards.ts';
import type { Issue } from '../../api/issues.ts';
import type { Scope } from '../../api/keys.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { EmptyState } from '../../components/states.tsx';
import { BoardColumn, CardBody, type DragData } from './board-column.tsx';
import { boardColumns, cardReference, type Column } from './columns.ts';
import { useDeleteBoard, useRemoveList } from './mutations.ts';
import { useCardMove } from './use-card-move.ts';
import './boards.css';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';
import { useMyAccess } from '../../components/use-my-access.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

// the board's forms are not in its chunk (the board itself is its drag and drop): they load once it is idle
const loadDialogs = chunk(() => import('./board-dialogs.tsx'));
const CreateBoardDialog = lazyPart(loadDialogs, (module) => module.CreateBoardDialog);
const AddListDialog = lazyPart(loadDialogs, (module) => module.AddListDialog);
// confirmations too (the dialog library with them), mounted only while asked
const loadConfirm = chunk(() => import('../../components/dialog.tsx'));
const ConfirmDialog = lazyPart(loadConfirm, (module) => module.ConfirmDialog);

interface BoardScreenProps {
  scope: Scope;
  /** The board in the URL; the first board when none is named. */
  boardId: number | undefined;
  onSelectBoard: (boardId: number | undefined) => void;
  /** The project's or group's name, for the heading. */
  sourceName?: string;
}

/** Boards, their lists and the labels a move changes: the Planner role or above (an administrator may do all). */

export function BoardScreen({ scope, boardId, onSelectBoard, sourceName }: BoardScreenProps) {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  // not awaited by the route: the controls that change the board appear once the caller's role is known
  const myAccess = useMyAccess(scope);
  const canPlan = Boolean(me?.isAdmin) || (myAccess.data ?? 0) >= AccessLevel.PLANNER;
  const boards = useSuspenseQuery(boardsQueries.list(connection, scope)).data.items;
  const board = boards.find((item) => item.id === boardId) ?? boards[0];
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const deleteBoard = useDeleteBoard();
  usePreloadWhenIdle(loadDialogs, canPlan);
  usePreloadWhenIdle(loadConfirm, canPlan);

  return (
    <section className="screen board-screen" aria-labelledby="board-heading">
      <header className="screen__header">
        <h1 id="board-heading">{sourceName ? `Issue boards of ${sourceName}` : 'Issue boards'}</h1>
        <div className="board-screen__toolbar">
          {boards.length ? (
            <span className="inline-field">
              <label htmlFor="board-switcher">Board</label>
              <select id="board-switcher" className="input" value={board?.id} onChange={(event) => onSelectBoard(Number(event.target.value))}>
                {boards.map((item) => (
                  <option key={item.id} value={item.id}>
                    {item.name || `Board ${item.id}`}
                  </option>
                ))}
              </select>
            </span>
          ) : null}
          {canPlan ? (
            <button type="button" className="button" onClick={() => setCreating(true)}>
              Create board
            </button>
          ) : null}
          {board && canPlan ? (
            <button type="button" className="button button--danger-quiet" onClick={() => (deleteBoard.reset(), setDeleting(true))}>
              Delete board
            </button>
          ) : null}
        </div>
      </header>
      {creating ? (
        <CreateBoardDialog onOpenChange={setCreating} scope={scope} onCreated={(created) => onSelectBoard(created.id)} />
      ) : null}
      {board ? (
        <>
          {deleting ? (
            <ConfirmDialog
              open
              onOpenChange={setDeleting}
              title={`Delete board ${board.name ?? board.id}?`}
              description={`The board ${board.name ?? board.id} and its lists are deleted. The issues and labels stay as they are.`}
              confirmLabel="Delete board"
              destructive
              write={deleteBoard}
              error={deleteBoard.status === 'refused' ? errorText(deleteBoard.error) : null}
              onConfirm={() =>
                deleteBoard.mutate({ scope, boardId: board.id }, { onSuccess: () => (setDeleting(false), onSelectBoard(undefined)) })
              }
            />
          ) : null}
          {myAccess.isSuccess && !canPlan ? (
            <p className="notice">Your role here shows the board; moving cards and changing boards and lists needs the Planner role or above.</p>
          ) : null}
          <BoardColumns key={board.id} board={board} scope={scope} canPlan={canPlan} />
        </>
      ) : (
        <EmptyState title="No boards yet">{canPlan ? 'Create a board to see the issues in columns.' : 'Nobody has made a board here yet.'}</EmptyState>
      )}
    </section>
  );
}

const instructions: ScreenReaderInstructions = {
  draggable:
    'To pick up an issue, press Space or Enter. Use the arrow keys to move it within its column or to another column. Press Space or Enter again to drop it, or Escape to cancel.',
};

/**
 * The column under the pointer (or under the card, moved by the keyboard), then the card in it
 * nearest to the dragged one: a tall column's far corners must not lose it to a nearer card of
 * the column the drag came from.
 */
const overCardOrColumn: CollisionDetection = (args) => {
  const within = args.pointerCoordinates ? pointerWithin(args) : [];
  const hits = within.length ? within : rectIntersection(args);
  const column = hits.map((hit) => args.droppableContainers.find((container) => container.id === hit.id)).find((container) => container?.id.toString().startsWith('column-'));
  if (!column) return hits;
  const key = (column.data.current as DragData | undefined)?.column.key;
  const cards = args.droppableContainers.filter((container) => container.id !== column.id && (container.data.current as DragData | undefined)?.column.key === key);
  const nearest = cards.length ? closestCenter({ ...args, droppableContainers: cards }) : [];
  return nearest.length ? [nearest[0]] : [{ id: column.id, data: { droppableContainer: column, value: 0 } }];
};

/**
 * After a keyboard drop the card is drawn anew in its new column: focus goes back to its handle,
 * so the keyboard user goes on from the card, not from the top of the page.
 */
function keepFocusOn(issueId: number, frames = 10) {
  requestAnimationFrame(() => {
    const handle = document.querySelector<HTMLElement>(`[data-card="${issueId}"]`);
    if (handle && document.activeElement !== handle) handle.focus();
    else if (!handle && frames > 0) keepFocusOn(issueId, frames - 1);
  });
}

/**
 * The sortable keyboard moves, without the column the card is in as a target: its box starts a few
 * pixels left of and above the card, so Left or Up went there first and seemed to do nothing.
 * Up and Down move between cards only; Left and Right also reach an empty column.
 */
const boardKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  const { context } = args;
  // the column the card is over now (where it came from, at first)
  const from = ((context.over ?? context.active)?.data.current as DragData | undefined)?.column.key;
  const horizontal = event.code === 'ArrowLeft' || event.code === 'ArrowRight';
  const kept = (container: { id: string | number; data: { current?: unknown } }) =>
    !String(container.id).startsWith('column-') || (horizontal && (container.data.current as DragData | undefined)?.column.key !== from);
  const droppableContainers = new Proxy(context.droppableContainers, {
    get(target, property) {
      if (property === 'getEnabled') return () => target.getEnabled().filter(kept);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return sortableKeyboardCoordinates(event, { ...args, context: { ...context, droppableContainers } });
};

function dragData(value: { data: { current?: unknown } } | null): DragData | undefined {
  return value?.data.current as DragData | undefined;
}

/** The dragged card's reference, for the announcements. */
function draggedRef(active: { data: { current?: unknown } }): string {
  const issue = dragData(active)?.issue;
  return issue ? cardReference(issue) : 'the card';
}

function describe(data: DragData | undefined): string {
  if (!data) return 'no column';
  return data.issue ? `${cardReference(data.issue)} in ${data.column.title}` : `column ${data.column.title}`;
}

function BoardColumns({ board, scope, canPlan }: { board: Board; scope: Scope; canPlan: boolean }) {
  const columns = useMemo(() => boardColumns(board), [board]);
  const { move, moving, outcome, dismiss } = useCardMove(board, scope);
  const [dragged, setDragged] = useState<Issue | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Column | null>(null);
  const removeList = useRemoveList();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: boardKeyboardCoordinates, scrollBehavior: 'auto' }),
  );

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${describe(dragData(active))}.`,
    onDragOver: ({ active, over }) => `${draggedRef(active)} is over ${over ? describe(dragData(over)) : 'no column'}.`,
    onDragEnd: ({ active, over }) => (over ? `${draggedRef(active)} dropped on ${describe(dragData(over))}.` : `${draggedRef(active)} dropped outside the board.`),
    onDragCancel: ({ active }) => `Moving ${draggedRef(active)} was cancelled.`,
  };

  const onDragStart = ({ active }: DragStartEvent) => setDragged(dragData(active)?.issue ?? null);
  const onDragEnd = ({ active, over, activatorEvent }: DragEndEvent) => {
    setDragged(null);
    if (activatorEvent instanceof KeyboardEvent) keepFocusOn(Number(dragData(active)?.issue?.id));
    const from = dragData(active);
    const target = dragData(over);
    if (!from?.issue || !target) return;
    // the card's column as the board has it now (the drag started from a render before)
    const to = columns.find((column) => column.key === target.column.key);
    const source = columns.find((column) => column.key === from.column.key);
    if (!to || !source) return;
    let index: number | null = null;
    if (target.issue && over) {
      const sortable = (over.data.current as { sortable?: { index: number } } | undefined)?.sortable;
      index = sortable?.index ?? null;
      // into another column: below the middle of the card it is over means after that card
      const card = active.rect.current.translated;
      if (index !== null && to.key !== source.key && card && card.top + card.height / 2 > over.rect.top + over.rect.height / 2) index += 1;
    }
    move({ issue: from.issue, from: source, to, index });
  };

  return (
    <>
      {canPlan ? (
        <div className="board-screen__lists-bar">
          <button type="button" className="button" onClick={() => setAdding(true)}>
            Add list
          </button>
        </div>
      ) : null}
      {adding ? (
        <AddListDialog onOpenChange={setAdding} scope={scope} board={board} />
      ) : null}
      {removing?.list ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (!open ? setRemoving(null) : undefined)}
          title={`Remove list ${removing.title}?`}
          description={`The list ${removing.title} leaves the board. Its issues keep their ${removing.kind === 'label' ? 'label' : removing.kind} and show in Open.`}
          confirmLabel="Remove list"
          destructive
          write={removeList}
          error={removeList.status === 'refused' ? errorText(removeList.error) : null}
          onConfirm={() => removeList.mutate({ scope, boardId: board.id, listId: removing.list!.id }, { onSuccess: () => setRemoving(null) })}
        />
      ) : null}
      {outcome ? (
        <div className={outcome.kind === 'refused' ? 'form-error board-screen__outcome' : 'notice board-screen__outcome'} role={outcome.kind === 'refused' ? 'alert' : 'status'}>
          <span>{outcome.message}</span>
          <button type="button" className="button" onClick={dismiss}>
            Dismiss
          </button>
        </div>
      ) : null}
      <DndContext
        sensors={sensors}
        collisionDetection={overCardOrColumn}
        accessibility={{ announcements, screenReaderInstructions: instructions }}
        onDragStart={onDragStart}
        onDragEnd={onDragEnd}
        onDragCancel={() => setDragged(null)}
      >
        <div className="board" role="group" aria-label={`Board ${board.name ?? board.id}`}>
          {columns.map((column) => (
            <BoardColumn
              key={column.key}
              column={column}
              scope={scope}
              moving={moving}
              movable={canPlan}
              onRemove={canPlan ? (chosen) => (removeList.reset(), setRemoving(chosen)) : undefined}
            />
          ))}
        </div>
        <DragOverlay>{dragged ? <div className="board-card board-card--overlay"><CardBody issue={dragged} /></div> : null}</DragOverlay>
      </DndContext>
    </>
  );
}
