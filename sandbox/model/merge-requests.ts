import type { Actor, Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { AccessLevel, canReadProject, effectiveRole, type ProjectRow } from './access.ts';
import { avatarUrl, projectSettings, userBasic } from './entities.ts';
import { deliverSystemEvent, deliveryQueue } from './system-hooks.ts';
import { git, gitText } from '../git/exec.ts';
import { branchHead, readCommit } from '../git/repository.ts';
import { commitHookAttrs, projectHookAttrs } from './hook-attrs.ts';
import { resetApprovalsOnPush } from './approvals.ts';
import { milestoneEntity, type MilestoneRow } from './labels.ts';
import { taskCounts } from './issues.ts';

export const MERGE_REQUEST_STATES = ['opened', 'closed', 'locked', 'merged'] as const;
export type MergeRequestState = (typeof MERGE_REQUEST_STATES)[number];

export interface MergeRequestRow {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: MergeRequestState;
  source_branch: string;
  target_branch: string;
  author_id: number;
  labels: string;
  milestone_id: number | null;
  squash: number;
  force_remove_source_branch: number | null;
  should_remove_source_branch: number | null;
  allow_collaboration: number;
  discussion_locked: number | null;
  merge_after: string | null;
  merge_status: 'unchecked' | 'can_be_merged' | 'cannot_be_merged';
  head_sha: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha: string | null;
  merge_user_id: number | null;
  merged_at: string | null;
  closed_by_id: number | null;
  closed_at: string | null;
  updated_by_id: number | null;
  last_edited_at: string | null;
  last_edited_by_id: number | null;
  created_at: string;
  updated_at: string;
}

/** The description limit of spec 2, section 8. */
export const DESCRIPTION_MAX = 1_048_576;

// MergeRequest::DRAFT_REGEX: `[Draft]`, `(Draft)` or `Draft:` at the start of the title
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)\s*/i;

export const isDraftTitle = (title: string) => DRAFT_PREFIX.test(title);
/** The title without its draft prefix (MergeRequest#draftless_title). */
export const draftlessTitle = (title: string) => title.replace(DRAFT_PREFIX, '');

export const labelsOf = (row: Pick<MergeRequestRow, 'labels'>) => JSON.parse(row.labels) as string[];

/** Label names as the platform keeps them: trimmed, no blanks, no duplicates (case-insensitively), by name. */
export function normalizeLabels(names: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of names) {
    const name = raw.trim();
    if (name && !seen.has(name.toLowerCase())) seen.set(name.toLowerCase(), name);
  }
  return [...seen.values()].sort((a, b) => a.localeCompare(b));
}

export function findMergeRequest(db: Db, projectId: number, iid: number): MergeRequestRow | undefined {
  return db.prepare('SELECT * FROM merge_requests WHERE project_id = ? AND iid = ?').get(projectId, iid) as MergeRequestRow | undefined;
}

/** The next iid of a project: one past the highest ever given, deleted requests included. */
export function nextIid(db: Db, projectId: number): number {
  const row = db.prepare('SELECT last_iid FROM merge_request_iids WHERE project_id = ?').get(projectId) as { last_iid: number } | undefined;
  const highest = db.prepare('SELECT max(iid) AS iid FROM merge_requests WHERE project_id = ?').get(projectId) as { iid: number | null };
  const next = Math.max(row?.last_iid ?? 0, highest.iid ?? 0) + 1;
  db.prepare('INSERT INTO merge_request_iids (project_id, last_iid) VALUES (?, ?) ON CONFLICT(project_id) DO UPDATE SET last_iid = excluded.last_iid')
    .run(projectId, next);
  return next;
}

/** Another open request from the same source into the same target (MergeRequest#validate_branches). */
export function conflictingOpenRequest(db: Db, projectId: number, source: string, target: string, exceptId: number | null): MergeRequestRow | undefined {
  return db.prepare(
    `SELECT * FROM merge_requests WHERE project_id = ? AND source_branch = ? AND target_branch = ? AND state = 'opened' AND id IS NOT ? ORDER BY id LIMIT 1`,
  ).get(projectId, source, target, exceptId) as MergeRequestRow | undefined;
}

export const duplicateMessage = (iid: number) => `Another open merge request already exists for this source branch: !${iid}`;

// -- access

/** The caller's role on the project (administrators count as Owner). */
export function projectRoleOf(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  return effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
}

