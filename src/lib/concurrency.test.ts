import { describe, expect, it } from 'vitest';
import { createLimiter, mapWithConcurrency } from './concurrency.ts';

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

describe('createLimiter', () => {
  it('runs at most the limit at once, the rest in the order they came', async () => {
    const run = createLimiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      [...Array(7).keys()].map((item) =>
        run(async () => {
          started.push(item);
          running++;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 3));
          running--;
          return item;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('frees the slot of a failed task, and drops a waiting task whose signal aborts without running it', async () => {
    const run = createLimiter(1);
    let release!: () => void;
    const first = run(() => new Promise<string>((resolve) => (release = () => resolve('first'))));
    const controller = new AbortController();
    let ranAborted = false;
    const aborted = run(async () => (ranAborted = true), controller.signal);
    const failing = run(async () => {
      throw new Error('failed');
    });
    const last = run(async () => 'last');
    controller.abort(new Error('scrolled away'));
    await expect(aborted).rejects.toThrow('scrolled away');
    release();
    await expect(first).resolves.toBe('first');
    await expect(failing).rejects.toThrow('failed');
    await expect(last).resolves.toBe('last');
    expect(ranAborted).toBe(false);
  });
});
