import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { HttpError, badRequest, forbidden, notFound, paramError, unauthorized, validationError } from '../http/errors.ts';
import { pageOfArray, pageOfQuery, pageRequest, setKeysetNext } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, findReadableGroup, findReadableProject, groupDescendants, type ProjectRow } from '../model/access.ts';
import { userBasic } from '../model/entities.ts';
import {
  ISSUE_DESCRIPTION_MAX, ISSUE_TITLE_MAX, ISSUE_TYPES, POSITION_GAP, canAdminIssues, canReadConfidential, canReadIssues, canUpdateIssue,
  findIssue, isSubscribed, issueEntity, loadIssueRelations, nextIssueIid, parseDuration, positionAtEnd, projectRole,
  rebalancePositions, recordIssueChanges, setIssueAssignees, setIssueLabels, snapshotIssue, systemNote, timeStats, type IssueRow,
} from '../model/issues.ts';
import { issueListFilter, orderClause, readableIssueProjects } from '../model/issue-list.ts';
import { availableLabels, availableMilestones, findLabelByName, labelBasic, milestoneEntity, resolveLabels, setSubscription, type LabelRow, type MilestoneRow } from '../model/labels.ts';
import { actorOf } from '../model/merge-requests.ts';
import { timestamp } from '../model/time.ts';

// the attributes of which an edit needs one (spec 2, 4.1), plus those the platform also accepts alone
const UPDATE_ATTRIBUTES = [
  'assignee_id', 'assignee_ids', 'confidential', 'created_at', 'description', 'discussion_locked', 'due_date', 'issue_type', 'labels',
  'milestone_id', 'state_event', 'title', 'add_labels', 'remove_labels', 'updated_at', 'weight', 'epic_id', 'epic_iid',
] as const;

/** The project whose issues the caller reads: 404 when hidden, 403 when its issues are not for the caller. */
export function issueProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  if (!canReadIssues(call.sandbox.db, call.actor, project, call.now)) throw forbidden();
  return project;
}

function iidParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'issue_iid');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('issue_iid is invalid');
  return Number(raw);
}

/** The issue of the path; confidential ones are 404 to those who may not see them. */
export function issueOf(c: Context<AppEnv>, call: Call, project: ProjectRow): IssueRow {
  const row = findIssue(call.sandbox.db, project.id, iidParam(c));
  if (!row || !canReadConfidential(call.sandbox.db, call.actor, project, row, call.now)) throw notFound('Issue');
  return row;
}

/** One issue as the single-issue endpoints answer it (with `subscribed`). */
export function issueAnswer(call: Call, project: ProjectRow, row: IssueRow) {
  return issueEntity({
    sandbox: call.sandbox, relations: loadIssueRelations(call.sandbox.db, [row]), viewedFrom: project, withLabelsDetails: false,
    now: call.now, subscribedFor: call.actor.user?.id ?? null,
  }, row);
}

export function issueList(call: Call, rows: IssueRow[], viewedFrom: ProjectRow | null) {
  const relations = loadIssueRelations(call.sandbox.db, rows);
  const withLabelsDetails = call.params.bool('with_labels_details') ?? false;
  return rows.map((row) => issueEntity({ sandbox: call.sandbox, relations, viewedFrom, withLabelsDetails, now: call.now }, row));
}

const reload = (call: Call, id: number) => call.sandbox.db.prepare('SELECT * FROM issues WHERE id = ?').get(id) as IssueRow;

// -- lists

type ListScope = { kind: 'instance' } | { kind: 'group'; groupIds: number[] } | { kind: 'project'; project: ProjectRow };

function listScope(c: Context<AppEnv>, call: Call, kind: ListScope['kind']): ListScope {
  if (kind === 'project') return { kind, project: issueProject(c, call) };
  if (kind === 'group') return { kind, groupIds: groupDescendants(call.sandbox.db, findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now).id) };
  return { kind };
}

