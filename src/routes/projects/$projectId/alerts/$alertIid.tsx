import { createFileRoute } from '@tanstack/react-router';
import { AlertDetailScreen } from '../../../../features/alerts/alert-detail-screen.tsx';
import { loadAlert } from '../../../../features/alerts/route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/alerts/$alertIid')({
  loader: ({ context, params }) => {
    const { projectId, alertIid } = idParams(params);
    return loadAlert(context, projectId, alertIid);
  },
  component: AlertDetailRoute,
});

function AlertDetailRoute() {
  const { projectId, alertIid } = Route.useParams();
  return <AlertDetailScreen key={`${projectId}/${alertIid}`} projectId={Number(projectId)} iid={Number(alertIid)} />;
}
