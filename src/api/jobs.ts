import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { graphqlRequest } from './graphql.ts';
import { request, requestPage, sendRaw, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import type { Page } from './pagination.ts';
import { ApiError } from './errors.ts';
import { flag, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';
import { JOB_STATUSES, type JobStatus } from './vocabulary.ts';
export { JOB_STATUSES, type JobStatus };

// The platform's Jobs API (not shown in the seeds; its public documentation): GET /projects/:id/jobs,
// GET /projects/:id/pipelines/:pipeline_id/jobs, GET /projects/:id/jobs/:job_id, GET .../trace,
// POST .../retry, .../cancel, .../play.

const stringList = z.pipe(
  z.nullish(z.array(z.string())),
  z.transform((items) => items ?? []),
);

/**
 * The jobs a job needs, by name. The REST job has no `needs` (the platform's own graph reads it over
 * GraphQL); an instance that adds it may send names or `{ name }` objects: both read as names.
 */
const needsSchema = z.pipe(
  z.nullish(z.array(z.union([z.string(), loose({ name: z.string() })]))),
  z.transform((needs) => (needs ?? []).map((need) => (typeof need === 'string' ? need : need.name))),
);

export const jobRunnerSchema = loose({
  id: z.number(),
  description: z.nullish(z.string()),
  active: flag,
  paused: flag,
  is_shared: flag,
  runner_type: z.nullish(z.string()),
  name: z.nullish(z.string()),
  online: z.nullish(z.boolean()),
  status: z.nullish(z.string()),
});

export const jobArtifactSchema = loose({
  file_type: z.string(),
  size: z.nullish(z.number()),
  filename: z.string(),
  file_format: z.nullish(z.string()),
});

/** A job as the Jobs API answers it, in lists and alone. */
export const jobSchema = loose({
  id: z.number(),
  name: z.string(),
  stage: z.string(),
  status: z.string(),
  ref: z.nullish(z.string()),
  tag: flag,
  coverage: z.nullish(z.number()),
  allow_failure: flag,
  archived: flag,
  source: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  started_at: z.nullish(z.string()),
  finished_at: z.nullish(z.string()),
  erased_at: z.nullish(z.string()),
  /** Seconds, fractional. */
  duration: z.nullish(z.number()),
  queued_duration: z.nullish(z.number()),
  user: z.nullish(userSummarySchema),
  commit: z.nullish(loose({ id: z.string(), short_id: z.nullish(z.string()), title: z.nullish(z.string()), message: z.nullish(z.string()), author_name: z.nullish(z.string()) })),
  pipeline: z.nullish(loose({ id: z.number(), project_id: z.nullish(z.number()), ref: z.nullish(z.string()), sha: z.nullish(z.string()), status: z.nullish(z.string()) })),
  web_url: z.nullish(z.string()),
  artifacts: z.pipe(
    z.nullish(z.array(jobArtifactSchema)),
    z.transform((items) => items ?? []),
  ),
  artifacts_expire_at: z.nullish(z.string()),
  runner: z.nullish(jobRunnerSchema),
  tag_list: stringList,
  failure_reason: z.nullish(z.string()),
  /** Pending with no runner able to pick it; where the instance says so (the platform's own UI does). */
  stuck: z.nullish(z.boolean()),
  needs: needsSchema,
});
export type Job = z.infer<typeof jobSchema>;

/** Statuses of a job still on its way: its log grows, its pipeline is live. */
export const ACTIVE_JOB_STATUSES: readonly string[] = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'canceling'];

export const isJobActive = (status: string) => ACTIVE_JOB_STATUSES.includes(status);

/** What the caller's role allows is checked by the instance; these say which action a status offers. */
export const canRetryJob = (job: Pick<Job, 'status'>) => ['failed', 'canceled', 'success'].includes(job.status);
export const canCancelJob = (job: Pick<Job, 'status'>) => ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'].includes(job.status);
export const canPlayJob = (job: Pick<Job, 'status'>) => job.status === 'manual';

export interface PipelineJobsParams {
  scope?: readonly JobStatus[];
  include_retried?: boolean;
}

export interface ProjectJobsParams {
  scope?: readonly JobStatus[];
  page: number;
  per_page: 20 | 50 | 100;
}

/** The most a pipeline's graph reads: 20 pages of 100 (the platform's pipelines stop far below). */
export const PIPELINE_JOBS_MAX_PAGES = 20;

const scopeQuery = (scope: readonly JobStatus[] | undefined) => (scope?.length ? { scope } : {});

/** One page of a pipeline's jobs (`scope[]`, `include_retried`). */
export function pipelineJobsPage(
  connection: Connection,
  projectId: number,
  pipelineId: number,
  params: PipelineJobsParams & { page: number; per_page: number },
  signal?: AbortSignal,
): Promise<Page<Job>> {
  const { scope, include_retried: includeRetried, page, per_page: perPage } = params;
  return requestPage(connection, apiPath`/projects/${projectId}/pipelines/${pipelineId}/jobs`, jobSchema, {
    query: { ...scopeQuery(scope), ...(includeRetried ? { include_retried: true } : {}), page, per_page: perPage },
    signal,
  });
}

/**
 * Every job of a pipeline, 100 a page: the pages after the first together when the instance
 * counts them, one after another when it does not.
 */
export async function allPipelineJobs(connection: Connection, projectId: number, pipelineId: number, params: PipelineJobsParams = {}, signal?: AbortSignal): Promise<Job[]> {
  const fetchPage = (page: number) => pipelineJobsPage(connection, projectId, pipelineId, { ...params, page, per_page: 100 }, signal);
  const first = await fetchPage(1);
  const jobs = [...first.items];
  if (first.totalPages !== undefined) {
    const rest = Array.from({ length: Math.min(first.totalPages, PIPELINE_JOBS_MAX_PAGES) - 1 }, (_, index) => index + 2);
    for (const page of await Promise.all(rest.map(fetchPage))) jobs.push(...page.items);
    return jobs;
  }
  for (let next = first.nextPage, pages = 1; next && pages < PIPELINE_JOBS_MAX_PAGES; pages++) {
    const page = await fetchPage(next);
    if (!page.items.length) break;
    jobs.push(...page.items);
    next = page.nextPage;
  }
  return jobs;
}

/** GET .../jobs/:job_id/trace: the log as text (the platform answers text/plain; empty before it starts). */
export async function getJobTrace(connection: Connection, projectId: number, jobId: number, signal?: AbortSignal): Promise<string> {
  return (await sendRaw(connection, apiPath`/projects/${projectId}/jobs/${jobId}/trace`, { signal })).text();
}

// ids go in as literals: the platform types them (JobID, CiPipelineID) where a smaller schema may say ID
const PIPELINE_NEEDS_QUERY = (iid: number) => `query pipelineJobNeeds($fullPath: ID!, $after: String) {
  project(fullPath: $fullPath) {
    pipeline(iid: ${JSON.stringify(String(iid))}) {
      jobs(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { name needs { nodes { name } } }
      }
    }
  }
}`;

const pipelineNeedsDataSchema = loose({
  project: z.nullable(
    loose({
      pipeline: z.nullable(
        loose({
          jobs: loose({
            pageInfo: loose({ hasNextPage: flag, endCursor: z.nullish(z.string()) }),
            nodes: z.array(loose({ name: z.string(), needs: z.nullish(loose({ nodes: z.array(loose({ name: z.string() })) })) })),
          }),
        }),
      ),
    }),
  ),
});

/** The most GraphQL pages of jobs read for the needs (100 each). */
const NEEDS_MAX_PAGES = 20;

/**
 * Which jobs each job of a pipeline needs, by name: the REST job does not say, so this asks
 * GraphQL as the platform's own pipeline graph does (`CiJob.needs`), 100 jobs a page.
 */
export async function fetchPipelineNeeds(connection: Connection, fullPath: string, pipelineIid: number, signal?: AbortSignal): Promise<Record<string, string[]>> {
  const needs: Record<string, string[]> = {};
  let after: string | null = null;
  for (let page = 0; page < NEEDS_MAX_PAGES; page++) {
    const data: z.infer<typeof pipelineNeedsDataSchema> = await graphqlRequest(connection, PIPELINE_NEEDS_QUERY(pipelineIid), { fullPath, after }, pipelineNeedsDataSchema, signal);
    const jobs = data.project?.pipeline?.jobs;
    if (!jobs) throw new ApiError(404, 'Pipeline not found, or you may not read it.', 'http');
    for (const job of jobs.nodes) needs[job.name] = job.needs?.nodes.map((need) => need.name) ?? [];
    if (!jobs.pageInfo.hasNextPage || !jobs.pageInfo.endCursor) break;
    after = jobs.pageInfo.endCursor;
  }
  return needs;
}

const jobStuckDataSchema = loose({ project: z.nullable(loose({ job: z.nullable(loose({ stuck: flag })) })) });

/**
 * Whether a pending job is stuck (no online runner can pick it): the REST job does not say; the
 * platform's GraphQL `CiJob.stuck` does. Null when the job cannot be read there.
 */
export async function fetchJobStuck(connection: Connection, fullPath: string, jobId: number, signal?: AbortSignal): Promise<boolean | null> {
  const query = `query jobStuck($fullPath: ID!) { project(fullPath: $fullPath) { job(id: ${JSON.stringify(`gid://gitlab/Ci::Build/${jobId}`)}) { stuck } } }`;
  const data = await graphqlRequest(connection, query, { fullPath }, jobStuckDataSchema, signal);
  return data.project?.job ? data.project.job.stuck : null;
}

export const jobsQueries = {
  all: () => ['jobs'] as const,
  project: (projectId: number) => [...jobsQueries.all(), { project: projectId }] as const,
  /** Every job of a pipeline (the graph and the jobs table). */
  pipeline: (connection: Connection, projectId: number, pipelineId: number, params: PipelineJobsParams = {}) =>
    queryOptions({
      queryKey: [...jobsQueries.project(projectId), { pipeline: pipelineId }, params] as const,
      queryFn: ({ signal }) => allPipelineJobs(connection, projectId, pipelineId, params, signal),
    }),
  list: (connection: Connection, projectId: number, params: ProjectJobsParams) =>
    queryOptions({
      queryKey: [...jobsQueries.project(projectId), 'list', params] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/projects/${projectId}/jobs`, jobSchema, { query: { ...scopeQuery(params.scope), page: params.page, per_page: params.per_page }, signal }),
    }),
  job: (projectId: number, jobId: number) => [...jobsQueries.project(projectId), { job: jobId }] as const,
  detail: (connection: Connection, projectId: number, jobId: number) =>
    queryOptions({
      queryKey: [...jobsQueries.job(projectId, jobId), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}/jobs/${jobId}`, jobSchema, { signal }),
    }),
  /** The needs of a pipeline's jobs, by job name (GraphQL); they do not change once the pipeline exists. */
  needs: (connection: Connection, projectId: number, fullPath: string, pipelineIid: number) =>
    queryOptions({
      queryKey: [...jobsQueries.project(projectId), 'needs', { fullPath, pipelineIid }] as const,
      queryFn: ({ signal }) => fetchPipelineNeeds(connection, fullPath, pipelineIid, signal),
      staleTime: Infinity,
      retry: false,
    }),
  stuck: (connection: Connection, projectId: number, fullPath: string, jobId: number) =>
    queryOptions({
      queryKey: [...jobsQueries.job(projectId, jobId), 'stuck', { fullPath }] as const,
      queryFn: ({ signal }) => fetchJobStuck(connection, fullPath, jobId, signal),
      retry: false,
    }),
  trace: (connection: Connection, projectId: number, jobId: number) =>
    queryOptions({
      queryKey: [...jobsQueries.job(projectId, jobId), 'trace'] as const,
      queryFn: ({ signal }) => getJobTrace(connection, projectId, jobId, signal),
    }),
};

