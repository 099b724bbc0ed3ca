import { useQueryClient } from '@tanstack/react-query';
import { cancelJob, jobsQueries, playJob, retryJob, type JobActionVariables, type PlayJobVariables } from '../../api/jobs.ts';
import { cancelPipeline, deletePipeline, pipelinesQueries, retryPipeline, type PipelineActionVariables } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

/**
 * A job action changes the job, its pipeline's status and the pipeline's other jobs (a retry
 * re-creates the jobs after it): all of the project's jobs and the pipeline are refetched.
 */
function useJobWrite<TVariables extends JobActionVariables>(action: (connection: ReturnType<typeof useConnection>, variables: TVariables) => ReturnType<typeof retryJob>) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: TVariables) => action(connection, variables),
    refresh: (variables) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: jobsQueries.project(variables.projectId) }), queryClient.invalidateQueries({ queryKey: pipelinesQueries.project(variables.projectId) })]),
    // a job played, canceled or retried may be so again later on purpose
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export const useRetryJob = () => useJobWrite<JobActionVariables>(retryJob);
export const useCancelJob = () => useJobWrite<JobActionVariables>(cancelJob);
export const usePlayJob = () => useJobWrite<PlayJobVariables>(playJob);

function usePipelineWrite<TData>(action: (connection: ReturnType<typeof useConnection>, variables: PipelineActionVariables) => Promise<TData>) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PipelineActionVariables) => action(connection, variables),
    refresh: (variables) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: pipelinesQueries.project(variables.projectId) }),
        queryClient.invalidateQueries({ queryKey: jobsQueries.project(Number(variables.projectId)) }),
      ]),
    // a pipeline retried or canceled may be so again later on purpose (it fails again)
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export const useRetryPipeline = () => usePipelineWrite(retryPipeline);
export const useCancelPipeline = () => usePipelineWrite(cancelPipeline);

/** Deleting refreshes the lists; the screen leaves the pipeline, then drops its queries (`forgetPipeline`). */
export function useDeletePipeline() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PipelineActionVariables) => deletePipeline(connection, variables),
    refresh: (variables) => queryClient.invalidateQueries({ queryKey: pipelinesQueries.lists(variables.projectId) }),
  });
}
