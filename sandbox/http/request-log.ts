import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { globToRegExp } from './faults.ts';

/** One API request as tests see it: never its headers, query or body, which may carry a token. */
export interface LoggedRequest {
  id: number;
  method: string;
  path: string;
  /** null until answered; stays null for a connection dropped by a fault rule. */
  status: number | null;
  time: string;
}

export interface RequestFilter {
  method?: string;
  /** A glob over the path, as fault rules match: `*` is any run of characters. */
  path?: string;
  /** Only requests logged after this id (a test's starting mark). */
  after?: number;
}

/** Test-only record of the latest API requests, so a test can count what arrived; bounded in memory. */
export class RequestLog {
  private entries: LoggedRequest[] = [];
  private nextId = 1;

  constructor(private readonly capacity = 2000) {}

  list({ method, path, after }: RequestFilter = {}): LoggedRequest[] {
    const pattern = path ? globToRegExp(path) : null;
    return this.entries.filter(
      (entry) => (!method || entry.method === method.toUpperCase()) && (!pattern || pattern.test(entry.path)) && (after === undefined || entry.id > after),
    );
  }

  /** The id of the newest request, 0 when none: a mark to count from. */
  last(): number {
    return this.nextId - 1;
  }

  clear(): void {
    this.entries = [];
  }

  middleware(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const entry: LoggedRequest = { id: this.nextId++, method: c.req.method, path: new URL(c.req.url).pathname, status: null, time: new Date().toISOString() };
      this.entries.push(entry);
      if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
      await next();
      entry.status = c.res.status;
    };
  }
}
