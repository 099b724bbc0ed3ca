/** Seconds as the platform's pipeline lists show them: `45s`, `3m 07s`, `2h 05m`, `1d 4h`; under a second `< 1s`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 1) return '< 1s';
  const whole = Math.round(seconds);
  const days = Math.floor(whole / 86_400);
  const hours = Math.floor((whole % 86_400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  const two = (value: number) => String(value).padStart(2, '0');
  if (days) return `${days}d ${hours}h`;
  if (hours) return `${hours}h ${two(minutes)}m`;
  if (minutes) return `${minutes}m ${two(rest)}s`;
  return `${rest}s`;
}

/** Seconds from `since` to `now` (a running pipeline's time so far); null without a start. */
export function secondsSince(since: string | null | undefined, now: number = Date.now()): number | null {
  if (!since) return null;
  const start = Date.parse(since);
  return Number.isNaN(start) ? null : Math.max(0, (now - start) / 1000);
}