/**
 * `read_merge_request`: the merge requests and repository features are on, and in a private
 * project (or one whose feature is members-only) the caller is Reporter or higher.
 */
export function canReadMergeRequests(db: Db, actor: Actor, project: ProjectRow, now: Date): boolean {
  if (!canReadProject(db, actor, project, now)) return false;
  const settings = projectSettings(project);
  const levels = [settings.merge_requests_access_level, settings.repository_access_level];
  if (levels.includes('disabled')) return false;
  if (project.visibility === 'private' || levels.includes('private')) {
    return projectRoleOf(db, actor, project, now) >= AccessLevel.REPORTER;
  }
  return true;
}

/** `update_merge_request`: Developer and up, or the request's author. */
export function canUpdateMergeRequest(db: Db, actor: Actor, project: ProjectRow, row: MergeRequestRow, now: Date): boolean {
  if (!actor.user || project.archived) return false;
  if (row.author_id === actor.user.id && canReadMergeRequests(db, actor, project, now)) return true;
  return projectRoleOf(db, actor, project, now) >= AccessLevel.DEVELOPER;
}

/** A user other than the caller, as permission checks see them. */
export function actorOf(user: UserRow): Actor {
  return { user, tokenId: null, scopes: new Set(['api']), via: 'access_token', jobProjectId: null };
}

// -- relations

export interface Relations {
  assignees: Map<number, UserRow[]>;
  reviewers: Map<number, UserRow[]>;
  users: Map<number, UserRow>;
  /** Per request: comments, thumbs up and down, threads left unresolved. */
  counts: Map<number, ActivityCounts>;
  milestones: Map<number, MilestoneRow>;
}

export interface ActivityCounts {
  notes: number;
  upvotes: number;
  downvotes: number;
  unresolved: number;
}

/** Comments, votes and unresolved threads of requests, in two queries. */
export function activityCounts(db: Db, ids: readonly number[]): Map<number, ActivityCounts> {
  const counts = new Map<number, ActivityCounts>(ids.map((id) => [id, { notes: 0, upvotes: 0, downvotes: 0, unresolved: 0 }]));
  const json = JSON.stringify(ids);
  for (const row of db.prepare(
    `SELECT noteable_id AS id, sum(system = 0) AS notes, count(DISTINCT CASE WHEN resolvable = 1 AND resolved_at IS NULL THEN discussion_id END) AS unresolved
     FROM notes WHERE noteable_type = 'MergeRequest' AND noteable_id IN (SELECT value FROM json_each(?)) GROUP BY noteable_id`,
  ).all(json) as Array<{ id: number; notes: number; unresolved: number }>) {
    Object.assign(counts.get(row.id)!, { notes: row.notes, unresolved: row.unresolved });
  }
  for (const row of db.prepare(
    `SELECT awardable_id AS id, sum(name = 'thumbsup') AS up, sum(name = 'thumbsdown') AS down
     FROM award_emoji WHERE awardable_type = 'MergeRequest' AND awardable_id IN (SELECT value FROM json_each(?)) GROUP BY awardable_id`,
  ).all(json) as Array<{ id: number; up: number; down: number }>) {
    Object.assign(counts.get(row.id)!, { upvotes: row.up, downvotes: row.down });
  }
  return counts;
}

/** Assignees, reviewers, authors and other users of a page of requests, in a few queries. */
export function loadRelations(db: Db, rows: readonly MergeRequestRow[]): Relations {
  const ids = JSON.stringify(rows.map((row) => row.id));
  const assignees = new Map<number, UserRow[]>();
  const reviewers = new Map<number, UserRow[]>();
  const users = new Map<number, UserRow>();
  const collect = (table: 'merge_request_assignees' | 'merge_request_reviewers', into: Map<number, UserRow[]>) => {
    const linked = db.prepare(
      `SELECT l.merge_request_id AS mr_id, u.* FROM ${table} l JOIN users u ON u.id = l.user_id
       WHERE l.merge_request_id IN (SELECT value FROM json_each(?)) ORDER BY l.merge_request_id, l.position`,
    ).all(ids) as Array<UserRow & { mr_id: number }>;
    for (const { mr_id: mrId, ...user } of linked) {
      if (!into.has(mrId)) into.set(mrId, []);
      into.get(mrId)!.push(user as UserRow);
    }
  };
  collect('merge_request_assignees', assignees);
  collect('merge_request_reviewers', reviewers);
  const userIds = new Set<number>();
  for (const row of rows) {
    for (const id of [row.author_id, row.merge_user_id, row.closed_by_id]) if (id !== null) userIds.add(id);
  }
  if (userIds.size) {
    for (const user of db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify([...userIds])) as UserRow[]) {
      users.set(user.id, user);
    }
  }
  const milestones = new Map<number, MilestoneRow>();
  const milestoneIds = [...new Set(rows.map((row) => row.milestone_id).filter((id): id is number => id !== null))];
  if (milestoneIds.length) {
    for (const milestone of db.prepare('SELECT * FROM milestones WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(milestoneIds)) as MilestoneRow[]) {
      milestones.set(milestone.id, milestone);
    }
  }
  return { assignees, reviewers, users, counts: activityCounts(db, rows.map((row) => row.id)), milestones };
}

