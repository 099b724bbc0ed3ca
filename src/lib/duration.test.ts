import { describe, expect, it } from 'vitest';
import { formatDuration, secondsSince } from './duration.ts';

describe('formatDuration', () => {
  it('shows seconds, minutes, hours and days the way pipeline lists do', () => {
    expect(formatDuration(0.3)).toBe('< 1s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(187)).toBe('3m 07s');
    expect(formatDuration(2 * 3600 + 5 * 60 + 9)).toBe('2h 05m');
    expect(formatDuration(28 * 3600)).toBe('1d 4h');
  });

  it('shows nothing for a missing or impossible value', () => {
    expect(formatDuration(null)).toBe('');
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(-1)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
  });
});

describe('secondsSince', () => {
  it('counts from a start to now, never below zero', () => {
    const now = Date.parse('2026-11-26T10:00:30Z');
    expect(secondsSince('2026-11-26T10:00:00Z', now)).toBe(30);
    expect(secondsSince('2026-11-26T10:01:00Z', now)).toBe(0);
    expect(secondsSince(null, now)).toBeNull();
    expect(secondsSince('not a time', now)).toBeNull();
  });
});

describe('formatDuration on job and section durations', () => {
  it('reads as hours, minutes and seconds', () => {
    expect(formatDuration(5.4)).toBe('5s');
    expect(formatDuration(65)).toBe('1m 05s');
    expect(formatDuration(7380)).toBe('2h 03m');
    expect(formatDuration(null)).toBe('');
  });
});
