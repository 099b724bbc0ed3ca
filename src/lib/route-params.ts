/** A route's numeric id (`:projectId`, `:issueIid`, `:mergeRequestIid`): a positive whole number, or null for the not-found screen. */
export function positiveIdParam(value: string): number | null {
  return /^\d{1,15}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}
