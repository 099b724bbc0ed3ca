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
 * The Overview: the first page of threads and the reviewers start alongside the request, and the
 * tab paints without them (they fill their own place). The review panels wait with the tab: the
 * approvals, the project's merge and approval settings decide their height (the settings give the
 * reason a caller may not approve, a longer line), and arriving later they pushed the merge panel
 * and the threads down under the pointer. A failure stays the panel's to show.
 */
export function loadMergeRequestOverview(context: LoaderContext, projectId: number, iid: number): Promise<unknown> {
  void context.queryClient.prefetchInfiniteQuery(mergeRequestsQueries.allDiscussions(context.api, projectId, iid));
  void context.queryClient.prefetchQuery(mergeRequestsQueries.reviewers(context.api, projectId, iid));
  const { queryClient, api } = context;
  const settled = (answer: Promise<unknown>) => answer.catch(() => undefined);
  return Promise.all([
    settled(queryClient.ensureQueryData(approvalsQueries.approvals(api, projectId, iid))),
    settled(queryClient.ensureQueryData(approvalsQueries.state(api, projectId, iid))),
    settled(queryClient.ensureQueryData(approvalsQueries.settings(api, projectId))),
    settled(queryClient.ensureQueryData(projectsQueries.detail(api, projectId))),
  ]);
}

export function loadMergeRequestCommits(context: LoaderContext, projectId: number, iid: number, page: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.commits(context.api, projectId, iid, page));
}