function filterFor(call: Call, scope: ListScope, ignoreState = false) {
  const { db } = call.sandbox;
  const candidates = scope.kind === 'project'
    ? [scope.project]
    : scope.kind === 'group'
      ? db.prepare('SELECT * FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(scope.groupIds)) as ProjectRow[]
      : db.prepare('SELECT * FROM projects WHERE id IN (SELECT DISTINCT project_id FROM issues)').all() as ProjectRow[];
  const nonArchived = scope.kind === 'project' ? false : call.params.bool('non_archived') ?? true;
  const readable = readableIssueProjects(db, call.actor, candidates, call.now, nonArchived);
  return issueListFilter({
    db, actor: call.actor, params: call.params, now: call.now, scopeDefault: scope.kind === 'instance' ? 'created_by_me' : 'all',
    projectIds: readable.ids, confidentialProjectIds: readable.confidential, ignoreState,
  });
}

const KEYSET_ORDERS = new Set(['created_at', 'updated_at']);

function listAnswer(c: Context<AppEnv>, call: Call, scope: ListScope) {
  const { db } = call.sandbox;
  const filter = filterFor(call, scope);
  const viewedFrom = scope.kind === 'project' ? scope.project : null;
  if (scope.kind === 'project' && call.params.string('pagination') === 'keyset') {
    // keyset pages of a project's issues, on the creation or update time (the platform's cursor)
    if (!KEYSET_ORDERS.has(filter.orderBy)) throw new HttpError(405, { error: 'Keyset pagination is not yet available for this type of request' });
    const { perPage } = pageRequest(call.params);
    const column = `i.${filter.orderBy}`;
    const cursor = call.params.string('cursor');
    const sql = [...filter.sql];
    const args = [...filter.args];
    if (cursor) {
      let decoded: { value?: unknown; id?: unknown } | null;
      try {
        decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        throw paramError('cursor is invalid');
      }
      if (typeof decoded?.value !== 'string' || typeof decoded.id !== 'number') throw paramError('cursor is invalid');
      const op = filter.sort === 'asc' ? '>' : '<';
      sql.push(`(${column} ${op} ? OR (${column} = ? AND i.id ${op} ?))`);
      args.push(decoded.value, decoded.value, decoded.id);
    }
    const rows = db.prepare(`SELECT i.* FROM issues i WHERE ${sql.join(' AND ')} ORDER BY ${column} ${filter.sort.toUpperCase()}, i.id ${filter.sort.toUpperCase()} LIMIT ?`)
      .all(...args, perPage + 1) as IssueRow[];
    const page = rows.slice(0, perPage);
    if (rows.length > perPage) {
      const last = page[page.length - 1];
      const value = filter.orderBy === 'created_at' ? last.created_at : last.updated_at;
      setKeysetNext(c, { cursor: Buffer.from(JSON.stringify({ value, id: last.id })).toString('base64url'), pagination: 'keyset', per_page: perPage });
    }
    return c.json(issueList(call, page, viewedFrom));
  }
  const where = filter.sql.join(' AND ');
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM issues i WHERE ${where} LIMIT ?)`).get(...filter.args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT i.* FROM issues i WHERE ${where} ORDER BY ${orderClause(filter.orderBy, filter.sort)} LIMIT ? OFFSET ?`)
      .all(...filter.args, limit, offset) as IssueRow[],
  });
  return c.json(issueList(call, rows, viewedFrom));
}

function statisticsAnswer(c: Context<AppEnv>, call: Call, scope: ListScope) {
  const filter = filterFor(call, scope, true);
  const counts = call.sandbox.db.prepare(
    `SELECT count(*) AS total, coalesce(sum(i.state = 'opened'), 0) AS opened, coalesce(sum(i.state = 'closed'), 0) AS closed FROM issues i WHERE ${filter.sql.join(' AND ')}`,
  ).get(...filter.args) as { total: number; opened: number; closed: number };
  return c.json({ statistics: { counts: { all: counts.total, closed: counts.closed, opened: counts.opened } } });
}

// -- writes

