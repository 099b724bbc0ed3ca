/** What the caller may do with system hooks; `reason` says why something is missing. */
export interface SystemHooksAccess {
  /** The platform answers 403 to anyone else, so the hooks are not even asked for. */
  canView: boolean;
  canManage: boolean;
  reason: string | null;
}

/** System hooks are the instance's (spec 1, 2.4): administrators only; a read-only token only looks. */
export function systemHooksAccess(caller: { isAdmin: boolean; canWrite: boolean } | undefined): SystemHooksAccess {
  if (!caller?.isAdmin) return { canView: false, canManage: false, reason: 'System hooks are managed by administrators only, and this account is not an administrator.' };
  if (!caller.canWrite) return { canView: true, canManage: false, reason: 'This token is read-only (it lacks the api scope): system hooks can be viewed, not added, changed, tested or deleted.' };
  return { canView: true, canManage: true, reason: null };
}
