import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { HISTORY_SEARCH_DEFAULTS, historyRouteOptions } from '../../../features/commits/search.ts';
import { HistoryScreen } from '../../../features/commits/history-screen.tsx';
import { loadHistory } from '../../../features/commits/route-options.ts';

export const Route = createFileRoute('/projects/$projectId/commits')({
  ...historyRouteOptions,
  search: { middlewares: [stripSearchParams(HISTORY_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => loadHistory(context, Number(params.projectId), deps),
  component: CommitsRoute,
});

function CommitsRoute() {
  const { projectId } = Route.useParams();
  const search = Route.useSearch();
  return <HistoryScreen projectId={Number(projectId)} search={search} />;
}
