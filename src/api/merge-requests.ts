import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, type Connection } from './http.ts';
import { withoutEmpty, type QueryParams } from './params.ts';
import { scopePath, type Scope } from './keys.ts';
import { flag, loose } from './schema.ts';
import { userIdsOf, userSummariesSchema, userSummarySchema } from './users.ts';
import { issuableFields } from './issuable.ts';
import { commitDiffSchema, commitSchema } from './commits.ts';
import { noteSchema } from './notes.ts';


/** Why a request cannot merge now, in the platform's words (spec 2, 2.3; the ones the sandbox computes first). */
export type DetailedMergeStatus =
  | 'mergeable' | 'not_open' | 'draft_status' | 'broken_status' | 'commits_status' | 'unchecked' | 'conflict' | 'need_rebase'
  | 'discussions_not_resolved' | 'not_approved' | (string & {});

/** A merge request as lists show it (spec 2, 2.3). */
export const mergeRequestSchema = loose({
  ...issuableFields,
  merged_at: z.nullish(z.string()),
  merge_user: z.nullish(userSummarySchema),
  reviewers: userSummariesSchema,
  source_branch: z.string(),
  target_branch: z.string(),
  draft: flag,
  merge_status: z.nullish(z.string()),
  detailed_merge_status: z.nullish(z.string()),
  has_conflicts: flag,
  blocking_discussions_resolved: flag,
  sha: z.nullish(z.string()),
  merge_commit_sha: z.nullish(z.string()),
  squash_commit_sha: z.nullish(z.string()),
  squash: flag,
  force_remove_source_branch: z.nullish(z.boolean()),
  discussion_locked: z.nullish(z.boolean()),
});
export type MergeRequest = z.infer<typeof mergeRequestSchema>;

/** One request with what needs git: its diff refs, how many files change, whether the caller may merge. */
export const mergeRequestDetailSchema = z.extend(mergeRequestSchema, {
  changes_count: z.nullish(z.string()),
  diff_refs: z.nullish(loose({ base_sha: z.nullish(z.string()), head_sha: z.string(), start_sha: z.nullish(z.string()) })),
  subscribed: z.optional(flag),
  user: z.nullish(loose({ can_merge: flag })),
});
export type MergeRequestDetail = z.infer<typeof mergeRequestDetailSchema>;

export const reviewerSchema = loose({ user: userSummarySchema, state: z.string(), created_at: z.nullish(z.string()) });
export type Reviewer = z.infer<typeof reviewerSchema>;

/** A position on a line of the changes, for a thread on the diff. */
export const diffPositionSchema = loose({
  position_type: z.string(),
  base_sha: z.string(),
  start_sha: z.string(),
  head_sha: z.string(),
  old_path: z.nullish(z.string()),
  new_path: z.nullish(z.string()),
  old_line: z.nullish(z.number()),
  new_line: z.nullish(z.number()),
});
export type DiffPosition = z.infer<typeof diffPositionSchema>;

export const discussionNoteSchema = z.extend(noteSchema, {
  type: z.nullish(z.string()),
  resolvable: flag,
  resolved: flag,
  resolved_by: z.nullish(userSummarySchema),
  resolved_at: z.nullish(z.string()),
  position: z.nullish(diffPositionSchema),
});
export type DiscussionNote = z.infer<typeof discussionNoteSchema>;

/** A thread; `individual_note` for a lone comment. */
export const discussionSchema = loose({ id: z.string(), individual_note: flag, notes: z.array(discussionNoteSchema) });
export type Discussion = z.infer<typeof discussionSchema>;

// -- lists

/** The filters that may also be negated (`not[...]`, spec 2, 4.3). */
export interface NegatableMergeRequestFilters {
  labels?: readonly string[];
  milestone?: string;
  author_id?: number;
  author_username?: string;
  assignee_id?: number | 'None' | 'Any';
  assignee_username?: string;
  reviewer_id?: number | 'None' | 'Any';
  reviewer_username?: string;
  my_reaction_emoji?: string;
}

export interface MergeRequestFilters extends NegatableMergeRequestFilters {
  state?: 'opened' | 'closed' | 'locked' | 'merged' | 'all';
  scope?: 'created_by_me' | 'assigned_to_me' | 'reviews_for_me' | 'all';
  search?: string;
  in?: 'title' | 'description' | 'title,description';
  source_branch?: string;
  target_branch?: string;
  wip?: 'yes' | 'no';
  approved_by_ids?: readonly number[] | 'None' | 'Any';
  /** The platform's documented twin of `approved_by_ids` by username (up to 5). */
  approved_by_usernames?: readonly string[];
  approver_ids?: readonly number[] | 'None' | 'Any';
  /** Eligible approvers by username: the API takes only ids, so they are looked up (`userIdsOf`) and sent as `approver_ids`. */
  approver_usernames?: readonly string[];
  merge_user_username?: string;
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  iids?: readonly number[];
  not?: NegatableMergeRequestFilters;
}

export interface MergeRequestListParams extends MergeRequestFilters {
  order_by?: 'created_at' | 'updated_at' | 'title' | 'merged_at';
  sort?: 'asc' | 'desc';
  page: number;
  per_page: number;
}

