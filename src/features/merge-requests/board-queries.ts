import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { SessionStore } from '../../api/session.ts';
import { mergeRequestsQueries, type MergeRequestScope } from '../../api/merge-requests.ts';
import { mergedWindowStart } from './board-columns.ts';
import { boardListParams, boardMergedParams, type MergeRequestBoardSearch } from './search.ts';

/** The board's two lists: the open requests and those merged within the window, every page of each. */
export function boardQueries(connection: Connection, scope: MergeRequestScope, search: MergeRequestBoardSearch, me: string | undefined) {
  const instance = scope === 'instance';
  return {
    open: mergeRequestsQueries.pages(connection, scope, boardListParams(search, instance, me)),
    merged: mergeRequestsQueries.pages(connection, scope, boardMergedParams(search, instance, me, mergedWindowStart(new Date()))),
  };
}

/** The first page of open requests blocks the first paint; the merged column's is asked for at the same time. */
export function loadBoard(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, scope: MergeRequestScope, search: MergeRequestBoardSearch) {
  const me = context.session.getActive()?.connection.username;
  const queries = boardQueries(context.api, scope, search, me);
  void context.queryClient.prefetchInfiniteQuery(queries.merged);
  return context.queryClient.ensureInfiniteQueryData(queries.open);
}
