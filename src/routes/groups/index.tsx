import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { groupsQueries } from '../../api/groups.ts';
import { GroupsScreen } from '../../features/groups/groups-screen.tsx';
import { GROUPS_SEARCH_DEFAULTS, groupListParams, groupsSearchSchema } from '../../features/groups/search.ts';

export const Route = createFileRoute('/groups/')({
  validateSearch: groupsSearchSchema,
  search: { middlewares: [stripSearchParams(GROUPS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, api, session }, deps }) => queryClient.ensureQueryData(groupsQueries.list(api, groupListParams(deps, Boolean(session.getActive()?.connection.isAdmin)))),
  component: GroupsRoute,
});

function GroupsRoute() {
  return <GroupsScreen search={Route.useSearch()} />;
}
