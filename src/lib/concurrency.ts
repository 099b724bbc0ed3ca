/**
 * Runs `task` over every item with at most `limit` running at once, in order of the items;
 * a failed item's error is kept in its slot instead of stopping the others.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<Array<{ ok: true; value: R } | { ok: false; error: unknown }>> {
  const results: Array<{ ok: true; value: R } | { ok: false; error: unknown }> = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const index = next++;
      try {
        results[index] = { ok: true, value: await task(items[index], index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return results;
}

/**
 * A gate for tasks that start one by one (each card of a board asking for its own data): at most
 * `limit` run at once, the others wait their turn in order. A waiting task whose signal aborts
 * (its card scrolled away and its query was cancelled) leaves the queue without running.
 */
export function createLimiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    running--;
    waiting.shift()?.();
  };
  return async function run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (running >= limit) {
      await new Promise<void>((resolve, reject) => {
        const start = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          waiting.splice(waiting.indexOf(start), 1);
          reject(signal?.reason ?? new Error('aborted'));
        };
        waiting.push(start);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    running++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
