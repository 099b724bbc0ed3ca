import { createFileRoute } from '@tanstack/react-router';
import { ScreenOutlet } from '../../../../../components/screen-outlet.tsx';
import { PipelineLayout } from '../../../../../features/jobs/pipeline-layout.tsx';
import { loadPipeline } from '../../../../../features/jobs/route-options.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/$pipelineId')({
  loader: ({ context, params }) => {
    const { projectId, pipelineId } = idParams(params);
    return loadPipeline(context, projectId, pipelineId);
  },
  component: PipelineRoute,
});

function PipelineRoute() {
  const { projectId, pipelineId } = Route.useParams();
  // another pipeline is another screen: its tabs' state starts afresh
  return (
    <PipelineLayout key={`${projectId}/${pipelineId}`} projectId={Number(projectId)} pipelineId={Number(pipelineId)}>
      <ScreenOutlet of={Route.id} />
    </PipelineLayout>
  );
}
