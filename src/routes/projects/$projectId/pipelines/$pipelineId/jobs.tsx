import { createFileRoute } from '@tanstack/react-router';
import { PipelineJobsTable } from '../../../../../features/jobs/pipeline-jobs.tsx';
import { loadPipelineJobs } from '../../../../../features/jobs/route-options.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/$pipelineId/jobs')({
  loader: ({ context, params }) => {
    const { projectId, pipelineId } = idParams(params);
    return loadPipelineJobs(context, projectId, pipelineId);
  },
  component: JobsRoute,
});

function JobsRoute() {
  const { projectId, pipelineId } = Route.useParams();
  return <PipelineJobsTable projectId={Number(projectId)} pipelineId={Number(pipelineId)} />;
}
