import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestKeysetPage, requestAllPages, requestPage, send, sendUnlessUnchanged, type Connection } from './http.ts';
import { withoutEmpty, type QueryParams } from './params.ts';
import { scopePath, type Scope } from './keys.ts';
import { flag, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';
import { labelBasicSchema } from './labels.ts';
import { milestoneSchema } from './milestones.ts';
import { issuableFields } from './issuable.ts';
import type { IssueOrder } from './vocabulary.ts';

/** Estimates and time spent, in seconds and as the platform writes them (`1h 30m`). */
export const timeStatsSchema = loose({
  time_estimate: z.number(),
  total_time_spent: z.number(),
  human_time_estimate: z.nullish(z.string()),
  human_total_time_spent: z.nullish(z.string()),
});
export type TimeStats = z.infer<typeof timeStatsSchema>;

/** An issue (spec 2, 4.1). `labels` are names, or label objects with `with_labels_details`. */
export const issueSchema = loose({
  ...issuableFields,
  due_date: z.nullish(z.string()),
  confidential: flag,
  discussion_locked: flag,
  issue_type: z.nullish(z.string()),
  time_stats: z.nullish(timeStatsSchema),
  moved_to_id: z.nullish(z.number()),
  subscribed: z.optional(flag),
});
export type Issue = z.infer<typeof issueSchema>;

/** The names of an issue's labels, whichever form they came in. */
export function labelNames(issue: Pick<Issue, 'labels'>): string[] {
  return issue.labels.map((label) => (typeof label === 'string' ? label : label.name));
}

export const issueStatisticsSchema = loose({
  statistics: loose({ counts: loose({ all: z.number(), opened: z.number(), closed: z.number() }) }),
});
export type IssueStatistics = z.infer<typeof issueStatisticsSchema>;

export type IssueState = 'opened' | 'closed' | 'all';
export type { IssueOrder };
export type DueDateFilter = '0' | 'any' | 'today' | 'tomorrow' | 'overdue' | 'week' | 'month' | 'next_month_and_previous_two_weeks';

/** The filters that may also be negated (`not[...]`). */
export interface NegatableIssueFilters {
  /** Label names; `None` or `Any` alone. */
  labels?: readonly string[];
  /** A milestone title, or `None`, `Any`, `Upcoming`, `Started`. */
  milestone?: string;
  author_username?: string;
  assignee_username?: readonly string[];
  /** A user id, or `None` / `Any`. */
  assignee_id?: number | 'None' | 'Any';
  my_reaction_emoji?: string;
  iids?: readonly number[];
}

export interface IssueFilters extends NegatableIssueFilters {
  state?: IssueState;
  search?: string;
  in?: 'title' | 'description' | 'title,description';
  confidential?: boolean;
  due_date?: DueDateFilter;
  scope?: 'created_by_me' | 'assigned_to_me' | 'all';
  issue_type?: 'issue' | 'incident' | 'test_case' | 'task';
  created_after?: string;
  created_before?: string;
  updated_after?: string;
  updated_before?: string;
  not?: NegatableIssueFilters;
}

export interface IssueListParams extends IssueFilters {
  order_by?: IssueOrder;
  sort?: 'asc' | 'desc';
  page: number;
  per_page: number;
}

/** Where issues are listed: the instance (`/issues`), a group or a project. */
export type IssueScope = 'instance' | Scope;

function issuesPath(scope: IssueScope): string {
  return scope === 'instance' ? '/issues' : `${scopePath(scope)}/issues`;
}

/** The query the platform reads: labels as one comma-separated value, the rest as arrays and hashes. */
function negatableQuery(filters: NegatableIssueFilters): QueryParams {
  return withoutEmpty({
    labels: filters.labels?.length ? filters.labels.join(',') : undefined,
    milestone: filters.milestone,
    author_username: filters.author_username,
    assignee_username: filters.assignee_username?.length ? filters.assignee_username : undefined,
    assignee_id: filters.assignee_id,
    my_reaction_emoji: filters.my_reaction_emoji,
    iids: filters.iids?.length ? filters.iids : undefined,
  }) as QueryParams;
}

export function issueListQuery(params: Partial<IssueListParams>): QueryParams {
  const { labels, milestone, author_username, assignee_username, assignee_id, my_reaction_emoji, iids, not, confidential, ...rest } = params;
  const negated = not ? negatableQuery(not) : {};
  return {
    ...withoutEmpty(rest),
    ...negatableQuery({ labels, milestone, author_username, assignee_username, assignee_id, my_reaction_emoji, iids }),
    ...(confidential === undefined ? {} : { confidential }),
    ...(Object.keys(negated).length ? { not: negated } : {}),
  } as QueryParams;
}

export const issuesQueries = {
  all: () => ['issues'] as const,
  scope: (scope: IssueScope) => [...issuesQueries.all(), scope] as const,
  list: (connection: Connection, scope: IssueScope, params: IssueListParams) =>
    queryOptions({
      queryKey: [...issuesQueries.scope(scope), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, issuesPath(scope), issueSchema, { query: { ...issueListQuery(params), with_labels_details: true }, signal }),
    }),
  /**
   * A project's issues in keyset pages, as the platform pages them on creation or update time
   * (other orders are offset only: 405). `cursor` is the one the previous page's next link carries.
   */
  keyset: (connection: Connection, projectId: number, params: Omit<IssueListParams, 'page'>, cursor: string | undefined) =>
    queryOptions({
      queryKey: [...issuesQueries.scope({ project: projectId }), 'keyset', params, cursor ?? null] as const,
      queryFn: ({ signal }) =>
        requestKeysetPage(connection, `/projects/${projectId}/issues`, issueSchema, {
          query: { ...issueListQuery(params), with_labels_details: true, pagination: 'keyset', ...(cursor ? { cursor } : {}) },
          signal,
        }),
    }),
  /** The same list page after page (`useInfiniteQuery`): a board's column loads as it scrolls. */
  pages: (connection: Connection, scope: IssueScope, params: Omit<IssueListParams, 'page'>) =>
    infiniteQueryOptions({
      queryKey: [...issuesQueries.scope(scope), 'pages', params] as const,
      initialPageParam: 1,
      queryFn: ({ pageParam, signal }) =>
        requestPage(connection, issuesPath(scope), issueSchema, { query: { ...issueListQuery({ ...params, page: pageParam }), with_labels_details: true }, signal }),
      getNextPageParam: (last) => last.nextPage,
    }),
  /** Counts of each state for the same filters (the state itself is not a filter here). */
  statistics: (connection: Connection, scope: IssueScope, filters: IssueFilters) =>
    queryOptions({
      queryKey: [...issuesQueries.scope(scope), 'statistics', filters] as const,
      queryFn: ({ signal }) => {
        const { state: _state, ...counted } = filters;
        const path = scope === 'instance' ? '/issues_statistics' : `${scopePath(scope)}/issues_statistics`;
        return request(connection, path, issueStatisticsSchema, { query: issueListQuery(counted), signal });
      },
    }),
  detail: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...issuesQueries.scope({ project: projectId }), 'detail', iid] as const,
      queryFn: ({ signal }) => getIssue(connection, projectId, iid, signal),
    }),
};

