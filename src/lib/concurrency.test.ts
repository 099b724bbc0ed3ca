import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from './concurrency.ts';

describe('mapWithConcurrency', () => {
  it('never runs more than the limit at once and keeps the order of the items', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([...Array(20).keys()], 6, async (item) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 + (item % 3)));
      running--;
      return item * 2;
    });
    expect(peak).toBe(6);
    expect(results.map((result) => (result.ok ? result.value : null))).toEqual([...Array(20).keys()].map((item) => item * 2));
  });

  it('keeps going after a failure and reports it in its slot', async () => {
    const results = await mapWithConcurrency([1, 2, 3], 2, async (item) => {
      if (item === 2) throw new Error('two failed');
      return item;
    });
    expect(results[0]).toEqual({ ok: true, value: 1 });
    expect(results[1]).toMatchObject({ ok: false });
    expect(results[2]).toEqual({ ok: true, value: 3 });
  });

  it('stops taking new items once aborted', async () => {
    const controller = new AbortController();
    let started = 0;
    const run = mapWithConcurrency([...Array(10).keys()], 2, async () => {
      started++;
      if (started === 2) controller.abort(new Error('stop'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }, controller.signal);
    await expect(run).rejects.toThrow('stop');
    expect(started).toBeLessThan(10);
  });
});
