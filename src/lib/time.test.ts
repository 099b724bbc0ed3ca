import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelative } from './time.ts';

describe('formatDateTime', () => {
  it('shows the moment with its zone', () => {
    const text = formatDateTime('2026-11-25T09:14:00Z', 'UTC');
    expect(text).toMatch(/2026/);
    expect(text).toMatch(/09:14/);
    expect(text).toMatch(/UTC/);
    expect(formatDateTime('2026-11-25T09:14:00Z', 'Asia/Tokyo')).toMatch(/(18|06):14( PM)? GMT\+9/);
  });

  it('leaves a calendar day without a zone, and what it cannot read as it is', () => {
    expect(formatDateTime('2026-11-25')).not.toMatch(/UTC|GMT|:/);
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatDateTime(null)).toBe('');
  });
});

describe('formatRelative', () => {
  it('counts from now', () => {
    expect(formatRelative('2026-11-28T00:00:00Z', new Date('2026-11-25T00:00:00Z'))).toBe('in 3 days');
    expect(formatRelative('2026-11-25T09:00:00Z', new Date('2026-11-25T12:00:00Z'))).toBe('3 hours ago');
  });
});
