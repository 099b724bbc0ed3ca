import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { AlertListScreen } from '../../../../features/alerts/alert-list-screen.tsx';
import { loadAlerts } from '../../../../features/alerts/route-options.ts';
import { ALERT_LIST_SEARCH_DEFAULTS, alertListSearchSchema } from '../../../../features/alerts/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/alerts/')({
  validateSearch: alertListSearchSchema,
  search: { middlewares: [stripSearchParams(ALERT_LIST_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadAlerts(context, idParams(params).projectId, deps),
  component: ProjectAlertsRoute,
});

function ProjectAlertsRoute() {
  const { projectId } = Route.useParams();
  return <AlertListScreen projectId={Number(projectId)} search={Route.useSearch()} />;
}
