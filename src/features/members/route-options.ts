import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { Scope } from '../../api/keys.ts';
import { membersQueries } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { membersListParams, type MembersSearch } from './search.ts';

/** The list blocks the first paint; the caller's role (which actions to offer) loads alongside. */
export function loadMembers(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, scope: Scope, search: MembersSearch) {
  const me = context.session.getActive()?.connection;
  // the list's request goes out first: the first row waits on it alone
  const list = context.queryClient.ensureQueryData(membersQueries.list(context.api, scope, search.tab, membersListParams(search)));
  // an administrator may do everything: no need to ask (and often no membership to find: a 404)
  if (!me?.isAdmin) void context.queryClient.prefetchQuery(membersQueries.myAccess(context.api, scope, me?.userId ?? 0));
  return list;
}

