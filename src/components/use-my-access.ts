import { useQueries, useQuery } from '@tanstack/react-query';
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
  const { roles, known, failure } = useCallerRoles(scope ? [scope] : [], isAdmin);
  return { role: roles[0] ?? 0, known, failure };
}

/** The caller's roles in several scopes (a runner's projects), read together: as `useCallerRole`, known once all are. */
export function useCallerRoles(scopes: readonly Scope[], isAdmin: boolean): { roles: number[]; known: boolean; failure: RoleFailure | null } {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const asked = isAdmin || !me ? [] : scopes;
  return useQueries({
    queries: asked.map((scope) => membersQueries.myAccess(connection, scope, me?.userId ?? 0)),
    combine: (results) => {
      const failed = results.filter((result) => result.isError);
      return {
        roles: results.map((result) => result.data ?? 0),
        known: (isAdmin || me !== undefined) && results.every((result) => result.isSuccess),
        failure: failed.length ? { error: failed[0].error, retry: () => failed.forEach((result) => void result.refetch()) } : null,
      };
    },
  });
}
