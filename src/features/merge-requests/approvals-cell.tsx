import './approvals-cell.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { approvalsQueries } from '../../api/approvals.ts';
import type { MergeRequest } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { mapWithConcurrency } from '../../lib/concurrency.ts';

/** At most this many approval requests at once: a page of 100 rows must not queue 100 requests ahead of the user's next click. */
const APPROVALS_CONCURRENCY = 4;
/** An approval count read this recently is not asked for again when the list comes back. */
const APPROVALS_FRESH_MS = 30_000;

/**
 * Asks for the approvals (`GET .../approvals`) of the rows in view only, a few at a time. Each
 * answer lands in the request's own cached query (the approval panel's), so every cell shows its
 * count as soon as it arrives, and a later visit reads the cache.
 */
export function useApprovalsInView(requests: readonly MergeRequest[]): void {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const rows = requests.map((request) => ({ projectId: request.project_id, iid: request.iid }));
  useQuery({
    queryKey: [...approvalsQueries.all(), 'in-view', rows] as const,
    queryFn: async ({ signal }) => {
      await mapWithConcurrency(
        rows,
        APPROVALS_CONCURRENCY,
        ({ projectId, iid }) => queryClient.fetchQuery({ ...approvalsQueries.approvals(connection, projectId, iid), staleTime: APPROVALS_FRESH_MS }),
        signal,
      );
      return rows.length;
    },
    enabled: rows.length > 0,
  });
}

/**
 * Approvals given and required of one row, from the cache `useApprovalsInView` fills. The cell
 * keeps one width and one line whatever it shows, so the row does not move when the count arrives.
 */
export function ApprovalsCell({ request }: { request: MergeRequest }) {
  const connection = useConnection();
  const { data, isError } = useQuery({ ...approvalsQueries.approvals(connection, request.project_id, request.iid), enabled: false });
  if (!data) return <span className="approvals-cell muted">{isError ? 'Unknown' : 'Loading…'}</span>;
  const given = data.approved_by.length;
  return (
    <span className="approvals-cell">
      <span>{`${given} of ${data.approvals_required}`}</span>
      <span className="sr-only">{data.approved ? ' approvals, approved' : ` approvals, ${data.approvals_left} more needed`}</span>
    </span>
  );
}
