import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { MEMBERS_SEARCH_DEFAULTS } from '../../../features/members/search.ts';
import { groupsQueries } from '../../../api/groups.ts';
import { MembersScreen } from '../../../features/members/members-screen.tsx';
import { loadMembers, membersRouteOptions } from '../../../features/members/route-options.ts';

export const Route = createFileRoute('/groups/$groupId/members')({
  ...membersRouteOptions,
  search: { middlewares: [stripSearchParams(MEMBERS_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) =>
    Promise.all([
      context.queryClient.ensureQueryData(groupsQueries.detail(context.api, Number(params.groupId))),
      loadMembers(context, { group: Number(params.groupId) }, deps),
    ]),
  component: GroupMembersRoute,
});

function GroupMembersRoute() {
  const { groupId } = Route.useParams();
  const search = Route.useSearch();
  const { api } = Route.useRouteContext();
  const group = useSuspenseQuery(groupsQueries.detail(api, Number(groupId)));
  return <MembersScreen kind="group" scope={{ group: group.data.id }} sourceName={group.data.full_name} topLevelGroup={group.data.parent_id === null} search={search} />;
}
