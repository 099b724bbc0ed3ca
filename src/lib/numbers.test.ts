import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatCountOf } from './numbers.ts';

describe('formatCount', () => {
  it('groups thousands with commas', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(100_000)).toBe('100,000');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-12_345)).toBe('-12,345');
  });

  it('leaves a fraction as it is', () => {
    expect(formatCount(1.5)).toBe('1.5');
  });
});

describe('formatCountOf', () => {
  it('says one in the singular and every other count in the plural, with thousands separators', () => {
    expect(formatCountOf(1, 'issue', 'issues')).toBe('1 issue');
    expect(formatCountOf(0, 'issue', 'issues')).toBe('0 issues');
    expect(formatCountOf(1204, 'person', 'people')).toBe('1,204 people');
  });
});

describe('formatBytes', () => {
  it('uses bytes below one KiB and binary units above, one decimal below 100', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1,023 B');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(150 * 1024 * 1024)).toBe('150 MiB');
    expect(formatBytes(23.44 * 1024 * 1024)).toBe('23.4 MiB');
    expect(formatBytes(3 * 1024 ** 4 * 2000)).toBe('6,000 TiB');
  });
});
