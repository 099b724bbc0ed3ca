import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { FleetScreen } from '../../../features/runners/fleet-screen.tsx';
import { loadFleet } from '../../../features/runners/route-options.ts';
import { RUNNERS_SEARCH_DEFAULTS, runnersSearchSchema } from '../../../features/runners/search.ts';

export const Route = createFileRoute('/groups/$groupId/runners')({
  validateSearch: runnersSearchSchema,
  search: { middlewares: [stripSearchParams(RUNNERS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const list = loadFleet(context, { group: Number(params.groupId) }, deps);
    prefetchGroup(context, Number(params.groupId));
    return list;
  },
  component: GroupRunnersRoute,
});

function GroupRunnersRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <FleetScreen scope={{ group: Number(groupId) }} scopeName={group?.full_name} search={Route.useSearch()} />;
}
