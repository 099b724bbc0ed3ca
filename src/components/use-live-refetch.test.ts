// @vitest-environment jsdom
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_FIRST_MS, LIVE_MAX_MS, liveInterval, nextLiveStep, type LiveStep } from './use-live-refetch.ts';

describe('nextLiveStep', () => {
  it('starts at 2 s, grows ×1.5 per unchanged answer up to 30 s, and resets on a change', () => {
    const data = { status: 'running' };
    let step = nextLiveStep(undefined, data, 1);
    expect(step.delay).toBe(LIVE_FIRST_MS);
    const delays = [];
    for (let answer = 2; answer < 12; answer++) {
      step = nextLiveStep(step, data, answer);
      delays.push(step.delay);
    }
    expect(delays).toEqual([3000, 4500, 6750, 10125, 15188, 22782, 30000, 30000, 30000, 30000]);
    expect(nextLiveStep(step, { status: 'success' }, 12).delay).toBe(LIVE_FIRST_MS);
  });

  it('keeps its delay when called again without a new answer', () => {
    const step: LiveStep = { data: 1, updatedAt: 5, delay: 4500 };
    expect(nextLiveStep(step, 1, 5)).toBe(step);
    expect(LIVE_MAX_MS).toBe(30_000);
  });
});

describe('liveInterval on a real query', () => {
  afterEach(() => vi.useRealTimers());

  it('polls while something moves, backs off while unchanged, and stops by itself', async () => {
    vi.useFakeTimers();
    const answers = ['running', 'running', 'running', 'success'];
    let calls = 0;
    const client = new QueryClient();
    const observer = new QueryObserver(client, {
      queryKey: ['live'],
      queryFn: async () => ({ status: answers[Math.min(calls++, answers.length - 1)] }),
      refetchInterval: liveInterval((data: { status: string }) => data.status === 'running', true, new Map()),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    // the same answer again: the next poll waits 3 s
    await vi.advanceTimersByTimeAsync(2999);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(3);
    await vi.advanceTimersByTimeAsync(4500);
    expect(calls).toBe(4);
    // finished: no more requests however long the screen stays open
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toBe(4);
    unsubscribe();
  });

  it('does not poll while the tab is hidden', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const client = new QueryClient();
    const observer = new QueryObserver(client, {
      queryKey: ['hidden'],
      queryFn: async () => (calls++, { status: 'running' }),
      refetchInterval: liveInterval((data: { status: string }) => data.status === 'running', false, new Map()),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(1);
    unsubscribe();
  });
});
