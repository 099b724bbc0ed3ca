import { useActiveSession } from '../api/react.ts';
import { useCallerRole, type RoleFailure } from './use-my-access.ts';
import { AccessLevel } from '../api/vocabulary.ts';

/** Who is asking, for a project screen's permissions. */
export interface ProjectCaller {
  isAdmin: boolean;
  /** The token has `api`. */
  canWrite: boolean;
  /** The caller's role in the project, inherited included (0 when none). */
  role: number;
}

/**
 * The caller's rights on a project; the role is asked only of non-administrators. `pending` until
 * the role is read: also when reading it failed, which `failure` carries for the screen to show.
 */
export function useProjectCaller(projectId: number): { caller: ProjectCaller; pending: boolean; failure: RoleFailure | null } {
  const me = useActiveSession()?.connection;
  const isAdmin = Boolean(me?.isAdmin);
  const { role, known, failure } = useCallerRole({ project: projectId }, isAdmin);
  return { caller: { isAdmin, canWrite: Boolean(me?.canWrite), role }, pending: !known, failure };
}

/** A caller whose own writing matters (the author of a note, of an issue or merge request). */
export interface ProjectAuthorCaller extends ProjectCaller {
  userId: number;
  /** The role has been read (or is not needed): until then refusals are not announced. */
  roleKnown: boolean;
}

/** Who is looking, and their role in the project (read from members/all, inherited roles included). */
export function useProjectAuthorCaller(projectId: number): ProjectAuthorCaller {
  const { caller, pending } = useProjectCaller(projectId);
  const userId = useActiveSession()?.connection.userId ?? 0;
  return { ...caller, userId, roleKnown: !pending };
}

export const READ_ONLY_TOKEN = 'This token is read-only (it lacks the api scope).';

/** Editing and deleting a comment: its author, the project's Maintainers and Owners, administrators (the platform's admin_note). */
export function mayChangeNote(caller: ProjectAuthorCaller, authorId: number | undefined): boolean {
  return caller.canWrite && (caller.isAdmin || caller.role >= AccessLevel.MAINTAINER || (authorId !== undefined && authorId === caller.userId));
}

/**
 * Commenting on an issue or merge request: anyone who sees it, unless its discussion is locked;
 * then project members from `memberRole` up.
 */
export function commentRefusal(caller: ProjectCaller, locked: boolean, memberRole: number): string | null {
  if (!caller.canWrite) return READ_ONLY_TOKEN;
  if (locked && !caller.isAdmin && caller.role < memberRole) return 'The discussion is locked: only project members can comment.';
  return null;
}
