import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db.ts';
import { pathParam, type Router } from '../http/route.ts';
import { HttpError, forbidden, notFound, paramError, unauthorized } from '../http/errors.ts';
import { collectParamErrors, type ParamReader, type ParamValue } from '../http/params.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { resolveActor } from '../http/auth.ts';
import {
  BRANCH_FILTER_STRATEGIES, TEST_HOOK_DATA, branchFilterValid, deliverSystemEvent, deliveryEntity, findSystemHook,
  hookUrlValid, missingUrlVariables, systemHookEntity, urlVariablesOf, urlVariablesValid,
  type BranchFilterStrategy, type DeliveryRow, type SystemHookRow,
} from '../model/system-hooks.ts';

export { deliverSystemEvent, deliveryQueue, type SystemEvent, type SystemEventKind } from '../model/system-hooks.ts';

const EVENT_FLAGS = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events', 'enable_ssl_verification'] as const;
type EventFlag = (typeof EVENT_FLAGS)[number];

/** Grape's `error!(message, 422)`: the body carries `error`. */
const unprocessable = (message: string) => new HttpError(422, { error: message });

/** `:hook_id` of a hook route: Grape's Integer coercion answers 400 for anything else. */
function hookIdParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'hook_id');
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError('hook_id is invalid');
  return Number(raw);
}

/** `SystemHook.find`: a miss is ActiveRecord's 404 with a lower-case "found". */
function getHook(db: Db, id: number): SystemHookRow {
  const hook = findSystemHook(db, id);
  if (!hook) throw notFound();
  return hook;
}

interface HookParams {
  url?: string;
  name?: string;
  description?: string;
  token?: string;
  flags: Partial<Record<EventFlag, boolean>>;
  branchFilter?: string;
  strategy?: BranchFilterStrategy;
  urlVariables?: Record<string, string>;
  /** Names of the parameters the request carried (declared_params without the missing ones). */
  given: string[];
}

/** `url_variables[]` of `{key, value}` pairs: a JSON array, `url_variables[][key]=` or `url_variables[0][key]=`. */
function readUrlVariables(params: ParamReader): Record<string, string> | undefined {
  const raw = params.raw.url_variables;
  if (raw === undefined || raw === null) return undefined;
  let items: ParamValue[];
  if (Array.isArray(raw)) items = raw;
  else if (typeof raw === 'object' && Object.keys(raw).every((key) => /^\d+$/.test(key))) items = Object.values(raw);
  else throw paramError('url_variables is invalid');
  const variables: Record<string, string> = {};
  const problems: string[] = [];
  items.forEach((item, index) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      problems.push(`url_variables[${index}] is invalid`);
      return;
    }
    const key = item.key;
    const value = item.value;
    if (key === undefined || key === null) problems.push(`url_variables[${index}][key] is missing`);
    if (value === undefined || value === null) problems.push(`url_variables[${index}][value] is missing`);
    if (typeof key === 'object' && key !== null) problems.push(`url_variables[${index}][key] is invalid`);
    if (typeof value === 'object' && value !== null) problems.push(`url_variables[${index}][value] is invalid`);
    if (key !== undefined && key !== null && value !== undefined && value !== null && typeof key !== 'object' && typeof value !== 'object') {
      variables[String(key)] = String(value);
    }
  });
  if (problems.length) throw paramError(problems.join(', '));
  return variables;
}

function readHookParams(params: ParamReader, options: { requireUrl: boolean }): HookParams {
  const result: HookParams = { flags: {}, given: [] };
  collectParamErrors([
    () => {
      result.url = params.string('url');
      if (options.requireUrl && result.url === undefined) throw paramError('url is missing');
    },
    () => (result.name = params.string('name')),
    () => (result.description = params.string('description')),
    () => (result.token = params.string('token')),
    ...EVENT_FLAGS.map((flag) => () => {
      const value = params.bool(flag);
      if (value !== undefined) result.flags[flag] = value;
    }),
    () => (result.branchFilter = params.string('push_events_branch_filter')),
    () => (result.strategy = params.oneOf('branch_filter_strategy', BRANCH_FILTER_STRATEGIES)),
    () => (result.urlVariables = readUrlVariables(params)),
  ]);
  const names = ['url', 'name', 'description', 'token', ...EVENT_FLAGS, 'push_events_branch_filter', 'branch_filter_strategy', 'url_variables'];
  result.given = names.filter((name) => params.has(name));
  return result;
}

