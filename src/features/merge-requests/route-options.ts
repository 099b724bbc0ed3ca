import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { SessionStore } from '../../api/session.ts';
import { mergeRequestsQueries, type MergeRequestScope } from '../../api/merge-requests.ts';
import { mergeRequestListParams, type MergeRequestsSearch } from './search.ts';

/** The list's query; `me` (the caller's username) names the reviewer of the instance's "review requested" tab. */
export function mergeRequestListOptions(connection: Connection, scope: MergeRequestScope, search: MergeRequestsSearch, me: string | undefined) {
  return mergeRequestsQueries.list(connection, scope, mergeRequestListParams(search, scope === 'instance', me));
}

export function loadMergeRequests(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, scope: MergeRequestScope, search: MergeRequestsSearch) {
  const me = context.session.getActive()?.connection.username;
  return context.queryClient.ensureQueryData(mergeRequestListOptions(context.api, scope, search, me));
}
