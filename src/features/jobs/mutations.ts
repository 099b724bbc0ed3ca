import { useQueryClient } from '@tanstack/react-query';
import { cancelJob, jobsQueries, playJob, retryJob, type JobActionVariables, type PlayJobVariables } from '../../api/jobs.ts';
import { pipelinesQueries } from '../../api/pipelines.ts';
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
