import type { Actor } from '../context.ts';
import type { Db } from '../db.ts';
import { paramError } from '../http/errors.ts';
import { ParamReader, collectParamErrors, idNoneAny, type IdNoneAny, type Params } from '../http/params.ts';
import { AccessLevel, authorizationsOf, type ProjectRow } from './access.ts';
import { canReadIssues, ISSUE_TYPES } from './issues.ts';
import { likeContains } from './sql.ts';
import { addDays, today } from './time.ts';

/** The orders of spec 2, 4.1 over `issues i`; those on optional values put issues without one last. */
export const ISSUE_ORDERS: Record<string, string> = {
  created_at: 'i.created_at',
  updated_at: 'i.updated_at',
  title: 'i.title COLLATE NOCASE',
  due_date: 'i.due_date',
  relative_position: 'i.relative_position',
  weight: 'i.weight',
  milestone_due: '(SELECT due_date FROM milestones WHERE id = i.milestone_id)',
  label_priority: `(SELECT min(lp.priority) FROM issue_labels il JOIN label_priorities lp ON lp.label_id = il.label_id AND lp.project_id = i.project_id WHERE il.issue_id = i.id)`,
  priority: `(SELECT due_date FROM milestones WHERE id = i.milestone_id), (SELECT min(lp.priority) FROM issue_labels il JOIN label_priorities lp ON lp.label_id = il.label_id AND lp.project_id = i.project_id WHERE il.issue_id = i.id)`,
  popularity: `(SELECT count(*) FROM award_emoji a WHERE a.awardable_type = 'Issue' AND a.awardable_id = i.id AND a.name = 'thumbsup')`,
};

// the orders on values an issue may lack; priority orders ascend whatever `sort` says, as the platform's
const NULLS_LAST = new Set(['due_date', 'relative_position', 'weight', 'milestone_due', 'label_priority', 'priority']);
const ALWAYS_ASCENDING = new Set(['label_priority', 'priority', 'milestone_due']);

/** `ORDER BY` of a list: the order's column(s), then id in the same direction. */
export function orderClause(orderBy: string, sort: 'asc' | 'desc'): string {
  const direction = ALWAYS_ASCENDING.has(orderBy) ? 'ASC' : sort.toUpperCase();
  const nulls = NULLS_LAST.has(orderBy) ? ' NULLS LAST' : '';
  const columns = ISSUE_ORDERS[orderBy].split(/,\s(?=\()/).map((column) => `${column} ${direction}${nulls}`);
  return `${columns.join(', ')}, i.id ${sort === 'asc' ? 'ASC' : 'DESC'}`;
}

export interface SqlFilter {
  sql: string[];
  args: unknown[];
}

function userIdByName(db: Db, username: string): number {
  const row = db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number } | undefined;
  // an unknown user matches nothing, as the platform's finder does
  return row?.id ?? -1;
}

const assigneeExists = (userId: number | null) => userId === null
  ? 'EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id)'
  : `EXISTS (SELECT 1 FROM issue_assignees a WHERE a.issue_id = i.id AND a.user_id = ${Number(userId)})`;

function assigneeSql(value: IdNoneAny, negate: boolean): string {
  const positive = (value !== 'none') !== negate;
  const exists = assigneeExists(typeof value === 'number' ? value : null);
  return positive ? exists : `NOT ${exists}`;
}

/** Labels: all must match (`None`, `Any` as wildcards); negated, none of them may. */
function labelSql(db: Db, names: string[], negate: boolean, filter: SqlFilter): void {
  const clean = names.map((name) => name.trim()).filter(Boolean);
  if (!clean.length) return;
  const lower = clean.map((name) => name.toLowerCase());
  if (lower.length === 1 && (lower[0] === 'none' || lower[0] === 'any' || lower[0] === 'no label')) {
    const hasAny = 'EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)';
    filter.sql.push((lower[0] === 'any') !== negate ? hasAny : `NOT ${hasAny}`);
    return;
  }
  // each name to the ids of the labels so called, so the test per issue is an index lookup
  const one = 'EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN (SELECT value FROM json_each(?)))';
  const ids = clean.map((name) => JSON.stringify(db.prepare('SELECT id FROM labels WHERE lower(title) = lower(?)').pluck().all(name)));
  filter.sql.push(negate ? `NOT (${clean.map(() => one).join(' OR ')})` : clean.map(() => one).join(' AND '));
  filter.args.push(...ids);
}

