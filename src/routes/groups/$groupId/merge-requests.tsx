import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { MERGE_REQUESTS_SEARCH_DEFAULTS, mergeRequestsRouteOptions } from '../../../features/merge-requests/search.ts';
import { MergeRequestListScreen } from '../../../features/merge-requests/merge-request-list-screen.tsx';
import { loadMergeRequests } from '../../../features/merge-requests/route-options.ts';

export const Route = createFileRoute('/groups/$groupId/merge-requests')({
  ...mergeRequestsRouteOptions,
  search: { middlewares: [stripSearchParams(MERGE_REQUESTS_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => {
    const list = loadMergeRequests(context, { group: Number(params.groupId) }, deps);
    prefetchGroup(context, Number(params.groupId));
    return list;
  },
  component: GroupMergeRequestsRoute,
});

function GroupMergeRequestsRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <MergeRequestListScreen scope={{ group: Number(groupId) }} sourceName={group?.full_name} search={Route.useSearch()} />;
}
