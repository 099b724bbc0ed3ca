import { AccessLevel } from '../../api/vocabulary.ts';

/** Who may cherry-pick or revert: both push a new commit onto a branch. */
export interface PickCaller {
  isAdmin: boolean;
  /** The token has `api`; without it the console is read-only. */
  canWrite: boolean;
  /** The caller's role in the project (its own or through its groups), 0 when none. */
  role: number;
}

export type PickAccess = { allowed: true; reason: null } | { allowed: false; reason: string };

/** Developers and up may push (protected branches are checked per branch, by the platform's `can_push`). */
export function pickAccess(caller: PickCaller): PickAccess {
  if (!caller.canWrite) return { allowed: false, reason: 'This token is read-only (it lacks the api scope): commits can be viewed, not cherry-picked or reverted.' };
  if (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER) return { allowed: true, reason: null };
  return { allowed: false, reason: 'Cherry-pick and revert push a new commit: only Developers, Maintainers and Owners of this project can do that.' };
}

/** The caller's role from the project's `permissions`: its own row or its group's, whichever is higher. */
export function roleIn(permissions: { project_access?: { access_level: number } | null; group_access?: { access_level: number } | null } | undefined): number {
  return Math.max(permissions?.project_access?.access_level ?? 0, permissions?.group_access?.access_level ?? 0);
}
