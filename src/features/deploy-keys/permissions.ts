import { AccessLevel } from '../../api/vocabulary.ts';

export interface DeployKeyCaller {
  isAdmin: boolean;
  canWrite: boolean;
  /** The caller's role in the project, inherited included (0 when none). */
  role: number;
}

/** A project's deploy keys are for its Maintainers and Owners (the platform answers 403 otherwise). */
export function projectKeysRefusal(caller: DeployKeyCaller): string | null {
  if (caller.isAdmin || caller.role >= AccessLevel.MAINTAINER) return null;
  return 'Only Maintainers and Owners of this project, and administrators, can see and manage its deploy keys.';
}

export function changeRefusal(caller: DeployKeyCaller): string | null {
  return caller.canWrite ? null : 'This token is read-only (it lacks the api scope): keys can be viewed, not changed.';
}