// -- writes: each answers the job as it now is (retry: the new job that replaces it)

export type JobActionVariables = { projectId: number; jobId: number };

/** A variable for a manual job's run (`job_variables_attributes`). */
export const jobVariableSchema = z.object({
  key: z.string().check(z.trim(), z.minLength(1, 'Enter a key'), z.maxLength(255, 'At most 255 characters'), z.regex(/^[A-Za-z0-9_]+$/, 'Letters, digits and _ only')),
  value: z.string(),
});
export type JobVariable = z.infer<typeof jobVariableSchema>;
export type PlayJobVariables = JobActionVariables & { variables?: readonly JobVariable[] };

/** POST .../jobs/:job_id/retry: a new job runs in the old one's place. */
export function retryJob(connection: Connection, { projectId, jobId }: JobActionVariables): Promise<Job> {
  return request(connection, apiPath`/projects/${projectId}/jobs/${jobId}/retry`, jobSchema, { method: 'POST' });
}

/** POST .../jobs/:job_id/cancel */
export function cancelJob(connection: Connection, { projectId, jobId }: JobActionVariables): Promise<Job> {
  return request(connection, apiPath`/projects/${projectId}/jobs/${jobId}/cancel`, jobSchema, { method: 'POST' });
}

/** POST .../jobs/:job_id/play: starts a manual job, with variables for this run only. */
export function playJob(connection: Connection, { projectId, jobId, variables }: PlayJobVariables): Promise<Job> {
  const body = variables?.length ? { job_variables_attributes: variables.map(({ key, value }) => ({ key, value })) } : undefined;
  return request(connection, apiPath`/projects/${projectId}/jobs/${jobId}/play`, jobSchema, { method: 'POST', body });
}
