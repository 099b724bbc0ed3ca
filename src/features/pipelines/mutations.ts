import { useQueryClient } from '@tanstack/react-query';
import { createPipeline, pipelinesQueries, type CreatePipelineVariables } from '../../api/pipelines.ts';
import { useConnection } from '../../api/react.ts';
import { useStorePipeline } from '../../components/pipeline-writes.ts';
import { useWrite } from '../../components/use-write.ts';

export function useCreatePipeline() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const store = useStorePipeline();
  return useWrite({
    send: (variables: CreatePipelineVariables) => createPipeline(connection, variables),
    onDone: (pipeline, { projectId }) => store(pipeline, projectId),
    refresh: ({ projectId }) => queryClient.invalidateQueries({ queryKey: pipelinesQueries.project(projectId) }),
  });
}
