import { onFirstUse } from './first-use.ts';

const DAY_MS = 86_400_000;

/** Whole days from today (UTC) to a `YYYY-MM-DD` date; negative when past. */
export function daysUntil(date: string, now: Date = new Date()): number {
  const target = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  const today = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);
  return Math.round((target - today) / DAY_MS);
}

// Intl formatters are built on first use: building one costs far more than using it

const localDate = onFirstUse(() => new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }));
const utcDate = onFirstUse(() => new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const relative = onFirstUse(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
const dateTimeOptions: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };
const localDateTime = onFirstUse(() => new Intl.DateTimeFormat(undefined, dateTimeOptions));

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The exact moment with its zone, e.g. "25 Nov 2026, 09:14 UTC"; a date alone is a calendar day and has no zone. */
export function formatDateTime(value: string | null | undefined, timeZone?: string): string {
  if (!value) return '';
  if (isDateOnly(value)) return formatDate(value);
  const time = Date.parse(value);
  if (Number.isNaN(time)) return value;
  return (timeZone ? new Intl.DateTimeFormat(undefined, { ...dateTimeOptions, timeZone }) : localDateTime()).format(time);
}

/** A date or date-time as a short local date, e.g. "22 Nov 2026"; a date alone stays in UTC. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const dateOnly = isDateOnly(value);
  const time = Date.parse(dateOnly ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return value;
  return (dateOnly ? utcDate() : localDate()).format(time);
}

/** "3 days ago", "in 2 months": relative to now, for activity and sign-in times. */
export function formatRelative(value: string | null | undefined, now: Date = new Date()): string {
  if (!value) return 'never';
  const time = Date.parse(isDateOnly(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time)) return value;
  const seconds = (time - now.getTime()) / 1000;
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [['year', 31_536_000], ['month', 2_592_000], ['week', 604_800], ['day', 86_400], ['hour', 3600], ['minute', 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative().format(Math.round(seconds / size), unit);
  }
  return relative().format(Math.round(seconds), 'second');
}

/** `2026-03-01` -> `2026-03-01T00:00:00Z`: a day as the first second of it (the bound is inclusive). */
export function sinceOf(day: string | undefined): string | undefined {
  return day ? `${day}T00:00:00Z` : undefined;
}

/** `2026-03-01` -> `2026-03-01T23:59:59Z`: a day as its last second, so the whole day is in. */
export function untilOf(day: string | undefined): string | undefined {
  return day ? `${day}T23:59:59Z` : undefined;
}
