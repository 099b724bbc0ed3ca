import { useQueryClient } from '@tanstack/react-query';
import {
  cancelPipeline, createPipeline, deletePipeline, pipelinesQueries, retryPipeline,
  type CreatePipelineVariables, type PipelineActionVariables, type PipelineDetail, type ProjectRef,
} from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

function useInvalidateProject() {
  const queryClient = useQueryClient();
  return (projectId: ProjectRef) => queryClient.invalidateQueries({ queryKey: pipelinesQueries.project(projectId) });
}

/** The answer is the pipeline as it now stands: it goes straight into its detail. */
function useStoreDetail() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return (pipeline: PipelineDetail, projectId: ProjectRef) => queryClient.setQueryData(pipelinesQueries.detail(connection, projectId, pipeline.id).queryKey, pipeline);
}

export function useCreatePipeline() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  const store = useStoreDetail();
  return useWrite({
    send: (variables: CreatePipelineVariables) => createPipeline(connection, variables),
    onDone: (pipeline, { projectId }) => store(pipeline, projectId),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}

/** Retry and cancel may be pressed again on purpose later (a pipeline fails again): the same press repeats after a double click's span. */
function usePipelineAction(call: typeof retryPipeline) {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  const store = useStoreDetail();
  return useWrite({
    send: (variables: PipelineActionVariables) => call(connection, variables),
    onDone: (pipeline, { projectId }) => store(pipeline, projectId),
    refresh: ({ projectId }) => invalidate(projectId),
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export const useRetryPipeline = () => usePipelineAction(retryPipeline);
export const useCancelPipeline = () => usePipelineAction(cancelPipeline);

export function useDeletePipeline() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: PipelineActionVariables) => deletePipeline(connection, variables),
    // the pipeline is gone: its detail and reports would answer 404 on a refetch
    onDone: (_data, { projectId, pipelineId }) => queryClient.removeQueries({ queryKey: pipelinesQueries.pipeline(projectId, pipelineId) }),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}