/** The `cursor` of a keyset page's next link; undefined on the last page. */
export function nextIssueCursor(nextUrl: string | undefined): string | undefined {
  if (!nextUrl) return undefined;
  return new URL(nextUrl, 'http://relative.invalid').searchParams.get('cursor') ?? undefined;
}

/** One issue of a project by its iid, labels in detail. */
export function getIssue(connection: Connection, projectId: number, iid: number, signal?: AbortSignal): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues/${iid}`, issueSchema, { query: { with_labels_details: true }, signal });
}

// -- writes

export interface IssueValues {
  title: string;
  description?: string;
  labels?: readonly string[];
  assignee_ids?: readonly number[];
  milestone_id?: number | null;
  due_date?: string | null;
  confidential?: boolean;
}

export interface IssueChanges extends Partial<IssueValues> {
  add_labels?: readonly string[];
  remove_labels?: readonly string[];
  state_event?: 'close' | 'reopen';
  discussion_locked?: boolean;
}

/** Labels travel as one comma-separated value, as the platform reads them in bodies too. */
function issueBody(values: Partial<IssueValues> & Pick<IssueChanges, 'add_labels' | 'remove_labels'>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  for (const key of ['labels', 'add_labels', 'remove_labels'] as const) {
    const names = values[key];
    if (names !== undefined) body[key] = names.join(',');
  }
  return body;
}

export function createIssue(connection: Connection, { projectId, values }: { projectId: number; values: IssueValues }): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues`, issueSchema, { method: 'POST', body: issueBody(values) });
}

export function updateIssue(connection: Connection, { projectId, iid, changes }: { projectId: number; iid: number; changes: IssueChanges }): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues/${iid}`, issueSchema, { method: 'PUT', body: issueBody(changes) });
}

export async function deleteIssue(connection: Connection, { projectId, iid }: { projectId: number; iid: number }): Promise<void> {
  await send(connection, `/projects/${projectId}/issues/${iid}`, { method: 'DELETE' });
}

/**
 * Places the issue just before the issue `before` or just after the issue `after` (ids). The
 * platform names its parameters by the neighbour: `move_after_id` is the issue that comes after.
 */
export function reorderIssue(
  connection: Connection,
  { projectId, iid, before, after }: { projectId: number; iid: number; before?: number; after?: number },
): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues/${iid}/reorder`, issueSchema, { method: 'PUT', body: withoutEmpty({ move_after_id: before, move_before_id: after }) });
}

