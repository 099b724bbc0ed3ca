import { describe, expect, it } from 'vitest';
import { timestamp, timestampAt } from '../model/time.ts';

describe('timestampAt', () => {
  it('writes what toISOString writes, across days, years and leap days', () => {
    const instants = [0, 1, 999, 1000, 59_999, 3_599_999, 86_399_999, 86_400_000, 951_782_400_000, 1_709_164_799_999, 1_709_164_800_000, 1_773_656_430_123];
    for (let n = 0; n < 5000; n++) instants.push(1_600_000_000_000 + n * 7_777_777_777 % 400_000_000_000 + n);
    for (const ms of instants) expect(timestampAt(ms)).toBe(new Date(ms).toISOString());
  });

  it('truncates fractions as Date does, before 1970 too', () => {
    for (const ms of [1_700_000_000_123.9, -0.5, -1, -1.5, -86_400_001, -62_167_219_200_000]) expect(timestampAt(ms)).toBe(new Date(ms).toISOString());
  });

  it('leaves years past 9999 and before 0000 to toISOString, and refuses what is not a time', () => {
    for (const ms of [253_402_300_800_000, -62_167_219_200_001, 8.64e15]) expect(timestampAt(ms)).toBe(new Date(ms).toISOString());
    expect(() => timestampAt(Number.NaN)).toThrow(RangeError);
    expect(timestamp(new Date('2026-11-27T20:31:05.042Z'))).toBe('2026-11-27T20:31:05.042Z');
  });
});
