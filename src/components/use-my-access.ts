import { useQuery } from '@tanstack/react-query';
import type { Scope } from '../api/keys.ts';
import { membersQueries } from '../api/members.ts';
import { useActiveSession, useConnection } from '../api/react.ts';

// the query's key while no scope is asked about (the query is off then)
const NO_SCOPE: Scope = { group: 0 };

/**
 * The caller's role in `scope` (0 when none), read from members/all with inherited roles: asked
 * only of non-administrators, who may do everything; a null scope asks nothing.
 */
export function useMyAccess(scope: Scope | null) {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  return useQuery({ ...membersQueries.myAccess(connection, scope ?? NO_SCOPE, me?.userId ?? 0), enabled: scope !== null && me !== undefined && !me.isAdmin });
}
