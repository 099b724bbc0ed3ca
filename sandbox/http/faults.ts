import { z } from 'zod';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';

/**
 * Test-only fault injection. Each rule applies to requests whose path matches `path` (a glob:
 * `*` is any run of characters, e.g. `/api/v4/projects/*`) and optionally whose method is listed.
 */
export const faultRuleSchema = z
  .object({
    path: z.string().min(1).max(500),
    methods: z.array(z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'])).optional(),
    /** added latency before the answer */
    latency_ms: z.number().int().min(0).max(60_000).optional(),
    /** share of matching requests answered with `error_status` (default 500) */
    error_rate: z.number().min(0).max(1).optional(),
    error_status: z.number().int().min(500).max(599).optional(),
    /** share of matching requests answered 429 with `Retry-After` */
    rate_limit_rate: z.number().min(0).max(1).optional(),
    retry_after_seconds: z.number().int().min(0).max(3600).optional(),
    /** share of matching requests whose connection is destroyed without an answer */
    drop_rate: z.number().min(0).max(1).optional(),
    /** the rule removes itself after matching this many requests */
    times: z.number().int().min(1).optional(),
  })
  .strict();

export type FaultRule = z.infer<typeof faultRuleSchema> & { id: number; matched: number };

export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class Faults {
  private rules: Array<FaultRule & { pattern: RegExp }> = [];
  private nextId = 1;

  list(): FaultRule[] {
    return this.rules.map(({ pattern: _pattern, ...rule }) => rule);
  }

  add(input: z.infer<typeof faultRuleSchema>): FaultRule {
    const rule = { ...input, id: this.nextId++, matched: 0, pattern: globToRegExp(input.path) };
    this.rules.push(rule);
    const { pattern: _pattern, ...visible } = rule;
    return visible;
  }

  remove(id: number): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length !== before;
  }

  clear(): void {
    this.rules = [];
  }

  /** Applies matching rules in order; answers a Response when a rule decides the outcome. */
  middleware(): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const path = new URL(c.req.url).pathname;
      for (const rule of [...this.rules]) {
        if (!rule.pattern.test(path)) continue;
        if (rule.methods && !rule.methods.includes(c.req.method as never)) continue;
        rule.matched++;
        if (rule.times !== undefined && rule.matched >= rule.times) this.remove(rule.id);
        if (rule.latency_ms) await new Promise((resolve) => setTimeout(resolve, rule.latency_ms));
        if (rule.drop_rate && Math.random() < rule.drop_rate) return dropConnection(c);
        if (rule.rate_limit_rate && Math.random() < rule.rate_limit_rate) {
          c.header('Retry-After', String(rule.retry_after_seconds ?? 1));
          // the platform's rate limiter answers in plain text
          return c.text('Retry later\n', 429);
        }
        if (rule.error_rate && Math.random() < rule.error_rate) {
          const status = rule.error_status ?? 500;
          return c.json({ message: `${status} Injected fault` }, status as 500);
        }
      }
      await next();
    };
  }
}

/** Destroys the client's socket; outside a Node server (in-process tests) answers 502 instead. */
function dropConnection(c: Context<AppEnv>): Response | Promise<Response> {
  const incoming = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming;
  if (incoming?.socket) {
    incoming.socket.destroy();
    return new Promise<Response>(() => {});
  }
  return c.json({ message: '502 Connection dropped' }, 502);
}