/** The moved issue, in its new project; the original is closed and points to it. */
export function moveIssue(connection: Connection, { projectId, iid, toProjectId }: { projectId: number; iid: number; toProjectId: number }): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues/${iid}/move`, issueSchema, { method: 'POST', body: { to_project_id: toProjectId } });
}

export function cloneIssue(
  connection: Connection,
  { projectId, iid, toProjectId, withNotes }: { projectId: number; iid: number; toProjectId: number; withNotes: boolean },
): Promise<Issue> {
  return request(connection, `/projects/${projectId}/issues/${iid}/clone`, issueSchema, { method: 'POST', body: { to_project_id: toProjectId, with_notes: withNotes } });
}

/** Whether anything changed: subscribing when subscribed already (or the reverse) changes nothing. */
export function setIssueSubscription(connection: Connection, { projectId, iid, subscribed }: { projectId: number; iid: number; subscribed: boolean }): Promise<boolean> {
  return sendUnlessUnchanged(connection, `/projects/${projectId}/issues/${iid}/${subscribed ? 'subscribe' : 'unsubscribe'}`, { method: 'POST' });
}

export type TimeTracking = { estimate: string } | { resetEstimate: true } | { spend: string; summary?: string } | { resetSpent: true };

/** Durations as the platform reads them: `1w 2d 3h 30m`, or `-1h` to take time back. */
export function trackTime(connection: Connection, { projectId, iid, change }: { projectId: number; iid: number; change: TimeTracking }): Promise<TimeStats> {
  const base = `/projects/${projectId}/issues/${iid}`;
  if ('estimate' in change) return request(connection, `${base}/time_estimate`, timeStatsSchema, { method: 'POST', body: { duration: change.estimate } });
  if ('resetEstimate' in change) return request(connection, `${base}/reset_time_estimate`, timeStatsSchema, { method: 'POST' });
  if ('spend' in change) return request(connection, `${base}/add_spent_time`, timeStatsSchema, { method: 'POST', body: withoutEmpty({ duration: change.spend, summary: change.summary }) });
  return request(connection, `${base}/reset_spent_time`, timeStatsSchema, { method: 'POST' });
}

// -- resource events (the platform's Resource label, state and milestone events APIs)

const eventBase = {
  id: z.number(),
  user: z.nullish(userSummarySchema),
  created_at: z.string(),
  resource_type: z.nullish(z.string()),
  resource_id: z.nullish(z.number()),
};

/** A label added to or removed from an issue; `label` is null once the label is deleted. */
export const labelEventSchema = loose({ ...eventBase, label: z.nullish(labelBasicSchema), action: z.string() });
export type LabelEvent = z.infer<typeof labelEventSchema>;

/** A change of state: `opened`, `closed`, `reopened`. */
export const stateEventSchema = loose({ ...eventBase, state: z.string() });
export type StateEvent = z.infer<typeof stateEventSchema>;

/** A milestone set (`add`) or cleared (`remove`). */
export const milestoneEventSchema = loose({ ...eventBase, milestone: z.nullish(milestoneSchema), action: z.string() });
export type MilestoneEvent = z.infer<typeof milestoneEventSchema>;

export interface IssueEvents {
  label: LabelEvent[];
  state: StateEvent[];
  milestone: MilestoneEvent[];
}

/** The label, state and milestone events of an issue, every page of each. */
export function issueEvents(connection: Connection, projectId: number, iid: number, signal?: AbortSignal): Promise<IssueEvents> {
  const base = `/projects/${projectId}/issues/${iid}`;
  const all = <T>(path: string, schema: z.ZodMiniType<T>) =>
    requestAllPages(connection, `${base}/${path}`, schema, { signal });
  return Promise.all([all('resource_label_events', labelEventSchema), all('resource_state_events', stateEventSchema), all('resource_milestone_events', milestoneEventSchema)]).then(
    ([label, state, milestone]) => ({ label, state, milestone }),
  );
}

export const issueEventsQueries = {
  /** Under the issue's detail key, so whatever refreshes the issue refreshes its events too. */
  of: (connection: Connection, projectId: number, iid: number) =>
    queryOptions({
      queryKey: [...issuesQueries.detail(connection, projectId, iid).queryKey, 'events'] as const,
      queryFn: ({ signal }) => issueEvents(connection, projectId, iid, signal),
    }),
};
