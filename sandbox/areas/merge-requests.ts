import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { HttpError, conflict, forbidden, notFound, paramError, statusError, unauthorized, validationError } from '../http/errors.ts';
import { pageOfArray, pageOfQuery } from '../http/pagination.ts';
import { ParamReader, collectParamErrors, idNoneAny, type Params } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, findReadableGroup, findReadableProject, groupDescendants, type ProjectRow } from '../model/access.ts';
import { likeContains } from '../model/sql.ts';
import { availableMilestones } from '../model/labels.ts';
import { timestamp } from '../model/time.ts';
import { ProjectProtections, canAccessBranch } from '../model/protected-branches.ts';
import {
  DESCRIPTION_MAX, actorOf, announceMergeRequestEvent, branchHeads, canReadMergeRequests, canUpdateMergeRequest, conflictingOpenRequest,
  duplicateMessage, findMergeRequest, gitStateOf, isDraftTitle, labelsOf, loadRelations, mergeRequestBasicEntity, mergeRequestEntity,
  mergeRequestSimpleEntity, mergeBaseOf, mergeStatusFor, activityCounts, needsRebase, rebaseNeededOf, threadsBlockMerge, mergeTree, nextIid, normalizeLabels, projectRoleOf, setParticipants, snapshotOf,
  traceDiffPositions, type GitState, type MergeRequestAction, type MergeRequestRow, type MergeRequestSnapshot,
} from '../model/merge-requests.ts';
import { approvalStateOf, approvalsLeftOf } from '../model/approvals.ts';
import { projectSettings, userBasic } from '../model/entities.ts';
import { commitFailed, repositoryFor, writableRepository } from '../git/access.ts';
import { commitEntity, recordPush } from '../git/entities.ts';
import { git, gitText, identityEnv, type Identity } from '../git/exec.ts';
import { commitDiffs } from '../git/diff.ts';
import { announceRefChanges, type RefChange } from '../git/push-events.ts';
import { ZERO_SHA, isValidBranchName, readCommits } from '../git/repository.ts';
import { CommitFailure, moveBranch } from '../git/write.ts';
import { recordMergeRequestChanges } from '../model/merge-request-notes.ts';

const TITLE_MAX = 255;

// the attributes of which an update needs one (API::MergeRequests.update_params_at_least_one_of)
const UPDATE_ATTRIBUTES = [
  'assignee_id', 'assignee_ids', 'reviewer_ids', 'description', 'labels', 'add_labels', 'remove_labels', 'milestone_id',
  'remove_source_branch', 'allow_collaboration', 'allow_maintainer_to_push', 'squash', 'target_branch', 'title', 'state_event',
  'discussion_locked', 'merge_after',
] as const;

const ORDER_COLUMNS: Record<string, string> = {
  created_at: 'm.created_at',
  updated_at: 'm.updated_at',
  title: 'm.title',
  merged_at: 'm.merged_at',
  // label priorities, milestones and reactions do not exist in the sandbox: those orders fall back to creation
  label_priority: 'm.created_at',
  milestone_due: 'm.created_at',
  popularity: 'm.created_at',
  priority: 'm.created_at',
};

/** The project whose merge requests the caller reads: 404 when hidden, 403 without `read_merge_request`. */
export function mergeRequestProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  if (!canReadMergeRequests(call.sandbox.db, call.actor, project, call.now)) throw forbidden();
  return project;
}

export function iidParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'merge_request_iid');
  if (!/^\d{1,15}$/.test(raw)) throw paramError('merge_request_iid is invalid');
  return Number(raw);
}

export function requestOf(call: Call, project: ProjectRow, iid: number): MergeRequestRow {
  const row = findMergeRequest(call.sandbox.db, project.id, iid);
  if (!row) throw notFound('Merge Request');
  return row;
}

/** Ids where `0` or an empty value means nobody (assignee_ids, reviewer_ids). */
function idList(params: ParamReader, name: string): number[] | undefined {
  const ids = params.intArray(name);
  return ids?.filter((id) => id > 0);
}

/** Users that may be assigned: existing ones who can read the project's merge requests; others are dropped silently. */
function assignableUsers(call: Call, project: ProjectRow, ids: readonly number[]): number[] {
  const kept: number[] = [];
  for (const id of [...new Set(ids)]) {
    const user = call.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    if (user && canReadMergeRequests(call.sandbox.db, actorOf(user), project, call.now)) kept.push(id);
  }
  return kept;
}

function requiredPresent(params: ParamReader, name: string): string {
  const value = params.string(name);
  if (value === undefined) throw paramError(`${name} is missing`);
  return value;
}

