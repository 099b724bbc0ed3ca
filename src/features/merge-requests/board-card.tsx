import { memo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MergeRequest } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { Avatar } from '../../components/avatar.tsx';
import { cannotMergeReason, type ApprovalCount } from './board-columns.ts';
import { approvalsInViewOptions } from './approvals-in-view.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { formatCountOf } from '../../lib/numbers.ts';

/** "1 of 2 approvals"; where no approval is required, only those given. */
export function approvalsText(approvals: ApprovalCount): string {
  const given = approvals.approved_by.length;
  if (approvals.approvals_required > 0) return `${given} of ${approvals.approvals_required} approvals`;
  return formatCountOf(given, 'approval', 'approvals');
}

/**
 * A request on the board: its title (a link to it), reference, approvals (asked for once the card
 * is in view), reviewers and why it cannot merge. Every text the user wrote renders as text.
 */
export const BoardCard = memo(function BoardCard({ request, fullReference }: { request: MergeRequest; fullReference: boolean }) {
  const connection = useConnection();
  const approvals = useQuery(approvalsInViewOptions(connection, request.project_id, request.iid));
  const reference = (fullReference ? request.references?.full : request.references?.short) ?? `!${request.iid}`;
  const reason = cannotMergeReason(request);
  return (
    <article className="board-card mr-card">
      <div className="board-card__body">
        <p className="board-card__title">
          <RouteLink to="/projects/$projectId/merge-requests/$mergeRequestIid" params={{ projectId: String(request.project_id), mergeRequestIid: String(request.iid) }}>
            {request.title}
          </RouteLink>
        </p>
        <p className="board-card__meta">
          <span>{reference}</span>
          {' · '}
          <span>{approvals.data ? approvalsText(approvals.data) : approvals.isError ? 'Approvals unknown' : 'Approvals…'}</span>
        </p>
        {request.reviewers.length ? (
          <ul className="mr-card__reviewers" aria-label={`Reviewers of ${reference}`}>
            {request.reviewers.map((user) => (
              <li key={user.id}>
                <Avatar url={user.avatar_url} name={user.name || user.username} size={20} />
                <span>{user.name || user.username}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="board-card__meta">No reviewers</p>
        )}
        {reason ? <p className="mr-card__reason">{reason}</p> : null}
      </div>
    </article>
  );
});