export function setParticipants(db: Db, table: 'merge_request_assignees' | 'merge_request_reviewers', mergeRequestId: number, userIds: readonly number[], createdAt?: string): void {
  // people who stay keep their row (a reviewer keeps their review state); the others go
  db.prepare(`DELETE FROM ${table} WHERE merge_request_id = ? AND user_id NOT IN (SELECT value FROM json_each(?))`).run(mergeRequestId, JSON.stringify(userIds));
  const upsert = table === 'merge_request_reviewers'
    ? db.prepare(`INSERT INTO ${table} (merge_request_id, user_id, position, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET position = excluded.position`)
    : db.prepare(`INSERT INTO ${table} (merge_request_id, user_id, position) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET position = excluded.position`);
  userIds.forEach((userId, position) => (table === 'merge_request_reviewers' ? upsert.run(mergeRequestId, userId, position, createdAt ?? null) : upsert.run(mergeRequestId, userId, position)));
}

export function participantIds(db: Db, table: 'merge_request_assignees' | 'merge_request_reviewers', mergeRequestId: number): number[] {
  return db.prepare(`SELECT user_id FROM ${table} WHERE merge_request_id = ? ORDER BY position`).pluck().all(mergeRequestId) as number[];
}

// -- git state

/** What git says about a request now: the source head, conflicts, whether it has commits of its own. */
export interface GitState {
  sourceHead: string | null;
  targetHead: string | null;
  /** null when a branch is missing and nothing could be merged. */
  conflicts: boolean | null;
  hasCommits: boolean;
  mergeBase: string | null;
}

/** Heads of every branch in one git call. */
export async function branchHeads(repo: string | null): Promise<Map<string, string>> {
  const heads = new Map<string, string>();
  if (!repo) return heads;
  const text = (await git(repo, ['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads/'])).stdout.toString('utf8');
  for (const line of text.split('\n')) if (line) heads.set(line.slice(41), line.slice(0, 40));
  return heads;
}

/** Whether merging `source` into `target` conflicts: `git merge-tree --write-tree` exits 1 on conflicts. */
export async function mergeTree(repo: string, target: string, source: string): Promise<{ tree: string } | { conflict: true }> {
  const result = await git(repo, ['merge-tree', '--write-tree', '--no-messages', target, source], { okCodes: [1, 128] });
  // 128: no common history, which the platform cannot merge either
  if (result.code !== 0) return { conflict: true };
  return { tree: result.stdout.toString('utf8').split('\n', 1)[0].trim() };
}

export async function gitStateOf(repo: string | null, row: Pick<MergeRequestRow, 'source_branch' | 'target_branch'>, heads?: Map<string, string>): Promise<GitState> {
  const known = heads ?? await branchHeads(repo);
  const sourceHead = known.get(row.source_branch) ?? null;
  const targetHead = known.get(row.target_branch) ?? null;
  if (!repo || !sourceHead || !targetHead) return { sourceHead, targetHead, conflicts: null, hasCommits: Boolean(sourceHead), mergeBase: null };
  const ahead = await git(repo, ['rev-list', '--count', sourceHead, '--not', targetHead]);
  const hasCommits = Number(ahead.stdout.toString('utf8').trim()) > 0;
  const mergeBase = await mergeBaseOf(repo, targetHead, sourceHead);
  const merged = await mergeTree(repo, targetHead, sourceHead);
  return { sourceHead, targetHead, conflicts: 'conflict' in merged, hasCommits, mergeBase };
}

