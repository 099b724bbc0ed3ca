import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, requestAllIds, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';
import { mapWithConcurrency } from '../lib/concurrency.ts';
import { RUNNER_TYPES, RUNNER_TYPE_VALUES, RUNNER_STATUSES, RUNNER_STATUS_VALUES, RUNNER_ACCESS_LEVELS, JOB_STATUSES, type RunnerType, type RunnerStatus, type RunnerAccessLevel, type JobStatus } from './vocabulary.ts';
export { RUNNER_TYPES, RUNNER_TYPE_VALUES, RUNNER_STATUSES, RUNNER_STATUS_VALUES, RUNNER_ACCESS_LEVELS, JOB_STATUSES, type RunnerType, type RunnerStatus, type RunnerAccessLevel, type JobStatus };

/** Whose fleet a list shows: the whole instance (administrators), a group's or a project's. */
export type RunnerScope = 'instance' | { group: number } | { project: number };


/** spec 1, 4.3: a runner in a list. `status` may also read `paused` (the platform's deprecated REST status). */
export const runnerSchema = loose({
  id: z.number(),
  description: z.nullish(z.string()),
  ip_address: z.nullish(z.string()),
  active: flag,
  paused: flag,
  is_shared: flag,
  runner_type: z.string(),
  name: z.nullish(z.string()),
  online: z.nullish(z.boolean()),
  created_by: z.nullish(userSummarySchema),
  created_at: z.nullish(z.string()),
  status: z.string(),
  job_execution_status: z.nullish(z.string()),
});
export type Runner = z.infer<typeof runnerSchema>;

export const runnerDetailSchema = z.extend(runnerSchema, {
  tag_list: z.pipe(z.nullish(z.array(z.string())), z.transform((tags) => tags ?? [])),
  run_untagged: flag,
  locked: flag,
  maximum_timeout: z.nullish(z.number()),
  access_level: z.nullish(z.string()),
  version: z.nullish(z.string()),
  revision: z.nullish(z.string()),
  platform: z.nullish(z.string()),
  architecture: z.nullish(z.string()),
  contacted_at: z.nullish(z.string()),
  maintenance_note: z.nullish(z.string()),
  projects: z.pipe(z.nullish(z.array(loose({ id: z.number(), name: z.string(), name_with_namespace: z.string(), path_with_namespace: z.string() }))), z.transform((items) => items ?? [])),
  groups: z.pipe(z.nullish(z.array(loose({ id: z.number(), name: z.string(), web_url: z.nullish(z.string()) }))), z.transform((items) => items ?? [])),
});
export type RunnerDetail = z.infer<typeof runnerDetailSchema>;

/** JobBasicWithProject, the rows of GET /runners/:id/jobs. */
export const runnerJobSchema = loose({
  id: z.number(),
  status: z.string(),
  stage: z.nullish(z.string()),
  name: z.string(),
  ref: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  started_at: z.nullish(z.string()),
  finished_at: z.nullish(z.string()),
  duration: z.nullish(z.number()),
  user: z.nullish(userSummarySchema),
  web_url: z.nullish(z.string()),
  project: loose({ id: z.number(), name_with_namespace: z.string() }),
});
export type RunnerJob = z.infer<typeof runnerJobSchema>;

export const resetTokenSchema = loose({ token: z.string().check(z.minLength(1)), token_expires_at: z.nullish(z.string()) });
export type ResetTokenData = z.infer<typeof resetTokenSchema>;

/** The list filters of spec 1, 4.3 (the platform has no text search on runners). */
export interface RunnerFilters {
  type?: RunnerType;
  status?: RunnerStatus;
  paused?: boolean;
  tag_list?: string[];
  version_prefix?: string;
}

export interface RunnerListParams extends RunnerFilters {
  page: number;
  per_page: number;
}

export interface RunnerJobsParams {
  status?: JobStatus;
  sort: 'asc' | 'desc';
  page: number;
  per_page: number;
}

const runnersPath = (scope: RunnerScope) =>
  scope === 'instance' ? '/runners/all' : 'group' in scope ? apiPath`/groups/${scope.group}/runners` : apiPath`/projects/${scope.project}/runners`;

/** The filters as query params: `paused=false` is a filter too, so only undefined drops it. */
function filterQuery(filters: RunnerFilters) {
  const { paused, tag_list: tags, ...rest } = filters;
  return { ...withoutEmpty(rest), ...(paused !== undefined ? { paused } : {}), ...(tags?.length ? { tag_list: tags } : {}) };
}

