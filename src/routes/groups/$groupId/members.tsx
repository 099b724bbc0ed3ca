import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { MEMBERS_SEARCH_DEFAULTS, membersRouteOptions } from '../../../features/members/search.ts';
import { ensureGroup, groupsQueries } from '../../../api/groups.ts';
import { MembersScreen } from '../../../features/members/members-screen.tsx';
import { loadMembers } from '../../../features/members/route-options.ts';

export const Route = createFileRoute('/groups/$groupId/members')({
  ...membersRouteOptions,
  search: { middlewares: [stripSearchParams(MEMBERS_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => loadMembers(context, { group: Number(params.groupId) }, deps, () => ensureGroup(context.queryClient, context.api, Number(params.groupId))),
  component: GroupMembersRoute,
});

function GroupMembersRoute() {
  const { groupId } = Route.useParams();
  const search = Route.useSearch();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <MembersScreen kind="group" scope={{ group: Number(groupId) }} sourceName={group?.full_name} topLevelGroup={group?.parent_id === null} search={search} />;
}
