/** What the instance last said of the request budget, and when a throttled read is retried. */
export interface RateLimitState {
  /** From `RateLimit-Remaining` and `RateLimit-Limit`, when the instance sends them and the browser may read them. */
  budget: { remaining: number; limit: number } | null;
  /** A read answered 429 is retried at this time (ms since the epoch) and how long it waits. */
  retry: { at: number; seconds: number } | null;
}

type Listener = () => void;

const EMPTY: RateLimitState = { budget: null, retry: null };

/** The latest rate-limit state of the signed-in connection; `send()` and the query retries feed it. */
export class RateLimitStore {
  private state = EMPTY;
  private listeners = new Set<Listener>();

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get = (): RateLimitState => this.state;

  private set(state: RateLimitState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /** Reads the budget from an answer's headers; an answer without them leaves the last one. */
  record(headers: Headers): void {
    const remaining = Number(headers.get('ratelimit-remaining') ?? NaN);
    const limit = Number(headers.get('ratelimit-limit') ?? NaN);
    if (!Number.isInteger(remaining) || !Number.isInteger(limit) || limit <= 0) return;
    const { budget } = this.state;
    if (budget?.remaining === remaining && budget.limit === limit) return;
    this.set({ ...this.state, budget: { remaining, limit } });
  }

  /** A throttled read waits `seconds` before its retry. */
  retrying(seconds: number, now = Date.now()): void {
    this.set({ ...this.state, retry: { at: now + seconds * 1000, seconds } });
  }

  /** Another connection: its budget is its own. */
  clear(): void {
    if (this.state !== EMPTY) this.set(EMPTY);
  }
}

export const rateLimitStore = new RateLimitStore();