/** Milestone::Upcoming: per project and group, the open milestone due next after today. */
function upcomingMilestoneIds(db: Db, day: string): number[] {
  return db.prepare(
    `SELECT m.id FROM milestones m WHERE m.state = 'active' AND m.due_date > ? AND m.due_date = (
       SELECT min(o.due_date) FROM milestones o WHERE o.state = 'active' AND o.due_date > ?
         AND ((m.project_id IS NOT NULL AND o.project_id = m.project_id) OR (m.group_id IS NOT NULL AND o.group_id = m.group_id)))`,
  ).pluck().all(day, day) as number[];
}

function milestoneSql(db: Db, kind: 'id' | 'title', raw: string, negate: boolean, now: Date, filter: SqlFilter): void {
  const value = raw.trim();
  const lower = value.toLowerCase();
  const day = today(now);
  let clause: string;
  if (lower === 'none' || lower === 'any') {
    filter.sql.push((lower === 'any') !== negate ? 'i.milestone_id IS NOT NULL' : 'i.milestone_id IS NULL');
    return;
  }
  if (lower === 'upcoming') {
    clause = `i.milestone_id IN (SELECT value FROM json_each('${JSON.stringify(upcomingMilestoneIds(db, day))}'))`;
  } else if (lower === 'started') {
    clause = `i.milestone_id IN (SELECT id FROM milestones WHERE state = 'active' AND start_date IS NOT NULL AND start_date <= '${day}')`;
  } else if (kind === 'id') {
    throw paramError('milestone_id does not have a valid value');
  } else {
    clause = 'i.milestone_id IN (SELECT id FROM milestones WHERE title = ?)';
    filter.args.push(value);
  }
  // negated: issues without a milestone are not in the excluded one
  filter.sql.push(negate ? `(i.milestone_id IS NULL OR NOT (${clause}))` : clause);
}

function mondayOf(day: Date): Date {
  const weekday = (day.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - weekday));
}

/** The `due_date` values of spec 2, 4.1 as a range over the issue's due date. */
function dueDateSql(value: string, now: Date, filter: SqlFilter): void {
  const day = today(now);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const endOf = (year: number, month: number) => today(new Date(Date.UTC(year, month + 1, 0)));
  const range = (from: string | null, to: string | null) => {
    if (from) { filter.sql.push('i.due_date >= ?'); filter.args.push(from); }
    if (to) { filter.sql.push('i.due_date <= ?'); filter.args.push(to); }
  };
  switch (value) {
    case '0': filter.sql.push('i.due_date IS NULL'); break;
    case 'any': filter.sql.push('i.due_date IS NOT NULL'); break;
    case 'today': range(day, day); break;
    case 'tomorrow': range(addDays(now, 1), addDays(now, 1)); break;
    case 'overdue': filter.sql.push('i.due_date < ?'); filter.args.push(day); break;
    case 'week': {
      const monday = mondayOf(now);
      range(today(monday), addDays(monday, 6));
      break;
    }
    case 'month': range(today(monthStart), endOf(now.getUTCFullYear(), now.getUTCMonth())); break;
    case 'next_month_and_previous_two_weeks': range(addDays(now, -14), endOf(now.getUTCFullYear(), now.getUTCMonth() + 1)); break;
    default: throw paramError('due_date does not have a valid value');
  }
}

function noneAnyColumn(column: string, raw: string | undefined, negate: boolean, filter: SqlFilter, numeric: boolean): void {
  if (raw === undefined || raw === '') return;
  const lower = raw.toLowerCase();
  if (lower === 'none' || lower === 'any') {
    filter.sql.push(`${column} ${(lower === 'any') !== negate ? 'IS NOT NULL' : 'IS NULL'}`);
    return;
  }
  if (numeric && !/^\d+$/.test(raw)) throw paramError(`${column.replace('i.', '')} is invalid`);
  filter.sql.push(`${column} ${negate ? 'IS NOT' : '='} ?`);
  filter.args.push(numeric ? Number(raw) : raw);
}

/** Epics and iterations do not exist in the sandbox: every issue has none. */
function absentSql(raw: string | undefined, negate: boolean, filter: SqlFilter): void {
  if (raw === undefined || raw === '') return;
  const matchesAll = (raw.toLowerCase() === 'none') !== negate;
  if (!matchesAll) filter.sql.push('0');
}

function reactionSql(raw: string | undefined, me: number, filter: SqlFilter): void {
  if (raw === undefined || raw === '') return;
  const lower = raw.toLowerCase();
  const base = `EXISTS (SELECT 1 FROM award_emoji a WHERE a.awardable_type = 'Issue' AND a.awardable_id = i.id AND a.user_id = ${Number(me)}`;
  if (lower === 'none') filter.sql.push(`NOT ${base})`);
  else if (lower === 'any') filter.sql.push(`${base})`);
  else {
    filter.sql.push(`${base} AND a.name = ?)`);
    filter.args.push(raw);
  }
}

