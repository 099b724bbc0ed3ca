import { formatCountOf } from './numbers.ts';

/*
 * Dates and times in one fixed English form ("25 Nov 2026, 09:14 UTC+1"), written without Intl: the
 * first Intl formatter of a page loads the locale data, 55 to 190 ms at 4x CPU, inside the first
 * render of every screen with a time on it. The console speaks English; one unambiguous day-month
 * order and a zone as an offset read the same everywhere.
 */

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Whole days from today (UTC) to a `YYYY-MM-DD` date; negative when past. */
export function daysUntil(date: string, now: Date = new Date()): number {
  const target = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  return Math.round((target - today) / DAY_MS);
}

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const pad = (value: number) => String(value).padStart(2, '0');

/** A moment's calendar fields in a zone `offsetMinutes` east of UTC (the local zone by default). */
function fieldsAt(time: number, offsetMinutes: number) {
  const shifted = new Date(time + offsetMinutes * 60_000);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth(), day: shifted.getUTCDate(), weekday: shifted.getUTCDay(), hours: shifted.getUTCHours(), minutes: shifted.getUTCMinutes() };
}

const localOffset = (time: number) => -new Date(time).getTimezoneOffset();

/** "UTC", "UTC+1", "UTC+5:30", "UTC-3". */
export function zoneName(offsetMinutes: number): string {
  if (offsetMinutes === 0) return 'UTC';
  const size = Math.abs(offsetMinutes);
  return `UTC${offsetMinutes > 0 ? '+' : '-'}${Math.floor(size / 60)}${size % 60 ? `:${pad(size % 60)}` : ''}`;
}

/** The exact moment with its zone, "25 Nov 2026, 09:14 UTC+1", in the zone `offsetMinutes` east of UTC. */
export function formatMoment(time: number, offsetMinutes: number = localOffset(time)): string {
  const { year, month, day, hours, minutes } = fieldsAt(time, offsetMinutes);
  return `${day} ${MONTHS[month]} ${year}, ${pad(hours)}:${pad(minutes)} ${zoneName(offsetMinutes)}`;
}

/** The exact moment with its zone, e.g. "25 Nov 2026, 09:14 UTC"; a date alone is a calendar day and has no zone. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  if (isDateOnly(value)) return formatDate(value);
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : formatMoment(time);
}

/** A date or date-time as a short local date, e.g. "22 Nov 2026"; a date alone stays in UTC. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const dateOnly = isDateOnly(value);
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return value;
  const { year, month, day } = fieldsAt(time, dateOnly ? 0 : localOffset(time));
  return `${day} ${MONTHS[month]} ${year}`;
}

/** "Wednesday 25 November 2026": a moment's local day, for lists grouped by day. */
export function formatDay(time: number, offsetMinutes: number = localOffset(time)): string {
  const { year, month, day, weekday } = fieldsAt(time, offsetMinutes);
  return `${WEEKDAYS[weekday]} ${day} ${MONTH_NAMES[month]} ${year}`;
}

/** "09:14:05": a moment's local time of day. */
export function formatClock(time: number, offsetMinutes: number = localOffset(time)): string {
  const shifted = new Date(time + offsetMinutes * 60_000);
  return `${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}`;
}

const UNITS: Array<[unit: string, seconds: number, last: string, next: string]> = [
  ['year', 31_536_000, 'last year', 'next year'],
  ['month', 2_592_000, 'last month', 'next month'],
  ['week', 604_800, 'last week', 'next week'],
  ['day', 86_400, 'yesterday', 'tomorrow'],
  ['hour', 3600, '', ''],
  ['minute', 60, '', ''],
];

/** "3 days ago", "in 2 months", "yesterday": relative to now, for activity and sign-in times. */
export function formatRelative(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return 'never';
  const time = Date.parse(isDateOnly(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return value;
  const seconds = (time - now.getTime()) / 1000;
  for (const [unit, size, last, next] of UNITS) {
    if (Math.abs(seconds) < size) continue;
    const count = Math.round(seconds / size);
    if (count === -1 && last) return last;
    if (count === 1 && next) return next;
    return relativeWords(count, unit);
  }
  const count = Math.round(seconds);
  return count === 0 ? 'now' : relativeWords(count, 'second');
}

function relativeWords(count: number, unit: string): string {
  const size = Math.abs(count);
  const words = formatCountOf(size, unit, `${unit}s`);
  return count < 0 ? `${words} ago` : `in ${words}`;
}

/** `2026-03-01` -> `2026-03-01T00:00:00Z`: a day as the first second of it (the bound is inclusive). */
export function sinceOf(day: string | undefined): string | undefined {
  return day ? `${day}T00:00:00Z` : undefined;
}

/** `2026-03-01` -> `2026-03-01T23:59:59Z`: a day as its last second, so the whole day is in. */
export function untilOf(day: string | undefined): string | undefined {
  return day ? `${day}T23:59:59Z` : undefined;
}
