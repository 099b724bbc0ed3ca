import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import type { Scope } from '../../api/keys.ts';
import { ensureGroup } from '../../api/groups.ts';
import { membersQueries, roleName, type BillableListParams } from '../../api/members.ts';
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

/** Seats are counted in top-level groups, for their Owners and administrators (spec 1, billable members). */
const BILLABLE_ROLE = 50;

/**
 * Why the caller cannot see a group's billable members, or null: the platform answers a subgroup or
 * a non-Owner with a bare 400, so the console says which group and which role it takes instead.
 */
export function billableRefusal(group: { parent_id: number | null; full_path: string }, caller: { isAdmin: boolean; role: number }): string | null {
  if (group.parent_id !== null) return `Seats are counted in top-level groups, and this is a subgroup: its members take their seats in “${group.full_path.split('/')[0]}”.`;
  if (caller.isAdmin || caller.role >= BILLABLE_ROLE) return null;
  return `Only Owners of this group and administrators can see its billable members. ${caller.role ? `Your role in this group is ${roleName(caller.role)}.` : 'You are not a member of this group.'}`;
}

/** The group and the caller's role first (the shell usually holds both), then the list, for those it is shown to. */
export async function loadBillableMembers(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, groupId: number, search: BillableListParams) {
  const { queryClient, api } = context;
  const me = context.session.getActive()?.connection;
  const [group, role] = await Promise.all([
    ensureGroup(queryClient, api, groupId),
    me?.isAdmin ? 0 : queryClient.ensureQueryData(membersQueries.myAccess(api, { group: groupId }, me?.userId ?? 0)),
  ]);
  if (billableRefusal(group, { isAdmin: Boolean(me?.isAdmin), role })) return undefined;
  return queryClient.ensureQueryData(membersQueries.billable(api, groupId, search));
}
