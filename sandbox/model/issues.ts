import type { Actor, Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { AccessLevel, canReadProject, effectiveRole, type ProjectRow } from './access.ts';
import { projectSettings, userBasic } from './entities.ts';
import { explicitSubscription, labelBasic, milestoneEntity, type LabelRow, type MilestoneRow } from './labels.ts';

export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;

export interface IssueRow {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: 'opened' | 'closed';
  issue_type: string;
  author_id: number;
  milestone_id: number | null;
  confidential: number;
  discussion_locked: number | null;
  due_date: string | null;
  weight: number | null;
  health_status: string | null;
  relative_position: number | null;
  time_estimate: number;
  closed_at: string | null;
  closed_by_id: number | null;
  moved_to_id: number | null;
  updated_by_id: number | null;
  last_edited_at: string | null;
  last_edited_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The description limit of spec 2, section 8; titles as the platform's model allows. */
export const ISSUE_DESCRIPTION_MAX = 1_048_576;
export const ISSUE_TITLE_MAX = 255;

// -- access

export function projectRole(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  return effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
}

/** read_issue on the project: the issues feature is on, and members-only features need a member. */
export function canReadIssues(db: Db, actor: Actor, project: ProjectRow, now: Date): boolean {
  if (!canReadProject(db, actor, project, now)) return false;
  const level = projectSettings(project).issues_access_level;
  if (level === 'disabled') return false;
  if (level === 'private' || project.visibility === 'private') return projectRole(db, actor, project, now) >= AccessLevel.GUEST;
  return true;
}

/** Who sees confidential issues: Planner and up, the author and the assignees (spec 2, 2.1). */
export function canReadConfidential(db: Db, actor: Actor, project: ProjectRow, issue: IssueRow, now: Date): boolean {
  if (!issue.confidential) return true;
  if (!actor.user) return false;
  if (issue.author_id === actor.user.id) return true;
  if (projectRole(db, actor, project, now) >= AccessLevel.PLANNER) return true;
  return Boolean(db.prepare('SELECT 1 FROM issue_assignees WHERE issue_id = ? AND user_id = ?').get(issue.id, actor.user.id));
}

/** admin_issue: labels, milestones, assignees, confidentiality, lock, move, time tracking. */
export function canAdminIssues(db: Db, actor: Actor, project: ProjectRow, now: Date): boolean {
  return Boolean(actor.user) && !project.archived && projectRole(db, actor, project, now) >= AccessLevel.PLANNER;
}

/** update_issue: admins of issues, plus the author and the assignees. */
export function canUpdateIssue(db: Db, actor: Actor, project: ProjectRow, issue: IssueRow, now: Date): boolean {
  if (!actor.user || project.archived) return false;
  if (canAdminIssues(db, actor, project, now)) return true;
  if (issue.author_id === actor.user.id) return true;
  return Boolean(db.prepare('SELECT 1 FROM issue_assignees WHERE issue_id = ? AND user_id = ?').get(issue.id, actor.user.id));
}

// -- iids and positions

export function nextIssueIid(db: Db, projectId: number): number {
  const row = db.prepare('SELECT last_iid FROM issue_iids WHERE project_id = ?').get(projectId) as { last_iid: number } | undefined;
  const next = (row?.last_iid ?? 0) + 1;
  db.prepare('INSERT INTO issue_iids (project_id, last_iid) VALUES (?, ?) ON CONFLICT(project_id) DO UPDATE SET last_iid = excluded.last_iid').run(projectId, next);
  return next;
}

// RelativePositioning::IDEAL_DISTANCE: new issues go this far after the last one
export const POSITION_GAP = 1024;

export function positionAtEnd(db: Db, projectId: number): number {
  const row = db.prepare('SELECT max(relative_position) AS p FROM issues WHERE project_id = ?').get(projectId) as { p: number | null };
  return (row.p ?? 0) + POSITION_GAP;
}

/** Spreads a project's positions out again when two neighbours have no integer between them. */
export function rebalancePositions(db: Db, projectId: number): void {
  const ids = db.prepare('SELECT id FROM issues WHERE project_id = ? AND relative_position IS NOT NULL ORDER BY relative_position, id').pluck().all(projectId) as number[];
  const update = db.prepare('UPDATE issues SET relative_position = ? WHERE id = ?');
  ids.forEach((id, index) => update.run((index + 1) * POSITION_GAP, id));
}

// -- durations (Gitlab::TimeTrackingFormatter: 8-hour days, 5-day weeks, 4-week months)

const UNIT_SECONDS: Record<string, number> = { mo: 4 * 5 * 8 * 3600, w: 5 * 8 * 3600, d: 8 * 3600, h: 3600, m: 60, s: 1 };

/** `1w 2d 3h 30m` (or `-1h`) in seconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const value = text.trim().toLowerCase();
  const negative = value.startsWith('-');
  const body = negative ? value.slice(1).trim() : value;
  if (/^\d+$/.test(body)) return (negative ? -1 : 1) * Number(body) * 3600;
  const pattern = /(\d+(?:\.\d+)?)\s*(mo|w|d|h|m|s)\s*/gy;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(body))) {
    total += Number(match[1]) * UNIT_SECONDS[match[2]];
    consumed = pattern.lastIndex;
  }
  if (!body || consumed !== body.length) return null;
  return (negative ? -1 : 1) * Math.round(total);
}

