import { useQueryClient } from '@tanstack/react-query';
import { jobsQueries } from '../api/jobs.ts';
import { cancelPipeline, deletePipeline, pipelinesQueries, retryPipeline, type PipelineActionVariables, type PipelineDetail, type ProjectRef } from '../api/pipelines.ts';
import { useConnection } from '../api/react.ts';
import { READ_ONLY_TOKEN, type ProjectCaller } from './use-project-caller.ts';
import { REPEAT_AFTER_MS, useWrite } from './use-write.ts';
import { AccessLevel } from '../api/vocabulary.ts';

// What the pipelines list and a pipeline's own screens both offer on a pipeline: who may, and the writes

/**
 * Running, retrying, cancelling and playing: Developers and up (the platform's update_pipeline; a
 * protected ref also needs the right to push or merge to it, which the platform checks and explains).
 */
export function runRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER) return null;
  return 'Only Developers, Maintainers and Owners of this project can run, retry and cancel pipelines.';
}

/** Deleting a pipeline: Owners only (the platform's destroy_pipeline). */
export function deleteRefusal(caller: ProjectCaller): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (caller.isAdmin || caller.role >= AccessLevel.OWNER) return null;
  return 'Only Owners of this project can delete pipelines.';
}

/** The answer is the pipeline as it now stands: it goes straight into its detail. */
export function useStorePipeline() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return (pipeline: PipelineDetail, projectId: ProjectRef) => queryClient.setQueryData(pipelinesQueries.detail(connection, projectId, pipeline.id).queryKey, pipeline);
}

/** Retry and cancel change the pipeline and its jobs; either may be pressed again on purpose later (it fails again). */
function usePipelineAction(call: typeof retryPipeline) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const store = useStorePipeline();
  return useWrite({
    send: (variables: PipelineActionVariables) => call(connection, variables),
    onDone: (pipeline, { projectId }) => store(pipeline, projectId),
    refresh: ({ projectId }) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: pipelinesQueries.project(projectId) }), queryClient.invalidateQueries({ queryKey: jobsQueries.project(Number(projectId)) })]),
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export const useRetryPipeline = () => usePipelineAction(retryPipeline);
export const useCancelPipeline = () => usePipelineAction(cancelPipeline);

/**
 * Deleting refreshes the lists. The pipeline's own queries are the screen's to drop once it no
 * longer shows them: dropped while shown, they refetch a 404.
 */
export function useDeletePipeline() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PipelineActionVariables) => deletePipeline(connection, variables),
    refresh: (variables) => queryClient.invalidateQueries({ queryKey: pipelinesQueries.lists(variables.projectId) }),
  });
}
