import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';

// the platform's name for the throttle of authenticated API requests (Rack::Attack)
const THROTTLE_NAME = 'throttle_authenticated_api';
const PERIOD_SECONDS = 60;

/**
 * The platform's authenticated API throttle: `limit` requests per user per minute, in windows
 * aligned to the minute as Rack::Attack counts them. Every authenticated answer carries the
 * `RateLimit-*` headers; past the limit the answer is 429 with `Retry-After` until the window ends.
 */
export class RateLimiter {
  private window = -1;
  private counts = new Map<number, number>();

  /** `limit` is read at each request (0: no limit), so a running sandbox can change it. */
  constructor(
    private readonly limit: () => number,
    private readonly now: () => Date,
  ) {}

  /** Counts one request of `userId`; the headers to send, and whether it is over the limit. */
  take(userId: number, limit: number): { headers: Record<string, string>; exceeded: boolean } {
    const seconds = Math.floor(this.now().getTime() / 1000);
    const window = Math.floor(seconds / PERIOD_SECONDS);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const observed = (this.counts.get(userId) ?? 0) + 1;
    this.counts.set(userId, observed);
    const reset = (window + 1) * PERIOD_SECONDS;
    const headers: Record<string, string> = {
      'RateLimit-Name': THROTTLE_NAME,
      'RateLimit-Limit': String(limit),
      'RateLimit-Observed': String(observed),
      'RateLimit-Remaining': String(Math.max(0, limit - observed)),
      'RateLimit-Reset': String(reset),
      'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
    };
    const exceeded = observed > limit;
    if (exceeded) headers['Retry-After'] = String(reset - seconds);
    return { headers, exceeded };
  }

  /** After the caller is known (it needs `actor`): anonymous requests pass uncounted. */
  middleware(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const user = c.get('actor').user;
      const limit = this.limit();
      if (!user || limit <= 0) return next();
      const { headers, exceeded } = this.take(user.id, limit);
      // the platform's rate limiter answers in plain text
      if (exceeded) return c.text('Retry later\n', 429, headers);
      await next();
      for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    };
  }
}

/** `--rate-limit N` of the command lines: a whole number of requests a minute, 0 for none. */
export function parseRateLimit(text: string | undefined, fail: (message: string) => never): number | undefined {
  if (text === undefined || text === '') return undefined;
  const limit = Number(text);
  if (!Number.isInteger(limit) || limit < 0) fail(`--rate-limit must be a whole number of requests a minute (0: no limit), not ${JSON.stringify(text)}`);
  return limit;
}