/** Where requests are listed: the instance (`/merge_requests`), a group or a project. */
export type MergeRequestScope = 'instance' | Scope;

const listPath = (scope: MergeRequestScope) => (scope === 'instance' ? '/merge_requests' : `${scopePath(scope)}/merge_requests`);
const requestPath = (projectId: number, iid: number) => `/projects/${projectId}/merge_requests/${iid}`;

function negatableQuery(filters: NegatableMergeRequestFilters): QueryParams {
  return withoutEmpty({ ...filters, labels: filters.labels?.length ? filters.labels.join(',') : undefined }) as QueryParams;
}

/** The query the platform reads: labels as one comma-separated value, id lists as arrays, negations under `not[...]`. */
export function mergeRequestListQuery(params: Partial<MergeRequestListParams>): QueryParams {
  const { not, labels, approved_by_ids, approver_ids, iids, ...rest } = params;
  const negated = not ? negatableQuery(not) : {};
  const ids = (value: readonly number[] | 'None' | 'Any' | undefined) => (typeof value === 'string' ? value : value?.length ? value : undefined);
  return {
    ...negatableQuery({ ...rest, labels }),
    ...withoutEmpty({ approved_by_ids: ids(approved_by_ids), approver_ids: ids(approver_ids), iids: iids?.length ? iids : undefined }),
    ...(Object.keys(negated).length ? { not: negated } : {}),
  } as QueryParams;
}

/** The list's query, with approvers by username turned into ids; a name no one has matches nothing, as an unknown id does. */
async function listQuery(connection: Connection, params: Partial<MergeRequestListParams>): Promise<QueryParams> {
  const { approver_usernames: approvers, ...rest } = params;
  if (!approvers?.length) return mergeRequestListQuery(rest);
  const ids = await userIdsOf(connection, approvers);
  return mergeRequestListQuery({ ...rest, approver_ids: ids.map((id) => id ?? 0) });
}

export const mergeRequestsQueries = {
  all: () => ['merge-requests'] as const,
  scope: (scope: MergeRequestScope) => [...mergeRequestsQueries.all(), scope] as const,
  one: (projectId: number, iid: number) => [...mergeRequestsQueries.scope({ project: projectId }), 'request', iid] as const,
  list: (connection: Connection, scope: MergeRequestScope, params: MergeRequestListParams) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.scope(scope), 'list', params] as const,
      queryFn: async ({ signal }) => requestPage(connection, listPath(scope), mergeRequestSchema, { query: await listQuery(connection, params), signal }),
    }),
  /** Every page of a list, one after the other (the board reads them all; its first page paints at once). */
  pages: (connection: Connection, scope: MergeRequestScope, params: Omit<MergeRequestListParams, 'page'>) =>
    infiniteQueryOptions({
      queryKey: [...mergeRequestsQueries.scope(scope), 'pages', params] as const,
      initialPageParam: 1,
      queryFn: async ({ pageParam, signal }) => requestPage(connection, listPath(scope), mergeRequestSchema, { query: await listQuery(connection, { ...params, page: pageParam }), signal }),
      getNextPageParam: (last) => last.nextPage,
    }),
  detail: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, requestPath(projectId, iid), mergeRequestDetailSchema, { signal }),
    }),
  commits: (connection: Connection, projectId: number, iid: number, page = 1) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'commits', { page }] as const,
      queryFn: ({ signal }) => requestPage(connection, `${requestPath(projectId, iid)}/commits`, commitSchema, { query: { page, per_page: 100 }, signal }),
    }),
  diffs: (connection: Connection, projectId: number, iid: number, page = 1, perPage = 100) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'diffs', { page, perPage }] as const,
      queryFn: ({ signal }) => requestPage(connection, `${requestPath(projectId, iid)}/diffs`, commitDiffSchema, { query: { page, per_page: perPage }, signal }),
    }),
  reviewers: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'reviewers'] as const,
      queryFn: ({ signal }) => request(connection, `${requestPath(projectId, iid)}/reviewers`, z.array(reviewerSchema), { signal }),
    }),
  discussions: (connection: Connection, projectId: number, iid: number, page = 1) =>
    queryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'discussions', { page }] as const,
      queryFn: ({ signal }) => requestPage(connection, `${requestPath(projectId, iid)}/discussions`, discussionSchema, { query: { page, per_page: 100 }, signal }),
    }),
  /**
   * Every thread, oldest first, a hundred a page: the first page paints while the screen fetches
   * the rest (`fetchNextPage` until `hasNextPage` is false). Under the `discussions` key, so one
   * invalidation refreshes both.
   */
  allDiscussions: (connection: Connection, projectId: number, iid: number) =>
    infiniteQueryOptions({
      queryKey: [...mergeRequestsQueries.one(projectId, iid), 'discussions', 'all'] as const,
      queryFn: ({ pageParam, signal }) =>
        requestPage(connection, `${requestPath(projectId, iid)}/discussions`, discussionSchema, { query: { page: pageParam, per_page: 100 }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => last.nextPage,
    }),
};

// MergeRequest::DRAFT_REGEX: `[Draft]`, `(Draft)` or `Draft:` at the start of the title makes a draft
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)\s*/i;

