import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { jobsQueries } from '../../api/jobs.ts';
import { whenRoleAllows } from '../../api/members.ts';
import { pipelinesQueries } from '../../api/pipelines.ts';
import type { SessionStore } from '../../api/session.ts';
import { variablesRefusal } from './variables-access.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/** The pipeline's header blocks the first paint; its jobs (the graph, the table) load beside it. */
export function loadPipeline(context: LoaderContext, projectId: number, pipelineId: number) {
  void context.queryClient.prefetchQuery(jobsQueries.pipeline(context.api, projectId, pipelineId));
  return context.queryClient.ensureQueryData(pipelinesQueries.detail(context.api, projectId, pipelineId));
}

export function loadPipelineJobs(context: LoaderContext, projectId: number, pipelineId: number) {
  return context.queryClient.ensureQueryData(jobsQueries.pipeline(context.api, projectId, pipelineId));
}

export function loadTestReport(context: LoaderContext, projectId: number, pipelineId: number) {
  return context.queryClient.ensureQueryData(pipelinesQueries.testReport(context.api, projectId, pipelineId));
}

/** The variables, for whom the screen shows them: below Developer it says why, and they are not asked for. */
export function loadPipelineVariables(context: LoaderContext, projectId: number, pipelineId: number) {
  return whenRoleAllows(context, { project: projectId }, (caller) => variablesRefusal(caller) === null, () => context.queryClient.ensureQueryData(pipelinesQueries.variables(context.api, projectId, pipelineId)));
}

/** The job blocks the first paint; its log (perhaps 100,000 lines) follows without holding the header up. */
export function loadJob(context: LoaderContext, projectId: number, jobId: number) {
  void context.queryClient.prefetchQuery(jobsQueries.trace(context.api, projectId, jobId));
  return context.queryClient.ensureQueryData(jobsQueries.detail(context.api, projectId, jobId));
}
