import { usableStorage } from '../../api/stored-session.ts';

/**
 * When this browser last sent a bulk tag delete for a repository: the platform runs it at most
 * once an hour per repository (spec 3, 8.1), so a second run is explained before it is tried.
 * Kept per instance in localStorage; another browser's run shows as the platform's 400.
 */
export const BULK_DELETE_INTERVAL_MS = 60 * 60 * 1000;

const key = (instanceUrl: string, repositoryId: number) => `registry-bulk-delete:${instanceUrl}:${repositoryId}`;

// blocked site data: nothing is remembered, and the platform's own refusal explains a second run
const storage = usableStorage(() => globalThis.localStorage);

export function lastBulkRun(instanceUrl: string, repositoryId: number): number | null {
  const value = Number(storage?.getItem(key(instanceUrl, repositoryId)));
  return Number.isFinite(value) && value > 0 ? value : null;
}

export function rememberBulkRun(instanceUrl: string, repositoryId: number, at: number): void {
  storage?.setItem(key(instanceUrl, repositoryId), String(at));
}

/** When the next run is allowed, or null when it already is. */
export function nextBulkRunAt(last: number | null, now: number): number | null {
  return last !== null && now - last < BULK_DELETE_INTERVAL_MS ? last + BULK_DELETE_INTERVAL_MS : null;
}
