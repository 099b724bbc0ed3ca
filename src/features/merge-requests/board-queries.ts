import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { approvalsQueries, type Approvals } from '../../api/approvals.ts';
import type { Connection } from '../../api/http.ts';
import type { SessionStore } from '../../api/session.ts';
import { mergeRequestsQueries, type MergeRequestScope } from '../../api/merge-requests.ts';
import { createLimiter } from '../../lib/concurrency.ts';
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

// cards ask for their approvals as they come into view: a fast scroll through 500 cards must not fire 500 requests at once
const APPROVALS_IN_FLIGHT = 4;
const approvalsGate = createLimiter(APPROVALS_IN_FLIGHT);

/**
 * A card's approvals, under the request's own key (the detail screen shares the answer), through
 * the board's gate; a card scrolled away before its turn cancels its request unsent.
 */
export function cardApprovalsOptions(connection: Connection, projectId: number, iid: number) {
  const options = approvalsQueries.approvals(connection, projectId, iid);
  const fetchOne = options.queryFn as (context: { signal: AbortSignal }) => Promise<Approvals>;
  return queryOptions({
    queryKey: options.queryKey,
    queryFn: (context) => approvalsGate(() => fetchOne(context as never), context.signal),
    staleTime: 30_000,
  });
}
