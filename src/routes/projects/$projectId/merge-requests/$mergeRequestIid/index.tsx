import { createFileRoute } from '@tanstack/react-router';
import { MergeRequestOverview } from '../../../../../features/merge-requests/merge-request-overview.tsx';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid/')({
  component: OverviewRoute,
});

function OverviewRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  return <MergeRequestOverview projectId={Number(projectId)} iid={Number(mergeRequestIid)} />;
}
