import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { issuesQueries, type IssueScope } from '../../api/issues.ts';
import { issueFilters, issueListParams, issuesSearchSchema, type IssuesSearch } from './search.ts';

/** What the instance, group and project issue routes share: the URL's schema and what the loader fetches. */
export const issuesRouteOptions = {
  validateSearch: issuesSearchSchema,
  loaderDeps: ({ search }: { search: IssuesSearch }) => search,
};

/**
 * The list blocks the first paint; the state counts follow it. They are asked for once the list
 * is in: counting a big project's issues beside the list's own request slows that request, and
 * the first row waits on it alone.
 */
export function loadIssues(context: { queryClient: QueryClient; api: Connection }, scope: IssueScope, search: IssuesSearch) {
  const instance = scope === 'instance';
  const list = context.queryClient.ensureQueryData(issuesQueries.list(context.api, scope, issueListParams(search, instance)));
  const counts = () => void context.queryClient.prefetchQuery(issuesQueries.statistics(context.api, scope, issueFilters(search, instance)));
  list.then(counts, () => undefined);
  return list;
}
