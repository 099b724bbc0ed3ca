import { createFileRoute } from '@tanstack/react-router';
import { loadMergeRequestOverview } from '../../../../../features/merge-requests/detail-route-options.ts';
import { MergeRequestOverview } from '../../../../../features/merge-requests/merge-request-overview.tsx';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid/')({
  loader: ({ context, params }) => {
    const { projectId, mergeRequestIid } = idParams(params);
    return loadMergeRequestOverview(context, projectId, mergeRequestIid);
  },
  component: OverviewRoute,
});

function OverviewRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  return <MergeRequestOverview projectId={Number(projectId)} iid={Number(mergeRequestIid)} />;
}
