import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray, pageOfQuery } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { groupChain, type ProjectRow } from '../model/access.ts';
import { readableIssueProjects } from '../model/issue-list.ts';
import type { IssueRow } from '../model/issues.ts';
import { insertMilestone, milestoneEntity, projectGroupChain, type MilestoneRow } from '../model/labels.ts';
import { likeContains } from '../model/sql.ts';
import { timestamp } from '../model/time.ts';
import { issueList } from './issues.ts';
import { requirePlanner, scopeOf, type Scope } from './labels.ts';

const TITLE_MAX = 255;

function findMilestone(c: Context<AppEnv>, call: Call, scope: Scope): MilestoneRow {
  const raw = pathParam(c, 'milestone_id');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('milestone_id is invalid');
  const row = (scope.project
    ? call.sandbox.db.prepare('SELECT * FROM milestones WHERE id = ? AND project_id = ?').get(Number(raw), scope.project.id)
    : call.sandbox.db.prepare('SELECT * FROM milestones WHERE id = ? AND group_id = ?').get(Number(raw), scope.group!.id)) as MilestoneRow | undefined;
  if (!row) throw notFound('Milestone');
  return row;
}

function dateErrors(start: string | null, due: string | null, title: string | undefined): void {
  const errors: Record<string, string[]> = {};
  if (title !== undefined && !title.trim()) errors.title = ["can't be blank"];
  else if (title !== undefined && title.length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`];
  if (start && due && due < start) errors.due_date = ['must be greater than start date'];
  if (Object.keys(errors).length) throw validationError(errors);
}

function titleTaken(call: Call, scope: Scope, title: string, exceptId: number | null): boolean {
  return Boolean(scope.project
    ? call.sandbox.db.prepare('SELECT 1 FROM milestones WHERE project_id = ? AND title = ? AND id IS NOT ?').get(scope.project.id, title, exceptId)
    : call.sandbox.db.prepare('SELECT 1 FROM milestones WHERE group_id = ? AND title = ? AND id IS NOT ?').get(scope.group!.id, title, exceptId));
}

function registerScope(routes: Router, kind: 'project' | 'group'): void {
  const base = kind === 'project' ? '/projects/:id/milestones' : '/groups/:id/milestones';

  routes.get(base, { auth: 'public' }, (c, call) => {
    const { params } = call;
    collectParamErrors([
      () => params.intArray('iids'),
      () => params.oneOf('state', ['active', 'closed'] as const),
      () => params.bool('include_ancestors'),
      () => params.bool('include_parent_milestones'),
      () => params.dateTime('updated_before'),
      () => params.dateTime('updated_after'),
    ]);
    const scope = scopeOf(c, call, kind);
    const sql: string[] = [];
    const args: unknown[] = [];
    const ancestors = params.bool('include_ancestors') ?? params.bool('include_parent_milestones') ?? false;
    const groups = scope.project ? (ancestors ? projectGroupChain(call.sandbox.db, scope.project) : []) : ancestors ? groupChain(call.sandbox.db, scope.group!.id) : [scope.group!.id];
    sql.push('(project_id = ? OR group_id IN (SELECT value FROM json_each(?)))');
    args.push(scope.project?.id ?? -1, JSON.stringify(groups));
    const iids = params.intArray('iids');
    if (iids?.length) {
      sql.push('iid IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(iids));
    }
    for (const [name, clause] of [['state', 'state = ?'], ['title', 'title = ?']] as const) {
      const value = params.string(name);
      if (value) {
        sql.push(clause);
        args.push(value);
      }
    }
    const search = params.string('search');
    if (search) {
      sql.push("(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
      args.push(likeContains(search), likeContains(search));
    }
    for (const [name, op] of [['updated_before', '<='], ['updated_after', '>=']] as const) {
      const value = params.dateTime(name);
      if (value) {
        sql.push(`updated_at ${op} ?`);
        args.push(value);
      }
    }
    const where = sql.join(' AND ');
    const { db } = call.sandbox;
    const rows = pageOfQuery(c, params, {
      count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM milestones WHERE ${where} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
      rows: (limit, offset) => db.prepare(`SELECT * FROM milestones WHERE ${where} ORDER BY due_date IS NULL, due_date, title, id LIMIT ? OFFSET ?`).all(...args, limit, offset) as MilestoneRow[],
    });
    return c.json(rows.map((row) => milestoneEntity(call.sandbox, row, call.now)));
  });

  routes.get(`${base}/:milestone_id`, { auth: 'public' }, (c, call) => {
    const scope = scopeOf(c, call, kind);
    return c.json(milestoneEntity(call.sandbox, findMilestone(c, call, scope), call.now));
  });

  routes.post(base, {}, (c, call) => {
    const { params } = call;
    let title = '';
    collectParamErrors([
      () => { title = params.requiredString('title'); },
      () => params.string('description'),
      () => params.date('due_date'),
      () => params.date('start_date'),
    ]);
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const start = params.date('start_date') ?? null;
    const due = params.date('due_date') ?? null;
    dateErrors(start, due, title);
    if (titleTaken(call, scope, title, null)) throw validationError({ title: ['already being used for another group or project milestone.'] });
    const row = insertMilestone(call.sandbox.db, scope.project ? { projectId: scope.project.id } : { groupId: scope.group!.id },
      { title, description: params.string('description'), startDate: start, dueDate: due }, timestamp(call.now));
    return c.json(milestoneEntity(call.sandbox, row, call.now), 201);
  });

  routes.put(`${base}/:milestone_id`, {}, (c, call) => {
    const { params } = call;
    let stateEvent: 'close' | 'activate' | undefined;
    collectParamErrors([
      () => params.string('title'),
      () => params.string('description'),
      () => params.date('due_date'),
      () => params.date('start_date'),
      () => { stateEvent = params.oneOf('state_event', ['close', 'activate'] as const); },
    ]);
    if (!['title', 'description', 'due_date', 'start_date', 'state_event'].some((name) => params.raw[name] !== undefined)) {
      throw paramError('title, description, due_date, start_date, state_event are missing, at least one parameter must be provided');
    }
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const row = findMilestone(c, call, scope);
    const title = params.string('title');
    const start = params.raw.start_date !== undefined ? params.date('start_date') ?? null : row.start_date;
    const due = params.raw.due_date !== undefined ? params.date('due_date') ?? null : row.due_date;
    dateErrors(start, due, title);
    if (title !== undefined && titleTaken(call, scope, title, row.id)) throw validationError({ title: ['already being used for another group or project milestone.'] });
    const state = stateEvent === 'close' ? 'closed' : stateEvent === 'activate' ? 'active' : row.state;
    call.sandbox.db.prepare('UPDATE milestones SET title = ?, description = ?, start_date = ?, due_date = ?, state = ?, updated_at = ? WHERE id = ?')
      .run(title ?? row.title, params.string('description') ?? row.description, start, due, state, timestamp(call.now), row.id);
    return c.json(milestoneEntity(call.sandbox, call.sandbox.db.prepare('SELECT * FROM milestones WHERE id = ?').get(row.id) as MilestoneRow, call.now));
  });

  routes.delete(`${base}/:milestone_id`, {}, (c, call) => {
    const scope = scopeOf(c, call, kind);
    requirePlanner(call, scope);
    const row = findMilestone(c, call, scope);
    call.sandbox.db.prepare('DELETE FROM milestones WHERE id = ?').run(row.id);
    return c.body(null, 204);
  });

  // the issues of a milestone the caller may see, confidential ones to those allowed
  routes.get(`${base}/:milestone_id/issues`, { auth: 'public' }, (c, call) => {
    const scope = scopeOf(c, call, kind);
    const row = findMilestone(c, call, scope);
    const { db } = call.sandbox;
    const candidates = db.prepare('SELECT * FROM projects WHERE id IN (SELECT DISTINCT project_id FROM issues WHERE milestone_id = ?)').all(row.id) as ProjectRow[];
    const readable = readableIssueProjects(db, call.actor, candidates, call.now, false);
    const me = call.actor.user?.id ?? -1;
    const issues = db.prepare(
      `SELECT i.* FROM issues i WHERE i.milestone_id = ? AND i.project_id IN (SELECT value FROM json_each(?))
         AND (i.confidential = 0 OR i.project_id IN (SELECT value FROM json_each(?)) OR i.author_id = ? OR EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ?))
       ORDER BY i.relative_position NULLS LAST, i.id`,
    ).all(row.id, JSON.stringify(readable.ids), JSON.stringify(readable.confidential), me, me) as IssueRow[];
    return c.json(issueList(call, pageOfArray(c, call.params, issues), scope.project ?? null));
  });

  // merge requests carry no milestone in the sandbox, so a milestone has none
  routes.get(`${base}/:milestone_id/merge_requests`, { auth: 'public' }, (c, call) => {
    const scope = scopeOf(c, call, kind);
    findMilestone(c, call, scope);
    return c.json(pageOfArray(c, call.params, []));
  });
}

export function registerMilestones(routes: Router): void {
  registerScope(routes, 'project');
  registerScope(routes, 'group');
}
