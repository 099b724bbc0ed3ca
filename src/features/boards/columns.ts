import type { Board, BoardList } from '../../api/boards.ts';
import { labelNames, type Issue, type IssueChanges, type IssueListParams } from '../../api/issues.ts';

/**
 * A column of the board: Open (the backlog), one per list of the board, and Closed, as the
 * platform draws them. Each column is an issue filter; moving a card between two columns is the
 * issue edit that takes it out of one filter and into the other.
 */
export interface Column {
  /** `open`, `closed` or `list-<id>`: stable across renders and used as the drop target's id. */
  key: string;
  title: string;
  kind: 'open' | 'closed' | 'label' | 'assignee' | 'milestone';
  list?: BoardList;
  /** The issue filter of the column, without the page. */
  filter: Omit<IssueListParams, 'page'>;
  /** Cards may be put in order here (the closed column follows the order issues closed in). */
  orderable: boolean;
}

export const COLUMN_PAGE_SIZE = 20;

/** How a card names its issue: `#12` on a project's board, `group/project#12` on a group's (the platform's relative reference). */
export function cardReference(issue: Pick<Issue, 'iid' | 'references'>): string {
  return issue.references?.relative ?? `#${issue.iid}`;
}

function listTitle(list: BoardList): string {
  if (list.label) return list.label.name;
  if (list.assignee) return list.assignee.name ?? list.assignee.username ?? `User ${list.assignee.id}`;
  if (list.milestone) return list.milestone.title;
  return `List ${list.id}`;
}

function listKind(list: BoardList): Column['kind'] {
  if (list.label) return 'label';
  if (list.assignee) return 'assignee';
  return 'milestone';
}

/** The labels of the board's label lists: the Open column holds issues with none of them. */
export function boardLabels(board: Board): string[] {
  return board.lists.flatMap((list) => (list.label ? [list.label.name] : []));
}

const ORDERED = { order_by: 'relative_position', sort: 'asc', per_page: COLUMN_PAGE_SIZE } as const;

export function boardColumns(board: Board): Column[] {
  const labels = boardLabels(board);
  const columns: Column[] = [];
  if (!board.hide_backlog_list) {
    columns.push({ key: 'open', title: 'Open', kind: 'open', orderable: true, filter: { ...ORDERED, state: 'opened', ...(labels.length ? { not: { labels } } : {}) } });
  }
  for (const list of board.lists) {
    if (!list.label && !list.assignee && !list.milestone) continue;
    const kind = listKind(list);
    const filter: Omit<IssueListParams, 'page'> = { ...ORDERED, state: 'opened' };
    if (list.label) filter.labels = [list.label.name];
    else if (list.assignee) filter.assignee_id = list.assignee.id;
    else if (list.milestone) filter.milestone = list.milestone.title;
    columns.push({ key: `list-${list.id}`, title: listTitle(list), kind, list, filter, orderable: true });
  }
  if (!board.hide_closed_list) {
    columns.push({ key: 'closed', title: 'Closed', kind: 'closed', orderable: false, filter: { order_by: 'updated_at', sort: 'desc', per_page: COLUMN_PAGE_SIZE, state: 'closed' } });
  }
  return columns;
}

/**
 * The one edit that moves `issue` from one column to another, as the platform's board does it:
 * a label list swaps its label for the target's (`remove_labels` and `add_labels` together),
 * Closed closes and drops the board's labels, leaving Closed reopens. Null when nothing changes.
 */
export function moveChanges(board: Board, from: Column, to: Column, issue: Pick<Issue, 'labels'> & { assignees: ReadonlyArray<{ id: number }> }): IssueChanges | null {
  if (from.key === to.key) return null;
  const has = new Set(labelNames(issue));
  const changes: IssueChanges = {};
  const remove = new Set<string>();
  const add = new Set<string>();
  if (to.kind === 'closed') {
    changes.state_event = 'close';
    for (const name of boardLabels(board)) if (has.has(name)) remove.add(name);
  } else {
    if (from.kind === 'closed') changes.state_event = 'reopen';
    if (from.kind === 'label' && from.list?.label) remove.add(from.list.label.name);
    if (to.kind === 'open') {
      // the backlog holds issues with none of the board's labels
      for (const name of boardLabels(board)) if (has.has(name)) remove.add(name);
    }
    if (to.kind === 'label' && to.list?.label) {
      add.add(to.list.label.name);
      remove.delete(to.list.label.name);
    }
    const assignees = issue.assignees.map((user) => user.id);
    if (to.kind === 'assignee' && to.list?.assignee) {
      const kept = from.kind === 'assignee' && from.list?.assignee ? assignees.filter((id) => id !== from.list!.assignee!.id) : assignees;
      changes.assignee_ids = [...new Set([...kept, to.list.assignee.id])];
    } else if (from.kind === 'assignee' && from.list?.assignee) {
      changes.assignee_ids = assignees.filter((id) => id !== from.list!.assignee!.id);
    }
    if (to.kind === 'milestone' && to.list?.milestone) changes.milestone_id = to.list.milestone.id;
    else if (from.kind === 'milestone') changes.milestone_id = null;
  }
  if (remove.size) changes.remove_labels = [...remove];
  if (add.size) changes.add_labels = [...add];
  return Object.keys(changes).length ? changes : null;
}

/**
 * The neighbours a card lands between when it is put at `index` of `items` (the column without
 * the card): the platform's reorder takes the issue that comes after and the one before. On a
 * group board only issues of the card's own project can be its neighbours.
 */
export function reorderNeighbours(items: readonly Pick<Issue, 'id' | 'project_id'>[], index: number, projectId: number): { before?: number; after?: number } | null {
  const previous = items.slice(0, index).reverse().find((item) => item.project_id === projectId);
  const next = items.slice(index).find((item) => item.project_id === projectId);
  if (!previous && !next) return null;
  return { ...(next ? { before: next.id } : {}), ...(previous ? { after: previous.id } : {}) };
}
