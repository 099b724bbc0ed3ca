import { describe, expect, it } from 'vitest';
import { draftTitle, readyTitle } from './merge-requests.ts';

describe('draft and ready titles', () => {
  it('prefixes "Draft: " once', () => {
    expect(draftTitle('Fix the login')).toBe('Draft: Fix the login');
    expect(draftTitle('Draft: Fix the login')).toBe('Draft: Fix the login');
    expect(draftTitle('[Draft] Fix the login')).toBe('[Draft] Fix the login');
  });

  it('takes off every prefix the platform reads as draft, and nothing else', () => {
    expect(readyTitle('Draft: Fix the login')).toBe('Fix the login');
    expect(readyTitle('  draft:Fix the login')).toBe('Fix the login');
    expect(readyTitle('[Draft] (Draft) Fix the login')).toBe('Fix the login');
    expect(readyTitle('Fix the draft: login')).toBe('Fix the draft: login');
  });
});
