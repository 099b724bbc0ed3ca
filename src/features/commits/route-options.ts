import type { QueryClient } from '@tanstack/react-query';
import { commitsQueries, type CommitListParams } from '../../api/commits.ts';
import { sinceOf, untilOf } from '../../lib/time.ts';
import type { Connection } from '../../api/http.ts';
import { projectsQueries } from '../../api/projects.ts';
import type { HistorySearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The list query from the URL: days become inclusive date-times, `all` replaces the ref. */
export function historyListParams(search: HistorySearch): CommitListParams {
  return {
    ref_name: search.all ? undefined : search.ref_name || undefined,
    path: search.path || undefined,
    author: search.author || undefined,
    since: sinceOf(search.since),
    until: untilOf(search.until),
    all: search.all,
    first_parent: search.first_parent,
    order: search.order,
    with_stats: search.with_stats,
    trailers: search.trailers,
    page: search.page,
    per_page: search.per_page,
  };
}

/** The page of history blocks the first paint; the project (its name and default branch) loads alongside. */
export function loadHistory(context: LoaderContext, projectId: number, search: HistorySearch) {
  const list = context.queryClient.ensureQueryData(commitsQueries.list(context.api, projectId, historyListParams(search)));
  void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
  return list;
}

/** The commit blocks the first paint; where it is, its number and its diff follow without holding it up. */
export function loadCommit(context: LoaderContext, projectId: number, sha: string) {
  const commit = context.queryClient.ensureQueryData(commitsQueries.detail(context.api, projectId, sha));
  void context.queryClient.prefetchQuery(commitsQueries.refs(context.api, projectId, sha));
  void context.queryClient.prefetchQuery(commitsQueries.diff(context.api, projectId, sha));
  void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
  return commit;
}
