import { describe, expect, it } from 'vitest';
import { fetchAheadAllowed } from './preload-likely-areas.ts';

describe('fetchAheadAllowed', () => {
  it('fetches ahead where the browser says nothing about the connection, or it is fast', () => {
    expect(fetchAheadAllowed(undefined)).toBe(true);
    expect(fetchAheadAllowed({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(fetchAheadAllowed({ effectiveType: '3g' })).toBe(true);
  });

  it('fetches nothing ahead under Save-Data or on a 2G-like link', () => {
    expect(fetchAheadAllowed({ effectiveType: '4g', saveData: true })).toBe(false);
    expect(fetchAheadAllowed({ effectiveType: '2g' })).toBe(false);
    expect(fetchAheadAllowed({ effectiveType: 'slow-2g' })).toBe(false);
  });
});