/** Projects whose issues the caller reads, among `candidates`; and those where confidential ones show. */
export function readableIssueProjects(db: Db, actor: Actor, candidates: ProjectRow[], now: Date, nonArchived: boolean) {
  const readable = candidates.filter((project) => (!nonArchived || !project.archived) && canReadIssues(db, actor, project, now));
  let confidential: number[];
  if (actor.user?.is_admin) confidential = readable.map((project) => project.id);
  else if (actor.user) {
    const { projects } = authorizationsOf(db, actor.user.id, now);
    confidential = readable.filter((project) => (projects.get(project.id) ?? 0) >= AccessLevel.PLANNER).map((project) => project.id);
  } else confidential = [];
  return { ids: readable.map((project) => project.id), confidential };
}

export interface ListOptions {
  db: Db;
  actor: Actor;
  params: ParamReader;
  now: Date;
  scopeDefault: 'all' | 'created_by_me';
  projectIds: number[];
  confidentialProjectIds: number[];
  /** statistics count every state */
  ignoreState?: boolean;
}

/** Every filter of spec 2, 4.1 as SQL over `issues i`. */
export function issueListFilter(options: ListOptions): SqlFilter & { orderBy: string; sort: 'asc' | 'desc' } {
  const { db, params, now } = options;
  let state = 'all';
  let scope: string = options.scopeDefault;
  let orderBy = 'created_at';
  let sort: 'asc' | 'desc' = 'desc';
  collectParamErrors([
    () => { state = params.oneOf('state', ['opened', 'closed', 'all'] as const) ?? 'all'; },
    () => { orderBy = params.oneOf('order_by', Object.keys(ISSUE_ORDERS)) ?? 'created_at'; },
    () => { sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc'; },
    () => { scope = params.oneOf('scope', ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const) ?? options.scopeDefault; },
    () => params.int('author_id'),
    () => idNoneAny(params, 'assignee_id'),
    () => params.oneOf('issue_type', ISSUE_TYPES),
    () => params.bool('confidential'),
    () => params.bool('with_labels_details'),
    () => params.bool('non_archived'),
    () => params.dateTime('created_after'),
    () => params.dateTime('created_before'),
    () => params.dateTime('updated_after'),
    () => params.dateTime('updated_before'),
    () => params.intArray('iids'),
    () => params.oneOf('due_date', ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks'] as const),
    () => params.oneOf('milestone_id', ['None', 'Any', 'Upcoming', 'Started', 'none', 'any', 'upcoming', 'started'] as const),
    () => { const weight = params.string('weight'); if (weight !== undefined && weight !== '' && !/^(\d+|none|any)$/i.test(weight)) throw paramError('weight is invalid'); },
  ]);
  for (const [a, b] of [['author_id', 'author_username'], ['assignee_id', 'assignee_username'], ['milestone', 'milestone_id'], ['iteration_id', 'iteration_title']]) {
    if (params.has(a) && params.has(b)) throw paramError(`${a}, ${b} are mutually exclusive`);
  }
  const filter: SqlFilter = { sql: [], args: [] };
  const me = options.actor.user?.id ?? -1;
  filter.sql.push('i.project_id IN (SELECT value FROM json_each(?))');
  filter.args.push(JSON.stringify(options.projectIds));
  // confidential issues: to those who may see them only
  filter.sql.push(`(i.confidential = 0 OR i.project_id IN (SELECT value FROM json_each(?)) OR i.author_id = ? OR ${assigneeExists(me)})`);
  filter.args.push(JSON.stringify(options.confidentialProjectIds), me);
  if (state !== 'all' && !options.ignoreState) {
    filter.sql.push('i.state = ?');
    filter.args.push(state);
  }
  scope = scope.replaceAll('-', '_');
  if (scope === 'created_by_me') {
    filter.sql.push('i.author_id = ?');
    filter.args.push(me);
  } else if (scope === 'assigned_to_me') {
    filter.sql.push(assigneeExists(me));
  }
  const author = params.int('author_id') ?? (params.string('author_username') ? userIdByName(db, params.string('author_username')!) : undefined);
  if (author !== undefined) {
    filter.sql.push('i.author_id = ?');
    filter.args.push(author);
  }
  const assignee = idNoneAny(params, 'assignee_id');
  if (assignee !== undefined) filter.sql.push(assigneeSql(assignee, false));
  for (const name of params.stringArray('assignee_username') ?? []) {
    filter.sql.push(/^(none|any)$/i.test(name) ? assigneeSql(name.toLowerCase() as 'none' | 'any', false) : assigneeSql(userIdByName(db, name), false));
  }
  const confidential = params.bool('confidential');
  if (confidential !== undefined) filter.sql.push(`i.confidential = ${confidential ? 1 : 0}`);
  for (const [param, column, op] of [['created_after', 'created_at', '>='], ['created_before', 'created_at', '<='], ['updated_after', 'updated_at', '>='], ['updated_before', 'updated_at', '<=']] as const) {
    const value = params.dateTime(param);
    if (value) {
      filter.sql.push(`i.${column} ${op} ?`);
      filter.args.push(value);
    }
  }
  const due = params.string('due_date');
  if (due) dueDateSql(due, now, filter);
  const iids = params.intArray('iids');
  if (iids?.length) {
    filter.sql.push('i.iid IN (SELECT value FROM json_each(?))');
    filter.args.push(JSON.stringify(iids));
  }
  const issueType = params.string('issue_type');
  if (issueType) {
    filter.sql.push('i.issue_type = ?');
    filter.args.push(issueType);
  }
  labelSql(db, params.stringArray('labels') ?? [], false, filter);
  const milestoneId = params.string('milestone_id');
  if (milestoneId) milestoneSql(db, 'id', milestoneId, false, now, filter);
  const milestone = params.string('milestone');
  if (milestone) milestoneSql(db, 'title', milestone, false, now, filter);
  reactionSql(params.string('my_reaction_emoji'), me, filter);
  noneAnyColumn('i.weight', params.string('weight'), false, filter, true);
  noneAnyColumn('i.health_status', params.string('health_status'), false, filter, false);
  absentSql(params.string('epic_id'), false, filter);
  absentSql(params.string('iteration_id'), false, filter);
  if (params.string('iteration_title')) filter.sql.push('0');
  const search = params.string('search');
  if (search) {
    const inParam = params.string('in');
    const columns = (inParam ? inParam.split(',').map((part) => part.trim()) : ['title', 'description']).filter((part) => part === 'title' || part === 'description');
    if (inParam && !columns.length) throw paramError('in does not have a valid value');
    filter.sql.push(`(${columns.map((column) => `i.${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    for (const _ of columns) filter.args.push(likeContains(search));
  }
  const not = params.raw.not;
  if (not !== undefined && not !== null) {
    if (typeof not !== 'object' || Array.isArray(not)) throw paramError('not is invalid');
    const negated = new ParamReader(not as Params);
    const notAuthor = negated.int('author_id') ?? (negated.string('author_username') ? userIdByName(db, negated.string('author_username')!) : undefined);
    if (notAuthor !== undefined) {
      filter.sql.push('i.author_id IS NOT ?');
      filter.args.push(notAuthor);
    }
    const notAssignee = idNoneAny(negated, 'assignee_id');
    if (notAssignee !== undefined) filter.sql.push(assigneeSql(notAssignee, true));
    for (const name of negated.stringArray('assignee_username') ?? []) filter.sql.push(assigneeSql(userIdByName(db, name), true));
    const notIids = negated.intArray('iids');
    if (notIids?.length) {
      filter.sql.push('i.iid NOT IN (SELECT value FROM json_each(?))');
      filter.args.push(JSON.stringify(notIids));
    }
    labelSql(db, negated.stringArray('labels') ?? [], true, filter);
    const notMilestoneId = negated.string('milestone_id');
    if (notMilestoneId) milestoneSql(db, 'id', notMilestoneId, true, now, filter);
    const notMilestone = negated.string('milestone');
    if (notMilestone) milestoneSql(db, 'title', notMilestone, true, now, filter);
    noneAnyColumn('i.weight', negated.string('weight'), true, filter, true);
    noneAnyColumn('i.health_status', negated.string('health_status'), true, filter, false);
    absentSql(negated.string('iteration_id'), true, filter);
    absentSql(negated.string('epic_id'), true, filter);
    reactionSqlNegated(negated.string('my_reaction_emoji'), me, filter);
    const notType = negated.string('issue_type');
    if (notType) {
      filter.sql.push('i.issue_type != ?');
      filter.args.push(notType);
    }
  }
  return { ...filter, orderBy, sort };
}

function reactionSqlNegated(raw: string | undefined, me: number, filter: SqlFilter): void {
  if (raw === undefined || raw === '') return;
  filter.sql.push(`NOT EXISTS (SELECT 1 FROM award_emoji a WHERE a.awardable_type = 'Issue' AND a.awardable_id = i.id AND a.user_id = ${Number(me)} AND a.name = ?)`);
  filter.args.push(raw);
}
