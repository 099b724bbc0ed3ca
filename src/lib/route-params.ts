import { notFound } from '@tanstack/react-router';

/** A route's numeric id (`:projectId`, `:issueIid`, `:mergeRequestIid`): a positive whole number, or null. */
function positiveIdParam(value: string): number | null {
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/**
 * A loader's numeric ids, or the not-found screen when one is not a positive whole number (a
 * child route checks them too: its loader runs beside its parent's, not after it).
 */
export function idParams<K extends string>(params: Record<K, string>): Record<K, number> {
  const ids = {} as Record<K, number>;
  for (const key of Object.keys(params) as K[]) {
    const id = positiveIdParam(params[key]);
    if (id === null) throw notFound();
    ids[key] = id;
  }
  return ids;
}
