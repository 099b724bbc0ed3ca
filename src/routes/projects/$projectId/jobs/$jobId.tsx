import { createFileRoute } from '@tanstack/react-router';
import { JobScreen } from '../../../../features/jobs/job-screen.tsx';
import { loadJob } from '../../../../features/jobs/route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/jobs/$jobId')({
  loader: ({ context, params }) => {
    const { projectId, jobId } = idParams(params);
    return loadJob(context, projectId, jobId);
  },
  component: JobRoute,
});

function JobRoute() {
  const { projectId, jobId } = Route.useParams();
  // another job (a retry's) is another screen: its log and folding start afresh
  return <JobScreen key={jobId} projectId={Number(projectId)} jobId={Number(jobId)} />;
}
