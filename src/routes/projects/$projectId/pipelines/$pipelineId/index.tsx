import { createFileRoute } from '@tanstack/react-router';
import { PipelineGraph } from '../../../../../features/jobs/pipeline-graph.tsx';
import { loadPipelineJobs } from '../../../../../features/jobs/route-options.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/$pipelineId/')({
  loader: ({ context, params }) => {
    const { projectId, pipelineId } = idParams(params);
    return loadPipelineJobs(context, projectId, pipelineId);
  },
  component: GraphRoute,
});

function GraphRoute() {
  const { projectId, pipelineId } = Route.useParams();
  return <PipelineGraph projectId={Number(projectId)} pipelineId={Number(pipelineId)} />;
}
