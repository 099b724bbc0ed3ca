import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { Scope } from '../../api/keys.ts';
import { membersQueries } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { membersListParams, type MembersSearch } from './search.ts';

/**
 * The list, the caller's role (which actions to offer) and the group or project (the heading's name)
 * go out together and show together: what landed after the rows drew the whole table a second time,
 * as its first frame was being painted. A role or name already in the cache, even stale, is enough;
 * one that fails is the screen's to say, not the route's.
 */
export function loadMembers(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, scope: Scope, search: MembersSearch, loadSource: () => Promise<unknown>) {
  const me = context.session.getActive()?.connection;
  // the list's request goes out first: the server answers in turn
  const list = context.queryClient.ensureQueryData(membersQueries.list(context.api, scope, search.tab, membersListParams(search)));
  // an administrator may do everything: no need to ask (and often no membership to find: a 404)
  const role = me?.isAdmin ? undefined : context.queryClient.ensureQueryData(membersQueries.myAccess(context.api, scope, me?.userId ?? 0));
  return Promise.all([list, role?.catch(() => undefined), loadSource().catch(() => undefined)]).then(([page]) => page);
}
