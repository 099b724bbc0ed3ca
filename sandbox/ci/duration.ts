/**
 * Human durations as the CI file writes them (`start_in: 30 seconds`, `timeout: 1h 30m`,
 * `10 minutes`, `1 day`, a bare number of seconds), read the way the platform's
 * duration parser reads them. Null when the text is not a duration.
 */
const UNITS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400,
  w: 604800, wk: 604800, wks: 604800, week: 604800, weeks: 604800,
  mo: 2592000, mos: 2592000, month: 2592000, months: 2592000,
  y: 31557600, yr: 31557600, yrs: 31557600, year: 31557600, years: 31557600,
};

const PART = /(\d+(?:\.\d+)?)\s*([a-z]*)/gy;

export function parseDuration(input: unknown): number | null {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : null;
  if (typeof input !== 'string') return null;
  const text = input.trim().toLowerCase().replace(/,|\band\b/g, ' ').replace(/\s+/g, ' ');
  if (!text) return null;
  let total = 0;
  let pos = 0;
  let parts = 0;
  while (pos < text.length) {
    if (text[pos] === ' ') {
      pos += 1;
      continue;
    }
    PART.lastIndex = pos;
    const m = PART.exec(text);
    if (!m || m[0].length === 0) return null;
    const unit = m[2] === '' ? 1 : UNITS[m[2]];
    if (unit === undefined) return null;
    total += Number(m[1]) * unit;
    pos = PART.lastIndex;
    parts += 1;
  }
  return parts > 0 ? Math.round(total) : null;
}

/** Seconds as the runner prints a duration: 1h30m0s, 10m0s, 45s. */
export function formatRunnerDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h}h${m}m${r}s`;
  if (m > 0) return `${m}m${r}s`;
  return `${r}s`;
}
