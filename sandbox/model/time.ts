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
  return timestampAt(now.getTime());
}

const DAY_MS = 86_400_000;
// years 0000 to 9999: outside them toISOString writes six-digit years, and this leaves it to toISOString
const FOUR_DIGIT_YEARS = { from: -62_167_219_200_000, to: 253_402_300_799_999 };
const dayPrefixes = new Map<number, string>();
const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * `timestamp` of epoch milliseconds, without a Date: the demo seed writes 120,000 timestamps and
 * toISOString costs five times this. A day's `YYYY-MM-DDT` is formatted once.
 */
export function timestampAt(epochMs: number): string {
  const ms = Math.trunc(epochMs);
  if (!(ms >= FOUR_DIGIT_YEARS.from && ms <= FOUR_DIGIT_YEARS.to)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    // a long-running sandbox fed arbitrary dates must not grow this without end
    if (dayPrefixes.size >= 20_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  const inDay = ms - day * DAY_MS;
  const seconds = Math.floor(inDay / 1000);
  return `${prefix}${twoDigits[Math.floor(seconds / 3600)]}:${twoDigits[Math.floor(seconds / 60) % 60]}:${twoDigits[seconds % 60]}.${threeDigits[inDay % 1000]}Z`;
}
