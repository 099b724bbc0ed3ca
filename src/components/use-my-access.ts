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

/** A role that could not be read (the instance failed, or could not be reached): said, with a retry. */
export interface RoleFailure {
  error: unknown;
  retry: () => void;
}

/**
 * The caller's role as a screen's permission rules take it. While it is unread, and when reading
 * it failed, `known` is false: a screen refuses nothing on a role it does not have (a failed read
 * is not "no role") and shows `failure` instead. An administrator's role is not asked.
 */
export function useCallerRole(scope: Scope | null, isAdmin: boolean): { role: number; known: boolean; failure: RoleFailure | null } {
  const access = useMyAccess(scope);
  if (isAdmin || scope === null) return { role: 0, known: true, failure: null };
  return {
    role: access.data ?? 0,
    known: access.isSuccess,
    failure: access.isError ? { error: access.error, retry: () => void access.refetch() } : null,
  };
}
