import type { Context } from 'hono';
import type { AppEnv, Sandbox, UserRow } from '../context.ts';
import { badRequest, notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { accessLevelOf, groupChain, groupDescendants } from '../model/access.ts';
import { userBasic } from '../model/entities.ts';
import { availableLabels, availableMilestones, groupLabels, labelBasic, milestoneEntity, type LabelRow, type MilestoneRow } from '../model/labels.ts';
import { actorOf } from '../model/merge-requests.ts';
import { timestamp } from '../model/time.ts';
import { requirePlanner, scopeOf, type Scope } from './labels.ts';

interface BoardRow {
  id: number;
  project_id: number | null;
  group_id: number | null;
  name: string;
  hide_backlog_list: number;
  hide_closed_list: number;
  created_at: string;
  updated_at: string;
}

interface ListRow {
  id: number;
  board_id: number;
  list_type: 'label' | 'assignee' | 'milestone';
  label_id: number | null;
  user_id: number | null;
  milestone_id: number | null;
  position: number;
}

const NAME_MAX = 255;

function boardOf(c: Context<AppEnv>, call: Call, scope: Scope): BoardRow {
  const raw = pathParam(c, 'board_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('board_id is invalid');
  const row = (scope.project
    ? call.sandbox.db.prepare('SELECT * FROM boards WHERE id = ? AND project_id = ?').get(Number(raw), scope.project.id)
    : call.sandbox.db.prepare('SELECT * FROM boards WHERE id = ? AND group_id = ?').get(Number(raw), scope.group!.id)) as BoardRow | undefined;
  if (!row) throw notFound('Board');
  return row;
}

function listOf(c: Context<AppEnv>, call: Call, board: BoardRow): ListRow {
  const raw = pathParam(c, 'list_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('list_id is invalid');
  const row = call.sandbox.db.prepare('SELECT * FROM board_lists WHERE id = ? AND board_id = ?').get(Number(raw), board.id) as ListRow | undefined;
  if (!row) throw notFound('List');
  return row;
}

function listsOf(sandbox: Sandbox, boardId: number): ListRow[] {
  return sandbox.db.prepare('SELECT * FROM board_lists WHERE board_id = ? ORDER BY position, id').all(boardId) as ListRow[];
}

function listEntity(call: Call, list: ListRow) {
  const { db } = call.sandbox;
  const label = list.label_id === null ? undefined : db.prepare('SELECT * FROM labels WHERE id = ?').get(list.label_id) as LabelRow | undefined;
  const user = list.user_id === null ? undefined : db.prepare('SELECT * FROM users WHERE id = ?').get(list.user_id) as UserRow | undefined;
  const milestone = list.milestone_id === null ? undefined : db.prepare('SELECT * FROM milestones WHERE id = ?').get(list.milestone_id) as MilestoneRow | undefined;
  return {
    id: list.id,
    label: label ? labelBasic(label) : null,
    position: list.position,
    list_type: list.list_type,
    assignee: user ? userBasic(call.sandbox, user) : null,
    milestone: milestone ? milestoneEntity(call.sandbox, milestone, call.now) : null,
    iteration: null,
    max_issue_count: 0,
    max_issue_weight: 0,
    limit_metric: null,
  };
}

function boardEntity(call: Call, scope: Scope, board: BoardRow) {
  const { sandbox } = call;
  const owner = scope.project
    ? {
      project: {
        id: scope.project.id,
        name: scope.project.name,
        path: scope.project.path,
        path_with_namespace: scope.project.path_with_namespace,
        http_url_to_repo: `${sandbox.config.externalUrl}/${scope.project.path_with_namespace}.git`,
        web_url: `${sandbox.config.externalUrl}/${scope.project.path_with_namespace}`,
      },
    }
    : { group: { id: scope.group!.id, name: scope.group!.name, web_url: `${sandbox.config.externalUrl}/groups/${scope.group!.full_path}` } };
  return {
    id: board.id,
    name: board.name,
    hide_backlog_list: Boolean(board.hide_backlog_list),
    hide_closed_list: Boolean(board.hide_closed_list),
    ...owner,
    milestone: null,
    assignee: null,
    labels: [],
    weight: null,
    lists: listsOf(sandbox, board.id).map((list) => listEntity(call, list)),
  };
}

/** Labels a board's lists may use: the project's (with its groups'), or the group's with its ancestors'. */
function boardLabels(call: Call, scope: Scope): LabelRow[] {
  return scope.project ? availableLabels(call.sandbox.db, scope.project) : groupLabels(call.sandbox.db, scope.group!, { ancestors: true, descendants: false });
}

function boardMilestones(call: Call, scope: Scope): MilestoneRow[] {
  if (scope.project) return availableMilestones(call.sandbox.db, scope.project);
  return call.sandbox.db.prepare('SELECT * FROM milestones WHERE group_id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(groupChain(call.sandbox.db, scope.group!.id))) as MilestoneRow[];
}

/**
 * A user may head an assignee list when they are a member of the board's project, or of its
 * group, an ancestor or a descendant group (the platform's Boards::UsersFinder: direct,
 * inherited and descendants), not merely someone who can read a public project.
 */
function assigneeAllowed(call: Call, scope: Scope, userId: number): boolean {
  const { db } = call.sandbox;
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(userId) as UserRow | undefined;
  if (!user) return false;
  const actor = actorOf(user);
  if (scope.project) return accessLevelOf(db, actor, { type: 'Project', id: scope.project.id }, call.now) > 0;
  return groupDescendants(db, scope.group!.id).some((groupId) => accessLevelOf(db, actor, { type: 'Namespace', id: groupId }, call.now) > 0);
}

/** Positions from 0 in the given order: the platform keeps them dense. */
function renumber(call: Call, ids: number[]): void {
  const update = call.sandbox.db.prepare('UPDATE board_lists SET position = ? WHERE id = ?');
  ids.forEach((id, index) => update.run(index, id));
}

/** Puts the list at `position` among the board's lists. */
function placeList(call: Call, board: BoardRow, listId: number, position: number): void {
  const ordered = listsOf(call.sandbox, board.id).filter((list) => list.id !== listId).map((list) => list.id);
  ordered.splice(Math.min(Math.max(position, 0), ordered.length), 0, listId);
  renumber(call, ordered);
}

function registerScope(routes: Router, kind: 'project' | 'group'): void {
  const base = kind === 'project' ? '/projects/:id/boards' : '/groups/:id/boards';
  const readScope = (c: Context<AppEnv>, call: Call) => scopeOf(c, call, kind);

  routes.get(base, { auth: 'public' }, (c, call) => {
    const scope = readScope(c, call);
    const rows = (scope.project
      ? call.sandbox.db.prepare('SELECT * FROM boards WHERE project_id = ? ORDER BY name COLLATE NOCASE, id').all(scope.project.id)
      : call.sandbox.db.prepare('SELECT * FROM boards WHERE group_id = ? ORDER BY name COLLATE NOCASE, id').all(scope.group!.id)) as BoardRow[];
    return c.json(pageOfArray(c, call.params, rows).map((row) => boardEntity(call, scope, row)));
  });

  routes.get(`${base}/:board_id`, { auth: 'public' }, (c, call) => {
    const scope = readScope(c, call);
    return c.json(boardEntity(call, scope, boardOf(c, call, scope)));
  });

  routes.post(base, {}, (c, call) => {
    let name = '';
    collectParamErrors([() => { name = call.params.requiredString('name'); }]);
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    if (name.length > NAME_MAX) throw validationError({ name: [`is too long (maximum is ${NAME_MAX} characters)`] });
    const stamp = timestamp(call.now);
    const id = Number(call.sandbox.db.prepare('INSERT INTO boards (project_id, group_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(scope.project?.id ?? null, scope.group?.id ?? null, name, stamp, stamp).lastInsertRowid);
    return c.json(boardEntity(call, scope, call.sandbox.db.prepare('SELECT * FROM boards WHERE id = ?').get(id) as BoardRow), 201);
  });

  routes.put(`${base}/:board_id`, {}, (c, call) => {
    const { params } = call;
    collectParamErrors([
      () => { if (params.has('name') && !params.string('name')!.trim()) throw paramError('name is empty'); },
      () => params.bool('hide_backlog_list'),
      () => params.bool('hide_closed_list'),
    ]);
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    const board = boardOf(c, call, scope);
    const name = params.string('name') ?? board.name;
    if (name.length > NAME_MAX) throw validationError({ name: [`is too long (maximum is ${NAME_MAX} characters)`] });
    const flag = (param: string, current: number) => { const value = params.bool(param); return value === undefined ? current : value ? 1 : 0; };
    call.sandbox.db.prepare('UPDATE boards SET name = ?, hide_backlog_list = ?, hide_closed_list = ?, updated_at = ? WHERE id = ?')
      .run(name, flag('hide_backlog_list', board.hide_backlog_list), flag('hide_closed_list', board.hide_closed_list), timestamp(call.now), board.id);
    return c.json(boardEntity(call, scope, boardOf(c, call, scope)));
  });

  routes.delete(`${base}/:board_id`, {}, (c, call) => {
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    const board = boardOf(c, call, scope);
    call.sandbox.db.prepare('DELETE FROM boards WHERE id = ?').run(board.id);
    return c.body(null, 204);
  });

  routes.get(`${base}/:board_id/lists`, { auth: 'public' }, (c, call) => {
    const scope = readScope(c, call);
    const board = boardOf(c, call, scope);
    return c.json(pageOfArray(c, call.params, listsOf(call.sandbox, board.id)).map((list) => listEntity(call, list)));
  });

  routes.get(`${base}/:board_id/lists/:list_id`, { auth: 'public' }, (c, call) => {
    const scope = readScope(c, call);
    return c.json(listEntity(call, listOf(c, call, boardOf(c, call, scope))));
  });

  routes.post(`${base}/:board_id/lists`, {}, (c, call) => {
    const { params } = call;
    collectParamErrors([() => params.int('label_id'), () => params.int('assignee_id'), () => params.int('milestone_id'), () => params.int('iteration_id')]);
    const given = (['label_id', 'assignee_id', 'milestone_id', 'iteration_id'] as const).filter((name) => params.int(name) !== undefined);
    if (given.length !== 1) throw paramError('label_id, assignee_id, milestone_id, iteration_id are missing, exactly one parameter must be provided');
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    const board = boardOf(c, call, scope);
    const { db } = call.sandbox;
    let column: 'label_id' | 'user_id' | 'milestone_id';
    let listType: ListRow['list_type'];
    const value = params.int(given[0])!;
    if (given[0] === 'label_id') {
      if (!boardLabels(call, scope).some((label) => label.id === value)) throw badRequest('Label not found!');
      [column, listType] = ['label_id', 'label'];
    } else if (given[0] === 'assignee_id') {
      if (!assigneeAllowed(call, scope, value)) throw badRequest('User not found!');
      [column, listType] = ['user_id', 'assignee'];
    } else if (given[0] === 'milestone_id') {
      if (!boardMilestones(call, scope).some((milestone) => milestone.id === value)) throw badRequest('Milestone not found!');
      [column, listType] = ['milestone_id', 'milestone'];
    } else {
      // iterations do not exist in the sandbox
      throw badRequest('Iteration not found!');
    }
    if (db.prepare(`SELECT 1 FROM board_lists WHERE board_id = ? AND ${column} = ?`).get(board.id, value)) throw validationError({ [listType]: ['has already been taken'] });
    const position = listsOf(call.sandbox, board.id).length;
    const id = Number(db.prepare(`INSERT INTO board_lists (board_id, list_type, ${column}, position) VALUES (?, ?, ?, ?)`).run(board.id, listType, value, position).lastInsertRowid);
    return c.json(listEntity(call, db.prepare('SELECT * FROM board_lists WHERE id = ?').get(id) as ListRow), 201);
  });

  routes.put(`${base}/:board_id/lists/:list_id`, {}, (c, call) => {
    let position = 0;
    collectParamErrors([() => { position = call.params.requiredInt('position', { min: 0 }); }]);
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    const board = boardOf(c, call, scope);
    const list = listOf(c, call, board);
    placeList(call, board, list.id, position);
    return c.json(listEntity(call, listOf(c, call, board)));
  });

  routes.delete(`${base}/:board_id/lists/:list_id`, {}, (c, call) => {
    const scope = readScope(c, call);
    requirePlanner(call, scope);
    const board = boardOf(c, call, scope);
    const list = listOf(c, call, board);
    call.sandbox.db.prepare('DELETE FROM board_lists WHERE id = ?').run(list.id);
    renumber(call, listsOf(call.sandbox, board.id).map((remaining) => remaining.id));
    return c.body(null, 204);
  });
}

export function registerBoards(routes: Router): void {
  registerScope(routes, 'project');
  registerScope(routes, 'group');
}
