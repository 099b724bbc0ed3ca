import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useSuspenseQuery } from '@tanstack/react-query';
import { BILLABLE_SEARCH_DEFAULTS, billableRouteOptions } from '../../../features/members/search.ts';
import { groupsQueries } from '../../../api/groups.ts';
import { loadBillableMembers } from '../../../features/members/billable-access.ts';
import { BillableMembersScreen } from '../../../features/members/billable-members-screen.tsx';

export const Route = createFileRoute('/groups/$groupId/billable-members')({
  ...billableRouteOptions,
  search: { middlewares: [stripSearchParams(BILLABLE_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => loadBillableMembers(context, Number(params.groupId), deps),
  component: BillableRoute,
});

function BillableRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useSuspenseQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <BillableMembersScreen group={group} search={Route.useSearch()} />;
}
