import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { issueEventsQueries, issuesQueries } from '../../api/issues.ts';
import { notesQueries } from '../../api/notes.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The issue blocks the first paint; the first page of its thread and its events start alongside. */
export function loadIssueDetail(context: LoaderContext, projectId: number, iid: number) {
  const issue = context.queryClient.ensureQueryData(issuesQueries.detail(context.api, projectId, iid));
  void context.queryClient.prefetchInfiniteQuery(notesQueries.thread(context.api, { projectId, issueIid: iid }));
  void context.queryClient.prefetchQuery(issueEventsQueries.of(context.api, projectId, iid));
  return issue;
}
