import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { BILLABLE_SEARCH_DEFAULTS, billableRouteOptions } from '../../../features/members/search.ts';
import { ensureGroup, groupsQueries } from '../../../api/groups.ts';
import { membersQueries } from '../../../api/members.ts';
import { BillableMembersScreen } from '../../../features/members/billable-members-screen.tsx';


export const Route = createFileRoute('/groups/$groupId/billable-members')({
  ...billableRouteOptions,
  search: { middlewares: [stripSearchParams(BILLABLE_SEARCH_DEFAULTS)] },
  loader: ({ context: { queryClient, api }, params, deps }) =>
    Promise.all([
      ensureGroup(queryClient, api, Number(params.groupId)),
      queryClient.ensureQueryData(membersQueries.billable(api, Number(params.groupId), deps)),
    ]),
  component: BillableRoute,
});

function BillableRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useSuspenseQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <BillableMembersScreen groupId={group.id} groupName={group.full_name} search={Route.useSearch()} />;
}