/** The commit both heads grew from, or null when they share none. */
export async function mergeBaseOf(repo: string, targetHead: string, sourceHead: string): Promise<string | null> {
  const base = await git(repo, ['merge-base', '--end-of-options', targetHead, sourceHead], { okCodes: [1] });
  return base.code === 0 ? base.stdout.toString('utf8').trim() : null;
}

/** The stored merge status for a fresh git state (unchanged when nothing could be computed). */
export function mergeStatusFor(state: GitState, current: MergeRequestRow['merge_status']): MergeRequestRow['merge_status'] {
  if (state.conflicts === null) return current === 'unchecked' ? 'can_be_merged' : current;
  return state.conflicts ? 'cannot_be_merged' : 'can_be_merged';
}

/** Why a request cannot be merged now, in the platform's `detailed_merge_status` words. */
export function detailedMergeStatus(
  row: MergeRequestRow, state: GitState | null, blockers: { approvalsLeft?: number; threadsBlock?: boolean; needRebase?: boolean } = {},
): string {
  if (row.state !== 'opened') return 'not_open';
  if (isDraftTitle(row.title)) return 'draft_status';
  if (state && (!state.sourceHead || !state.targetHead)) return 'broken_status';
  if (state && !state.hasCommits) return 'commits_status';
  if (row.merge_status === 'unchecked') return 'unchecked';
  if (row.merge_status === 'cannot_be_merged') return 'conflict';
  if (blockers.needRebase) return 'need_rebase';
  if (blockers.threadsBlock) return 'discussions_not_resolved';
  if ((blockers.approvalsLeft ?? 0) > 0) return 'not_approved';
  return 'mergeable';
}

/** Unresolved threads block merging where the project asks for every thread resolved first. */
export function threadsBlockMerge(project: ProjectRow, counts: Pick<ActivityCounts, 'unresolved'>): boolean {
  return counts.unresolved > 0 && Boolean(projectSettings(project).only_allow_merge_if_all_discussions_are_resolved);
}

/** A fast-forward or semi-linear project merges only a source that contains its target's head. */
export function needsRebase(project: ProjectRow, state: GitState | null): boolean {
  if (!state?.targetHead || !state.sourceHead || projectSettings(project).merge_method === 'merge') return false;
  return state.mergeBase !== state.targetHead;
}

/**
 * Which open requests of a list need a rebase (their source does not contain their target's head),
 * for projects that merge by fast-forward or semi-linear history: one `git merge-base --is-ancestor`
 * a request, so a list says `need_rebase` where the request's own page does.
 */
export async function rebaseNeededOf(repo: string | null, project: ProjectRow, rows: readonly MergeRequestRow[], heads: Map<string, string>): Promise<Set<number>> {
  const needed = new Set<number>();
  if (!repo || projectSettings(project).merge_method === 'merge') return needed;
  for (const row of rows) {
    const sourceHead = heads.get(row.source_branch);
    const targetHead = heads.get(row.target_branch);
    if (row.state !== 'opened' || row.project_id !== project.id || !sourceHead || !targetHead) continue;
    const ancestor = await git(repo, ['merge-base', '--is-ancestor', targetHead, sourceHead], { okCodes: [1] });
    if (ancestor.code !== 0) needed.add(row.id);
  }
  return needed;
}

// -- entities

export interface EntityContext {
  sandbox: Sandbox;
  project: ProjectRow;
  relations: Relations;
  /** The project the request is shown from; references are relative to it (null: the instance-wide list). */
  viewedFrom: ProjectRow | null;
  /** The source head when known from git; else the stored one. */
  heads: Map<string, string> | null;
  /** Approvals each request still needs (absent: none). */
  approvalsLeft?: Map<number, number>;
  /** Requests of a list known to need a rebase (lists compute no git state of their own). */
  rebaseNeeded?: ReadonlySet<number>;
}

export function mergeRequestWebUrl(sandbox: Sandbox, project: ProjectRow, iid: number): string {
  return `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/merge_requests/${iid}`;
}

const userOrNull = (sandbox: Sandbox, users: Map<number, UserRow>, id: number | null) => {
  const user = id === null ? undefined : users.get(id);
  return user ? userBasic(sandbox, user) : null;
};

