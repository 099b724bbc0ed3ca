import { AccessLevel } from '../../api/vocabulary.ts';

export interface BranchCaller {
  isAdmin: boolean;
  /** The token has `api`. */
  canWrite: boolean;
  /** The caller's role in the project, inherited included (0 when none). */
  role: number;
}

const readOnly = 'This token is read-only (it lacks the api scope).';

/** Creating a branch and deleting an unprotected one: Developers and up (the platform's push_code). */
export function pushRefusal(caller: BranchCaller): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= AccessLevel.DEVELOPER) return null;
  return 'Only Developers, Maintainers and Owners of this project can create and delete branches.';
}

/** Protecting and unprotecting: Maintainers and up. */
export function protectRefusal(caller: BranchCaller): string | null {
  if (!caller.canWrite) return readOnly;
  if (caller.isAdmin || caller.role >= AccessLevel.MAINTAINER) return null;
  return 'Only Maintainers and Owners of this project can protect and unprotect branches.';
}

/** Deleting one branch: never the default; a protected one only by Maintainers and up. */
export function deleteRefusal(caller: BranchCaller, branch: { default: boolean; protected: boolean }): string | null {
  if (branch.default) return 'The default branch of a project cannot be deleted.';
  const push = pushRefusal(caller);
  if (push) return push;
  if (branch.protected && !caller.isAdmin && caller.role < AccessLevel.MAINTAINER) return 'This branch is protected: only Maintainers and Owners can delete it.';
  return null;
}
