import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MERGE_REQUESTS_SEARCH_DEFAULTS, mergeRequestsRouteOptions } from '../../features/merge-requests/search.ts';
import { MergeRequestListScreen } from '../../features/merge-requests/merge-request-list-screen.tsx';
import { loadMergeRequests } from '../../features/merge-requests/route-options.ts';

export const Route = createFileRoute('/merge-requests/')({
  ...mergeRequestsRouteOptions,
  search: { middlewares: [stripSearchParams(MERGE_REQUESTS_SEARCH_DEFAULTS)] },
  loader: ({ context, deps }) => loadMergeRequests(context, 'instance', deps),
  component: InstanceMergeRequestsRoute,
});

function InstanceMergeRequestsRoute() {
  return <MergeRequestListScreen scope="instance" search={Route.useSearch()} />;
}
