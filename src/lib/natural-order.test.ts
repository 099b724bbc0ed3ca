import { describe, expect, it } from 'vitest';
import { compareNatural } from './natural-order.ts';

describe('compareNatural', () => {
  it('orders runs of digits as numbers', () => {
    expect(['test 10', 'test 2', 'test 1', 'build'].sort(compareNatural)).toEqual(['build', 'test 1', 'test 2', 'test 10']);
    expect(['rspec 1/10', 'rspec 10/10', 'rspec 2/10'].sort(compareNatural)).toEqual(['rspec 1/10', 'rspec 2/10', 'rspec 10/10']);
  });

  it('orders the rest as text, case after letter', () => {
    expect(['b', 'A', 'a', 'B'].sort(compareNatural)).toEqual(['A', 'a', 'B', 'b']);
    expect(compareNatural('lint', 'lint')).toBe(0);
    expect(compareNatural('job', 'job 1')).toBeLessThan(0);
    expect(compareNatural('x01', 'x1')).toBeGreaterThan(0);
  });
});
