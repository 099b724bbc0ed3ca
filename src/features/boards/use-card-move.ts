import { useCallback, useRef, useState } from 'react';
import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Board } from '../../api/boards.ts';
import { issuesQueries, labelNames, reorderIssue, updateIssue, type Issue, type IssueChanges, type IssueScope } from '../../api/issues.ts';
import type { Page } from '../../api/pagination.ts';
import { useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { cardReference, moveChanges, reorderNeighbours, type Column } from './columns.ts';

type ColumnData = InfiniteData<Page<Issue>>;

/** The cards of a column as loaded, each once (a page boundary that shifted may repeat one). */
export function columnCards(data: ColumnData | undefined): Issue[] {
  const seen = new Set<number>();
  const cards: Issue[] = [];
  for (const page of data?.pages ?? []) {
    for (const issue of page.items) {
      if (seen.has(issue.id)) continue;
      seen.add(issue.id);
      cards.push(issue);
    }
  }
  return cards;
}

/** The column's data with `cards` as its loaded items and its total moved by `delta`. */
function withCards(data: ColumnData, cards: Issue[], delta: number): ColumnData {
  let start = 0;
  const pages = data.pages.map((page, index) => {
    const last = index === data.pages.length - 1;
    const items = last ? cards.slice(start) : cards.slice(start, start + page.items.length);
    start += items.length;
    return { ...page, items, ...(page.total === undefined ? {} : { total: Math.max(0, page.total + delta) }) };
  });
  return { ...data, pages };
}

/** What the card shows while the edit is on its way: the labels, state and assignees it will have. */
function predicted(issue: Issue, changes: IssueChanges | null): Issue {
  if (!changes) return issue;
  const removed = new Set(changes.remove_labels ?? []);
  const kept = issue.labels.filter((label) => !removed.has(typeof label === 'string' ? label : label.name));
  const names = new Set(labelNames({ labels: kept }));
  const added = (changes.add_labels ?? []).filter((name) => !names.has(name));
  return {
    ...issue,
    labels: [...kept, ...added],
    state: changes.state_event === 'close' ? 'closed' : changes.state_event === 'reopen' ? 'opened' : issue.state,
    assignees: changes.assignee_ids ? issue.assignees.filter((user) => changes.assignee_ids!.includes(user.id)) : issue.assignees,
  };
}

export interface Drop {
  issue: Issue;
  from: Column;
  to: Column;
  /** Where the card lands among the target column's cards without it; null: where its position puts it. */
  index: number | null;
}

export interface MoveOutcome {
  kind: 'moved' | 'refused';
  message: string;
}

/**
 * Moves a card: the caches of both columns change at once, then one edit (when the column
 * changes) and one reorder (when the place does) go out; a refusal puts both columns back as
 * they were and says why. A card whose move is on its way cannot be dropped again.
 */
export function useCardMove(board: Board, scope: IssueScope) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const inFlight = useRef(new Set<number>());
  const [moving, setMoving] = useState<ReadonlySet<number>>(new Set());
  const [outcome, setOutcome] = useState<MoveOutcome | null>(null);

  const keyOf = useCallback((column: Column) => issuesQueries.pages(connection, scope, column.filter).queryKey, [connection, scope]);

  const move = useCallback(
    (drop: Drop): boolean => {
      const { issue, from, to } = drop;
      if (inFlight.current.has(issue.id)) return false;
      const changes = moveChanges(board, from, to, issue);
      const fromKey = keyOf(from);
      const toKey = keyOf(to);
      const fromData = queryClient.getQueryData<ColumnData>(fromKey);
      const toData = from.key === to.key ? fromData : queryClient.getQueryData<ColumnData>(toKey);
      if (!fromData || !toData) return false;
      const fromCards = columnCards(fromData);
      const oldIndex = fromCards.findIndex((card) => card.id === issue.id);
      const rest = (from.key === to.key ? fromCards : columnCards(toData)).filter((card) => card.id !== issue.id);
      // Closed lists the newest closed first: a card closed now goes to its top, wherever it was dropped
      const index = !to.orderable ? 0 : drop.index === null ? rest.length : Math.min(Math.max(drop.index, 0), rest.length);
      if (from.key === to.key && (index === oldIndex || !to.orderable)) return false;
      const neighbours = to.orderable && drop.index !== null ? reorderNeighbours(rest, index, issue.project_id) : null;
      if (!changes && !neighbours) return false;

      inFlight.current.add(issue.id);
      setMoving(new Set(inFlight.current));
      setOutcome(null);
      const card = predicted(issue, changes);
      const placed = [...rest.slice(0, index), card, ...rest.slice(index)];
      void queryClient.cancelQueries({ queryKey: fromKey, exact: true });
      void queryClient.cancelQueries({ queryKey: toKey, exact: true });
      if (from.key === to.key) {
        queryClient.setQueryData<ColumnData>(fromKey, withCards(fromData, placed, 0));
      } else {
        queryClient.setQueryData<ColumnData>(fromKey, withCards(fromData, fromCards.filter((item) => item.id !== issue.id), -1));
        queryClient.setQueryData<ColumnData>(toKey, withCards(toData, placed, +1));
      }
      const reference = cardReference(issue);
      void (async () => {
        let edited = false;
        let moved = false;
        try {
          if (changes) {
            await updateIssue(connection, { projectId: issue.project_id, iid: issue.iid, changes });
            edited = true;
          }
          if (neighbours) await reorderIssue(connection, { projectId: issue.project_id, iid: issue.iid, ...neighbours });
          moved = true;
        } catch (error) {
          if (!edited) {
            // nothing changed on the server: both columns go back as they were
            queryClient.setQueryData(fromKey, fromData);
            if (from.key !== to.key) queryClient.setQueryData(toKey, toData);
          }
          const what = edited ? `${reference} moved to ${to.title}, but its place could not be set` : `${reference} could not be moved to ${to.title}`;
          setOutcome({ kind: 'refused', message: `${what}: ${errorText(error)}` });
        } finally {
          // other lists of issues hold the old labels and state: stale, refetched when next shown
          await queryClient.invalidateQueries({ queryKey: issuesQueries.all(), refetchType: 'none' });
          await Promise.all([
            queryClient.refetchQueries({ queryKey: fromKey, exact: true }),
            from.key === to.key ? undefined : queryClient.refetchQueries({ queryKey: toKey, exact: true }),
          ]).catch(() => undefined);
          inFlight.current.delete(issue.id);
          setMoving(new Set(inFlight.current));
          // said once both columns show what the server holds: the board is at rest again
          if (moved) setOutcome({ kind: 'moved', message: from.key === to.key ? `${reference} moved within ${to.title}.` : `${reference} moved to ${to.title}.` });
        }
      })();
      return true;
    },
    [board, connection, keyOf, queryClient],
  );

  return { move, moving, outcome, dismiss: () => setOutcome(null) };
}
