import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { approvalsQueries } from '../../api/approvals.ts';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';
import { projectsQueries } from '../../api/projects.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The merge request blocks the first paint of every tab: its header is on all of them. */
export function loadMergeRequestDetail(context: LoaderContext, projectId: number, iid: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.detail(context.api, projectId, iid));
}

/**
 * The Overview: the first page of threads, the reviewers, the approvals and the project's merge
 * and approval settings start alongside the request; the tab paints without waiting for them.
 * Asked only once their panels had mounted, they arrived a round trip after the threads and pushed
 * them down under the pointer (the settings give the reason a caller may not approve, a longer line).
 */
export function prefetchMergeRequestOverview(context: LoaderContext, projectId: number, iid: number): void {
  void context.queryClient.prefetchInfiniteQuery(mergeRequestsQueries.allDiscussions(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(mergeRequestsQueries.reviewers(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(approvalsQueries.approvals(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(approvalsQueries.state(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
  void context.queryClient.prefetchQuery(approvalsQueries.settings(context.api, projectId));
}

export function loadMergeRequestCommits(context: LoaderContext, projectId: number, iid: number, page: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.commits(context.api, projectId, iid, page));
}