/** The model's checks, in the order the platform reports them (URL first, then the branch filter). */
function validateHook(hook: { url: string; token: string | null; variables: Record<string, string>; strategy: BranchFilterStrategy; branchFilter: string | null }): void {
  if (!hookUrlValid(hook.url, hook.variables)) throw unprocessable('Invalid url given');
  if (!branchFilterValid(hook.strategy, hook.branchFilter)) throw unprocessable('Invalid branch filter given');
  if (!urlVariablesValid(hook.variables)) throw unprocessable('Url variables must be a valid json schema');
  if (hook.token !== null && hook.token.includes('\n')) throw unprocessable('Token is invalid');
}

export function registerSystemHooks(routes: Router): void {
  routes.get('/hooks', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
    const rows = pageOfQuery(c, call.params, {
      count: (cap) => (db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM system_hooks LIMIT ?)').get(cap + 1) as { n: number }).n,
      rows: (limit, offset) => db.prepare('SELECT * FROM system_hooks ORDER BY id LIMIT ? OFFSET ?').all(limit, offset) as SystemHookRow[],
    });
    return c.json(rows.map(systemHookEntity));
  });

  routes.get('/hooks/:hook_id', { auth: 'admin' }, (c, call) => c.json(systemHookEntity(getHook(call.sandbox.db, hookIdParam(c)))));

  routes.post('/hooks', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    const input = readHookParams(call.params, { requireUrl: true });
    const strategy = input.strategy ?? 'wildcard';
    const branchFilter = strategy === 'all_branches' ? null : input.branchFilter ?? null;
    const variables = input.urlVariables ?? {};
    const token = input.token === undefined || input.token === '' ? null : input.token;
    validateHook({ url: input.url!, token, variables, strategy, branchFilter });
    const stamp = call.now.toISOString();
    const flag = (name: EventFlag, fallback: boolean) => ((input.flags[name] ?? fallback) ? 1 : 0);
    const result = db
      .prepare(
        `INSERT INTO system_hooks (url, name, description, token, push_events, tag_push_events, merge_requests_events, repository_update_events,
           enable_ssl_verification, push_events_branch_filter, branch_filter_strategy, url_variables, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.url, input.name ?? '', input.description ?? '', token,
        // a system hook's defaults: repository updates on, the other events off, TLS verified
        flag('push_events', false), flag('tag_push_events', false), flag('merge_requests_events', false),
        flag('repository_update_events', true), flag('enable_ssl_verification', true),
        branchFilter, strategy, JSON.stringify(variables), stamp, stamp,
      );
    return c.json(systemHookEntity(getHook(db, Number(result.lastInsertRowid))), 201);
  });

  routes.put('/hooks/:hook_id', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    const id = hookIdParam(c);
    const input = readHookParams(call.params, { requireUrl: false });
    const hook = getHook(db, id);
    if (input.given.length === 0) throw new HttpError(400, { error: 'No parameters provided' });
    const url = input.url ?? hook.url;
    const urlChanged = url !== hook.url;
    // a new URL must not inherit the secrets meant for the old one (the platform's reset_token)
    let token = hook.token;
    if (input.token !== undefined) token = input.token === '' ? null : input.token;
    else if (urlChanged) token = null;
    let variables = urlVariablesOf(hook);
    if (input.urlVariables) variables = { ...variables, ...input.urlVariables };
    else if (urlChanged) variables = {};
    const strategy = input.strategy ?? hook.branch_filter_strategy;
    const branchFilter = strategy === 'all_branches' ? null : input.branchFilter ?? hook.push_events_branch_filter;
    validateHook({ url, token, variables, strategy, branchFilter });
    const flags = Object.fromEntries(EVENT_FLAGS.map((flag) => [flag, (input.flags[flag] ?? Boolean(hook[flag])) ? 1 : 0]));
    db.prepare(
      `UPDATE system_hooks SET url = ?, name = ?, description = ?, token = ?, push_events = ?, tag_push_events = ?, merge_requests_events = ?,
         repository_update_events = ?, enable_ssl_verification = ?, push_events_branch_filter = ?, branch_filter_strategy = ?, url_variables = ?,
         updated_at = ? WHERE id = ?`,
    ).run(
      url, input.name ?? hook.name, input.description ?? hook.description, token, flags.push_events, flags.tag_push_events,
      flags.merge_requests_events, flags.repository_update_events, flags.enable_ssl_verification, branchFilter, strategy,
      JSON.stringify(variables), call.now.toISOString(), hook.id,
    );
    return c.json(systemHookEntity(getHook(db, hook.id)));
  });

  // test: the platform runs the hook with mock data and answers with that data, whatever the receiver said
  routes.post('/hooks/:hook_id', { auth: 'admin' }, (c, call) => {
    const hook = getHook(call.sandbox.db, hookIdParam(c));
    void deliverSystemEvent(call.sandbox, { kind: 'system', data: { ...TEST_HOOK_DATA } }, { hookId: hook.id });
    return c.json({ ...TEST_HOOK_DATA }, 201);
  });

  routes.delete('/hooks/:hook_id', { auth: 'admin' }, (c, call) => {
    const hook = getHook(call.sandbox.db, hookIdParam(c));
    call.sandbox.db.prepare('DELETE FROM system_hooks WHERE id = ?').run(hook.id);
    return c.body(null, 204);
  });

  routes.put('/hooks/:hook_id/url_variables/:key', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    const id = hookIdParam(c);
    const key = pathParam(c, 'key');
    let value: string | undefined;
    collectParamErrors([
      () => {
        value = call.params.string('value');
        if (value === undefined) throw paramError('value is missing');
      },
    ]);
    const hook = getHook(db, id);
    const variables = { ...urlVariablesOf(hook), [key]: value! };
    if (!urlVariablesValid(variables) || !hookUrlValid(hook.url, variables)) throw unprocessable('Illegal key or value');
    db.prepare('UPDATE system_hooks SET url_variables = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(variables), call.now.toISOString(), hook.id);
    return c.body(null, 204);
  });

  routes.delete('/hooks/:hook_id/url_variables/:key', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    const hook = getHook(db, hookIdParam(c));
    const key = pathParam(c, 'key');
    const variables = urlVariablesOf(hook);
    if (!Object.hasOwn(variables, key)) throw notFound('URL variable');
    delete variables[key];
    // the URL still naming the variable would be left without a value
    if (missingUrlVariables(hook.url, variables).length) throw unprocessable('Could not unset variable');
    db.prepare('UPDATE system_hooks SET url_variables = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(variables), call.now.toISOString(), hook.id);
    return c.body(null, 204);
  });
}

/**
 * GET /-/sandbox/hooks/:hook_id/deliveries (administrators): the last deliveries of a system hook,
 * newest first. The platform's API has no log for system hooks (only for project and group hooks),
 * so this lives with the sandbox's own controls, outside /api/v4.
 */
export function registerSystemHookDeliveries(app: Hono<AppEnv>): void {
  app.use('/-/sandbox/hooks/*', cors({ origin: '*', allowMethods: ['GET', 'OPTIONS'], maxAge: 7200 }));
  app.get('/-/sandbox/hooks/:hook_id/deliveries', (c) => {
    const sandbox = c.get('sandbox');
    const actor = resolveActor(c, sandbox);
    if (!actor.user) throw unauthorized();
    if (!actor.user.is_admin) throw forbidden();
    const hook = getHook(sandbox.db, hookIdParam(c));
    const rows = sandbox.db.prepare('SELECT * FROM system_hook_deliveries WHERE hook_id = ? ORDER BY id DESC').all(hook.id) as DeliveryRow[];
    return c.json(rows.map(deliveryEntity));
  });
}
