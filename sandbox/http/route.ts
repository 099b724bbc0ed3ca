import type { Context, Hono } from 'hono';
import type { Actor, AppEnv, Sandbox } from '../context.ts';
import type { ParamReader } from './params.ts';
import { forbidden, unauthorized } from './errors.ts';
import { requireScopes } from './auth.ts';

export interface RouteOptions {
  /** Who may call: anyone (public data), any signed-in user (default), or administrators. */
  auth?: 'public' | 'user' | 'admin';
  /** Token scopes of which one is needed; default read_api or api for reads, api for writes. */
  scopes?: readonly string[];
  /** Job tokens are refused unless the endpoint is one they reach (registry, packages). */
  jobToken?: boolean;
  /** The handler awaits (git, network); it runs its own transactions instead of one around it. */
  async?: boolean;
  /** Work under way that the call must see done (a push's tracing of a request's threads): awaited before the handler and its transaction. */
  waitFor?: (call: Call) => Promise<void>;
}

/** What a handler gets besides Hono's context. */
export interface Call {
  sandbox: Sandbox;
  actor: Actor;
  params: ParamReader;
  now: Date;
}

export type Handler = (c: Context<AppEnv>, call: Call) => Response | Promise<Response>;

const READ_SCOPES = ['api', 'read_api'] as const;
const WRITE_SCOPES = ['api'] as const;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Registers endpoints with the platform's access rules applied before the handler, and every
 * write in one SQLite transaction: a 2xx means committed, an error means nothing changed.
 */
export function router(app: Hono<AppEnv>) {
  const add = (method: Method) => (path: string, options: RouteOptions, handler: Handler) => {
    const write = method !== 'GET';
    const auth = options.auth ?? 'user';
    app.on(method, path, (c: Context<AppEnv>): Response | Promise<Response> => {
      const actor = c.get('actor');
      const sandbox = c.get('sandbox');
      if (actor.via === 'job_token' && !options.jobToken) throw unauthorized();
      if (auth !== 'public' && !actor.user) throw unauthorized();
      if (actor.user) requireScopes(actor, options.scopes ?? (write ? WRITE_SCOPES : READ_SCOPES));
      if (auth === 'admin' && !actor.user?.is_admin) throw forbidden();
      const call: Call = { sandbox, actor, params: c.get('params'), now: sandbox.now() };
      const run = (): Response | Promise<Response> => {
        if (!write || options.async) return handler(c, call);
        return sandbox.db.transaction(() => {
          const result = handler(c, call);
          if (result instanceof Promise) throw new Error(`${method} ${path} is async: mark it { async: true }`);
          return result;
        })();
      };
      return options.waitFor ? options.waitFor(call).then(run) : run();
    });
  };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
}

export type Router = ReturnType<typeof router>;

/** A path parameter of the matched route (decoded: `%2F` is `/`). */
export function pathParam(c: Context<AppEnv>, name: string): string {
  return c.req.param(name) ?? '';
}
