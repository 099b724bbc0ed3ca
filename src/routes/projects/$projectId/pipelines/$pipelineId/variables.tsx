import { createFileRoute } from '@tanstack/react-router';
import { PipelineVariables } from '../../../../../features/jobs/pipeline-variables.tsx';
import { loadPipelineVariables } from '../../../../../features/jobs/route-options.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/$pipelineId/variables')({
  loader: ({ context, params }) => {
    const { projectId, pipelineId } = idParams(params);
    return loadPipelineVariables(context, projectId, pipelineId);
  },
  component: VariablesRoute,
});

function VariablesRoute() {
  const { projectId, pipelineId } = Route.useParams();
  return <PipelineVariables projectId={Number(projectId)} pipelineId={Number(pipelineId)} />;
}
