import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ISSUES_SEARCH_DEFAULTS, issuesRouteOptions } from '../../features/issues/search.ts';
import { IssueListScreen } from '../../features/issues/issue-list-screen.tsx';
import { loadIssues } from '../../features/issues/route-options.ts';

export const Route = createFileRoute('/issues/')({
  ...issuesRouteOptions,
  search: { middlewares: [stripSearchParams(ISSUES_SEARCH_DEFAULTS)] },
  loader: ({ context, deps }) => loadIssues(context, 'instance', deps),
  component: InstanceIssuesRoute,
});

function InstanceIssuesRoute() {
  return <IssueListScreen scope="instance" search={Route.useSearch()} />;
}
