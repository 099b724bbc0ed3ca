import './approvals-cell.css';
import { useQuery } from '@tanstack/react-query';
import type { MergeRequest } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { useIdleSinceMount } from '../../components/list-hooks.ts';
import { approvalsInViewOptions } from './approvals-in-view.ts';

/**
 * Approvals given and required of one row, asked for once the browser has been idle since the cell
 * mounted (the list's rows are painted first; the cell's own wait re-renders the cell, not the list).
 * The cell keeps one width and one line whatever it shows, so the row does not move when the count
 * arrives.
 */
export function ApprovalsCell({ request }: { request: MergeRequest }) {
  const connection = useConnection();
  const asked = useIdleSinceMount();
  const { data, isError } = useQuery({ ...approvalsInViewOptions(connection, request.project_id, request.iid), enabled: asked });
  if (!data) return <span className="approvals-cell muted">{isError ? 'Unknown' : 'Loading…'}</span>;
  const given = data.approved_by.length;
  return (
    <span className="approvals-cell">
      <span>{`${given} of ${data.approvals_required}`}</span>
      <span className="sr-only">{data.approved ? ' approvals, approved' : ` approvals, ${data.approvals_left} more needed`}</span>
    </span>
  );
}
