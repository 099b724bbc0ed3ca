import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDay, formatMoment, formatRelative, zoneName } from './time.ts';

const moment = Date.parse('2026-11-25T09:14:00Z');

describe('formatMoment', () => {
  it('shows the moment with its zone as an offset', () => {
    expect(formatMoment(moment, 0)).toBe('25 Nov 2026, 09:14 UTC');
    expect(formatMoment(moment, 540)).toBe('25 Nov 2026, 18:14 UTC+9');
    expect(formatMoment(moment, 330)).toBe('25 Nov 2026, 14:44 UTC+5:30');
    // the day changes with the zone
    expect(formatMoment(moment, -600)).toBe('24 Nov 2026, 23:14 UTC-10');
  });
});

describe('formatDateTime', () => {
  it('shows the moment in the local zone, with it', () => {
    const offset = -new Date(moment).getTimezoneOffset();
    expect(formatDateTime('2026-11-25T09:14:00Z')).toBe(formatMoment(moment, offset));
    expect(formatDateTime('2026-11-25T09:14:00Z')).toMatch(new RegExp(`${zoneName(offset).replace('+', '\\+')}$`));
  });

  it('leaves a calendar day without a zone, and what it cannot read as it is', () => {
    expect(formatDateTime('2026-11-25')).toBe('25 Nov 2026');
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatDateTime(null)).toBe('');
  });
});

describe('formatDate and formatDay', () => {
  it('write the day, a date alone in UTC', () => {
    expect(formatDate('2026-01-05')).toBe('5 Jan 2026');
    expect(formatDate('')).toBe('');
    expect(formatDay(moment, 0)).toBe('Wednesday 25 November 2026');
  });
});

describe('formatRelative', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  it('counts from now in words', () => {
    expect(formatRelative('2026-11-28T12:00:00Z', now)).toBe('in 3 days');
    expect(formatRelative('2026-11-25T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelative('2026-11-25T11:59:00Z', now)).toBe('1 minute ago');
    expect(formatRelative('2026-11-25T12:00:00Z', now)).toBe('now');
    expect(formatRelative('2026-11-25T11:59:30Z', now)).toBe('30 seconds ago');
  });

  it('says yesterday, tomorrow, last and next as the platform does', () => {
    expect(formatRelative('2026-11-24T12:00:00Z', now)).toBe('yesterday');
    expect(formatRelative('2026-11-26T12:00:00Z', now)).toBe('tomorrow');
    expect(formatRelative('2026-11-18T12:00:00Z', now)).toBe('last week');
    expect(formatRelative('2025-11-25T12:00:00Z', now)).toBe('last year');
    expect(formatRelative('2024-11-25T12:00:00Z', now)).toBe('2 years ago');
    expect(formatRelative(null, now)).toBe('never');
  });
});
