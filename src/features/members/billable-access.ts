import type { QueryClient } from '@tanstack/react-query';
import { ensureGroup } from '../../api/groups.ts';
import type { Connection } from '../../api/http.ts';
import { ensureMyAccess, membersQueries, yourGroupRole, type BillableListParams } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';

/** Seats are counted in top-level groups, for their Owners and administrators (spec 1, billable members). */
const BILLABLE_ROLE = 50;

/**
 * Why the caller cannot see a group's billable members, or null: the platform answers a subgroup or
 * a non-Owner with a bare 400, so the console says which group and which role it takes instead.
 */
export function billableRefusal(group: { parent_id: number | null; full_path: string }, caller: { isAdmin: boolean; role: number }): string | null {
  if (group.parent_id !== null) return `Seats are counted in top-level groups, and this is a subgroup: its members take their seats in “${group.full_path.split('/')[0]}”.`;
  if (caller.isAdmin || caller.role >= BILLABLE_ROLE) return null;
  return `Only Owners of this group and administrators can see its billable members. ${yourGroupRole(caller.role)}`;
}

/** The group and the caller's role first (the shell usually holds both), then the list, for those it is shown to. */
export async function loadBillableMembers(context: { queryClient: QueryClient; api: Connection; session: SessionStore }, groupId: number, search: BillableListParams) {
  const { queryClient, api } = context;
  const [group, caller] = await Promise.all([
    ensureGroup(queryClient, api, groupId),
    ensureMyAccess(context, { group: groupId }),
  ]);
  if (billableRefusal(group, caller)) return undefined;
  return queryClient.ensureQueryData(membersQueries.billable(api, groupId, search));
}
