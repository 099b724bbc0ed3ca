import { Link } from '@tanstack/react-router';
import type { MergeRequestScope } from '../../api/merge-requests.ts';
import type { MergeRequestBoardSearch } from './search.ts';

type View = 'list' | 'board';

const ADDRESSES = {
  list: { instance: '/merge-requests', group: '/groups/$groupId/merge-requests', project: '/projects/$projectId/merge-requests' },
  board: { instance: '/merge-requests/board', group: '/groups/$groupId/merge-request-board', project: '/projects/$projectId/merge-request-board' },
} as const;

/** The route and params of a scope's list or board. */
function addressOf(scope: MergeRequestScope, view: View) {
  if (scope === 'instance') return { to: ADDRESSES[view].instance };
  if ('group' in scope) return { to: ADDRESSES[view].group, params: { groupId: String(scope.group) } as never };
  return { to: ADDRESSES[view].project, params: { projectId: String(scope.project) } as never };
}

/**
 * The list and the board of the same requests, one click apart with the same filters, and the
 * caller's review queue (the instance board) from any of them. The instance list's board is the
 * review queue itself.
 */
export function MergeRequestViews({ scope, search, current }: { scope: MergeRequestScope; search: MergeRequestBoardSearch; current: View }) {
  const other = current === 'list' ? 'board' : 'list';
  return (
    <nav className="row-actions" aria-label="Merge request views">
      {scope === 'instance' && other === 'board' ? null : (
        <Link {...addressOf(scope, other)} search={search as never} className="button">
          {other === 'board' ? 'Board' : 'List'}
        </Link>
      )}
      {scope === 'instance' && current === 'board' ? null : (
        <Link to="/merge-requests/board" className="button">
          My review queue
        </Link>
      )}
    </nav>
  );
}