function lengthErrors(title: string | undefined, description: string | undefined): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (title !== undefined && !title.trim()) errors.title = ["can't be blank"];
  else if (title !== undefined && title.length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`];
  if (description !== undefined && description.length > DESCRIPTION_MAX) errors.description = [`is too long (maximum is ${DESCRIPTION_MAX} characters)`];
  return errors;
}

/**
 * The platform's order of merge request validation answers: 422 for a branch conflict, 409 for
 * a duplicate, then 400 with the field errors.
 */
function branchErrors(
  call: Call, project: ProjectRow, heads: Map<string, string>,
  input: { source: string; target: string; exceptId: number | null; opened: boolean; checkSource: boolean; checkTarget: boolean },
  fieldErrors: Record<string, string[]>,
): void {
  if (input.source === input.target) throw new HttpError(422, { message: ["You can't use same project/branch for source and target"] });
  const errors = { ...fieldErrors };
  const check = (field: 'source_branch' | 'target_branch', name: string) => {
    if (!name.trim()) errors[field] = ["can't be blank"];
    else if (!isValidBranchName(name)) errors[field] = ['is invalid'];
    else if (!heads.has(name)) errors[field] = ['does not exist'];
  };
  if (input.checkSource) check('source_branch', input.source);
  if (input.checkTarget) check('target_branch', input.target);
  if (input.opened) {
    const duplicate = conflictingOpenRequest(call.sandbox.db, project.id, input.source, input.target, input.exceptId);
    if (duplicate) throw new HttpError(409, { message: [duplicateMessage(duplicate.iid)] });
  }
  if (Object.keys(errors).length) throw validationError(errors);
}

async function changesCount(repo: string | null, from: string | null, to: string | null): Promise<number | null> {
  if (!repo || !from || !to) return null;
  const text = await gitText(repo, ['diff', '--name-only', '--no-renames', from, to]).catch(() => null);
  return text === null ? null : text.split('\n').filter(Boolean).length;
}

/** The full entity of one request, with git read now. */
async function detailOf(call: Call, project: ProjectRow, row: MergeRequestRow, repo: string | null, heads: Map<string, string>, state: GitState | null) {
  const relations = loadRelations(call.sandbox.db, [row]);
  let count: number | null = null;
  if (row.state === 'merged' && row.merge_commit_sha && row.head_sha && repo) {
    count = await changesCount(repo, `${row.merge_commit_sha}^1`, row.merge_commit_sha);
  } else if (state?.mergeBase) {
    count = await changesCount(repo, state.mergeBase, state.sourceHead);
  }
  const user = call.actor.user;
  const canMerge = Boolean(user) && !project.archived && row.state === 'opened'
    && canAccessBranch(call.sandbox.db, call.actor, project, row.target_branch, 'merge', call.now);
  const subscribed = Boolean(user) && (row.author_id === user!.id || (relations.assignees.get(row.id) ?? []).some((assignee) => assignee.id === user!.id));
  const approvalsLeft = approvalsLeftOf(call.sandbox.db, [row], call.now);
  return mergeRequestEntity({ sandbox: call.sandbox, project, relations, viewedFrom: project, heads, approvalsLeft }, row, state, { changesCount: count, canMerge, subscribed });
}

/** Git's view of an open request, saved when it moved (the platform's mergeability recheck). */
async function refreshed(call: Call, row: MergeRequestRow, repo: string | null, heads: Map<string, string>): Promise<{ row: MergeRequestRow; state: GitState | null }> {
  if (row.state !== 'opened') return { row, state: null };
  const state = await gitStateOf(repo, row, heads);
  const status = mergeStatusFor(state, row.merge_status);
  const head = state.sourceHead ?? row.head_sha;
  if (status === row.merge_status && head === row.head_sha) return { row, state };
  if (repo && head !== row.head_sha) await traceDiffPositions(call.sandbox.db, repo, row.id, state);
  call.sandbox.db.prepare('UPDATE merge_requests SET merge_status = ?, head_sha = ? WHERE id = ?').run(status, head, row.id);
  return { row: { ...row, merge_status: status, head_sha: head }, state };
}

// -- list

/** `approved_by_ids` and `approver_ids`: up to 5 user ids, or `None` / `Any`. */
function approvalIdsParam(params: ParamReader, name: string): number[] | 'none' | 'any' | undefined {
  const raw = params.raw[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw === 'string' && /^(none|any)$/i.test(raw)) return raw.toLowerCase() as 'none' | 'any';
  const ids = params.intArray(name);
  if (ids && ids.length > 5) throw paramError(`${name} has too many values (maximum is 5)`);
  return ids?.length ? ids : undefined;
}

interface ListFilter {
  sql: string[];
  args: unknown[];
}

function userIdByName(call: Call, username: string): number {
  const row = call.sandbox.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number } | undefined;
  // an unknown user matches nothing, as the platform's finder does
  return row?.id ?? -1;
}

function participantFilter(table: 'merge_request_assignees' | 'merge_request_reviewers', value: number | 'none' | 'any', negate = false): string {
  const exists = typeof value === 'number'
    ? `EXISTS (SELECT 1 FROM ${table} p WHERE p.merge_request_id = m.id AND p.user_id = ${Number(value)})`
    : `EXISTS (SELECT 1 FROM ${table} p WHERE p.merge_request_id = m.id)`;
  // `None` asks for requests without anyone; negating turns either way round
  const positive = (value !== 'none') !== negate;
  return positive ? exists : `NOT ${exists}`;
}

function labelFilter(names: string[], negate: boolean): { sql: string; args: unknown[] } | null {
  if (!names.length) return null;
  const lower = names.map((name) => name.toLowerCase());
  if (lower.length === 1 && (lower[0] === 'none' || lower[0] === 'any')) {
    const hasAny = "json_array_length(m.labels) > 0";
    const wantAny = (lower[0] === 'any') !== negate;
    return { sql: wantAny ? hasAny : `NOT (${hasAny})`, args: [] };
  }
  const clauses = names.map(() => 'EXISTS (SELECT 1 FROM json_each(m.labels) l WHERE lower(l.value) = lower(?))');
  // all of the labels; negated: none of them
  return negate ? { sql: `NOT (${clauses.join(' OR ')})`, args: names } : { sql: clauses.join(' AND '), args: names };
}

/** `milestone`: a title, `None` or `Any`; negated, requests without one stay in. */
function milestoneFilter(value: string, negate: boolean, sql: string[], args: unknown[]): void {
  const lower = value.toLowerCase();
  if (lower === 'none' || lower === 'any') {
    sql.push((lower === 'any') !== negate ? 'm.milestone_id IS NOT NULL' : 'm.milestone_id IS NULL');
    return;
  }
  const clause = 'm.milestone_id IN (SELECT id FROM milestones WHERE title = ?)';
  sql.push(negate ? `(m.milestone_id IS NULL OR NOT ${clause})` : clause);
  args.push(value);
}

/** A milestone of the project or its groups; another one is dropped, as the platform's service does (0 or empty: none). */
function milestoneFor(call: Call, project: ProjectRow, raw: unknown, id: number | undefined): number | null | undefined {
  if (raw === '' || raw === null || id === 0) return null;
  if (id === undefined) return undefined;
  return availableMilestones(call.sandbox.db, project).some((milestone) => milestone.id === id) ? id : undefined;
}

/** `my_reaction_emoji`: an emoji the caller gave, `None` or `Any` (negated: requests without that emoji of theirs). */
function reactionFilter(value: string | undefined, me: number, negate: boolean, sql: string[], args: unknown[]): void {
  if (value === undefined || value === '') return;
  const base = `EXISTS (SELECT 1 FROM award_emoji a WHERE a.awardable_type = 'MergeRequest' AND a.awardable_id = m.id AND a.user_id = ${Number(me)}`;
  const lower = value.toLowerCase();
  if (lower === 'none' || lower === 'any') {
    sql.push((lower === 'any') !== negate ? `${base})` : `NOT ${base})`);
    return;
  }
  sql.push(`${negate ? 'NOT ' : ''}${base} AND a.name = ?)`);
  args.push(value);
}

/** The list filters of spec 2, 4.3 as SQL over `merge_requests m`. */
function listFilter(call: Call, scopeDefault: 'all' | 'created_by_me', projectIds: number[] | null, projectList: boolean): ListFilter {
  const { params } = call;
  const sql: string[] = [];
  const args: unknown[] = [];
  let state = 'all';
  let scope: string = scopeDefault;
  let search: string | undefined;
  let searchIn: string[] = ['title', 'description'];
  collectParamErrors([
    () => { state = params.oneOf('state', ['opened', 'closed', 'locked', 'merged', 'all'] as const) ?? 'all'; },
    () => { params.oneOf('order_by', Object.keys(ORDER_COLUMNS)); },
    () => { params.oneOf('sort', ['asc', 'desc'] as const); },
    () => { params.oneOf('view', ['simple'] as const); },
    () => { params.oneOf('wip', ['yes', 'no'] as const); },
    () => { scope = params.oneOf('scope', ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'reviews_for_me', 'all'] as const) ?? scopeDefault; },
    () => { params.int('author_id'); },
    () => { params.int('merge_user_id'); },
    () => { idNoneAny(params, 'assignee_id'); },
    () => { idNoneAny(params, 'reviewer_id'); },
    () => { params.dateTime('created_after'); },
    () => { params.dateTime('created_before'); },
    () => { params.dateTime('updated_after'); },
    () => { params.dateTime('updated_before'); },
    () => { params.bool('with_labels_details'); },
    () => { params.bool('with_merge_status_recheck'); },
    () => { params.intArray('iids'); },
    () => { params.bool('non_archived'); },
    () => { approvalIdsParam(params, 'approved_by_ids'); },
    () => { approvalIdsParam(params, 'approver_ids'); },
  ]);
  for (const [a, b] of [['author_id', 'author_username'], ['assignee_id', 'assignee_username'], ['reviewer_id', 'reviewer_username'], ['merge_user_id', 'merge_user_username']]) {
    if (params.has(a) && params.has(b)) throw paramError(`${a}, ${b} are mutually exclusive`);
  }
  if (projectIds) {
    sql.push('m.project_id IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(projectIds));
  }
  if (state !== 'all') {
    sql.push('m.state = ?');
    args.push(state);
  }
  const me = call.actor.user?.id ?? -1;
  scope = scope.replaceAll('-', '_');
  if (scope === 'created_by_me') {
    sql.push('m.author_id = ?');
    args.push(me);
  } else if (scope === 'assigned_to_me') {
    sql.push(participantFilter('merge_request_assignees', me));
  } else if (scope === 'reviews_for_me') {
    sql.push(participantFilter('merge_request_reviewers', me));
  }
  const authorId = params.int('author_id') ?? (params.string('author_username') ? userIdByName(call, params.string('author_username')!) : undefined);
  if (authorId !== undefined) {
    sql.push('m.author_id = ?');
    args.push(authorId);
  }
  const assignee = idNoneAny(params, 'assignee_id');
  if (assignee !== undefined) sql.push(participantFilter('merge_request_assignees', assignee));
  for (const name of params.stringArray('assignee_username') ?? []) sql.push(participantFilter('merge_request_assignees', userIdByName(call, name)));
  const reviewerName = params.string('reviewer_username');
  const reviewer = idNoneAny(params, 'reviewer_id')
    ?? (reviewerName === undefined ? undefined : /^(none|any)$/i.test(reviewerName) ? (reviewerName.toLowerCase() as 'none' | 'any') : userIdByName(call, reviewerName));
  if (reviewer !== undefined) sql.push(participantFilter('merge_request_reviewers', reviewer));
  const mergeUser = params.int('merge_user_id') ?? (params.string('merge_user_username') ? userIdByName(call, params.string('merge_user_username')!) : undefined);
  if (mergeUser !== undefined) {
    sql.push('m.merge_user_id = ?');
    args.push(mergeUser);
  }
  for (const field of ['source_branch', 'target_branch'] as const) {
    const value = params.string(field);
    if (value !== undefined && value !== '') {
      sql.push(`m.${field} = ?`);
      args.push(value);
    }
  }
  search = params.string('search');
  const inParam = params.string('in');
  if (inParam) searchIn = inParam.split(',').map((part) => part.trim()).filter((part) => part === 'title' || part === 'description');
  if (search && searchIn.length) {
    sql.push(`(${searchIn.map((column) => `m.${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
    for (let i = 0; i < searchIn.length; i++) args.push(likeContains(search));
  }
  const labels = labelFilter(normalizeLabels(params.stringArray('labels') ?? []), false);
  if (labels) {
    sql.push(labels.sql);
    args.push(...labels.args);
  }
  const milestone = params.string('milestone');
  if (milestone) milestoneFilter(milestone, false, sql, args);
  for (const [param, column, op] of [['created_after', 'created_at', '>='], ['created_before', 'created_at', '<='], ['updated_after', 'updated_at', '>='], ['updated_before', 'updated_at', '<=']] as const) {
    const value = params.dateTime(param);
    if (value) {
      sql.push(`m.${column} ${op} ?`);
      args.push(value);
    }
  }
  const iids = params.intArray('iids');
  if (iids && projectList && iids.length) {
    sql.push('m.iid IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(iids));
  }
  const approvedBy = approvalIdsParam(params, 'approved_by_ids');
  if (approvedBy === 'none' || approvedBy === 'any') {
    sql.push(`${approvedBy === 'none' ? 'NOT ' : ''}EXISTS (SELECT 1 FROM merge_request_approvals a WHERE a.merge_request_id = m.id)`);
  } else if (approvedBy) {
    // approved by every one of them
    for (const id of approvedBy) sql.push(`EXISTS (SELECT 1 FROM merge_request_approvals a WHERE a.merge_request_id = m.id AND a.user_id = ${Number(id)})`);
  }
  const usernames = params.stringArray('approved_by_usernames');
  for (const name of usernames ?? []) {
    sql.push('EXISTS (SELECT 1 FROM merge_request_approvals a WHERE a.merge_request_id = m.id AND a.user_id = ?)');
    args.push(userIdByName(call, name));
  }
  const approvers = approvalIdsParam(params, 'approver_ids');
  if (approvers) {
    // approvers named by a rule of the request, or of its project when it has none of its own
    const named = `(SELECT r.user_ids FROM approval_rules r WHERE r.merge_request_id = m.id
        OR (r.project_id = m.project_id AND r.merge_request_id IS NULL AND NOT EXISTS (SELECT 1 FROM approval_rules o WHERE o.merge_request_id = m.id)))`;
    const anyNamed = `EXISTS (SELECT 1 FROM ${named} x, json_each(x.user_ids) u)`;
    if (approvers === 'none') sql.push(`NOT ${anyNamed}`);
    else if (approvers === 'any') sql.push(anyNamed);
    else for (const id of approvers) sql.push(`EXISTS (SELECT 1 FROM ${named} x, json_each(x.user_ids) u WHERE u.value = ${Number(id)})`);
  }
  reactionFilter(params.string('my_reaction_emoji'), me, false, sql, args);
  const wip = params.string('wip');
  if (wip === 'yes' || wip === 'no') {
    const draft = "(lower(ltrim(m.title)) LIKE '[draft]%' OR lower(ltrim(m.title)) LIKE '(draft)%' OR lower(ltrim(m.title)) LIKE 'draft:%')";
    sql.push(wip === 'yes' ? draft : `NOT ${draft}`);
  }
  const not = params.raw.not;
  if (not !== undefined && not !== null) {
    if (typeof not !== 'object' || Array.isArray(not)) throw paramError('not is invalid');
    const negated = new ParamReader(not as Params);
    const notAuthor = negated.int('author_id') ?? (negated.string('author_username') ? userIdByName(call, negated.string('author_username')!) : undefined);
    if (notAuthor !== undefined) {
      sql.push('m.author_id IS NOT ?');
      args.push(notAuthor);
    }
    const notMilestone = negated.string('milestone');
    if (notMilestone) milestoneFilter(notMilestone, true, sql, args);
    const notLabels = labelFilter(normalizeLabels(negated.stringArray('labels') ?? []), true);
    if (notLabels) {
      sql.push(notLabels.sql);
      args.push(...notLabels.args);
    }
    const notAssignee = idNoneAny(negated, 'assignee_id') ?? (negated.string('assignee_username') ? userIdByName(call, negated.string('assignee_username')!) : undefined);
    if (notAssignee !== undefined) sql.push(participantFilter('merge_request_assignees', notAssignee, true));
    const notReviewerName = negated.string('reviewer_username');
    const notReviewer = idNoneAny(negated, 'reviewer_id')
      ?? (notReviewerName ? (/^(none|any)$/i.test(notReviewerName) ? (notReviewerName.toLowerCase() as 'none' | 'any') : userIdByName(call, notReviewerName)) : undefined);
    if (notReviewer !== undefined) sql.push(participantFilter('merge_request_reviewers', notReviewer, true));
    reactionFilter(negated.string('my_reaction_emoji'), me, true, sql, args);
  }
  return { sql, args };
}

async function listAnswer(c: Context<AppEnv>, call: Call, filter: ListFilter, viewedFrom: ProjectRow | null) {
  const { db } = call.sandbox;
  const where = filter.sql.length ? `WHERE ${filter.sql.join(' AND ')}` : '';
  const column = ORDER_COLUMNS[call.params.string('order_by') ?? 'created_at'] ?? 'm.created_at';
  const direction = call.params.string('sort') === 'asc' ? 'ASC' : 'DESC';
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM merge_requests m ${where} LIMIT ?)`).get(...filter.args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT m.* FROM merge_requests m ${where} ORDER BY ${column} ${direction}, m.id ${direction} LIMIT ? OFFSET ?`)
      .all(...filter.args, limit, offset) as MergeRequestRow[],
  });
  const projects = new Map<number, ProjectRow>();
  for (const id of new Set(rows.map((row) => row.project_id))) {
    projects.set(id, db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow);
  }
  if (call.params.string('view') === 'simple') {
    return c.json(rows.map((row) => mergeRequestSimpleEntity(call.sandbox, projects.get(row.project_id)!, row)));
  }
  const headsByProject = new Map<number, Map<string, string>>();
  for (const project of projects.values()) {
    headsByProject.set(project.id, await branchHeads(repositoryFor(call, project)).catch(() => new Map<string, string>()));
  }
  // with_merge_status_recheck: the page's open requests asked of git again, for Developers and up (lists do not otherwise)
  if (call.params.bool('with_merge_status_recheck')) {
    for (const [index, row] of rows.entries()) {
      const project = projects.get(row.project_id)!;
      if (row.state !== 'opened' || projectRoleOf(db, call.actor, project, call.now) < AccessLevel.DEVELOPER) continue;
      rows[index] = (await refreshed(call, row, repositoryFor(call, project), headsByProject.get(project.id)!).catch(() => ({ row }))).row;
    }
  }
  const relations = loadRelations(db, rows);
  const approvalsLeft = approvalsLeftOf(db, rows, call.now);
  const rebaseNeeded = new Set<number>();
  for (const project of projects.values()) {
    const needed = await rebaseNeededOf(repositoryFor(call, project), project, rows, headsByProject.get(project.id)!).catch(() => new Set<number>());
    for (const id of needed) rebaseNeeded.add(id);
  }
  return c.json(rows.map((row) => {
    const project = projects.get(row.project_id)!;
    return mergeRequestBasicEntity({ sandbox: call.sandbox, project, relations, viewedFrom, heads: headsByProject.get(project.id)!, approvalsLeft, rebaseNeeded }, row);
  }));
}

/** The changes a request brings: its source head against the merge base with its target (for a merged one, against the target before the merge). */
async function requestDiffs(repo: string | null, row: MergeRequestRow, unidiff: boolean): Promise<Array<Record<string, unknown>>> {
  let source: string | null | undefined = row.head_sha;
  let target: string | null | undefined = null;
  if (row.state === 'merged' && row.merge_commit_sha) {
    target = `${row.merge_commit_sha}^1`;
  } else if (repo) {
    const heads = await branchHeads(repo);
    source = heads.get(row.source_branch) ?? row.head_sha;
    target = heads.get(row.target_branch);
  }
  let diffs: Array<Record<string, unknown>> = [];
  if (repo && source) {
    const mergeBase = target ? await mergeBaseOf(repo, target, source) : null;
    diffs = await commitDiffs(repo, source, mergeBase, unidiff).catch(() => []);
  }
  return diffs;
}

// -- writes

function identityOf(user: UserRow): Identity {
  return { name: user.name, email: user.email };
}

/** The platform's default merge commit message (Project#merge_commit_template unset). */
function defaultMergeMessage(project: ProjectRow, row: MergeRequestRow): string {
  return `Merge branch '${row.source_branch}' into '${row.target_branch}'\n\n${row.title}\n\nSee merge request ${project.path_with_namespace}!${row.iid}`;
}

async function writeCommit(repo: string, tree: string, parents: string[], message: string, author: Identity, committer: Identity, when: Date): Promise<string> {
  if (message.includes('\0')) throw new CommitFailure('The commit message must not contain a NUL byte');
  const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent]), '-F', '-'];
  return gitText(repo, args, { env: { ...identityEnv('AUTHOR', author, when), ...identityEnv('COMMITTER', committer, when) }, input: message });
}

function emit(call: Call, project: ProjectRow, repo: string | null, before: MergeRequestSnapshot | null, after: MergeRequestSnapshot, actions: MergeRequestAction[]): void {
  for (const action of actions) announceMergeRequestEvent(call.sandbox, project, call.actor.user, repo, before, after, action);
}

function boolColumn(value: boolean | undefined, current: number | null): number | null {
  return value === undefined ? current : value ? 1 : 0;
}

export function registerMergeRequests(routes: Router): void {
  routes.get('/merge_requests', { auth: 'public', async: true }, async (c, call) => {
    const scopeParam = call.params.string('scope');
    if (!call.actor.user && scopeParam !== 'all') throw unauthorized();
    const { db } = call.sandbox;
    // the projects whose requests the caller may read, among those that have any
    const candidates = db.prepare('SELECT * FROM projects WHERE id IN (SELECT DISTINCT project_id FROM merge_requests)').all() as ProjectRow[];
    const readable = candidates.filter((project) => canReadMergeRequests(db, call.actor, project, call.now)).map((project) => project.id);
    const filter = listFilter(call, 'created_by_me', readable, false);
    return listAnswer(c, call, filter, null);
  });

  // a group's requests: those of its projects and its subgroups' projects that the caller may read
  routes.get('/groups/:id/merge_requests', { auth: 'public', async: true }, async (c, call) => {
    const { db } = call.sandbox;
    const filter = listFilter(call, 'all', null, false);
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    const candidates = db.prepare('SELECT * FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(groupDescendants(db, group.id))) as ProjectRow[];
    // archived projects are left out unless asked for (non_archived, default true)
    const nonArchived = call.params.bool('non_archived') ?? true;
    const readable = candidates.filter((project) => (!nonArchived || !project.archived) && canReadMergeRequests(db, call.actor, project, call.now));
    filter.sql.unshift('m.project_id IN (SELECT value FROM json_each(?))');
    filter.args.unshift(JSON.stringify(readable.map((project) => project.id)));
    return listAnswer(c, call, filter, null);
  });

  routes.get('/projects/:id/merge_requests', { auth: 'public', async: true }, async (c, call) => {
    const filter = listFilter(call, 'all', null, true);
    const project = mergeRequestProject(c, call);
    filter.sql.unshift('m.project_id = ?');
    filter.args.unshift(project.id);
    return listAnswer(c, call, filter, project);
  });

  routes.get('/projects/:id/merge_requests/:merge_request_iid', { auth: 'public', async: true }, async (c, call) => {
    const iid = iidParam(c);
    collectParamErrors([() => call.params.bool('render_html'), () => call.params.bool('include_diverged_commits_count'), () => call.params.bool('include_rebase_in_progress')]);
    const project = mergeRequestProject(c, call);
    const found = requestOf(call, project, iid);
    const repo = repositoryFor(call, project);
    const heads = await branchHeads(repo);
    const { row, state } = await refreshed(call, found, repo, heads);
    return c.json(await detailOf(call, project, row, repo, heads, state));
  });

  routes.get('/projects/:id/merge_requests/:merge_request_iid/commits', { auth: 'public', async: true }, async (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const repo = repositoryFor(call, project);
    let range: string[] | null = null;
    if (row.state === 'merged' && row.head_sha && row.merge_commit_sha) {
      range = [row.head_sha, '--not', `${row.merge_commit_sha}^1`];
    } else if (repo) {
      const heads = await branchHeads(repo);
      const source = heads.get(row.source_branch) ?? row.head_sha;
      const target = heads.get(row.target_branch);
      if (source) range = target ? [source, '--not', target] : [source, '--max-count=1'];
    }
    const commits = repo && range ? await readCommits(repo, range).catch(() => []) : [];
    return c.json(pageOfArray(c, call.params, commits).map((commit) => commitEntity(call.sandbox, project, commit)));
  });

  // reviewers with their review state and when they were asked
  routes.get('/projects/:id/merge_requests/:merge_request_iid/reviewers', { auth: 'public' }, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const reviewers = call.sandbox.db.prepare(
      `SELECT r.state AS review_state, r.created_at AS requested_at, u.* FROM merge_request_reviewers r JOIN users u ON u.id = r.user_id
       WHERE r.merge_request_id = ? ORDER BY r.position`,
    ).all(row.id) as Array<UserRow & { review_state: string; requested_at: string | null }>;
    return c.json(reviewers.map(({ review_state: state, requested_at: createdAt, ...user }) => ({
      user: userBasic(call.sandbox, user as UserRow), state, created_at: createdAt ?? row.created_at,
    })));
  });

  // everyone taking part: the author, assignees, reviewers, whoever approved or commented, each once
  routes.get('/projects/:id/merge_requests/:merge_request_iid/participants', { auth: 'public' }, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const ids = call.sandbox.db.prepare(
      `SELECT ? AS user_id UNION ALL SELECT user_id FROM merge_request_assignees WHERE merge_request_id = ?
       UNION ALL SELECT user_id FROM merge_request_reviewers WHERE merge_request_id = ?
       UNION ALL SELECT user_id FROM merge_request_approvals WHERE merge_request_id = ?
       UNION ALL SELECT author_id FROM (SELECT author_id FROM notes WHERE noteable_type = 'MergeRequest' AND noteable_id = ? AND system = 0 AND internal = 0 ORDER BY created_at, id)`,
    ).pluck().all(row.author_id, row.id, row.id, row.id, row.id) as number[];
    const users = [...new Set(ids)].map((id) => call.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined)
      .filter((user): user is UserRow => Boolean(user));
    return c.json(pageOfArray(c, call.params, users).map((user) => userBasic(call.sandbox, user)));
  });

  // the single request with its changes in one answer (deprecated on the platform, still served)
  routes.get('/projects/:id/merge_requests/:merge_request_iid/changes', { auth: 'public', async: true }, async (c, call) => {
    const iid = iidParam(c);
    collectParamErrors([() => call.params.bool('access_raw_diffs'), () => call.params.bool('unidiff')]);
    const project = mergeRequestProject(c, call);
    const found = requestOf(call, project, iid);
    const repo = repositoryFor(call, project);
    const heads = await branchHeads(repo);
    const { row, state } = await refreshed(call, found, repo, heads);
    const diffs = await requestDiffs(repo, row, call.params.bool('unidiff') ?? false);
    return c.json({ ...(await detailOf(call, project, row, repo, heads, state)), changes: diffs, overflow: false });
  });

  // the changes a request brings: its source head against the merge base with its target
  routes.get('/projects/:id/merge_requests/:merge_request_iid/diffs', { auth: 'public', async: true }, async (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    const unidiff = call.params.bool('unidiff') ?? false;
    const repo = repositoryFor(call, project);
    return c.json(pageOfArray(c, call.params, await requestDiffs(repo, row, unidiff)));
  });

  routes.post('/projects/:id/merge_requests', { async: true }, async (c, call) => {
    const { params } = call;
    const { db } = call.sandbox;
    let title = '';
    let source = '';
    let target = '';
    collectParamErrors([
      // Grape only needs them present: blank values are the model's to refuse
      () => { title = requiredPresent(params, 'title'); },
      () => { source = requiredPresent(params, 'source_branch'); },
      () => { target = requiredPresent(params, 'target_branch'); },
      () => { params.int('target_project_id'); },
      () => { params.string('description'); },
      () => { params.int('assignee_id'); },
      () => { params.intArray('assignee_ids'); },
      () => { params.intArray('reviewer_ids'); },
      () => { params.int('milestone_id'); },
      () => { params.stringArray('labels'); },
      () => { params.bool('remove_source_branch'); },
      () => { params.bool('allow_collaboration'); },
      () => { params.bool('allow_maintainer_to_push'); },
      () => { params.bool('squash'); },
      () => { params.string('merge_after'); },
    ]);
    const project = findReadableProject(db, call.actor, pathParam(c, 'id'), call.now);
    // create_merge_request_from: push rights on the source project
    if (project.archived || projectRoleOf(db, call.actor, project, call.now) < AccessLevel.DEVELOPER || !canReadMergeRequests(db, call.actor, project, call.now)) {
      throw forbidden();
    }
    const targetProjectId = params.int('target_project_id');
    if (targetProjectId !== undefined && targetProjectId !== project.id) {
      const other = db.prepare('SELECT * FROM projects WHERE id = ?').get(targetProjectId) as ProjectRow | undefined;
      if (!other) throw notFound();
      if (!canReadMergeRequests(db, call.actor, other, call.now)) throw forbidden();
      // forks do not exist in the sandbox, so no other project is this one's upstream
      throw new HttpError(422, { message: ['Source project is not a fork of the target project'] });
    }
    const description = params.string('description');
    const repo = repositoryFor(call, project);
    const heads = await branchHeads(repo);
    branchErrors(call, project, heads, { source, target, exceptId: null, opened: true, checkSource: true, checkTarget: true }, lengthErrors(title, description));
    const state = await gitStateOf(repo, { source_branch: source, target_branch: target }, heads);
    const assigneeIds = assignableUsers(call, project, params.has('assignee_ids') ? idList(params, 'assignee_ids')! : params.int('assignee_id') ? [params.int('assignee_id')!] : []);
    const reviewerIds = assignableUsers(call, project, idList(params, 'reviewer_ids') ?? []);
    const allowCollaboration = params.bool('allow_collaboration') ?? params.bool('allow_maintainer_to_push');
    const removeSource = params.bool('remove_source_branch');
    const stamp = timestamp(call.now);
    const created = db.transaction(() => {
      // a request for the same branches may have been created while git was read
      const duplicate = conflictingOpenRequest(db, project.id, source, target, null);
      if (duplicate) throw new HttpError(409, { message: [duplicateMessage(duplicate.iid)] });
      const iid = nextIid(db, project.id);
      const result = db.prepare(
        `INSERT INTO merge_requests (iid, project_id, title, description, state, source_branch, target_branch, author_id, labels, milestone_id, squash,
           force_remove_source_branch, allow_collaboration, merge_after, merge_status, head_sha, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'opened', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        iid, project.id, title, description ?? null, source, target, call.actor.user!.id, JSON.stringify(normalizeLabels(params.stringArray('labels') ?? [])),
        milestoneFor(call, project, params.raw.milestone_id, params.int('milestone_id')) ?? null,
        params.bool('squash') ? 1 : 0, boolColumn(removeSource, null), allowCollaboration ? 1 : 0, params.string('merge_after') || null,
        mergeStatusFor(state, 'unchecked'), state.sourceHead, stamp, stamp,
      );
      const id = Number(result.lastInsertRowid);
      setParticipants(db, 'merge_request_assignees', id, assigneeIds);
      setParticipants(db, 'merge_request_reviewers', id, reviewerIds, stamp);
      db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(stamp, project.id);
      const row = db.prepare('SELECT * FROM merge_requests WHERE id = ?').get(id) as MergeRequestRow;
      return { row, snapshot: snapshotOf(db, row) };
    })();
    emit(call, project, repo, null, created.snapshot, ['open']);
    return c.json(await detailOf(call, project, created.row, repo, heads, state), 201);
  });

  routes.put('/projects/:id/merge_requests/:merge_request_iid', { async: true }, async (c, call) => {
    const { params } = call;
    const { db } = call.sandbox;
    const iid = iidParam(c);
    let stateEvent: 'close' | 'reopen' | undefined;
    collectParamErrors([
      () => { if (params.has('title') && !params.string('title')!.trim()) throw paramError('title is empty'); },
      () => { if (params.has('target_branch') && !params.string('target_branch')!.trim()) throw paramError('target_branch is empty'); },
      () => { stateEvent = params.oneOf('state_event', ['close', 'reopen'] as const); },
      () => { params.string('description'); },
      () => { params.int('assignee_id'); },
      () => { params.intArray('assignee_ids'); },
      () => { params.intArray('reviewer_ids'); },
      () => { params.int('milestone_id'); },
      () => { params.stringArray('labels'); },
      () => { params.stringArray('add_labels'); },
      () => { params.stringArray('remove_labels'); },
      () => { params.bool('remove_source_branch'); },
      () => { params.bool('allow_collaboration'); },
      () => { params.bool('allow_maintainer_to_push'); },
      () => { params.bool('squash'); },
      () => { params.bool('discussion_locked'); },
      () => { params.string('merge_after'); },
    ]);
    if (!UPDATE_ATTRIBUTES.some((name) => params.raw[name] !== undefined && params.raw[name] !== null)) {
      throw paramError(`${UPDATE_ATTRIBUTES.join(', ')} are missing, at least one parameter must be provided`);
    }
    const project = mergeRequestProject(c, call);
    const found = requestOf(call, project, iid);
    if (!canUpdateMergeRequest(db, call.actor, project, found, call.now)) throw forbidden();
    const title = params.string('title');
    const description = params.string('description');
    const targetBranch = params.string('target_branch');
    const repo = repositoryFor(call, project);
    const heads = await branchHeads(repo);
    const changesTarget = targetBranch !== undefined && targetBranch !== found.target_branch;
    const reopening = stateEvent === 'reopen' && found.state === 'closed';
    // a request reopens only while both of its branches exist (MergeRequest#reopenable?)
    const reopens = reopening && heads.has(found.source_branch) && heads.has(targetBranch ?? found.target_branch);
    const opensAfter = found.state === 'opened' ? stateEvent !== 'close' : reopens;
    const target = targetBranch ?? found.target_branch;
    if (changesTarget || reopens) {
      branchErrors(call, project, heads, { source: found.source_branch, target, exceptId: found.id, opened: opensAfter, checkSource: false, checkTarget: changesTarget }, lengthErrors(title, description));
    } else {
      const errors = lengthErrors(title, description);
      if (Object.keys(errors).length) throw validationError(errors);
    }
    const state = opensAfter ? await gitStateOf(repo, { source_branch: found.source_branch, target_branch: target }, heads) : null;
    const stamp = timestamp(call.now);
    const me = call.actor.user!.id;
    const result = db.transaction(() => {
      const current = findMergeRequest(db, project.id, iid);
      if (!current) throw notFound('Merge Request');
      const before = snapshotOf(db, current);
      const next: MergeRequestRow = { ...current };
      if (title !== undefined) next.title = title;
      if (description !== undefined) next.description = description;
      next.target_branch = target;
      if (params.has('labels')) next.labels = JSON.stringify(normalizeLabels(params.stringArray('labels')!));
      const added = params.stringArray('add_labels');
      const removed = params.stringArray('remove_labels');
      if (added || removed) {
        const drop = new Set((removed ?? []).map((name) => name.trim().toLowerCase()));
        next.labels = JSON.stringify(normalizeLabels([...labelsOf(next), ...(added ?? [])].filter((name) => !drop.has(name.trim().toLowerCase()))));
      }
      next.force_remove_source_branch = boolColumn(params.bool('remove_source_branch'), current.force_remove_source_branch);
      const collaboration = params.bool('allow_collaboration') ?? params.bool('allow_maintainer_to_push');
      if (collaboration !== undefined) next.allow_collaboration = collaboration ? 1 : 0;
      next.squash = boolColumn(params.bool('squash'), current.squash)!;
      next.discussion_locked = boolColumn(params.bool('discussion_locked'), current.discussion_locked);
      if (params.has('merge_after')) next.merge_after = params.string('merge_after') || null;
      if (params.raw.milestone_id !== undefined) {
        const milestone = milestoneFor(call, project, params.raw.milestone_id, params.int('milestone_id'));
        if (milestone !== undefined) next.milestone_id = milestone;
      }
      if (state) {
        next.merge_status = mergeStatusFor(state, current.merge_status);
        next.head_sha = state.sourceHead ?? current.head_sha;
      }
      if ((title !== undefined && title !== current.title) || (description !== undefined && description !== current.description)) {
        next.last_edited_at = stamp;
        next.last_edited_by_id = me;
      }
      let assigneeIds = before.assigneeIds;
      if (params.has('assignee_ids')) assigneeIds = assignableUsers(call, project, idList(params, 'assignee_ids')!);
      else if (params.has('assignee_id')) assigneeIds = assignableUsers(call, project, params.int('assignee_id') ? [params.int('assignee_id')!] : []);
      const reviewerIds = params.has('reviewer_ids') ? assignableUsers(call, project, idList(params, 'reviewer_ids')!) : before.reviewerIds;
      const attributesChanged = JSON.stringify({ ...next, merge_status: null, head_sha: null }) !== JSON.stringify({ ...current, merge_status: null, head_sha: null })
        || JSON.stringify(assigneeIds) !== JSON.stringify(before.assigneeIds) || JSON.stringify(reviewerIds) !== JSON.stringify(before.reviewerIds);
      const actions: MergeRequestAction[] = [];
      let afterUpdate: MergeRequestSnapshot | null = null;
      if (attributesChanged) {
        next.updated_at = stamp;
        next.updated_by_id = me;
        actions.push('update');
      }
      if (stateEvent === 'close' && current.state === 'opened') {
        next.state = 'closed';
        next.closed_at = stamp;
        next.closed_by_id = me;
        next.updated_at = stamp;
        actions.push('close');
      } else if (reopens) {
        next.state = 'opened';
        next.closed_at = null;
        next.closed_by_id = null;
        next.updated_at = stamp;
        actions.push('reopen');
      }
      db.prepare(
        `UPDATE merge_requests SET title = ?, description = ?, state = ?, target_branch = ?, labels = ?, milestone_id = ?, squash = ?, force_remove_source_branch = ?,
           allow_collaboration = ?, discussion_locked = ?, merge_after = ?, merge_status = ?, head_sha = ?, closed_by_id = ?, closed_at = ?,
           updated_by_id = ?, last_edited_at = ?, last_edited_by_id = ?, updated_at = ? WHERE id = ?`,
      ).run(
        next.title, next.description, next.state, next.target_branch, next.labels, next.milestone_id, next.squash, next.force_remove_source_branch,
        next.allow_collaboration, next.discussion_locked, next.merge_after, next.merge_status, next.head_sha, next.closed_by_id, next.closed_at,
        next.updated_by_id, next.last_edited_at, next.last_edited_by_id, next.updated_at, next.id,
      );
      setParticipants(db, 'merge_request_assignees', next.id, assigneeIds);
      setParticipants(db, 'merge_request_reviewers', next.id, reviewerIds, stamp);
      const row = db.prepare('SELECT * FROM merge_requests WHERE id = ?').get(next.id) as MergeRequestRow;
      const after = snapshotOf(db, row);
      recordMergeRequestChanges(db, before, after, me, stamp);
      if (actions.includes('update') && actions.length > 1) {
        // the edit is announced as it stood before the state change, the platform's two hooks
        afterUpdate = { ...after, row: { ...row, state: current.state, closed_at: current.closed_at, closed_by_id: current.closed_by_id } };
      }
      return { row, before, after, afterUpdate, actions };
    })();
    for (const action of result.actions) {
      if (action === 'update' && result.afterUpdate) emit(call, project, repo, result.before, result.afterUpdate, ['update']);
      else if (action === 'update') emit(call, project, repo, result.before, result.after, ['update']);
      else emit(call, project, repo, result.afterUpdate ?? result.before, result.after, [action]);
    }
    return c.json(await detailOf(call, project, result.row, repo, heads, state));
  });

  routes.put('/projects/:id/merge_requests/:merge_request_iid/merge', { async: true }, async (c, call) => {
    const { params } = call;
    const { db } = call.sandbox;
    const iid = iidParam(c);
    collectParamErrors([
      () => { params.string('merge_commit_message'); },
      () => { params.string('squash_commit_message'); },
      () => { params.bool('should_remove_source_branch'); },
      () => { params.bool('merge_when_pipeline_succeeds'); },
      () => { params.bool('auto_merge'); },
      () => { params.string('sha'); },
      () => { params.bool('squash'); },
    ]);
    const project = mergeRequestProject(c, call);
    const found = requestOf(call, project, iid);
    const automatic = params.bool('merge_when_pipeline_succeeds') || params.bool('auto_merge');
    // the platform answers 401 when the caller may not push into the target branch
    if (project.archived || !canAccessBranch(db, call.actor, project, found.target_branch, 'merge', call.now)) throw unauthorized();
    const repo = repositoryFor(call, project);
    const heads = await branchHeads(repo);
    const { row, state } = await refreshed(call, found, repo, heads);
    // MergeRequest#mergeable_state?: open, not a draft, both branches there, commits to merge
    // no pipelines run in the sandbox, so a merge waiting for one has nothing to wait for (the platform's 405 without a pipeline)
    if (automatic || row.state !== 'opened' || isDraftTitle(row.title) || !state?.sourceHead || !state.targetHead || !state.hasCommits) {
      throw statusError(405, 'Method Not Allowed');
    }
    // approvals still missing make the request unmergeable, as a draft does
    if (approvalStateOf(db, row, call.now).left > 0) throw statusError(405, 'Method Not Allowed');
    if (threadsBlockMerge(project, activityCounts(db, [row.id]).get(row.id)!) || needsRebase(project, state)) throw statusError(405, 'Method Not Allowed');
    if (state.conflicts) throw new HttpError(422, { message: 'Branch cannot be merged' });
    const sha = params.string('sha');
    if (sha !== undefined && sha !== '' && sha !== state.sourceHead) throw conflict(`SHA does not match HEAD of source branch: ${state.sourceHead}`);
    const writable = writableRepository(call, project);
    const user = call.actor.user!;
    // MergeRequest#squash_on_merge?: the project's squash option wins over the request's and the caller's choice
    const squashOption = projectSettings(project).squash_option;
    const squash = squashOption === 'always' || (squashOption !== 'never' && (params.bool('squash') || Boolean(row.squash)));
    const removeSource = params.bool('should_remove_source_branch') ?? (row.force_remove_source_branch === null ? undefined : Boolean(row.force_remove_source_branch));
    const when = call.sandbox.now();
    let mergeSha: string;
    let squashSha: string | null = null;
    try {
      let incoming = state.sourceHead;
      if (squash) {
        // one commit with the source's changes on the merge base, authored by the request's author
        const author = row.author_id === null ? user : (db.prepare('SELECT * FROM users WHERE id = ?').get(row.author_id) as UserRow | undefined) ?? user;
        const sourceTree = await gitText(writable, ['rev-parse', '--verify', '--end-of-options', `${state.sourceHead}^{tree}`]);
        squashSha = await writeCommit(writable, sourceTree, state.mergeBase ? [state.mergeBase] : [], params.string('squash_commit_message') || row.title, identityOf(author), identityOf(user), when);
        incoming = squashSha;
      }
      const merged = await mergeTree(writable, state.targetHead, incoming);
      if ('conflict' in merged) throw new HttpError(422, { message: 'Branch cannot be merged' });
      mergeSha = await writeCommit(writable, merged.tree, [state.targetHead, incoming], params.string('merge_commit_message') || defaultMergeMessage(project, row), identityOf(user), identityOf(user), when);
      await moveBranch(writable, row.target_branch, mergeSha, state.targetHead);
    } catch (error) {
      if (error instanceof CommitFailure) throw commitFailed(error.message);
      throw error;
    }
    const refChanges: RefChange[] = [{ ref: `refs/heads/${row.target_branch}`, before: state.targetHead, after: mergeSha }];
    let sourceRemoved = false;
    if (removeSource && !new ProjectProtections(db, project.id).isProtected(row.source_branch)) {
      const deleted = await git(writable, ['update-ref', '-d', '--end-of-options', `refs/heads/${row.source_branch}`, state.sourceHead], { okCodes: [1, 128] });
      if (deleted.code === 0) {
        sourceRemoved = true;
        refChanges.push({ ref: `refs/heads/${row.source_branch}`, before: state.sourceHead, after: ZERO_SHA });
      }
    }
    const stamp = timestamp(when);
    const result = db.transaction(() => {
      const current = findMergeRequest(db, project.id, iid) ?? row;
      const before = snapshotOf(db, current);
      db.prepare(
        `UPDATE merge_requests SET state = 'merged', merged_at = ?, merge_user_id = ?, merge_commit_sha = ?, squash_commit_sha = ?, head_sha = ?,
           squash = ?, should_remove_source_branch = ?, merge_status = 'can_be_merged', updated_at = ? WHERE id = ?`,
      ).run(stamp, user.id, mergeSha, squashSha, state.sourceHead, squash ? 1 : 0, boolColumn(params.bool('should_remove_source_branch'), null), stamp, current.id);
      db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(stamp, project.id);
      const merged = db.prepare('SELECT * FROM merge_requests WHERE id = ?').get(current.id) as MergeRequestRow;
      return { row: merged, before, after: snapshotOf(db, merged) };
    })();
    recordPush(call.sandbox, project, row.target_branch, { firstBranch: false });
    announceRefChanges(call.sandbox, project, user, writable, refChanges);
    emit(call, project, writable, result.before, result.after, ['merge']);
    const after = await branchHeads(writable);
    if (sourceRemoved) after.delete(row.source_branch);
    return c.json(await detailOf(call, project, result.row, writable, after, null));
  });

  routes.delete('/projects/:id/merge_requests/:merge_request_iid', {}, (c, call) => {
    const iid = iidParam(c);
    const project = mergeRequestProject(c, call);
    const row = requestOf(call, project, iid);
    // destroy_merge_request: administrators and project owners
    if (projectRoleOf(call.sandbox.db, call.actor, project, call.now) < AccessLevel.OWNER) throw forbidden();
    call.sandbox.db.prepare('DELETE FROM merge_requests WHERE id = ?').run(row.id);
    return c.body(null, 204);
  });
}

