import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { mergeRequestsQueries } from '../../api/merge-requests.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The merge request blocks the first paint of every tab: its header is on all of them. */
export function loadMergeRequestDetail(context: LoaderContext, projectId: number, iid: number) {
  return context.queryClient.ensureQueryData(mergeRequestsQueries.detail(context.api, projectId, iid));
}