/** The human strings of time_stats: `1w 2d 3h 30m`, null for none. */
export function humanDuration(seconds: number): string | null {
  if (!seconds) return null;
  const negative = seconds < 0;
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const unit of ['mo', 'w', 'd', 'h', 'm', 's']) {
    const size = UNIT_SECONDS[unit];
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return `${negative ? '-' : ''}${parts.join(' ')}`;
}

// -- tasks

// TaskList::Filter's items: `- [ ]`, `* [x]`, `1. [X]` and friends, outside code blocks
const TASK_ITEM = /^\s*(?:[-+*]|\d+[.)])\s+\[([ xX~])\]\s/;

export function taskCounts(description: string | null): { count: number; completed_count: number } {
  let count = 0;
  let completed = 0;
  let fence: string | null = null;
  for (const line of (description ?? '').split('\n')) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1];
      else if (fence === fenceMatch[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const item = TASK_ITEM.exec(line);
    if (item) {
      count++;
      if (item[1] !== ' ') completed++;
    }
  }
  return { count, completed_count: completed };
}

// -- relations for a page of issues

export interface IssueRelations {
  assignees: Map<number, UserRow[]>;
  labels: Map<number, LabelRow[]>;
  milestones: Map<number, MilestoneRow>;
  users: Map<number, UserRow>;
  projects: Map<number, ProjectRow>;
  votes: Map<number, { up: number; down: number }>;
  notes: Map<number, number>;
  spent: Map<number, number>;
}

function grouped<T extends { owner: number }>(rows: T[]): Map<number, Array<Omit<T, 'owner'>>> {
  const map = new Map<number, Array<Omit<T, 'owner'>>>();
  for (const { owner, ...rest } of rows) {
    if (!map.has(owner)) map.set(owner, []);
    map.get(owner)!.push(rest);
  }
  return map;
}