function lengthErrors(title: string | undefined, description: string | undefined): void {
  const errors: Record<string, string[]> = {};
  if (title !== undefined && !title.trim()) errors.title = ["can't be blank"];
  else if (title !== undefined && title.length > ISSUE_TITLE_MAX) errors.title = [`is too long (maximum is ${ISSUE_TITLE_MAX} characters)`];
  if (description !== undefined && description.length > ISSUE_DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${ISSUE_DESCRIPTION_MAX} characters)`];
  if (Object.keys(errors).length) throw validationError(errors);
}

/** Users who may be assigned: those who can read the project's issues; others are dropped, as the platform does. */
function assignable(call: Call, project: ProjectRow, ids: readonly number[]): number[] {
  const kept: number[] = [];
  for (const id of [...new Set(ids)].filter((value) => value > 0)) {
    const user = call.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    if (user && canReadIssues(call.sandbox.db, actorOf(user), project, call.now)) kept.push(id);
  }
  return kept;
}

function milestoneFor(call: Call, project: ProjectRow, id: number | undefined | null): number | null | undefined {
  if (id === undefined) return undefined;
  if (id === null || id === 0) return null;
  // a milestone of another project or group is ignored, as the platform's service drops it
  return availableMilestones(call.sandbox.db, project).some((milestone) => milestone.id === id) ? id : undefined;
}

function commonChecks(call: Call): Array<() => void> {
  const { params } = call;
  return [
    () => params.string('description'),
    () => params.bool('confidential'),
    () => params.bool('discussion_locked'),
    () => params.int('assignee_id'),
    () => params.intArray('assignee_ids'),
    () => params.stringArray('labels'),
    () => params.stringArray('add_labels'),
    () => params.stringArray('remove_labels'),
    () => params.date('due_date'),
    () => params.oneOf('issue_type', ISSUE_TYPES),
    () => params.int('weight', { min: 0 }),
    () => params.int('epic_id', { min: 0 }),
    () => params.int('epic_iid', { min: 0 }),
    () => { if (params.raw.milestone_id !== '' && params.raw.milestone_id !== null) params.int('milestone_id'); },
  ];
}

/** created_at and updated_at are the administrator's or the project owner's (spec 2, 5). */
function requireOwnerFor(call: Call, project: ProjectRow, name: 'created_at' | 'updated_at'): string | undefined {
  if (call.params.raw[name] === undefined) return undefined;
  if (call.params.raw[name] === null || call.params.raw[name] === '') throw paramError(`${name} is empty`);
  const value = call.params.dateTime(name)!;
  if (projectRole(call.sandbox.db, call.actor, project, call.now) < AccessLevel.OWNER) throw forbidden();
  return value;
}

function createIssue(call: Call, project: ProjectRow): IssueRow {
  const { params } = call;
  const { db } = call.sandbox;
  let title = '';
  collectParamErrors([() => { title = params.requiredString('title'); }, () => params.int('iid', { min: 1 }), ...commonChecks(call)]);
  const description = params.string('description');
  lengthErrors(title, description);
  const createdAt = requireOwnerFor(call, project, 'created_at') ?? timestamp(call.now);
  const stamp = timestamp(call.now);
  const admin = canAdminIssues(db, call.actor, project, call.now);
  let iid = nextIssueIid(db, project.id);
  const wantedIid = params.int('iid', { min: 1 });
  if (wantedIid !== undefined) {
    if (projectRole(db, call.actor, project, call.now) < AccessLevel.OWNER) throw forbidden();
    if (findIssue(db, project.id, wantedIid)) throw validationError({ iid: ['has already been taken'] });
    iid = wantedIid;
    db.prepare('UPDATE issue_iids SET last_iid = max(last_iid, ?) WHERE project_id = ?').run(wantedIid, project.id);
  }
  const id = Number(db.prepare(
    `INSERT INTO issues (iid, project_id, title, description, issue_type, author_id, milestone_id, confidential, discussion_locked, due_date, weight,
       relative_position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`,
  ).run(
    iid, project.id, title, description ?? null, params.string('issue_type') || 'issue', call.actor.user!.id,
    admin ? milestoneFor(call, project, params.int('milestone_id')) ?? null : null, params.bool('confidential') ? 1 : 0,
    admin ? params.date('due_date') ?? null : null, params.int('weight') ?? null, positionAtEnd(db, project.id), createdAt, createdAt,
  ).lastInsertRowid);
  const created = reload(call, id);
  if (admin) {
    const before = snapshotIssue(db, { ...created, milestone_id: null, due_date: null });
    setIssueLabels(db, id, resolveLabels(db, project, params.stringArray('labels') ?? [], stamp, true).map((label) => label.id));
    const ids = params.has('assignee_ids') ? params.intArray('assignee_ids')! : params.int('assignee_id') ? [params.int('assignee_id')!] : [];
    setIssueAssignees(db, id, assignable(call, project, ids));
    const after = snapshotIssue(db, created);
    // labels and milestone given at creation are events of the creation, as on the platform; assignments are not notes
    recordIssueChanges(db, { ...before, assigneeIds: after.assigneeIds }, { ...after, row: { ...created, due_date: null } }, call.actor.user!.id, createdAt);
  }
  db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(stamp, project.id);
  return reload(call, id);
}

function updateIssue(call: Call, project: ProjectRow, current: IssueRow): IssueRow {
  const { params } = call;
  const { db } = call.sandbox;
  let stateEvent: 'close' | 'reopen' | undefined;
  collectParamErrors([
    () => { if (params.has('title') && !params.string('title')!.trim()) throw paramError('title is empty'); },
    () => { stateEvent = params.oneOf('state_event', ['close', 'reopen'] as const); },
    ...commonChecks(call),
  ]);
  if (!UPDATE_ATTRIBUTES.some((name) => params.raw[name] !== undefined && params.raw[name] !== null)) {
    throw paramError(`${UPDATE_ATTRIBUTES.slice(0, 12).join(', ')} are missing, at least one parameter must be provided`);
  }
  if (!canUpdateIssue(db, call.actor, project, current, call.now)) throw forbidden();
  const title = params.string('title');
  const description = params.string('description');
  lengthErrors(title, description);
  const createdAt = requireOwnerFor(call, project, 'created_at');
  const updatedAt = requireOwnerFor(call, project, 'updated_at');
  const stamp = timestamp(call.now);
  const me = call.actor.user!.id;
  const admin = canAdminIssues(db, call.actor, project, call.now);
  const before = snapshotIssue(db, current);
  const next: IssueRow = { ...current };
  if (title !== undefined) next.title = title;
  if (description !== undefined) next.description = description;
  if (createdAt) next.created_at = createdAt;
  if (params.has('issue_type')) next.issue_type = params.string('issue_type') || current.issue_type;
  if (params.has('weight')) next.weight = params.int('weight') ?? null;
  let labelIds = before.labelIds;
  let assigneeIds = before.assigneeIds;
  if (admin) {
    if (params.has('confidential')) next.confidential = params.bool('confidential') ? 1 : 0;
    if (params.has('discussion_locked')) next.discussion_locked = params.bool('discussion_locked') ? 1 : 0;
    if (params.raw.due_date !== undefined) next.due_date = params.date('due_date') ?? null;
    if (params.raw.milestone_id !== undefined) {
      const milestone = milestoneFor(call, project, params.raw.milestone_id === '' || params.raw.milestone_id === null ? 0 : params.int('milestone_id'));
      if (milestone !== undefined) next.milestone_id = milestone;
    }
    if (params.has('labels')) labelIds = resolveLabels(db, project, params.stringArray('labels')!, stamp, true).map((label) => label.id);
    const added = params.stringArray('add_labels');
    const removed = params.stringArray('remove_labels');
    if (added || removed) {
      const drop = new Set(resolveLabels(db, project, removed ?? [], stamp, false).map((label) => label.id));
      const add = resolveLabels(db, project, added ?? [], stamp, true).map((label) => label.id);
      labelIds = [...new Set([...labelIds, ...add])].filter((id) => !drop.has(id));
    }
    if (params.has('assignee_ids')) assigneeIds = assignable(call, project, params.intArray('assignee_ids')!);
    else if (params.raw.assignee_id !== undefined) assigneeIds = assignable(call, project, params.int('assignee_id') ? [params.int('assignee_id')!] : []);
  }
  if (stateEvent === 'close' && current.state === 'opened') {
    next.state = 'closed';
    next.closed_at = stamp;
    next.closed_by_id = me;
  } else if (stateEvent === 'reopen' && current.state === 'closed') {
    next.state = 'opened';
    next.closed_at = null;
    next.closed_by_id = null;
  }
  if ((title !== undefined && title !== current.title) || (description !== undefined && description !== current.description)) {
    next.last_edited_at = stamp;
    next.last_edited_by_id = me;
  }
  setIssueLabels(db, current.id, labelIds);
  setIssueAssignees(db, current.id, assigneeIds);
  const changed = JSON.stringify(next) !== JSON.stringify(current) || JSON.stringify([...labelIds].sort()) !== JSON.stringify(before.labelIds)
    || JSON.stringify(assigneeIds) !== JSON.stringify(before.assigneeIds);
  if (changed || updatedAt) {
    next.updated_at = updatedAt ?? stamp;
    next.updated_by_id = me;
  }
  db.prepare(
    `UPDATE issues SET title = ?, description = ?, state = ?, issue_type = ?, milestone_id = ?, confidential = ?, discussion_locked = ?, due_date = ?,
       weight = ?, closed_at = ?, closed_by_id = ?, updated_by_id = ?, last_edited_at = ?, last_edited_by_id = ?, created_at = ?, updated_at = ? WHERE id = ?`,
  ).run(
    next.title, next.description, next.state, next.issue_type, next.milestone_id, next.confidential, next.discussion_locked, next.due_date,
    next.weight, next.closed_at, next.closed_by_id, next.updated_by_id, next.last_edited_at, next.last_edited_by_id, next.created_at, next.updated_at, next.id,
  );
  const row = reload(call, current.id);
  recordIssueChanges(db, before, snapshotIssue(db, row), me, stamp);
  return row;
}

/** Places the issue between two others (move_before_id precedes it, move_after_id follows it). */
function reorder(call: Call, project: ProjectRow, issue: IssueRow): void {
  const { db } = call.sandbox;
  const { params } = call;
  collectParamErrors([() => params.int('move_after_id'), () => params.int('move_before_id')]);
  const neighbour = (name: string) => {
    const id = params.int(name);
    if (id === undefined) return null;
    const row = db.prepare('SELECT * FROM issues WHERE id = ?').get(id) as IssueRow | undefined;
    if (!row || row.project_id !== project.id) throw new HttpError(400, { error: 'Issue could not be reordered' });
    return row;
  };
  let before = neighbour('move_before_id');
  let after = neighbour('move_after_id');
  if (!before && !after) throw new HttpError(400, { error: 'Issue could not be reordered' });
  const place = () => {
    before = before && reload(call, before.id);
    after = after && reload(call, after.id);
    const low = before?.relative_position ?? null;
    const high = after?.relative_position ?? null;
    if (low !== null && high !== null) return high - low >= 2 ? Math.floor((low + high) / 2) : null;
    if (low !== null) return low + POSITION_GAP;
    if (high !== null) return high - POSITION_GAP;
    return null;
  };
  // neighbours without a position get one at the end first
  for (const row of [before, after]) {
    if (row && row.relative_position === null) db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?').run(positionAtEnd(db, project.id), row.id);
  }
  let position = place();
  if (position === null) {
    rebalancePositions(db, project.id);
    position = place();
  }
  db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?').run(position, issue.id);
}

function targetProject(call: Call): ProjectRow {
  let targetId = 0;
  collectParamErrors([() => { targetId = call.params.requiredInt('to_project_id'); }, () => call.params.bool('with_notes')]);
  const target = call.sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(targetId) as ProjectRow | undefined;
  if (!target) throw notFound('Project');
  return target;
}

/** Copies an issue into `target` (move and clone): labels and milestone matched by name, notes when asked. */
function copyIssue(call: Call, target: ProjectRow, issue: IssueRow, options: { notes: boolean; assignees: boolean; awards: boolean }): IssueRow {
  const { db } = call.sandbox;
  const stamp = timestamp(call.now);
  const relations = loadIssueRelations(db, [issue]);
  const labels = availableLabels(db, target);
  const labelIds = (relations.labels.get(issue.id) ?? []).map((label) => findLabelByName(labels, label.title)?.id).filter((id): id is number => id !== undefined);
  const oldMilestone = issue.milestone_id === null ? undefined : relations.milestones.get(issue.milestone_id);
  const milestone = oldMilestone ? availableMilestones(db, target).find((candidate) => candidate.title === oldMilestone.title) : undefined;
  const iid = nextIssueIid(db, target.id);
  const id = Number(db.prepare(
    `INSERT INTO issues (iid, project_id, title, description, issue_type, author_id, milestone_id, confidential, discussion_locked, due_date, weight,
       health_status, relative_position, time_estimate, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    iid, target.id, issue.title, issue.description, issue.issue_type, options.assignees ? issue.author_id : call.actor.user!.id, milestone?.id ?? null,
    issue.confidential, issue.discussion_locked, issue.due_date, issue.weight, issue.health_status, positionAtEnd(db, target.id), issue.time_estimate,
    options.assignees ? issue.created_at : stamp, stamp,
  ).lastInsertRowid);
  setIssueLabels(db, id, labelIds);
  if (options.assignees) setIssueAssignees(db, id, assignable(call, target, (relations.assignees.get(issue.id) ?? []).map((user) => user.id)));
  if (options.notes) {
    const notes = db.prepare("SELECT * FROM notes WHERE noteable_type = 'Issue' AND noteable_id = ? ORDER BY id").all(issue.id) as Array<{ author_id: number; body: string; system: number; internal: number; created_at: string; updated_at: string }>;
    for (const note of notes) {
      db.prepare('INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run('Issue', id, target.id, note.author_id, note.body, note.system, note.internal, note.created_at, note.updated_at);
    }
  }
  if (options.awards) {
    db.prepare(`INSERT INTO award_emoji (name, user_id, awardable_type, awardable_id, created_at, updated_at)
      SELECT name, user_id, 'Issue', ?, created_at, updated_at FROM award_emoji WHERE awardable_type = 'Issue' AND awardable_id = ?`).run(id, issue.id);
    db.prepare('INSERT INTO timelogs (issue_id, user_id, time_spent, summary, created_at) SELECT ?, user_id, time_spent, summary, created_at FROM timelogs WHERE issue_id = ?').run(id, issue.id);
  }
  return reload(call, id);
}

function reference(from: ProjectRow, to: ProjectRow, iid: number): string {
  return from.id === to.id ? `#${iid}` : `${to.path_with_namespace}#${iid}`;
}

function requireUser(call: Call): UserRow {
  if (!call.actor.user) throw unauthorized();
  return call.actor.user;
}

// -- time tracking

function timeStatsAnswer(call: Call, issue: IssueRow) {
  const spent = (call.sandbox.db.prepare('SELECT coalesce(sum(time_spent), 0) AS s FROM timelogs WHERE issue_id = ?').get(issue.id) as { s: number }).s;
  return timeStats(issue, spent);
}

function durationParam(call: Call): number {
  let text = '';
  collectParamErrors([() => { text = call.params.requiredString('duration'); }, () => call.params.string('summary')]);
  const seconds = parseDuration(text);
  if (seconds === null) throw badRequest('Invalid time duration');
  return seconds;
}

// -- resource events

const EVENT_TABLES = {
  resource_label_events: 'resource_label_events',
  resource_state_events: 'resource_state_events',
  resource_milestone_events: 'resource_milestone_events',
} as const;

function eventEntity(call: Call, table: keyof typeof EVENT_TABLES, row: Record<string, any>) {
  const { db } = call.sandbox;
  const user = row.user_id === null ? null : db.prepare('SELECT * FROM users WHERE id = ?').get(row.user_id) as UserRow | undefined;
  const base = { id: row.id, user: user ? userBasic(call.sandbox, user) : null, created_at: row.created_at, resource_type: 'Issue', resource_id: row.issue_id };
  if (table === 'resource_label_events') {
    const label = row.label_id === null ? undefined : db.prepare('SELECT * FROM labels WHERE id = ?').get(row.label_id) as LabelRow | undefined;
    return { ...base, label: label ? labelBasic(label) : null, action: row.action };
  }
  if (table === 'resource_state_events') return { ...base, state: row.state };
  const milestone = row.milestone_id === null ? undefined : db.prepare('SELECT * FROM milestones WHERE id = ?').get(row.milestone_id) as MilestoneRow | undefined;
  return { ...base, milestone: milestone ? milestoneEntity(call.sandbox, milestone, call.now) : null, action: row.action, state: row.state };
}

export function registerIssues(routes: Router): void {
  routes.get('/issues', { auth: 'public' }, (c, call) => {
    if (!call.actor.user && call.params.string('scope') !== 'all') throw unauthorized();
    return listAnswer(c, call, listScope(c, call, 'instance'));
  });
  routes.get('/groups/:id/issues', { auth: 'public' }, (c, call) => listAnswer(c, call, listScope(c, call, 'group')));
  routes.get('/projects/:id/issues', { auth: 'public' }, (c, call) => listAnswer(c, call, listScope(c, call, 'project')));
  routes.get('/issues_statistics', {}, (c, call) => statisticsAnswer(c, call, listScope(c, call, 'instance')));
  routes.get('/groups/:id/issues_statistics', { auth: 'public' }, (c, call) => statisticsAnswer(c, call, listScope(c, call, 'group')));
  routes.get('/projects/:id/issues_statistics', { auth: 'public' }, (c, call) => statisticsAnswer(c, call, listScope(c, call, 'project')));

  // an issue by its global id: administrators only, as on the platform
  routes.get('/issues/:issue_id', { auth: 'admin' }, (c, call) => {
    const raw = pathParam(c, 'issue_id');
    if (!/^\d{1,15}$/.test(raw)) throw paramError('id is invalid');
    const row = call.sandbox.db.prepare('SELECT * FROM issues WHERE id = ?').get(Number(raw)) as IssueRow | undefined;
    if (!row) throw notFound('Issue');
    const project = call.sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(row.project_id) as ProjectRow;
    return c.json(issueAnswer(call, project, row));
  });

  routes.get('/projects/:id/issues/:issue_iid', { auth: 'public' }, (c, call) => {
    const project = issueProject(c, call);
    return c.json(issueAnswer(call, project, issueOf(c, call, project)));
  });

  routes.post('/projects/:id/issues', {}, (c, call) => {
    const project = issueProject(c, call);
    if (project.archived) throw forbidden();
    return c.json(issueAnswer(call, project, createIssue(call, project)), 201);
  });

  routes.put('/projects/:id/issues/:issue_iid', {}, (c, call) => {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    return c.json(issueAnswer(call, project, updateIssue(call, project, issue)));
  });

  routes.delete('/projects/:id/issues/:issue_iid', {}, (c, call) => {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    // spec 2, 4.1: administrators and project owners
    if (projectRole(call.sandbox.db, call.actor, project, call.now) < AccessLevel.OWNER) throw forbidden();
    call.sandbox.db.prepare("DELETE FROM notes WHERE noteable_type = 'Issue' AND noteable_id = ?").run(issue.id);
    call.sandbox.db.prepare("DELETE FROM award_emoji WHERE awardable_type = 'Issue' AND awardable_id = ?").run(issue.id);
    call.sandbox.db.prepare('DELETE FROM issues WHERE id = ?').run(issue.id);
    return c.body(null, 204);
  });

  routes.put('/projects/:id/issues/:issue_iid/reorder', {}, (c, call) => {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    if (!canUpdateIssue(call.sandbox.db, call.actor, project, issue, call.now)) throw forbidden();
    reorder(call, project, issue);
    return c.json(issueAnswer(call, project, reload(call, issue.id)));
  });

  routes.post('/projects/:id/issues/:issue_iid/move', {}, (c, call) => {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    const target = targetProject(call);
    const { db } = call.sandbox;
    if (target.id === project.id) throw badRequest('Cannot move issue to project it originates from!');
    if (!canAdminIssues(db, call.actor, project, call.now) || !canAdminIssues(db, call.actor, target, call.now) || !canReadIssues(db, call.actor, target, call.now)) {
      throw badRequest('Cannot move issue due to insufficient permissions!');
    }
    if (issue.moved_to_id !== null) throw badRequest('Cannot move issue which was already moved');
    const stamp = timestamp(call.now);
    const me = requireUser(call).id;
    const moved = copyIssue(call, target, issue, { notes: true, assignees: true, awards: true });
    systemNote(db, moved, me, `moved from ${reference(target, project, issue.iid)}`, stamp);
    const before = snapshotIssue(db, issue);
    db.prepare("UPDATE issues SET state = 'closed', closed_at = coalesce(closed_at, ?), closed_by_id = coalesce(closed_by_id, ?), moved_to_id = ?, updated_at = ? WHERE id = ?")
      .run(stamp, me, moved.id, stamp, issue.id);
    recordIssueChanges(db, before, snapshotIssue(db, reload(call, issue.id)), me, stamp);
    systemNote(db, issue, me, `moved to ${reference(project, target, moved.iid)}`, stamp);
    return c.json(issueAnswer(call, target, moved), 201);
  });

  routes.post('/projects/:id/issues/:issue_iid/clone', {}, (c, call) => {
    const project = issueProject(c, call);
    const issue = issueOf(c, call, project);
    const target = targetProject(call);
    const { db } = call.sandbox;
    if (!canAdminIssues(db, call.actor, project, call.now) || !canAdminIssues(db, call.actor, target, call.now) || !canReadIssues(db, call.actor, target, call.now)) {
      throw badRequest('Cannot clone issue due to insufficient permissions!');
    }
    const stamp = timestamp(call.now);
    const me = requireUser(call).id;
    const cloned = copyIssue(call, target, issue, { notes: call.params.bool('with_notes') ?? false, assignees: false, awards: false });
    systemNote(db, cloned, me, `cloned from ${reference(target, project, issue.iid)}`, stamp);
    systemNote(db, issue, me, `cloned to ${reference(project, target, cloned.iid)}`, stamp);
    return c.json(issueAnswer(call, target, cloned), 201);
  });

  for (const action of ['subscribe', 'unsubscribe'] as const) {
    routes.post(`/projects/:id/issues/:issue_iid/${action}`, {}, (c, call) => {
      const project = issueProject(c, call);
      const issue = issueOf(c, call, project);
      const me = requireUser(call).id;
      const want = action === 'subscribe';
      // spec 2, 7: 304 when there is nothing to change
      if (isSubscribed(call.sandbox.db, issue, me) === want) return c.body(null, 304);
      setSubscription(call.sandbox.db, me, 'Issue', issue.id, want);
      return c.json(issueAnswer(call, project, issue), 201);
    });
  }

  // -- time tracking: estimate, spent time and their resets (the platform's TimeTrackingEndpoints)
  const timeRoute = (path: string, status: 200 | 201, change: (call: Call, issue: IssueRow, me: number, stamp: string) => void) => {
    routes.post(`/projects/:id/issues/:issue_iid/${path}`, {}, (c, call) => {
      const project = issueProject(c, call);
      const issue = issueOf(c, call, project);
      if (!canAdminIssues(call.sandbox.db, call.actor, project, call.now)) throw forbidden();
      const stamp = timestamp(call.now);
      change(call, issue, requireUser(call).id, stamp);
      call.sandbox.db.prepare('UPDATE issues SET updated_at = ? WHERE id = ?').run(stamp, issue.id);
      return c.json(timeStatsAnswer(call, reload(call, issue.id)), status);
    });
  };
  timeRoute('time_estimate', 200, (call, issue, me, stamp) => {
    const seconds = durationParam(call);
    if (seconds < 0) throw badRequest('Time estimate must have a valid format and be greater than or equal to zero.');
    call.sandbox.db.prepare('UPDATE issues SET time_estimate = ? WHERE id = ?').run(seconds, issue.id);
    systemNote(call.sandbox.db, issue, me, seconds ? `changed time estimate to ${timeStats({ ...issue, time_estimate: seconds }, 0).human_time_estimate}` : 'removed time estimate', stamp);
  });
  timeRoute('reset_time_estimate', 200, (call, issue, me, stamp) => {
    call.sandbox.db.prepare('UPDATE issues SET time_estimate = 0 WHERE id = ?').run(issue.id);
    systemNote(call.sandbox.db, issue, me, 'removed time estimate', stamp);
  });
  timeRoute('add_spent_time', 201, (call, issue, me, stamp) => {
    const seconds = durationParam(call);
    const { db } = call.sandbox;
    const spent = (db.prepare('SELECT coalesce(sum(time_spent), 0) AS s FROM timelogs WHERE issue_id = ?').get(issue.id) as { s: number }).s;
    if (spent + seconds < 0) throw badRequest('Time to subtract exceeds the total time spent');
    db.prepare('INSERT INTO timelogs (issue_id, user_id, time_spent, summary, created_at) VALUES (?, ?, ?, ?, ?)').run(issue.id, me, seconds, call.params.string('summary') ?? null, stamp);
    const human = timeStats({ ...issue, time_estimate: Math.abs(seconds) }, 0).human_time_estimate;
    systemNote(db, issue, me, seconds >= 0 ? `added ${human} of time spent` : `subtracted ${human} of time spent`, stamp);
  });
  timeRoute('reset_spent_time', 200, (call, issue, me, stamp) => {
    call.sandbox.db.prepare('DELETE FROM timelogs WHERE issue_id = ?').run(issue.id);
    systemNote(call.sandbox.db, issue, me, 'removed time spent', stamp);
  });
  routes.get('/projects/:id/issues/:issue_iid/time_stats', { auth: 'public' }, (c, call) => {
    const project = issueProject(c, call);
    return c.json(timeStatsAnswer(call, issueOf(c, call, project)));
  });

  for (const table of Object.keys(EVENT_TABLES) as Array<keyof typeof EVENT_TABLES>) {
    routes.get(`/projects/:id/issues/:issue_iid/${table}`, { auth: 'public' }, (c, call) => {
      const project = issueProject(c, call);
      const issue = issueOf(c, call, project);
      const rows = call.sandbox.db.prepare(`SELECT * FROM ${table} WHERE issue_id = ? ORDER BY id`).all(issue.id) as Array<Record<string, any>>;
      return c.json(pageOfArray(c, call.params, rows).map((row) => eventEntity(call, table, row)));
    });
    routes.get(`/projects/:id/issues/:issue_iid/${table}/:event_id`, { auth: 'public' }, (c, call) => {
      const project = issueProject(c, call);
      const issue = issueOf(c, call, project);
      const row = call.sandbox.db.prepare(`SELECT * FROM ${table} WHERE issue_id = ? AND id = ?`).get(issue.id, Number(pathParam(c, 'event_id')) || 0) as Record<string, any> | undefined;
      if (!row) throw notFound();
      return c.json(eventEntity(call, table, row));
    });
  }
}

