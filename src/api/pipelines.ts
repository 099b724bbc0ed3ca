import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { fetchCiConfigVariables } from './graphql.ts';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';
import { mapWithConcurrency } from '../lib/concurrency.ts';
import {
  PIPELINE_ORDERS,
  PIPELINE_SCOPES,
  PIPELINE_SOURCES,
  PIPELINE_STATUSES,
  VARIABLE_TYPES,
  type PipelineOrder,
  type PipelineScope,
  type PipelineSource,
  type PipelineStatus,
  type VariableType,
} from './vocabulary.ts';
export { PIPELINE_ORDERS, PIPELINE_SCOPES, PIPELINE_SOURCES, PIPELINE_STATUSES, VARIABLE_TYPES, type PipelineOrder, type PipelineScope, type PipelineSource, type PipelineStatus, type VariableType };

// -- statuses

/** Statuses a pipeline (or job) can still leave on its own: live screens keep polling while one shows. */
const MOVING_STATUSES: readonly string[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled', 'canceling'];

export function isPipelineMoving(status: string): boolean {
  return MOVING_STATUSES.includes(status);
}

/** The platform lets a pipeline be canceled while it can still move, and retried once it has failed or was canceled. */
export function canCancelPipeline(status: string): boolean {
  return isPipelineMoving(status) || status === 'manual';
}

export function canRetryPipeline(status: string): boolean {
  return status === 'failed' || status === 'canceled';
}

// -- schemas

/** spec 3, 2.5: `detailed_status` {icon, text, label, group, tooltip, has_details, details_path, illustration, favicon}. */
export const detailedStatusSchema = loose({
  icon: z.nullish(z.string()),
  text: z.nullish(z.string()),
  label: z.nullish(z.string()),
  group: z.nullish(z.string()),
  tooltip: z.nullish(z.string()),
  has_details: flag,
  details_path: z.nullish(z.string()),
  illustration: z.nullish(z.unknown()),
  favicon: z.nullish(z.string()),
});
export type DetailedStatus = z.infer<typeof detailedStatusSchema>;

/** spec 3, 2.5: a pipeline in a list. `iid` and `name` came in later releases, so they may be absent. */
export const pipelineSchema = loose({
  id: z.number(),
  iid: z.nullish(z.number()),
  project_id: z.number(),
  status: z.string(),
  source: z.nullish(z.string()),
  ref: z.nullish(z.string()),
  sha: z.string(),
  name: z.nullish(z.string()),
  web_url: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  updated_at: z.nullish(z.string()),
});
export type Pipeline = z.infer<typeof pipelineSchema>;

/** spec 3, 2.5: a single pipeline; also what create, retry and cancel answer. */
export const pipelineDetailSchema = z.extend(pipelineSchema, {
  before_sha: z.nullish(z.string()),
  tag: flag,
  yaml_errors: z.nullish(z.string()),
  user: z.nullish(userSummarySchema),
  started_at: z.nullish(z.string()),
  finished_at: z.nullish(z.string()),
  committed_at: z.nullish(z.string()),
  /** Seconds. */
  duration: z.nullish(z.number()),
  /** Seconds. */
  queued_duration: z.nullish(z.number()),
  coverage: z.nullish(z.union([z.string(), z.number()])),
  detailed_status: z.nullish(detailedStatusSchema),
});
export type PipelineDetail = z.infer<typeof pipelineDetailSchema>;

/** A variable of a pipeline (GET .../variables, excluding schedule variables). */
export const pipelineVariableSchema = loose({
  key: z.string(),
  value: z.nullish(z.string()),
  variable_type: z.pipe(z.nullish(z.string()), z.transform((type) => type ?? 'env_var')),
});
export type PipelineVariable = z.infer<typeof pipelineVariableSchema>;

const count = z.pipe(z.nullish(z.number()), z.transform((value) => value ?? 0));

/** One test case of the test report (the platform's TestCaseEntity). */
export const testCaseSchema = loose({
  status: z.string(),
  name: z.string(),
  classname: z.nullish(z.string()),
  file: z.nullish(z.string()),
  execution_time: z.nullish(z.number()),
  system_output: z.nullish(z.string()),
  stack_trace: z.nullish(z.string()),
  attachment_url: z.nullish(z.string()),
  recent_failures: z.nullish(loose({ count: z.number(), base_branch: z.nullish(z.string()) })),
});
export type TestCase = z.infer<typeof testCaseSchema>;

/** The counts a report and each of its suites carry. */
const reportCounts = {
  total_time: z.nullish(z.number()),
  total_count: count,
  success_count: count,
  failed_count: count,
  skipped_count: count,
  error_count: count,
};

const suiteCounts = { name: z.string(), ...reportCounts, suite_error: z.nullish(z.string()) };

/** A suite of the full report: its cases are listed. */
export const testSuiteSchema = loose({
  ...suiteCounts,
  test_cases: z.pipe(z.nullish(z.array(testCaseSchema)), z.transform((cases) => cases ?? [])),
});
export type TestSuite = z.infer<typeof testSuiteSchema>;

/** GET /projects/:id/pipelines/:pipeline_id/test_report. */
export const testReportSchema = loose({
  ...reportCounts,
  test_suites: z.pipe(z.nullish(z.array(testSuiteSchema)), z.transform((suites) => suites ?? [])),
});
export type TestReport = z.infer<typeof testReportSchema>;

/** A suite of the summary: counts and the jobs (`build_ids`) that reported it, no cases. */
export const testSuiteSummarySchema = loose({
  ...suiteCounts,
  build_ids: z.pipe(z.nullish(z.array(z.number())), z.transform((ids) => ids ?? [])),
});
export type TestSuiteSummary = z.infer<typeof testSuiteSummarySchema>;

/** GET /projects/:id/pipelines/:pipeline_id/test_report_summary. */
export const testReportSummarySchema = loose({
  total: loose({
    time: z.nullish(z.number()),
    count,
    success: count,
    failed: count,
    skipped: count,
    error: count,
    suite_error: z.nullish(z.string()),
  }),
  test_suites: z.pipe(z.nullish(z.array(testSuiteSummarySchema)), z.transform((suites) => suites ?? [])),
});
export type TestReportSummary = z.infer<typeof testReportSummarySchema>;

// -- reads

/** spec 3, 4.5: every filter of GET /projects/:id/pipelines. */
export interface PipelineFilters {
  scope?: PipelineScope;
  status?: PipelineStatus;
  source?: PipelineSource;
  ref?: string;
  sha?: string;
  name?: string;
  username?: string;
  /** true: only pipelines with an invalid CI file; false is no filter. */
  yaml_errors?: boolean;
  /** ISO 8601 datetimes. */
  updated_after?: string;
  updated_before?: string;
  order_by?: PipelineOrder;
  sort?: 'asc' | 'desc';
}

export interface PipelineListParams extends PipelineFilters {
  page: number;
  per_page: number;
}

export type ProjectRef = number | string;

// spec: parallel requests, never more than six in flight
const DETAIL_CONCURRENCY = 6;

const pipelinesPath = (projectId: ProjectRef) => apiPath`/projects/${projectId}/pipelines`;
const pipelinePath = (projectId: ProjectRef, pipelineId: number) => apiPath`/projects/${projectId}/pipelines/${pipelineId}`;

/** The params as the platform's query: empty filters dropped (`yaml_errors=false` is none). */
export function pipelineListQuery(params: PipelineListParams | PipelineFilters) {
  return withoutEmpty(params);
}

export const pipelinesQueries = {
  all: () => ['pipelines'] as const,
  project: (projectId: ProjectRef) => [...pipelinesQueries.all(), { project: projectId }] as const,
  lists: (projectId: ProjectRef) => [...pipelinesQueries.project(projectId), 'list'] as const,
  /** One page of the list (list items: no user, duration or detailed status; see `detail`). */
  list: (connection: Connection, projectId: ProjectRef, params: PipelineListParams) =>
    queryOptions({
      queryKey: [...pipelinesQueries.lists(projectId), params] as const,
      queryFn: ({ signal }) => requestPage(connection, pipelinesPath(projectId), pipelineSchema, { query: pipelineListQuery(params), signal }),
    }),
  pipeline: (projectId: ProjectRef, pipelineId: number) => [...pipelinesQueries.project(projectId), { pipeline: pipelineId }] as const,
  detail: (connection: Connection, projectId: ProjectRef, pipelineId: number) =>
    queryOptions({
      queryKey: [...pipelinesQueries.pipeline(projectId, pipelineId), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, pipelinePath(projectId, pipelineId), pipelineDetailSchema, { signal }),
    }),
  /**
   * The single pipelines behind a page of the list (user, durations, detailed status: a list item
   * has none of them), six at a time. One whose cached detail still matches its row (status and
   * updated_at) is not asked again; each answer also fills that pipeline's `detail`. A pipeline
   * that cannot be read is left out.
   */
  rowDetails: (connection: Connection, projectId: ProjectRef, rows: readonly Pick<Pipeline, 'id' | 'status' | 'updated_at'>[]) =>
    queryOptions({
      queryKey: [...pipelinesQueries.lists(projectId), 'row-details', rows.map((row) => `${row.id}:${row.status}:${row.updated_at ?? ''}`)] as const,
      queryFn: async ({ client, signal }) => {
        const results = await mapWithConcurrency(
          rows,
          DETAIL_CONCURRENCY,
          async (row) => {
            const { queryKey } = pipelinesQueries.detail(connection, projectId, row.id);
            const cached = client.getQueryData(queryKey);
            if (cached && cached.status === row.status && cached.updated_at === row.updated_at) return cached;
            const fresh = await request(connection, pipelinePath(projectId, row.id), pipelineDetailSchema, { signal });
            client.setQueryData(queryKey, fresh);
            return fresh;
          },
          signal,
        );
        const byId: Record<number, PipelineDetail> = {};
        for (const result of results) if (result.ok) byId[result.value.id] = result.value;
        return byId;
      },
      staleTime: Infinity,
    }),
  /** The latest pipeline of `ref` (the default branch when empty); 403 when its commit has none (spec 3, 7). */
  latest: (connection: Connection, projectId: ProjectRef, ref?: string) =>
    queryOptions({
      queryKey: [...pipelinesQueries.project(projectId), 'latest', { ref: ref ?? '' }] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}/pipelines/latest`, pipelineDetailSchema, { query: withoutEmpty({ ref }), signal }),
    }),
  variables: (connection: Connection, projectId: ProjectRef, pipelineId: number) =>
    queryOptions({
      queryKey: [...pipelinesQueries.pipeline(projectId, pipelineId), 'variables'] as const,
      queryFn: ({ signal }) => request(connection, `${pipelinePath(projectId, pipelineId)}/variables`, z.array(pipelineVariableSchema), { signal }),
      staleTime: Infinity,
    }),
  testReport: (connection: Connection, projectId: ProjectRef, pipelineId: number) =>
    queryOptions({
      queryKey: [...pipelinesQueries.pipeline(projectId, pipelineId), 'test-report'] as const,
      queryFn: ({ signal }) => request(connection, `${pipelinePath(projectId, pipelineId)}/test_report`, testReportSchema, { signal }),
    }),
  testReportSummary: (connection: Connection, projectId: ProjectRef, pipelineId: number) =>
    queryOptions({
      queryKey: [...pipelinesQueries.pipeline(projectId, pipelineId), 'test-report-summary'] as const,
      queryFn: ({ signal }) => request(connection, `${pipelinePath(projectId, pipelineId)}/test_report_summary`, testReportSummarySchema, { signal }),
    }),
  /**
   * Duration and queue time of the last `count` finished pipelines of `ref`, oldest first (the
   * list has neither: each is read on its own, six at a time; one that cannot be read is left out).
   */
  durations: (connection: Connection, projectId: ProjectRef, ref: string, count: number) =>
    queryOptions({
      queryKey: [...pipelinesQueries.lists(projectId), 'durations', { ref, count }] as const,
      queryFn: async ({ signal }) => {
        const page = await requestPage(connection, pipelinesPath(projectId), pipelineSchema, {
          query: withoutEmpty({ ref, scope: 'finished', order_by: 'id', sort: 'desc', page: 1, per_page: count }),
          signal,
        });
        const details = await mapWithConcurrency(page.items, DETAIL_CONCURRENCY, (pipeline) => request(connection, pipelinePath(projectId, pipeline.id), pipelineDetailSchema, { signal }), signal);
        return details.flatMap((result) => (result.ok ? [result.value] : [])).reverse();
      },
      staleTime: 60_000,
    }),
  /** The CI file's variables at `ref` (GraphQL `ciConfigVariables`), asked again each second while the platform answers null. */
  ciConfigVariables: (connection: Connection, fullPath: string, ref: string) =>
    queryOptions({
      queryKey: [...pipelinesQueries.all(), { fullPath }, 'ci-config-variables', { ref }] as const,
      queryFn: ({ signal }) => fetchCiConfigVariables(connection, fullPath, ref, signal),
      refetchInterval: (query) => (query.state.data === null && query.state.dataUpdateCount < 30 ? 1000 : false),
      staleTime: 60_000,
    }),
};

// -- writes

export interface PipelineVariableInput {
  key: string;
  value: string;
  variable_type: VariableType;
}

export type CreatePipelineVariables = {
  projectId: ProjectRef;
  ref: string;
  variables?: readonly PipelineVariableInput[];
  /** spec 3, 4.5: `inputs` (a hash, behind a feature flag on the platform); sent only when given. */
  inputs?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
};
export type CreatePipelineData = PipelineDetail;

/** POST /projects/:id/pipeline (singular): 201 with the new pipeline; 400 names why none was created. */
export function createPipeline(connection: Connection, { projectId, ref, variables, inputs }: CreatePipelineVariables): Promise<CreatePipelineData> {
  const body = { ref, ...(variables?.length ? { variables } : {}), ...(inputs && Object.keys(inputs).length ? { inputs } : {}) };
  return request(connection, apiPath`/projects/${projectId}/pipeline`, pipelineDetailSchema, { method: 'POST', body });
}

export type PipelineActionVariables = { projectId: ProjectRef; pipelineId: number };

/** POST .../retry: retries the failed and canceled jobs (none: no effect); answers the pipeline. */
export function retryPipeline(connection: Connection, { projectId, pipelineId }: PipelineActionVariables): Promise<PipelineDetail> {
  return request(connection, `${pipelinePath(projectId, pipelineId)}/retry`, pipelineDetailSchema, { method: 'POST' });
}

/** POST .../cancel: cancels the jobs still to finish; answers the pipeline. */
export function cancelPipeline(connection: Connection, { projectId, pipelineId }: PipelineActionVariables): Promise<PipelineDetail> {
  return request(connection, `${pipelinePath(projectId, pipelineId)}/cancel`, pipelineDetailSchema, { method: 'POST' });
}

/** DELETE .../pipelines/:id (Owners): 204; the pipeline, its jobs and their logs and artifacts are gone. */
export async function deletePipeline(connection: Connection, { projectId, pipelineId }: PipelineActionVariables): Promise<void> {
  await send(connection, pipelinePath(projectId, pipelineId), { method: 'DELETE' });
}

// -- the run form: the model's rules, checked before sending

/** The platform's variable key rule (Ci::Variable: letters, digits and `_`, at most 255). */
export const VARIABLE_KEY_PATTERN = /^[A-Za-z0-9_]+$/;

export const pipelineVariableRowSchema = z.object({
  key: z.string(),
  value: z.string(),
  variable_type: z.enum(VARIABLE_TYPES as unknown as [VariableType, ...VariableType[]]),
});
export type PipelineVariableRow = z.infer<typeof pipelineVariableRowSchema>;

/**
 * The run form: a ref, and variable rows where a row with neither key nor value is a blank to
 * skip; any other row needs a valid key, and no key twice.
 */
export const runPipelineSchema = z
  .object({
    ref: z.string().check(z.trim(), z.minLength(1, 'Choose a branch or tag')),
    variables: z.array(pipelineVariableRowSchema),
  })
  .check(
    z.superRefine((values, context) => {
      const seen = new Map<string, number>();
      values.variables.forEach((row, index) => {
        if (!row.key && !row.value) return;
        const path = ['variables', index, 'key'];
        if (!row.key) context.issues.push({ code: 'custom', input: row.key, path, message: 'Give the variable a key, or clear its value' });
        else if (row.key.length > 255) context.issues.push({ code: 'custom', input: row.key, path, message: 'At most 255 characters' });
        else if (!VARIABLE_KEY_PATTERN.test(row.key)) context.issues.push({ code: 'custom', input: row.key, path, message: 'Only letters, digits and _ (no spaces)' });
        else if (seen.has(row.key)) context.issues.push({ code: 'custom', input: row.key, path, message: `${row.key} is already set in row ${seen.get(row.key)! + 1}` });
        else seen.set(row.key, index);
      });
    }),
  );
export type RunPipelineValues = z.infer<typeof runPipelineSchema>;

/** The create call's variables from the form's rows: blank rows left out. */
export function runPipelineVariables(rows: readonly PipelineVariableRow[]): PipelineVariableInput[] {
  return rows.filter((row) => row.key || row.value).map(({ key, value, variable_type }) => ({ key, value, variable_type }));
}
