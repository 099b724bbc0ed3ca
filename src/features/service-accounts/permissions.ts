import type { ServiceAccountScope } from '../../api/service-accounts.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

export interface ServiceAccountAccess {
  /** The list may be shown (the platform answers 403 otherwise, so it is not even asked). */
  canView: boolean;
  /** Create, edit, delete and the tokens' create, rotate and revoke. */
  canManage: boolean;
  /** Why something is missing, for a note on the screen; null when everything is allowed. */
  reason: string | null;
}

export interface Caller {
  isAdmin: boolean;
  /** false for a token without the api scope. */
  canWrite: boolean;
  /** The caller's role in the group (0 when none); ignored for administrators and the instance. */
  role: number;
}

/**
 * Who may see and manage service accounts (spec 1, 4.4): a group's are the business of its Owners
 * and of administrators, and exist on top-level groups only; the instance's of administrators.
 */
export function serviceAccountAccess(scope: ServiceAccountScope, caller: Caller, group?: { parentId: number | null; topLevelPath?: string }): ServiceAccountAccess {
  if (scope === 'instance') {
    if (!caller.isAdmin) return { canView: false, canManage: false, reason: 'Instance service accounts are managed by administrators only, and this account is not an administrator.' };
  } else {
    if (!caller.isAdmin && caller.role < AccessLevel.OWNER) return { canView: false, canManage: false, reason: 'Only Owners of this group and administrators can see and manage its service accounts.' };
    if (group && group.parentId !== null) {
      const where = group.topLevelPath ? ` Those of this group’s hierarchy are managed in the top-level group “${group.topLevelPath}”.` : '';
      return { canView: false, canManage: false, reason: `Service accounts belong to top-level groups, and this is a subgroup.${where}` };
    }
  }
  if (!caller.canWrite) return { canView: true, canManage: false, reason: 'This token is read-only (it lacks the api scope): service accounts and their tokens can be viewed, not changed.' };
  return { canView: true, canManage: true, reason: null };
}
