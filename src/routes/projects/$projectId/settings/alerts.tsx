import { createFileRoute } from '@tanstack/react-router';
import { IntegrationsScreen } from '../../../../features/alerts/integrations-screen.tsx';
import { loadIntegrations } from '../../../../features/alerts/route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/settings/alerts')({
  loader: ({ context, params }) => loadIntegrations(context, idParams(params).projectId),
  component: AlertIntegrationsRoute,
});

function AlertIntegrationsRoute() {
  const { projectId } = Route.useParams();
  return <IntegrationsScreen projectId={Number(projectId)} />;
}