export const runnersQueries = {
  all: () => ['runners'] as const,
  scope: (scope: RunnerScope) => [...runnersQueries.all(), scope] as const,
  list: (connection: Connection, scope: RunnerScope, params: RunnerListParams) =>
    queryOptions({
      queryKey: [...runnersQueries.scope(scope), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, runnersPath(scope), runnerSchema, { query: { ...filterQuery(params), page: params.page, per_page: params.per_page }, signal }),
    }),
  /** How many runners match `filters`: the `x-total` of a one-row page; undefined when the platform did not count. */
  count: (connection: Connection, scope: RunnerScope, filters: RunnerFilters) =>
    queryOptions({
      queryKey: [...runnersQueries.scope(scope), 'count', filters] as const,
      queryFn: async ({ signal }) => (await requestPage(connection, runnersPath(scope), runnerSchema, { query: { ...filterQuery(filters), page: 1, per_page: 1 }, signal })).total ?? null,
      staleTime: 30_000,
    }),
  /** The project runners the caller owns (GET /runners: runners of projects they maintain), a hundred at a time. */
  ownedProjectRunners: (connection: Connection) =>
    infiniteQueryOptions({
      queryKey: [...runnersQueries.all(), 'owned', 'project_type'] as const,
      queryFn: ({ pageParam, signal }) => requestPage(connection, '/runners', runnerSchema, { query: { type: 'project_type', page: pageParam, per_page: 100 }, signal }),
      initialPageParam: 1,
      getNextPageParam: (last) => last.nextPage,
    }),
  /** The ids of every project runner serving a project, all its pages: what it need not be offered again. */
  projectRunnerIds: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...runnersQueries.scope({ project: projectId }), 'ids', 'project_type'] as const,
      queryFn: ({ signal }) => requestAllIds(connection, runnersPath({ project: projectId }), runnerSchema, { query: { type: 'project_type' }, signal }),
    }),
  runner: (runnerId: number) => [...runnersQueries.all(), { runner: runnerId }] as const,
  detail: (connection: Connection, runnerId: number) =>
    queryOptions({
      queryKey: [...runnersQueries.runner(runnerId), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/runners/${runnerId}`, runnerDetailSchema, { signal }),
    }),
  /** The details of a page's runners (versions and tags are not in the list), six requests at a time. */
  details: (connection: Connection, runnerIds: readonly number[]) =>
    queryOptions({
      queryKey: [...runnersQueries.all(), 'details', runnerIds] as const,
      queryFn: ({ signal }) => runnerDetails(connection, runnerIds, signal),
      staleTime: 60_000,
    }),
  jobs: (connection: Connection, runnerId: number, params: RunnerJobsParams) =>
    queryOptions({
      queryKey: [...runnersQueries.runner(runnerId), 'jobs', params] as const,
      queryFn: ({ signal }) => requestPage(connection, apiPath`/runners/${runnerId}/jobs`, runnerJobSchema, { query: { ...withoutEmpty(params), order_by: 'id' }, signal }),
    }),
};

// spec: parallel requests, never more than six in flight
export const RUNNER_CONCURRENCY = 6;

/** Details by runner id; a runner that cannot be read is left out (its row shows no version). */
async function runnerDetails(connection: Connection, runnerIds: readonly number[], signal?: AbortSignal): Promise<Record<number, RunnerDetail>> {
  const results = await mapWithConcurrency(runnerIds, RUNNER_CONCURRENCY, (id) => request(connection, apiPath`/runners/${id}`, runnerDetailSchema, { signal }), signal);
  const byId: Record<number, RunnerDetail> = {};
  results.forEach((result) => {
    if (result.ok) byId[result.value.id] = result.value;
  });
  return byId;
}

// -- the edit form: the model's rules of spec 1, 4.3

export const TEXT_MAX = 1024;
export const MINIMUM_TIMEOUT_SECONDS = 600;
export const TAGS_MAX = 50;

/** "docker, linux,,gpu " -> ["docker", "linux", "gpu"]: trimmed, no blanks or repeats, as the platform keeps them. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((tag) => tag.trim()).filter(Boolean))];
}

export const runnerFormSchema = z
  .object({
    description: z.string().check(z.maxLength(TEXT_MAX, `At most ${TEXT_MAX} characters`)),
    tag_list: z.string().check(z.refine((text) => parseTags(text).length <= TAGS_MAX, `At most ${TAGS_MAX} tags`)),
    run_untagged: z.boolean(),
    locked: z.boolean(),
    access_level: z.enum(['not_protected', 'ref_protected'], 'Choose who may use the runner'),
    maximum_timeout: z.string().check(
      z.trim(),
      z.refine((text) => text === '' || /^\d+$/.test(text), 'A whole number of seconds, or empty for no limit'),
      z.refine((text) => text === '' || !/^\d+$/.test(text) || Number(text) >= MINIMUM_TIMEOUT_SECONDS, `At least ${MINIMUM_TIMEOUT_SECONDS} seconds (10 minutes)`),
    ),
    maintenance_note: z.string().check(z.maxLength(TEXT_MAX, `At most ${TEXT_MAX} characters`)),
  })
  .check(
    z.refine((values) => values.run_untagged || parseTags(values.tag_list).length > 0, {
      message: 'Tags can not be empty when the runner may not pick untagged jobs',
      path: ['tag_list'],
    }),
  );
export type RunnerFormValues = z.output<typeof runnerFormSchema>;

/** The form's starting values from a runner. */
export function runnerFormValues(runner: RunnerDetail): RunnerFormValues {
  return {
    description: runner.description ?? '',
    tag_list: runner.tag_list.join(', '),
    run_untagged: runner.run_untagged,
    locked: runner.locked,
    access_level: runner.access_level === 'ref_protected' ? 'ref_protected' : 'not_protected',
    maximum_timeout: runner.maximum_timeout === null || runner.maximum_timeout === undefined ? '' : String(runner.maximum_timeout),
    maintenance_note: runner.maintenance_note ?? '',
  };
}

/** The PUT body for the fields that changed: values others changed meanwhile stay theirs. */
export function runnerUpdateBody(values: RunnerFormValues, changed: ReadonlyArray<keyof RunnerFormValues>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of changed) {
    if (field === 'tag_list') body.tag_list = parseTags(values.tag_list);
    else if (field === 'maximum_timeout') body.maximum_timeout = values.maximum_timeout === '' ? null : Number(values.maximum_timeout);
    else body[field] = values[field];
  }
  return body;
}

/** The model names the tags field `tags_list` in its errors; the form calls it `tag_list`. */
export function runnerFieldErrors(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.fieldErrors) return error;
  const renamed = Object.fromEntries(Object.entries(error.fieldErrors).map(([field, messages]) => [field === 'tags_list' ? 'tag_list' : field, messages]));
  return new ApiError(error.status, error.message, error.kind, renamed, error.retryAfter);
}

// -- writes

export type UpdateRunnerVariables = { runnerId: number; body: Record<string, unknown> };
export type SetPausedVariables = { runnerIds: readonly number[]; paused: boolean };
export type SetPausedData = { done: number[]; failures: Array<{ runnerId: number; message: string }> };

/** PUT /runners/:id with the attributes given (at least one). */
export function updateRunner(connection: Connection, { runnerId, body }: UpdateRunnerVariables): Promise<RunnerDetail> {
  return request(connection, apiPath`/runners/${runnerId}`, runnerDetailSchema, { method: 'PUT', body });
}

/** Pauses or resumes many runners, one PUT each, six at a time; failures are collected, not thrown. */
export async function setRunnersPaused(connection: Connection, { runnerIds, paused }: SetPausedVariables): Promise<SetPausedData> {
  const results = await mapWithConcurrency(runnerIds, RUNNER_CONCURRENCY, (runnerId) => updateRunner(connection, { runnerId, body: { paused } }));
  const data: SetPausedData = { done: [], failures: [] };
  results.forEach((result, index) => {
    if (result.ok) data.done.push(runnerIds[index]);
    else data.failures.push({ runnerId: runnerIds[index], message: result.error instanceof Error ? result.error.message : String(result.error) });
  });
  return data;
}

export async function deleteRunner(connection: Connection, { runnerId }: { runnerId: number }): Promise<void> {
  await send(connection, apiPath`/runners/${runnerId}`, { method: 'DELETE' });
}

export interface RunnerProjectVariables {
  runnerId: number;
  projectId: number;
}

/** A project runner one owns serves one more project (POST /projects/:id/runners). */
export function assignRunner(connection: Connection, { runnerId, projectId }: RunnerProjectVariables): Promise<Runner> {
  return request(connection, apiPath`/projects/${projectId}/runners`, runnerSchema, { method: 'POST', body: { runner_id: runnerId } });
}

/** The project stops using the runner; the runner keeps its other projects (DELETE /projects/:id/runners/:runner_id). */
export async function unassignRunner(connection: Connection, { runnerId, projectId }: RunnerProjectVariables): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/runners/${runnerId}`, { method: 'DELETE' });
}

/** The old authentication token stops working; the answer is the only copy of the new one. */
export function resetRunnerToken(connection: Connection, { runnerId }: { runnerId: number }): Promise<ResetTokenData> {
  return request(connection, apiPath`/runners/${runnerId}/reset_authentication_token`, resetTokenSchema, { method: 'POST' });
}

// -- export

/** Every runner matching `filters`: 100 a page, the pages after the first six at a time. */
export async function exportRunners(
  connection: Connection,
  scope: RunnerScope,
  filters: RunnerFilters,
  options: { onProgress?: (done: number, total: number | null) => void; signal?: AbortSignal } = {},
): Promise<Runner[]> {
  const fetchPage = (page: number) =>
    requestPage(connection, runnersPath(scope), runnerSchema, { query: { ...filterQuery(filters), page, per_page: 100 }, signal: options.signal });
  const first = await fetchPage(1);
  const runners = [...first.items];
  options.onProgress?.(runners.length, first.total ?? null);
  if (first.totalPages !== undefined) {
    const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, index) => index + 2);
    let fetched = runners.length;
    const results = await mapWithConcurrency(rest, RUNNER_CONCURRENCY, async (page) => {
      const answer = await fetchPage(page);
      fetched += answer.items.length;
      options.onProgress?.(fetched, first.total ?? null);
      return answer;
    }, options.signal);
    for (const result of results) {
      if (!result.ok) throw result.error;
      runners.push(...result.value.items);
    }
    return runners;
  }
  // without totals the pages can only be followed one after the other
  for (let next = first.nextPage; next && runners.length > 0; ) {
    const answer = await fetchPage(next);
    if (answer.items.length === 0) break;
    runners.push(...answer.items);
    options.onProgress?.(runners.length, null);
    next = answer.nextPage;
  }
  return runners;
}
