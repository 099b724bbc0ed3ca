import { createFileRoute, notFound, Outlet } from '@tanstack/react-router';
import { loadMergeRequestDetail } from '../../../../../features/merge-requests/detail-route-options.ts';
import { MergeRequestLayout } from '../../../../../features/merge-requests/merge-request-layout.tsx';
import { positiveIdParam } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid')({
  loader: ({ context, params }) => {
    const projectId = positiveIdParam(params.projectId);
    const iid = positiveIdParam(params.mergeRequestIid);
    if (projectId === null || iid === null) throw notFound();
    return loadMergeRequestDetail(context, projectId, iid);
  },
  component: MergeRequestRoute,
});

function MergeRequestRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  // another merge request is another screen: its tabs' state starts afresh
  return (
    <MergeRequestLayout key={`${projectId}/${mergeRequestIid}`} projectId={Number(projectId)} iid={Number(mergeRequestIid)}>
      <Outlet />
    </MergeRequestLayout>
  );
}
