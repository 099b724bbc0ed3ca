import { createFileRoute } from '@tanstack/react-router';
import { loadIntegrations } from '../../../../features/alerts/route-options.ts';
import { alertTesterSearchSchema } from '../../../../features/alerts/search.ts';
import { TesterScreen } from '../../../../features/alerts/tester-screen.tsx';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/alerts/tester')({
  validateSearch: alertTesterSearchSchema,
  loader: ({ context, params }) => loadIntegrations(context, idParams(params).projectId),
  component: AlertTesterRoute,
});

function AlertTesterRoute() {
  const { projectId } = Route.useParams();
  return <TesterScreen projectId={Number(projectId)} search={Route.useSearch()} />;
}