/** The fields every merge request entity opens with (the simple one, the approval result). */
export function mergeRequestHead(row: MergeRequestRow) {
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** MergeRequestSimple, for `view=simple`. */
export function mergeRequestSimpleEntity(sandbox: Sandbox, project: ProjectRow, row: MergeRequestRow) {
  return {
    ...mergeRequestHead(row),
    web_url: mergeRequestWebUrl(sandbox, project, row.iid),
  };
}

/** The source head the entity shows: live for an open request whose branch exists, else the last one seen. */
export function shownSha(row: MergeRequestRow, heads: Map<string, string> | null): string | null {
  if (row.state === 'merged') return row.head_sha;
  return heads?.get(row.source_branch) ?? row.head_sha;
}

/** MergeRequestBasic (lists), field order as the platform sends them. */
export function mergeRequestBasicEntity(context: EntityContext, row: MergeRequestRow, state: GitState | null = null) {
  const { sandbox, project, relations, viewedFrom } = context;
  const draft = isDraftTitle(row.title);
  const assignees = (relations.assignees.get(row.id) ?? []).map((user) => userBasic(sandbox, user));
  const reviewers = (relations.reviewers.get(row.id) ?? []).map((user) => userBasic(sandbox, user));
  const mergeUser = userOrNull(sandbox, relations.users, row.merge_user_id);
  const counts = relations.counts.get(row.id) ?? { notes: 0, upvotes: 0, downvotes: 0, unresolved: 0 };
  const short = `!${row.iid}`;
  const full = `${project.path_with_namespace}!${row.iid}`;
  const relative = viewedFrom && viewedFrom.id === project.id ? short : full;
  return {
    id: row.id,
    iid: row.iid,
    project_id: row.project_id,
    title: row.title,
    description: row.description,
    state: row.state,
    created_at: row.created_at,
    updated_at: row.updated_at,
    merged_by: mergeUser,
    merge_user: mergeUser,
    merged_at: row.merged_at,
    merge_after: row.merge_after,
    prepared_at: row.created_at,
    closed_by: userOrNull(sandbox, relations.users, row.closed_by_id),
    closed_at: row.closed_at,
    target_branch: row.target_branch,
    source_branch: row.source_branch,
    user_notes_count: counts.notes,
    upvotes: counts.upvotes,
    downvotes: counts.downvotes,
    author: userOrNull(sandbox, relations.users, row.author_id),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers,
    source_project_id: row.project_id,
    target_project_id: row.project_id,
    labels: labelsOf(row),
    draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: draft,
    milestone: row.milestone_id !== null && relations.milestones.has(row.milestone_id) ? milestoneEntity(sandbox, relations.milestones.get(row.milestone_id)!, sandbox.now()) : null,
    merge_when_pipeline_succeeds: false,
    merge_status: row.merge_status,
    detailed_merge_status: detailedMergeStatus(row, state, {
      approvalsLeft: context.approvalsLeft?.get(row.id), threadsBlock: threadsBlockMerge(project, counts), needRebase: needsRebase(project, state) || Boolean(context.rebaseNeeded?.has(row.id)),
    }),
    sha: shownSha(row, context.heads),
    merge_commit_sha: row.merge_commit_sha,
    squash_commit_sha: row.squash_commit_sha,
    discussion_locked: row.discussion_locked === null ? null : Boolean(row.discussion_locked),
    should_remove_source_branch: row.should_remove_source_branch === null ? null : Boolean(row.should_remove_source_branch),
    force_remove_source_branch: row.force_remove_source_branch === null ? null : Boolean(row.force_remove_source_branch),
    allow_collaboration: Boolean(row.allow_collaboration),
    allow_maintainer_to_push: Boolean(row.allow_collaboration),
    reference: relative,
    references: { short, relative, full },
    web_url: mergeRequestWebUrl(sandbox, project, row.iid),
    time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
    squash: Boolean(row.squash),
    squash_on_merge: Boolean(row.squash),
    task_completion_status: taskCounts(row.description),
    has_conflicts: row.merge_status === 'cannot_be_merged',
    // the platform's mergeable_discussions_state: unresolved threads block only where the project says so
    blocking_discussions_resolved: !threadsBlockMerge(project, counts),
    approvals_before_merge: null,
  };
}

/** The single-request entity: the basic one plus what needs git (changes, diff refs) and the caller. */
export function mergeRequestEntity(
  context: EntityContext,
  row: MergeRequestRow,
  state: GitState | null,
  extra: { changesCount: number | null; canMerge: boolean; subscribed: boolean },
) {
  return {
    ...mergeRequestBasicEntity(context, row, state),
    subscribed: extra.subscribed,
    changes_count: extra.changesCount === null ? null : String(extra.changesCount),
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: state?.sourceHead && state.targetHead
      ? { base_sha: state.mergeBase, head_sha: state.sourceHead, start_sha: state.targetHead }
      : row.state === 'merged' && row.head_sha ? { base_sha: null, head_sha: row.head_sha, start_sha: null } : null,
    merge_error: null,
    first_contribution: false,
    user: { can_merge: extra.canMerge },
  };
}

// -- system hook events

export type MergeRequestAction = 'open' | 'update' | 'close' | 'reopen' | 'merge';

/** A request as it stood right after a write: the row and its people. */
export interface MergeRequestSnapshot {
  row: MergeRequestRow;
  assigneeIds: number[];
  reviewerIds: number[];
}

export function snapshotOf(db: Db, row: MergeRequestRow): MergeRequestSnapshot {
  return {
    row: { ...row },
    assigneeIds: participantIds(db, 'merge_request_assignees', row.id),
    reviewerIds: participantIds(db, 'merge_request_reviewers', row.id),
  };
}

// MergeRequest::SAFE_HOOK_ATTRIBUTES that the sandbox keeps: what `changes` may name
const HOOK_ATTRIBUTES = [
  'assignee_id', 'author_id', 'blocking_discussions_resolved', 'created_at', 'description', 'head_pipeline_id', 'id', 'iid',
  'last_edited_at', 'last_edited_by_id', 'merge_commit_sha', 'merge_error', 'merge_params', 'merge_status', 'merge_user_id',
  'merge_when_pipeline_succeeds', 'milestone_id', 'source_branch', 'source_project_id', 'state_id', 'target_branch',
  'target_project_id', 'time_estimate', 'title', 'updated_at', 'updated_by_id', 'draft',
] as const;

const STATE_IDS: Record<MergeRequestState, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** Hook payloads carry the record's times as Rails prints them: `2024-05-01 09:03:00 UTC`. */
const hookTime = (iso: string | null) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : null);

