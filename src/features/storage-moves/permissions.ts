/** What the caller may do with storage moves; `reason` says why something is missing. */
export interface StorageMovesAccess {
  /** The platform answers 403 to anyone else, so the moves are not even asked for. */
  canView: boolean;
  canManage: boolean;
  reason: string | null;
}

/** Storage moves are the instance's: administrators only; a read-only token only looks. */
export function storageMovesAccess(caller: { isAdmin: boolean; canWrite: boolean } | undefined): StorageMovesAccess {
  if (!caller?.isAdmin) return { canView: false, canManage: false, reason: 'Repository storage moves are managed by administrators only, and this account is not an administrator.' };
  if (!caller.canWrite) return { canView: true, canManage: false, reason: 'This token is read-only (it lacks the api scope): moves can be followed, not scheduled.' };
  return { canView: true, canManage: true, reason: null };
}
