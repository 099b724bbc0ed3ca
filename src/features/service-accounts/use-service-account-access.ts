import { useQuery } from '@tanstack/react-query';
import { groupsQueries } from '../../api/groups.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import type { ServiceAccountScope } from '../../api/service-accounts.ts';
import { serviceAccountAccess, type ServiceAccountAccess } from './permissions.ts';
import { useCallerRole, type RoleFailure } from '../../components/use-my-access.ts';

/**
 * The caller's rights on a scope's service accounts; the route's loader has fetched what it reads.
 * A role that could not be read is `failure`, not "no role": the screen says so rather than refuse.
 */
export function useServiceAccountAccess(scope: ServiceAccountScope): ServiceAccountAccess & { pending: boolean; failure: RoleFailure | null; groupName?: string } {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const inGroup = scope !== 'instance';
  const groupId = inGroup ? scope.group : 0;
  const isAdmin = Boolean(me?.isAdmin);
  const group = useQuery({ ...groupsQueries.detail(connection, groupId), enabled: inGroup });
  const { role, known, failure } = useCallerRole(inGroup ? { group: groupId } : null, isAdmin);
  const pending = inGroup && (group.isPending || (!known && !failure));
  const where = group.data ? { parentId: group.data.parent_id, topLevelPath: group.data.full_path.split('/')[0] } : undefined;
  const access = serviceAccountAccess(scope, { isAdmin, canWrite: Boolean(me?.canWrite), role }, where);
  return { ...(failure ? { ...access, canView: false, canManage: false, reason: null } : access), pending, failure, groupName: group.data?.full_name };
}
