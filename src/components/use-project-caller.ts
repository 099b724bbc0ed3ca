import { useQuery } from '@tanstack/react-query';
import { membersQueries } from '../api/members.ts';
import { useActiveSession, useConnection } from '../api/react.ts';

/** Who is asking, for a project screen's permissions. */
export interface ProjectCaller {
  isAdmin: boolean;
  /** The token has `api`. */
  canWrite: boolean;
  /** The caller's role in the project, inherited included (0 when none). */
  role: number;
}

/** The caller's rights on a project; the role is asked only of non-administrators. */
export function useProjectCaller(projectId: number): { caller: ProjectCaller; pending: boolean } {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const isAdmin = Boolean(me?.isAdmin);
  const role = useQuery({ ...membersQueries.myAccess(connection, { project: projectId }, me?.userId ?? 0), enabled: !isAdmin });
  return { caller: { isAdmin, canWrite: Boolean(me?.canWrite), role: role.data ?? 0 }, pending: !isAdmin && role.isPending };
}
