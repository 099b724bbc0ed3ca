import type { QueryClient, UseSuspenseQueryOptions } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { issuesQueries, type Issue, type IssueScope } from '../../api/issues.ts';
import type { KeysetPage, Page } from '../../api/pagination.ts';
import { issueFilters, issueListParams, pagesByKeyset, type IssuesSearch } from './search.ts';

export type IssueListData = Page<Issue> | KeysetPage<Issue>;

export function isOffsetPage(data: IssueListData): data is Page<Issue> {
  return 'page' in data;
}

/** The list's query: keyset pages of a project in creation or update order, numbered pages otherwise. */
export function issueListOptions(connection: Connection, scope: IssueScope, search: IssuesSearch): UseSuspenseQueryOptions<IssueListData, Error, IssueListData, readonly unknown[]> {
  if (pagesByKeyset(scope, search)) {
    const { page: _page, ...params } = issueListParams(search, false);
    return issuesQueries.keyset(connection, scope.project, params, search.cursor) as UseSuspenseQueryOptions<IssueListData, Error, IssueListData, readonly unknown[]>;
  }
  return issuesQueries.list(connection, scope, issueListParams(search, scope === 'instance')) as UseSuspenseQueryOptions<IssueListData, Error, IssueListData, readonly unknown[]>;
}

/**
 * The list blocks the first paint; the state counts are asked for beside it, not awaited (as the
 * press sends them: api/first-requests.ts). On the demo's 3,000 issues the count takes 3 ms and
 * the list is answered as fast beside it as alone; the counts re-render their tabs alone.
 */
export function loadIssues(context: { queryClient: QueryClient; api: Connection }, scope: IssueScope, search: IssuesSearch) {
  const list = context.queryClient.ensureQueryData(issueListOptions(context.api, scope, search));
  void context.queryClient.prefetchQuery(issuesQueries.statistics(context.api, scope, issueFilters(search, scope === 'instance')));
  return list;
}
