import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { issuesQueries, type IssueScope } from '../../api/issues.ts';
import { issueFilters, issueListParams, issuesSearchSchema, type IssuesSearch } from './search.ts';

/** What the instance, group and project issue routes share: the URL's schema and what the loader fetches. */
export const issuesRouteOptions = {
  validateSearch: issuesSearchSchema,
  loaderDeps: ({ search }: { search: IssuesSearch }) => search,
};

/** The list blocks the first paint; the state counts load alongside. */
export function loadIssues(context: { queryClient: QueryClient; api: Connection }, scope: IssueScope, search: IssuesSearch) {
  const instance = scope === 'instance';
  // the list's request goes out first: the first row waits on it alone
  const list = context.queryClient.ensureQueryData(issuesQueries.list(context.api, scope, issueListParams(search, instance)));
  void context.queryClient.prefetchQuery(issuesQueries.statistics(context.api, scope, issueFilters(search, instance)));
  return list;
}
