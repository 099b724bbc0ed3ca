import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The merge request blocks the first paint of every tab: its header is on all of them. */
export function loadMergeRequestDetail(context: LoaderContext, projectId: number, iid: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.detail(context.api, projectId, iid));
}

/** The Overview: the first page of threads and the reviewers start alongside the request; the tab paints without waiting for them. */
export function prefetchMergeRequestOverview(context: LoaderContext, projectId: number, iid: number): void {
  void context.queryClient.prefetchInfiniteQuery(mergeRequestsQueries.allDiscussions(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(mergeRequestsQueries.reviewers(context.api, projectId, iid));
}

export function loadMergeRequestCommits(context: LoaderContext, projectId: number, iid: number, page: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.commits(context.api, projectId, iid, page));
}
