import { useQuery } from '@tanstack/react-query';
import { groupsQueries } from '../../api/groups.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import type { ServiceAccountScope } from '../../api/service-accounts.ts';
import { serviceAccountAccess, type ServiceAccountAccess } from './permissions.ts';
import { useMyAccess } from '../../components/use-my-access.ts';

/** The caller's rights on a scope's service accounts; the route's loader has fetched what it reads. */
export function useServiceAccountAccess(scope: ServiceAccountScope): ServiceAccountAccess & { pending: boolean; groupName?: string } {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const inGroup = scope !== 'instance';
  const groupId = inGroup ? scope.group : 0;
  const isAdmin = Boolean(me?.isAdmin);
  const group = useQuery({ ...groupsQueries.detail(connection, groupId), enabled: inGroup });
  const role = useMyAccess(inGroup ? { group: groupId } : null);
  const pending = inGroup && (group.isPending || (!isAdmin && role.isPending));
  const where = group.data ? { parentId: group.data.parent_id, topLevelPath: group.data.full_path.split('/')[0] } : undefined;
  const access = serviceAccountAccess(scope, { isAdmin, canWrite: Boolean(me?.canWrite), role: role.data ?? 0 }, where);
  return { ...access, pending, groupName: group.data?.full_name };
}