/** The title that marks a request as draft (the platform reads drafts from the title: update it with this). */
export function draftTitle(title: string): string {
  return DRAFT_PREFIX.test(title) ? title : `Draft: ${title}`;
}

/** The title that marks a request as ready: every draft prefix taken off. */
export function readyTitle(title: string): string {
  let out = title;
  while (DRAFT_PREFIX.test(out)) out = out.replace(DRAFT_PREFIX, '');
  return out;
}

// -- writes

export interface MergeRequestValues {
  source_branch: string;
  target_branch: string;
  title: string;
  description?: string;
  assignee_ids?: readonly number[];
  reviewer_ids?: readonly number[];
  labels?: readonly string[];
  milestone_id?: number | null;
  remove_source_branch?: boolean;
  squash?: boolean;
}

export interface MergeRequestChanges extends Partial<Omit<MergeRequestValues, 'source_branch'>> {
  add_labels?: readonly string[];
  remove_labels?: readonly string[];
  state_event?: 'close' | 'reopen';
  discussion_locked?: boolean;
}

function body(values: MergeRequestChanges): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const key of ['labels', 'add_labels', 'remove_labels'] as const) if (values[key] !== undefined) out[key] = values[key]!.join(',');
  return out;
}

export function createMergeRequest(connection: Connection, { projectId, values }: { projectId: number; values: MergeRequestValues }): Promise<MergeRequestDetail> {
  return request(connection, `/projects/${projectId}/merge_requests`, mergeRequestDetailSchema, { method: 'POST', body: body(values) });
}

/** One request straight from the server, past the cache. */
export function getMergeRequest(connection: Connection, projectId: number, iid: number): Promise<MergeRequestDetail> {
  return request(connection, requestPath(projectId, iid), mergeRequestDetailSchema);
}

export function updateMergeRequest(connection: Connection, { projectId, iid, changes }: { projectId: number; iid: number; changes: MergeRequestChanges }): Promise<MergeRequestDetail> {
  return request(connection, requestPath(projectId, iid), mergeRequestDetailSchema, { method: 'PUT', body: body(changes) });
}

export interface MergeOptions {
  /** The source head the caller saw: a newer one answers 409. */
  sha?: string;
  squash?: boolean;
  should_remove_source_branch?: boolean;
  merge_commit_message?: string;
  squash_commit_message?: string;
}

/**
 * Merges the head the caller saw (`sha`: a newer one answers 409); 405 when it cannot merge now, 422
 * on conflicts. `false` options are sent: unticking "delete source branch" overrides the request's own choice.
 */
export function mergeMergeRequest(connection: Connection, { projectId, iid, options }: { projectId: number; iid: number; options: MergeOptions }): Promise<MergeRequestDetail> {
  const { squash, should_remove_source_branch, ...text } = options;
  return request(connection, `${requestPath(projectId, iid)}/merge`, mergeRequestDetailSchema, { method: 'PUT', body: { ...withoutEmpty(text), squash, should_remove_source_branch } });
}

/** How a project merges (fields of the platform's project entity): the merge panel's options follow them. */
export const projectMergeSettingsSchema = loose({
  squash_option: z.catch(z.nullish(z.enum(['never', 'always', 'default_on', 'default_off'])), null),
  remove_source_branch_after_merge: z.nullish(z.boolean()),
  merge_method: z.nullish(z.string()),
  only_allow_merge_if_all_discussions_are_resolved: z.nullish(z.boolean()),
});
export type ProjectMergeSettings = z.infer<typeof projectMergeSettingsSchema>;

/** The merge settings out of a project entity already fetched (its schema keeps every field); unknown ones read as absent. */
export function projectMergeSettings(project: unknown): ProjectMergeSettings {
  const parsed = z.safeParse(projectMergeSettingsSchema, project);
  return parsed.success ? parsed.data : {};
}

/** A new thread, on a line of the changes when `position` is given. */
export function createDiscussion(
  connection: Connection,
  { projectId, iid, body: text, position }: { projectId: number; iid: number; body: string; position?: Omit<DiffPosition, 'position_type'> & { position_type?: string } },
): Promise<Discussion> {
  const payload = { body: text, ...(position ? { position: { position_type: 'text', ...position } } : {}) };
  return request(connection, `${requestPath(projectId, iid)}/discussions`, discussionSchema, { method: 'POST', body: payload });
}

export function replyToDiscussion(connection: Connection, { projectId, iid, discussionId, body: text }: { projectId: number; iid: number; discussionId: string; body: string }): Promise<DiscussionNote> {
  return request(connection, `${requestPath(projectId, iid)}/discussions/${discussionId}/notes`, discussionNoteSchema, { method: 'POST', body: { body: text } });
}

export function resolveDiscussion(connection: Connection, { projectId, iid, discussionId, resolved }: { projectId: number; iid: number; discussionId: string; resolved: boolean }): Promise<Discussion> {
  return request(connection, `${requestPath(projectId, iid)}/discussions/${discussionId}`, discussionSchema, { method: 'PUT', body: { resolved } });
}
