import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { ISSUES_SEARCH_DEFAULTS, issuesRouteOptions } from '../../../features/issues/search.ts';
import { IssueListScreen } from '../../../features/issues/issue-list-screen.tsx';
import { loadIssues } from '../../../features/issues/route-options.ts';

export const Route = createFileRoute('/groups/$groupId/issues')({
  ...issuesRouteOptions,
  search: { middlewares: [stripSearchParams(ISSUES_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => {
    const list = loadIssues(context, { group: Number(params.groupId) }, deps);
    prefetchGroup(context, Number(params.groupId));
    return list;
  },
  component: GroupIssuesRoute,
});

function GroupIssuesRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <IssueListScreen scope={{ group: Number(groupId) }} sourceName={group?.full_name} search={Route.useSearch()} />;
}
