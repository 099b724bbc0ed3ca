import { queryOptions } from '@tanstack/react-query';
import { approvalsQueries, type Approvals } from '../../api/approvals.ts';
import type { Connection } from '../../api/http.ts';
import { createLimiter } from '../../lib/concurrency.ts';

// list rows and board cards ask for their approvals as they come into view: a page of 100 rows or a
// fast scroll through 500 cards must not queue that many requests ahead of the user's next click
const APPROVALS_IN_FLIGHT = 4;
const approvalsGate = createLimiter(APPROVALS_IN_FLIGHT);
/** An approval count read this recently is not asked for again when the list or board comes back. */
const APPROVALS_FRESH_MS = 30_000;

/**
 * A request's approvals (`GET .../approvals`) for a row or card in view, under the request's own
 * key (the approval panel shares the answer), through one gate; one scrolled away before its turn
 * cancels its request unsent.
 */
export function approvalsInViewOptions(connection: Connection, projectId: number, iid: number) {
  const options = approvalsQueries.approvals(connection, projectId, iid);
  const fetchOne = options.queryFn as (context: { signal: AbortSignal }) => Promise<Approvals>;
  return queryOptions({
    queryKey: options.queryKey,
    queryFn: (context) => approvalsGate(() => fetchOne(context as never), context.signal),
    staleTime: APPROVALS_FRESH_MS,
  });
}
