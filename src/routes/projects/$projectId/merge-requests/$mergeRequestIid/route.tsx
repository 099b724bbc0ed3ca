import { createFileRoute } from '@tanstack/react-router';
import { ScreenOutlet } from '../../../../../components/screen-outlet.tsx';
import { loadMergeRequestDetail } from '../../../../../features/merge-requests/detail-route-options.ts';
import { MergeRequestLayout } from '../../../../../features/merge-requests/merge-request-layout.tsx';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid')({
  loader: ({ context, params }) => {
    const { projectId, mergeRequestIid } = idParams(params);
    return loadMergeRequestDetail(context, projectId, mergeRequestIid);
  },
  component: MergeRequestRoute,
});

function MergeRequestRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  // another merge request is another screen: its tabs' state starts afresh
  return (
    <MergeRequestLayout key={`${projectId}/${mergeRequestIid}`} projectId={Number(projectId)} iid={Number(mergeRequestIid)}>
      <ScreenOutlet of={Route.id} />
    </MergeRequestLayout>
  );
}