/** Everything the entities of a page of issues need, in a fixed number of queries. */
export function loadIssueRelations(db: Db, rows: readonly IssueRow[]): IssueRelations {
  const ids = JSON.stringify(rows.map((row) => row.id));
  const assignees = grouped(db.prepare(
    `SELECT a.issue_id AS owner, u.* FROM issue_assignees a JOIN users u ON u.id = a.user_id WHERE a.issue_id IN (SELECT value FROM json_each(?)) ORDER BY a.issue_id, a.position`,
  ).all(ids) as Array<UserRow & { owner: number }>) as Map<number, UserRow[]>;
  const labels = grouped(db.prepare(
    `SELECT il.issue_id AS owner, l.* FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id IN (SELECT value FROM json_each(?)) ORDER BY il.issue_id, l.title COLLATE NOCASE`,
  ).all(ids) as Array<LabelRow & { owner: number }>) as Map<number, LabelRow[]>;
  const milestones = new Map<number, MilestoneRow>();
  for (const milestone of db.prepare('SELECT * FROM milestones WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(rows.map((row) => row.milestone_id).filter((id) => id !== null))])) as MilestoneRow[]) {
    milestones.set(milestone.id, milestone);
  }
  const userIds = new Set<number>();
  for (const row of rows) for (const id of [row.author_id, row.closed_by_id]) if (id !== null) userIds.add(id);
  const users = new Map<number, UserRow>();
  for (const user of db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...userIds])) as UserRow[]) users.set(user.id, user);
  const projects = new Map<number, ProjectRow>();
  for (const project of db.prepare('SELECT * FROM projects WHERE id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify([...new Set(rows.map((row) => row.project_id))])) as ProjectRow[]) projects.set(project.id, project);
  const votes = new Map<number, { up: number; down: number }>();
  for (const vote of db.prepare(
    `SELECT awardable_id AS id, sum(name = 'thumbsup') AS up, sum(name = 'thumbsdown') AS down FROM award_emoji
     WHERE awardable_type = 'Issue' AND awardable_id IN (SELECT value FROM json_each(?)) GROUP BY awardable_id`,
  ).all(ids) as Array<{ id: number; up: number; down: number }>) votes.set(vote.id, { up: vote.up, down: vote.down });
  const notes = new Map<number, number>();
  for (const row of db.prepare(
    `SELECT noteable_id AS id, count(*) AS n FROM notes WHERE noteable_type = 'Issue' AND system = 0 AND noteable_id IN (SELECT value FROM json_each(?)) GROUP BY noteable_id`,
  ).all(ids) as Array<{ id: number; n: number }>) notes.set(row.id, row.n);
  const spent = new Map<number, number>();
  for (const row of db.prepare('SELECT issue_id AS id, sum(time_spent) AS s FROM timelogs WHERE issue_id IN (SELECT value FROM json_each(?)) GROUP BY issue_id')
    .all(ids) as Array<{ id: number; s: number }>) spent.set(row.id, row.s);
  return { assignees, labels, milestones, users, projects, votes, notes, spent };
}

export function issueWebUrl(sandbox: Sandbox, project: ProjectRow, iid: number): string {
  return `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/issues/${iid}`;
}

export function timeStats(row: IssueRow, spent: number) {
  return {
    time_estimate: row.time_estimate,
    total_time_spent: spent,
    human_time_estimate: humanDuration(row.time_estimate),
    human_total_time_spent: humanDuration(spent),
  };
}

export interface IssueView {
  sandbox: Sandbox;
  relations: IssueRelations;
  /** The project the issue is shown from: references are relative to it (null: across projects). */
  viewedFrom: ProjectRow | null;
  withLabelsDetails: boolean;
  now: Date;
  /** Set on single-issue answers: whether the caller is subscribed. */
  subscribedFor?: number | null;
}

/** Whether `userId` receives the issue's notifications: an explicit choice, else author, assignee or commenter. */
export function isSubscribed(db: Db, issue: IssueRow, userId: number): boolean {
  const explicit = explicitSubscription(db, userId, 'Issue', issue.id);
  if (explicit !== null) return explicit;
  if (issue.author_id === userId) return true;
  if (db.prepare('SELECT 1 FROM issue_assignees WHERE issue_id = ? AND user_id = ?').get(issue.id, userId)) return true;
  return Boolean(db.prepare("SELECT 1 FROM notes WHERE noteable_type = 'Issue' AND noteable_id = ? AND author_id = ? AND system = 0 LIMIT 1").get(issue.id, userId));
}

/** The platform's Issue entity, fields in its order. */
export function issueEntity(view: IssueView, row: IssueRow) {
  const { sandbox, relations } = view;
  const project = relations.projects.get(row.project_id)!;
  const user = (id: number | null) => {
    const found = id === null ? undefined : relations.users.get(id);
    return found ? userBasic(sandbox, found) : null;
  };
  const assignees = (relations.assignees.get(row.id) ?? []).map((assignee) => userBasic(sandbox, assignee));
  const labels = relations.labels.get(row.id) ?? [];
  const milestone = row.milestone_id === null ? undefined : relations.milestones.get(row.milestone_id);
  const votes = relations.votes.get(row.id) ?? { up: 0, down: 0 };
  const tasks = taskCounts(row.description);
  const short = `#${row.iid}`;
  const full = `${project.path_with_namespace}#${row.iid}`;
  const api = `${sandbox.config.externalUrl}/api/v4/projects/${project.id}`;
  const entity: Record<string, unknown> = {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    closed_by: user(row.closed_by_id),
    labels: view.withLabelsDetails ? labels.map(labelBasic) : labels.map((label) => label.title),
    milestone: milestone ? milestoneEntity(sandbox, milestone, view.now) : null,
    assignees,
    author: user(row.author_id),
    type: row.issue_type.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: relations.notes.get(row.id) ?? 0,
    merge_requests_count: 0,
    upvotes: votes.up,
    downvotes: votes.down,
    due_date: row.due_date,
    confidential: Boolean(row.confidential),
    discussion_locked: row.discussion_locked === null ? null : Boolean(row.discussion_locked),
    issue_type: row.issue_type,
    web_url: issueWebUrl(sandbox, project, row.iid),
    time_stats: timeStats(row, relations.spent.get(row.id) ?? 0),
    task_completion_status: tasks,
    weight: row.weight,
    blocking_issues_count: 0,
    has_tasks: tasks.count > 0,
    task_status: tasks.count > 0 ? `${tasks.completed_count} of ${tasks.count} checklist item${tasks.count === 1 ? '' : 's'} completed` : '',
    _links: {
      self: `${api}/issues/${row.iid}`,
      notes: `${api}/issues/${row.iid}/notes`,
      award_emoji: `${api}/issues/${row.iid}/award_emoji`,
      project: api,
      closed_as_duplicate_of: null,
    },
    references: { short, relative: view.viewedFrom?.id === project.id ? short : full, full },
    severity: 'UNKNOWN',
  };
  if (view.subscribedFor !== undefined) entity.subscribed = view.subscribedFor === null ? false : isSubscribed(sandbox.db, row, view.subscribedFor);
  Object.assign(entity, {
    moved_to_id: row.moved_to_id,
    imported: false,
    imported_from: 'none',
    service_desk_reply_to: null,
    epic_iid: null,
    epic: null,
    iteration: null,
    health_status: row.health_status,
  });
  return entity;
}

// -- what changes record: system notes and resource events

export function insertNote(
  db: Db,
  input: {
    type: 'Issue' | 'Snippet' | 'MergeRequest'; noteableId: number; projectId: number; authorId: number; body: string; system: boolean; internal: boolean; at: string;
    /** A note in a thread: its id, type, whether it can be resolved and its diff position (JSON). */
    thread?: { discussionId: string; type: 'DiscussionNote' | 'DiffNote'; resolvable: boolean; position: string | null };
  },
): number {
  const thread = input.thread;
  return Number(db.prepare(
    `INSERT INTO notes (noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at, discussion_id, type, resolvable, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    input.type, input.noteableId, input.projectId, input.authorId, input.body, input.system ? 1 : 0, input.internal ? 1 : 0, input.at, input.at,
    thread?.discussionId ?? null, thread?.type ?? null, thread?.resolvable ? 1 : 0, thread?.position ?? null,
  ).lastInsertRowid);
}

export function systemNote(db: Db, issue: Pick<IssueRow, 'id' | 'project_id'>, userId: number, body: string, at: string): void {
  insertNote(db, { type: 'Issue', noteableId: issue.id, projectId: issue.project_id, authorId: userId, body, system: true, internal: false, at });
}

const DUE_DATE_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The state of an issue that changes record: compared before and after an edit. */
export interface IssueSnapshot {
  row: IssueRow;
  labelIds: number[];
  assigneeIds: number[];
}

export function snapshotIssue(db: Db, row: IssueRow): IssueSnapshot {
  return {
    row,
    labelIds: db.prepare('SELECT label_id FROM issue_labels WHERE issue_id = ? ORDER BY label_id').pluck().all(row.id) as number[],
    assigneeIds: db.prepare('SELECT user_id FROM issue_assignees WHERE issue_id = ? ORDER BY position').pluck().all(row.id) as number[],
  };
}

/** `@a`, `@a and @b`, `@a, @b and @c`: people as system notes name them. */
export function usernames(db: Db, ids: number[]): string {
  const names = ids.map((id) => `@${(db.prepare('SELECT username FROM users WHERE id = ?').get(id) as { username: string } | undefined)?.username ?? 'ghost'}`);
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * Records what an edit changed the way the platform does: labels, milestone and state as
 * resource events, the rest (assignees, title, due date, confidentiality, lock) as system notes.
 */
export function recordIssueChanges(db: Db, before: IssueSnapshot, after: IssueSnapshot, userId: number, at: string): void {
  const issue = after.row;
  const old = before.row;
  const addedLabels = after.labelIds.filter((id) => !before.labelIds.includes(id));
  const removedLabels = before.labelIds.filter((id) => !after.labelIds.includes(id));
  const labelEvent = db.prepare('INSERT INTO resource_label_events (issue_id, label_id, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)');
  for (const id of addedLabels) labelEvent.run(issue.id, id, userId, 'add', at);
  for (const id of removedLabels) labelEvent.run(issue.id, id, userId, 'remove', at);
  if (old.milestone_id !== issue.milestone_id) {
    const milestoneEvent = db.prepare('INSERT INTO resource_milestone_events (issue_id, milestone_id, user_id, action, state, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    if (issue.milestone_id !== null) milestoneEvent.run(issue.id, issue.milestone_id, userId, 'add', issue.state, at);
    else milestoneEvent.run(issue.id, old.milestone_id, userId, 'remove', issue.state, at);
  }
  if (old.state !== issue.state) {
    db.prepare('INSERT INTO resource_state_events (issue_id, user_id, state, created_at) VALUES (?, ?, ?, ?)')
      .run(issue.id, userId, issue.state === 'closed' ? 'closed' : 'reopened', at);
  }
  const assigned = after.assigneeIds.filter((id) => !before.assigneeIds.includes(id));
  const unassigned = before.assigneeIds.filter((id) => !after.assigneeIds.includes(id));
  if (assigned.length || unassigned.length) {
    const parts = [];
    if (assigned.length) parts.push(`assigned to ${usernames(db, assigned)}`);
    if (unassigned.length) parts.push(`unassigned ${usernames(db, unassigned)}`);
    systemNote(db, issue, userId, parts.join(' and '), at);
  }
  if (old.title !== issue.title) systemNote(db, issue, userId, `changed title from **{-${old.title}-}** to **{+${issue.title}+}**`, at);
  if (old.due_date !== issue.due_date) {
    systemNote(db, issue, userId, issue.due_date ? `changed due date to ${DUE_DATE_FORMAT.format(new Date(`${issue.due_date}T00:00:00Z`))}` : 'removed due date', at);
  }
  if (old.description !== issue.description && old.description !== null) systemNote(db, issue, userId, 'changed the description', at);
  if (old.confidential !== issue.confidential) {
    systemNote(db, issue, userId, issue.confidential ? 'made the issue confidential' : 'made the issue visible to everyone', at);
  }
  if (Boolean(old.discussion_locked) !== Boolean(issue.discussion_locked)) {
    systemNote(db, issue, userId, issue.discussion_locked ? 'locked the discussion in this issue' : 'unlocked the discussion in this issue', at);
  }
}

export function setIssueLabels(db: Db, issueId: number, labelIds: readonly number[]): void {
  db.prepare('DELETE FROM issue_labels WHERE issue_id = ?').run(issueId);
  const insert = db.prepare('INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)');
  for (const id of labelIds) insert.run(issueId, id);
}

export function setIssueAssignees(db: Db, issueId: number, userIds: readonly number[]): void {
  db.prepare('DELETE FROM issue_assignees WHERE issue_id = ?').run(issueId);
  const insert = db.prepare('INSERT OR IGNORE INTO issue_assignees (issue_id, user_id, position) VALUES (?, ?, ?)');
  userIds.forEach((id, position) => insert.run(issueId, id, position));
}

export function findIssue(db: Db, projectId: number, iid: number): IssueRow | undefined {
  return db.prepare('SELECT * FROM issues WHERE project_id = ? AND iid = ?').get(projectId, iid) as IssueRow | undefined;
}