/** The record's own attributes as the hook shows them (MergeRequest#hook_attrs before the builder's additions). */
function rawHookAttributes(snapshot: MergeRequestSnapshot): Record<string, unknown> {
  const { row } = snapshot;
  return {
    assignee_id: snapshot.assigneeIds[0] ?? null,
    author_id: row.author_id,
    blocking_discussions_resolved: true,
    created_at: hookTime(row.created_at),
    description: row.description,
    head_pipeline_id: null,
    id: row.id,
    iid: row.iid,
    last_edited_at: hookTime(row.last_edited_at),
    last_edited_by_id: row.last_edited_by_id,
    merge_commit_sha: row.merge_commit_sha,
    merge_error: null,
    merge_params: { force_remove_source_branch: row.force_remove_source_branch ? '1' : '0' },
    merge_status: row.merge_status,
    merge_user_id: row.merge_user_id,
    merge_when_pipeline_succeeds: false,
    milestone_id: row.milestone_id,
    source_branch: row.source_branch,
    source_project_id: row.project_id,
    state_id: STATE_IDS[row.state],
    target_branch: row.target_branch,
    target_project_id: row.project_id,
    time_estimate: 0,
    title: row.title,
    updated_at: hookTime(row.updated_at),
    updated_by_id: row.updated_by_id,
    draft: isDraftTitle(row.title),
  };
}

function userHookAttrs(sandbox: Sandbox, user: UserRow) {
  // the platform sends the public email only (Users#webhook_email)
  return { id: user.id, name: user.name, username: user.username, avatar_url: avatarUrl(sandbox, user), email: user.public_email || '[REDACTED]' };
}

function labelHookAttrs(project: ProjectRow, names: readonly string[]) {
  // labels are names only in the sandbox: the platform's label records have no counterpart yet
  return names.map((title) => ({
    id: null, title, color: '#6699cc', project_id: project.id, created_at: null, updated_at: null, template: false,
    description: null, type: 'ProjectLabel', group_id: null,
  }));
}

