import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { WriteGate, writeKey, type WriteConfig } from './use-write.ts';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** A gate over a fake server: every request waits until the test answers it. */
function harness(options: Partial<WriteConfig<string, { url: string }>> = {}) {
  const requests: Array<{ variables: { url: string }; answer: ReturnType<typeof deferred<string>> }> = [];
  const refreshes: Array<{ done: boolean; settle: ReturnType<typeof deferred<void>> }> = [];
  const gate = new WriteGate<string, { url: string }>({
    send: (variables) => {
      const answer = deferred<string>();
      requests.push({ variables, answer });
      return answer.promise;
    },
    refresh: (_variables, done) => {
      const settle = deferred<void>();
      refreshes.push({ done, settle });
      return settle.promise;
    },
    ...options,
  });
  // a screen watches the write, as useWrite's subscription does
  gate.subscribe(() => {});
  return { gate, requests, refreshes };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const hook = { url: 'https://receiver.example/hook' };

describe('WriteGate', () => {
  afterEach(() => vi.useRealTimers());

  it('sends a double submit once, and stays pending until what it wrote is refreshed', async () => {
    const { gate, requests, refreshes } = harness();
    const onSuccess = vi.fn();
    expect(gate.send(hook, { onSuccess })).toBe(true);
    expect(gate.send(hook, { onSuccess })).toBe(false);
    expect(requests).toHaveLength(1);
    requests[0]!.answer.resolve('made');
    await flush();
    expect(refreshes).toEqual([expect.objectContaining({ done: true })]);
    expect(gate.getState().status).toBe('pending');
    expect(gate.send(hook)).toBe(false);
    refreshes[0]!.settle.resolve();
    await flush();
    expect(gate.getState()).toMatchObject({ status: 'done', data: 'made' });
    expect(onSuccess).toHaveBeenCalledTimes(1);
    // the same input again (a late Enter) is still the same press
    expect(gate.send({ url: hook.url })).toBe(false);
    expect(requests).toHaveLength(1);
  });

  it('drops a submit that finishes validating while the first is in flight, and sends a changed input after', async () => {
    const { gate, requests, refreshes } = harness();
    const validate = () => Promise.resolve(hook);
    // two clicks, each running the form's async validation before sending
    await Promise.all([validate().then((values) => gate.send(values)), validate().then((values) => gate.send(values))]);
    expect(requests).toHaveLength(1);
    requests[0]!.answer.resolve('made');
    await flush();
    refreshes[0]!.settle.resolve();
    await flush();
    expect(gate.send({ url: 'https://other.example/hook' })).toBe(true);
    expect(requests).toHaveLength(2);
  });

  it('lets the same request go again after a 4xx refusal, which changed nothing', async () => {
    const { gate, requests, refreshes } = harness();
    const onError = vi.fn();
    gate.send(hook, { onError });
    requests[0]!.answer.reject(new ApiError(400, 'url is blocked', 'http'));
    await flush();
    expect(gate.getState()).toMatchObject({ status: 'refused', checking: false });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ status: 400 }), hook);
    expect(refreshes).toHaveLength(0);
    expect(gate.send(hook)).toBe(true);
    expect(gate.send(hook)).toBe(false);
    expect(requests).toHaveLength(2);
  });

  for (const [what, error] of [
    ['a network error', new ApiError(0, 'The instance could not be reached', 'network')],
    ['a 5xx', new ApiError(502, 'Bad gateway', 'http')],
  ] as const) {
    it(`after ${what}, refetches what it wrote to and only then offers to try again`, async () => {
      const { gate, requests, refreshes } = harness();
      const onSuccess = vi.fn();
      gate.send(hook, { onSuccess });
      requests[0]!.answer.reject(error);
      await flush();
      expect(gate.getState()).toMatchObject({ status: 'uncertain', checking: true, error });
      expect(refreshes).toEqual([expect.objectContaining({ done: false })]);
      // while the server is being asked, no press sends, not even a changed one
      expect(gate.send(hook)).toBe(false);
      expect(gate.send({ url: 'https://other.example/' })).toBe(false);
      expect(gate.tryAgain()).toBe(false);
      refreshes[0]!.settle.resolve();
      await flush();
      expect(gate.getState()).toMatchObject({ status: 'uncertain', checking: false, checkedAt: expect.any(Number) });
      expect(gate.tryAgain()).toBe(true);
      expect(gate.tryAgain()).toBe(false);
      expect(requests).toHaveLength(2);
      expect(requests[1]!.variables).toEqual(hook);
      requests[1]!.answer.resolve('made');
      await flush();
      refreshes[1]!.settle.resolve();
      await flush();
      // the retried press keeps the caller's callbacks
      expect(onSuccess).toHaveBeenCalledWith('made', hook);
    });
  }

  it('counts an answer that does not parse as uncertain: the write may have happened', async () => {
    const { gate, requests } = harness();
    gate.send(hook);
    requests[0]!.answer.reject(new ApiError(201, 'unexpected answer', 'parse'));
    await flush();
    expect(gate.getState().status).toBe('uncertain');
  });

  it('allows one request again when armed (a dialog opening for an object), and ignores the old answer', async () => {
    const { gate, requests, refreshes } = harness();
    const onSuccess = vi.fn();
    gate.send(hook, { onSuccess });
    requests[0]!.answer.resolve('made');
    await flush();
    refreshes[0]!.settle.resolve();
    await flush();
    gate.arm();
    expect(gate.getState().status).toBe('idle');
    expect(gate.send(hook, { onSuccess })).toBe(true);
    gate.arm();
    requests[1]!.answer.resolve('late');
    await flush();
    refreshes[1]!.settle.resolve();
    await flush();
    expect(gate.getState().status).toBe('idle');
    expect(onSuccess).toHaveBeenCalledTimes(1);
  });

  it('lets a write without input (test a hook) go again only once a double click is over', async () => {
    vi.useFakeTimers();
    const { gate, requests, refreshes } = harness({ repeatAfterMs: 800 });
    gate.send(hook);
    requests[0]!.answer.resolve('sent');
    await vi.advanceTimersByTimeAsync(0);
    refreshes[0]!.settle.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.send(hook)).toBe(false);
    await vi.advanceTimersByTimeAsync(800);
    expect(gate.send(hook)).toBe(true);
  });

  it('drops the opposite of a toggle pressed within a double click, though the first was answered', async () => {
    vi.useFakeTimers();
    // follow and unfollow: the input is the URL to follow or unfollow; what is toggled, the person
    const { gate, requests, refreshes } = harness({ repeatAfterMs: 800, toggleOf: () => 'person 7' });
    const follow = { url: '/users/7/follow' };
    const unfollow = { url: '/users/7/unfollow' };
    gate.send(follow);
    requests[0]!.answer.resolve('followed');
    await vi.advanceTimersByTimeAsync(0);
    refreshes[0]!.settle.resolve();
    await vi.advanceTimersByTimeAsync(150);
    // answered: the button reads Unfollow by now, disabled until the double click's span is over
    expect(gate.getState()).toMatchObject({ status: 'done', cooling: true });
    // and a second click that reached it all the same sends nothing
    expect(gate.send(unfollow)).toBe(false);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(700);
    expect(gate.getState().cooling).toBe(false);
    expect(gate.send(unfollow)).toBe(true);
    expect(requests.map((request) => request.variables)).toEqual([follow, unfollow]);
  });

  it('lets a refused toggle go again at once: nothing changed on the server', async () => {
    vi.useFakeTimers();
    const { gate, requests } = harness({ toggleOf: () => 'person 7' });
    gate.send({ url: '/users/7/follow' });
    requests[0]!.answer.reject(new ApiError(403, '403 Forbidden', 'http'));
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.getState().status).toBe('refused');
    expect(gate.send({ url: '/users/7/follow' })).toBe(true);
  });

  it('lets a toggle of another thing go at once', async () => {
    vi.useFakeTimers();
    const { gate, requests, refreshes } = harness({ toggleOf: ({ url }) => url.split('/')[2] });
    gate.send({ url: '/threads/a/resolve' });
    requests[0]!.answer.resolve('resolved');
    await vi.advanceTimersByTimeAsync(0);
    refreshes[0]!.settle.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.send({ url: '/threads/b/resolve' })).toBe(true);
  });
});

describe('writeKey', () => {
  it('is the same for the same input in any property order, and differs when a value does', () => {
    expect(writeKey({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(writeKey({ b: { d: 'x', c: [1, 2] }, a: 1 }));
    expect(writeKey({ ids: new Set([1, 2]) })).not.toBe(writeKey({ ids: new Set([1, 3]) }));
    expect(writeKey(true)).not.toBe(writeKey(false));
  });
});

describe('the write layer', () => {
  it('is the only way the console sends a write: no screen uses a mutation of its own', () => {
    const root = join(import.meta.dirname, '..');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        // TanStack's mutations, not the DOM's MutationObserver (lib/keep-focus watches the page with one)
        else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') && /import\s*\{[^}]*\b(useMutation|MutationObserver)\b[^}]*\}\s*from\s*'@tanstack\//.test(readFileSync(path, 'utf8'))) offenders.push(path);
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
