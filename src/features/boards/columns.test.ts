import { describe, expect, it } from 'vitest';
import type { Board } from '../../api/boards.ts';
import { boardColumns, moveChanges, reorderNeighbours } from './columns.ts';

const label = (id: number, name: string) => ({ id, name, color: '#000000' });
const board: Board = {
  id: 1,
  name: 'Development',
  hide_backlog_list: false,
  hide_closed_list: false,
  lists: [
    { id: 10, list_type: 'label', position: 0, label: label(1, 'To do') },
    { id: 11, list_type: 'label', position: 1, label: label(2, 'Doing') },
    { id: 12, list_type: 'assignee', position: 2, assignee: { id: 7, username: 'ada', name: 'Ada', avatar_url: null } },
    { id: 13, list_type: 'milestone', position: 3, milestone: { id: 5, iid: 1, title: 'v1', state: 'active' } as never },
  ],
};
const columns = boardColumns(board);
const byKey = (key: string) => columns.find((column) => column.key === key)!;
const issue = (labels: string[], assignees: number[] = []) => ({ labels, assignees: assignees.map((id) => ({ id, username: `u${id}`, name: `U${id}` })) });

describe('the board’s columns', () => {
  it('are Open, the lists in order and Closed, each an issue filter', () => {
    expect(columns.map((column) => column.title)).toEqual(['Open', 'To do', 'Doing', 'Ada', 'v1', 'Closed']);
    expect(byKey('open').filter).toMatchObject({ state: 'opened', not: { labels: ['To do', 'Doing'] }, order_by: 'relative_position' });
    expect(byKey('list-10').filter).toMatchObject({ state: 'opened', labels: ['To do'] });
    expect(byKey('list-12').filter).toMatchObject({ assignee_id: 7 });
    expect(byKey('list-13').filter).toMatchObject({ milestone: 'v1' });
    expect(byKey('closed').filter).toMatchObject({ state: 'closed' });
    expect(boardColumns({ ...board, hide_backlog_list: true, hide_closed_list: true }).map((column) => column.key)).toEqual(['list-10', 'list-11', 'list-12', 'list-13']);
  });
});

describe('a card moved between columns', () => {
  it('swaps the label lists’ labels in one edit', () => {
    expect(moveChanges(board, byKey('list-10'), byKey('list-11'), issue(['To do', 'bug']))).toEqual({ remove_labels: ['To do'], add_labels: ['Doing'] });
    expect(moveChanges(board, byKey('open'), byKey('list-11'), issue(['bug']))).toEqual({ add_labels: ['Doing'] });
    expect(moveChanges(board, byKey('list-11'), byKey('open'), issue(['Doing', 'bug']))).toEqual({ remove_labels: ['Doing'] });
  });

  it('closes into Closed (dropping the board’s labels) and reopens out of it', () => {
    expect(moveChanges(board, byKey('list-10'), byKey('closed'), issue(['To do', 'bug']))).toEqual({ state_event: 'close', remove_labels: ['To do'] });
    expect(moveChanges(board, byKey('closed'), byKey('list-11'), issue(['bug']))).toEqual({ state_event: 'reopen', add_labels: ['Doing'] });
    expect(moveChanges(board, byKey('closed'), byKey('open'), issue([]))).toEqual({ state_event: 'reopen' });
  });

  it('changes assignees and the milestone for those lists, and nothing within one column', () => {
    expect(moveChanges(board, byKey('open'), byKey('list-12'), issue([], [3]))).toEqual({ assignee_ids: [3, 7] });
    expect(moveChanges(board, byKey('list-12'), byKey('open'), issue([], [3, 7]))).toEqual({ assignee_ids: [3] });
    expect(moveChanges(board, byKey('open'), byKey('list-13'), issue([]))).toEqual({ milestone_id: 5 });
    expect(moveChanges(board, byKey('list-13'), byKey('list-10'), issue([]))).toEqual({ milestone_id: null, add_labels: ['To do'] });
    expect(moveChanges(board, byKey('list-10'), byKey('list-10'), issue(['To do']))).toBeNull();
  });
});

describe('the neighbours of a card put in place', () => {
  const items = [{ id: 1, project_id: 9 }, { id: 2, project_id: 8 }, { id: 3, project_id: 9 }];
  it('are the cards before and after it, of its own project only', () => {
    expect(reorderNeighbours(items, 0, 9)).toEqual({ before: 1 });
    expect(reorderNeighbours(items, 3, 9)).toEqual({ after: 3 });
    expect(reorderNeighbours(items, 2, 9)).toEqual({ before: 3, after: 1 });
    expect(reorderNeighbours(items, 1, 8)).toEqual({ before: 2 });
    expect(reorderNeighbours([], 0, 9)).toBeNull();
  });
});