/** `changes` of the payload: each attribute that differs, with its previous and current value (Issuable#to_hook_data). */
function hookChanges(sandbox: Sandbox, project: ProjectRow, before: MergeRequestSnapshot | null, after: MergeRequestSnapshot) {
  const old = before ? rawHookAttributes(before) : {};
  const now = rawHookAttributes(after);
  const changes: Record<string, { previous: unknown; current: unknown }> = {};
  for (const key of HOOK_ATTRIBUTES) {
    const previous = (old as Record<string, unknown>)[key] ?? null;
    const current = now[key] ?? null;
    if (JSON.stringify(previous) !== JSON.stringify(current)) changes[key] = { previous, current };
  }
  const oldLabels = before ? labelsOf(before.row) : [];
  const newLabels = labelsOf(after.row);
  if (JSON.stringify(oldLabels) !== JSON.stringify(newLabels)) {
    changes.labels = { previous: labelHookAttrs(project, oldLabels), current: labelHookAttrs(project, newLabels) };
  }
  const users = (ids: number[]) => ids.map((id) => sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined)
    .filter((user): user is UserRow => Boolean(user))
    .map((user) => ({ id: user.id, name: user.name, username: user.username, avatar_url: avatarUrl(sandbox, user) }));
  for (const [key, field] of [['assignees', 'assigneeIds'], ['reviewers', 'reviewerIds']] as const) {
    const previous = before ? before[field] : [];
    if (JSON.stringify(previous) !== JSON.stringify(after[field])) changes[key] = { previous: users(previous), current: users(after[field]) };
  }
  return changes;
}

async function mergeRequestPayload(
  sandbox: Sandbox, project: ProjectRow, user: UserRow, repo: string | null,
  before: MergeRequestSnapshot | null, after: MergeRequestSnapshot, action: MergeRequestAction, oldrev?: string,
) {
  const projectAttrs = projectHookAttrs(sandbox, project);
  const { row } = after;
  const sha = row.state === 'merged' ? row.head_sha : (await branchHeads(repo)).get(row.source_branch) ?? row.head_sha;
  const commit = repo && sha ? await readCommit(repo, sha).catch(() => null) : null;
  const labels = labelHookAttrs(project, labelsOf(row));
  const people = (ids: number[]) => ids
    .map((id) => sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined)
    .filter((person): person is UserRow => Boolean(person))
    .map((person) => ({ id: person.id, name: person.name, username: person.username, avatar_url: avatarUrl(sandbox, person) }));
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userHookAttrs(sandbox, user),
    project: projectAttrs,
    object_attributes: {
      ...rawHookAttributes(after),
      description: row.description ?? '',
      url: mergeRequestWebUrl(sandbox, project, row.iid),
      source: projectAttrs,
      target: projectAttrs,
      last_commit: commit ? commitHookAttrs(sandbox, project, commit) : null,
      work_in_progress: isDraftTitle(row.title),
      total_time_spent: 0,
      time_change: 0,
      human_total_time_spent: null,
      human_time_change: null,
      human_time_estimate: null,
      assignee_ids: after.assigneeIds,
      reviewer_ids: after.reviewerIds,
      labels,
      state: row.state,
      first_contribution: false,
      detailed_merge_status: detailedMergeStatus(row, null),
      action,
      // a push to the source branch says where the branch was (MergeRequests::RefreshService)
      ...(oldrev ? { oldrev } : {}),
    },
    labels,
    changes: hookChanges(sandbox, project, before, after),
    repository: { name: projectAttrs.name, url: projectAttrs.url, description: projectAttrs.description, homepage: projectAttrs.homepage },
    assignees: people(after.assigneeIds),
    reviewers: people(after.reviewerIds),
  };
}

/**
 * Tells the system hooks with `merge_requests_events` about a request's change. Call it after
 * the write committed: the payload is built and posted in the background, never slowing or
 * failing the request.
 */
export function announceMergeRequestEvent(
  sandbox: Sandbox, project: ProjectRow, user: UserRow | null, repo: string | null,
  before: MergeRequestSnapshot | null, after: MergeRequestSnapshot, action: MergeRequestAction, oldrev?: string,
): void {
  if (!user) return;
  void deliveryQueue(sandbox).run(async () => {
    try {
      const subscribed = sandbox.db.prepare('SELECT 1 FROM system_hooks WHERE merge_requests_events = 1 LIMIT 1').get();
      if (!subscribed) return;
      // not awaited: the deliveries take their own places in the queue
      void deliverSystemEvent(sandbox, { kind: 'merge_request', data: await mergeRequestPayload(sandbox, project, user, repo, before, after, action, oldrev) });
    } catch {
      // a repository moved or removed meanwhile, or a closed store: the event is lost, the write stands
    }
  });
}

/**
 * A push to the source branch of open requests is an `update` of each, with the branch's previous
 * head as `oldrev`. Branch deletions and tags leave requests alone.
 */
