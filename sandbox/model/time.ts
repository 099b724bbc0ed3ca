/** `YYYY-MM-DD` of the given instant in UTC: the platform's dates (expires_at) are UTC days. */
export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The UTC date `days` after `from`. */
export function addDays(from: Date, days: number): string {
  return today(new Date(from.getTime() + days * 86_400_000));
}

/** Timestamps the way the platform writes them: ISO 8601 with milliseconds, UTC. */
export function timestamp(now: Date): string {
  return now.toISOString();
}
