import { useQuery } from '@tanstack/react-query';
import { membersQueries } from '../../api/members.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';

export const REPORTER = 20;
export const OWNER = 50;

export interface IssueCaller {
  userId: number;
  isAdmin: boolean;
  /** The token has `api`. */
  canWrite: boolean;
  /** The caller's effective role in the project (0 when none, or not yet known). */
  role: number;
  /** The role has been read (or is not needed): until then refusals are not announced. */
  roleKnown: boolean;
}

const readOnly = 'This token is read-only (it lacks the api scope).';

/** Editing the issue's fields and the sidebar: Reporters and up, or its author (the platform's update_issue). */
export function editRefusal(caller: IssueCaller, authorId: number | undefined): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= REPORTER || (authorId !== undefined && authorId === caller.userId)) return null;
  return 'Only the author and Reporters, Developers, Maintainers and Owners of this project can edit this issue.';
}

/** Commenting: anyone who sees the issue, unless its discussion is locked (then project members from Reporter up). */
export function commentRefusal(caller: IssueCaller, locked: boolean): string | null {
  if (!caller.canWrite) return readOnly;
  if (locked && !caller.isAdmin && caller.role < REPORTER) return 'The discussion is locked: only project members can comment.';
  return null;
}

/** spec 2, 4.2: internal notes only for Reporters and up. */
export function mayWriteInternal(caller: IssueCaller): boolean {
  return caller.canWrite && (caller.isAdmin || caller.role >= REPORTER);
}

/** Deleting an issue: owners and administrators only; the API answers 403 to everyone else. */
export function deleteRefusal(caller: IssueCaller): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= OWNER) return null;
  return 'Only Owners of this project and administrators can delete an issue.';
}

/** A note is edited and deleted by its author (administrators too). */
export function mayChangeNote(caller: IssueCaller, authorId: number | undefined): boolean {
  return caller.canWrite && (caller.isAdmin || (authorId !== undefined && authorId === caller.userId));
}

/** Who is looking, and their role in the project (read from members/all, inherited roles included). */
export function useIssueCaller(projectId: number): IssueCaller {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const userId = me?.userId ?? 0;
  const roleNeeded = Boolean(me?.canWrite) && !me?.isAdmin && userId > 0;
  const role = useQuery({ ...membersQueries.myAccess(connection, { project: projectId }, userId), enabled: roleNeeded });
  return { userId, isAdmin: Boolean(me?.isAdmin), canWrite: Boolean(me?.canWrite), role: role.data ?? 0, roleKnown: !roleNeeded || role.data !== undefined };
}