export function announceSourceBranchPushes(sandbox: Sandbox, project: ProjectRow, user: UserRow | null, repo: string, changes: readonly { ref: string; before: string; after: string }[]): void {
  for (const change of changes) {
    if (!change.ref.startsWith('refs/heads/') || /^0+$/.test(change.after)) continue;
    resetApprovalsOnPush(sandbox.db, project.id, change.ref.slice('refs/heads/'.length));
    const rows = sandbox.db
      .prepare(`SELECT * FROM merge_requests WHERE project_id = ? AND source_branch = ? AND state = 'opened'`)
      .all(project.id, change.ref.slice('refs/heads/'.length)) as MergeRequestRow[];
    for (const row of rows) {
      const snapshot = snapshotOf(sandbox.db, row);
      announceMergeRequestEvent(sandbox, project, user, repo, snapshot, snapshot, 'update', /^0+$/.test(change.before) ? undefined : change.before);
      traceAfterPush(sandbox, repo, row, change.after);
    }
  }
}

interface StoredPosition {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string | null;
  new_path: string | null;
}

/**
 * The platform's position tracing, in its plainest case: once a request's changes have a new version,
 * a thread on a line of a file that reads the same on both sides as before moves to the new version
 * (its lines are where they were); one whose file changed stays on its old version (outdated).
 */
export async function traceDiffPositions(db: Db, repo: string, mergeRequestId: number, state: Pick<GitState, 'sourceHead' | 'targetHead' | 'mergeBase'>): Promise<void> {
  const { sourceHead, targetHead, mergeBase } = state;
  if (!sourceHead || !targetHead || !mergeBase) return;
  const stored = db.prepare("SELECT id, position FROM notes WHERE noteable_type = 'MergeRequest' AND noteable_id = ? AND position IS NOT NULL").all(mergeRequestId) as Array<{ id: number; position: string }>;
  const moving = stored.map((note) => ({ id: note.id, position: JSON.parse(note.position) as StoredPosition })).filter(({ position }) => position.head_sha !== sourceHead);
  if (!moving.length) return;
  // each file as the thread saw it and as it is now, both sides, in one git call: blob ids, or "missing"
  const objects = moving.flatMap(({ position }) => {
    const newPath = position.new_path ?? position.old_path;
    const oldPath = position.old_path ?? position.new_path;
    return [`${position.head_sha}:${newPath}`, `${sourceHead}:${newPath}`, `${position.base_sha}:${oldPath}`, `${mergeBase}:${oldPath}`];
  });
  const answer = await gitText(repo, ['cat-file', '--batch-check=%(objectname)'], { input: `${objects.join('\n')}\n` });
  const blobs = answer.split('\n').map((line) => (line.endsWith(' missing') ? 'missing' : line));
  const move = db.prepare('UPDATE notes SET position = ? WHERE id = ?');
  moving.forEach(({ id, position }, index) => {
    const [before, now, baseBefore, baseNow] = blobs.slice(index * 4, index * 4 + 4);
    if (before !== now || baseBefore !== baseNow) return;
    move.run(JSON.stringify({ ...position, base_sha: mergeBase, start_sha: targetHead, head_sha: sourceHead }), id);
  });
}

const tracing = new WeakMap<Sandbox, Set<Promise<void>>>();

/** A push's tracing of the request's line threads, in the background as the platform's refresh runs; never failing the push. */
function traceAfterPush(sandbox: Sandbox, repo: string, row: MergeRequestRow, sourceHead: string): void {
  let pending = tracing.get(sandbox);
  if (!pending) tracing.set(sandbox, (pending = new Set()));
  const work: Promise<void> = (async () => {
    const targetHead = await branchHead(repo, row.target_branch);
    if (targetHead) await traceDiffPositions(sandbox.db, repo, row.id, { sourceHead, targetHead, mergeBase: await mergeBaseOf(repo, targetHead, sourceHead) });
  })()
    // a repository removed meanwhile, or a closed store: the threads stay where they were
    .catch(() => undefined)
    .finally(() => pending.delete(work));
  pending.add(work);
}

/** Reads and writes of a request's threads wait for a push's tracing under way, so no client sees a thread's old place after the push answered. */
export async function pushesTraced(sandbox: Sandbox): Promise<void> {
  const pending = tracing.get(sandbox);
  if (pending?.size) await Promise.all(pending);
}
