import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { Scope } from '../../api/keys.ts';
import { ensureMyAccess, membersQueries } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { membersListParams, type MembersSearch } from './search.ts';

/**
 * The list, the caller's role (which actions to offer) and the group or project (the heading's name)
 * go out together and show together: what landed after the rows drew the whole table a second time,
 * as its first frame was being painted. A role or name already in the cache, even stale, is enough;
 * one that fails is the screen's to say, not the route's.
 */
export function loadMembers(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, scope: Scope, search: MembersSearch, loadSource: () => Promise<unknown>) {
  // the list's request goes out first: the server answers in turn
  const list = context.queryClient.ensureQueryData(membersQueries.list(context.api, scope, search.tab, membersListParams(search)));
  const role = ensureMyAccess(context, scope).catch(() => undefined);
  return Promise.all([list, role, loadSource().catch(() => undefined)]).then(([page]) => page);
}
