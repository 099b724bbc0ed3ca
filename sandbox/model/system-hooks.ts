import http from 'node:http';
import https from 'node:https';
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../context.ts';
import type { Db } from '../db.ts';

export const BRANCH_FILTER_STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** `{key}` placeholders in a hook URL (WebHooks::Hook::VARIABLE_REFERENCE_RE). */
const VARIABLE_REFERENCE = /\{([A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*)\}/g;
/** The URL variables schema: at most 20, keys like `token` or `api.key`, values of 1 to 2048 characters. */
const URL_VARIABLE_KEY = /^[A-Za-z]+[0-9]*(?:[._-][A-Za-z0-9]+)*$/;
export const URL_VARIABLES_MAX = 20;
export const URL_VARIABLE_VALUE_MAX = 2048;
const BRANCH_FILTER_MAX = 4000;

/** Deliveries kept per hook; older ones are dropped. */
export const DELIVERIES_KEPT = 50;
/** The platform's `gitlab.webhook_timeout` default. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;
const DELIVERY_CONCURRENCY = 8;
// the platform keeps 8 KB of a receiver's answer, for display only
const RESPONSE_BODY_LIMIT = 8 * 1024;
const RESPONSE_READ_LIMIT = 1024 * 1024;
const USER_AGENT = 'GitLab/17.8.0-ee';
const REDACTED = '[REDACTED]';

export interface SystemHookRow {
  id: number;
  url: string;
  name: string;
  description: string;
  token: string | null;
  push_events: number;
  tag_push_events: number;
  merge_requests_events: number;
  repository_update_events: number;
  enable_ssl_verification: number;
  push_events_branch_filter: string | null;
  branch_filter_strategy: BranchFilterStrategy;
  url_variables: string;
  created_at: string;
  updated_at: string;
}

export const urlVariablesOf = (hook: Pick<SystemHookRow, 'url_variables'>) => JSON.parse(hook.url_variables) as Record<string, string>;

/** The platform's hook entity (spec 1, 2.4): URL variables by key only, the secret token never. */
export function systemHookEntity(hook: SystemHookRow) {
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.created_at,
    push_events: Boolean(hook.push_events),
    tag_push_events: Boolean(hook.tag_push_events),
    merge_requests_events: Boolean(hook.merge_requests_events),
    repository_update_events: Boolean(hook.repository_update_events),
    enable_ssl_verification: Boolean(hook.enable_ssl_verification),
    organization_id: 1,
    alert_status: 'executable',
    disabled_until: null,
    url_variables: Object.keys(urlVariablesOf(hook)).map((key) => ({ key })),
    push_events_branch_filter: hook.push_events_branch_filter,
    branch_filter_strategy: hook.branch_filter_strategy,
  };
}

export function findSystemHook(db: Db, id: number): SystemHookRow | undefined {
  return db.prepare('SELECT * FROM system_hooks WHERE id = ?').get(id) as SystemHookRow | undefined;
}

export function urlVariablesValid(variables: Record<string, unknown>): boolean {
  const entries = Object.entries(variables);
  return entries.length <= URL_VARIABLES_MAX && entries.every(
    ([key, value]) => URL_VARIABLE_KEY.test(key) && typeof value === 'string' && value.length >= 1 && value.length <= URL_VARIABLE_VALUE_MAX,
  );
}

/** Placeholders of the URL that no variable fills. */
export function missingUrlVariables(url: string, variables: Record<string, string>): string[] {
  return [...new Set([...url.matchAll(VARIABLE_REFERENCE)].map((match) => match[1]))].filter((key) => !Object.hasOwn(variables, key));
}

/** The URL the hook is called at: every `{key}` replaced by its variable's value (as given, not encoded). */
export function interpolatedUrl(url: string, variables: Record<string, string>): string {
  return url.replace(VARIABLE_REFERENCE, (placeholder, key: string) => (Object.hasOwn(variables, key) ? variables[key] : placeholder));
}

/** A system hook URL must be http(s) once its variables are filled in; local addresses are allowed (the platform's default). */
export function hookUrlValid(url: string, variables: Record<string, string>): boolean {
  if (!url.trim() || missingUrlVariables(url, variables).length) return false;
  try {
    const parsed = new URL(interpolatedUrl(url, variables));
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}

/** Git's ref-name rules (GitRefValidator), with `*` standing for any text. */
function validWildcardFilter(filter: string): boolean {
  const ref = filter.replaceAll('*', 'x');
  if (filter.length > BRANCH_FILTER_MAX) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?[\\]/.test(ref)) return false;
  if (ref.startsWith('-') || ref.startsWith('/') || ref.endsWith('/') || ref.endsWith('.') || ref.endsWith('.lock')) return false;
  if (ref.includes('..') || ref.includes('//') || ref.includes('@{') || ref === '@') return false;
  return ref.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

export function branchFilterValid(strategy: BranchFilterStrategy, filter: string | null): boolean {
  if (filter === null || filter === '' || strategy === 'all_branches') return true;
  if (strategy === 'regex') {
    try {
      new RegExp(filter);
      return filter.length <= BRANCH_FILTER_MAX;
    } catch {
      return false;
    }
  }
  return validWildcardFilter(filter);
}

/** ActiveHookFilter: whether a push to `ref` reaches the hook. Other events are never filtered. */
export function pushMatchesBranchFilter(hook: Pick<SystemHookRow, 'push_events_branch_filter' | 'branch_filter_strategy'>, ref: unknown): boolean {
  const filter = hook.push_events_branch_filter;
  if (!filter || hook.branch_filter_strategy === 'all_branches') return true;
  const branch = typeof ref === 'string' && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
  if (branch === null) return false;
  if (hook.branch_filter_strategy === 'regex') {
    try {
      return new RegExp(filter).test(branch);
    } catch {
      return false;
    }
  }
  if (!filter.includes('*')) return filter === branch;
  const pattern = filter.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?');
  return new RegExp(`^${pattern}$`).test(branch);
}

// -- delivery

/** Events a system hook can subscribe to, plus `system` for the events every hook receives (and the test). */
export type SystemEventKind = 'push' | 'tag_push' | 'merge_request' | 'repository_update' | 'system';

/** One event to deliver: its kind and the JSON payload posted to each hook (a push carries `ref`). */
export interface SystemEvent {
  kind: SystemEventKind;
  data: Record<string, unknown>;
}

const EVENT_FLAG: Record<SystemEventKind, keyof SystemHookRow | null> = {
  push: 'push_events',
  tag_push: 'tag_push_events',
  merge_request: 'merge_requests_events',
  repository_update: 'repository_update_events',
  system: null,
};
// the platform's hook scope names, which its delivery log calls the trigger
const TRIGGER: Record<SystemEventKind, string> = {
  push: 'push_hooks',
  tag_push: 'tag_push_hooks',
  merge_request: 'merge_request_hooks',
  repository_update: 'repository_update_hooks',
  system: 'system_hooks',
};

/** The test payload of `POST /hooks/:hook_id` (lib/api/system_hooks.rb), answered back as it is. */
export const TEST_HOOK_DATA = {
  event_name: 'project_create',
  name: 'Ruby',
  path: 'ruby',
  project_id: 1,
  owner_name: 'Someone',
  owner_email: 'example@gitlabhq.com',
} as const;

export interface DeliveryOutcome {
  hookId: number;
  trigger: string;
  responseStatus: string;
  durationSeconds: number;
  error: string | null;
}

/** The background deliveries of one sandbox: a bounded number at once, each with a timeout. */
export class DeliveryQueue {
  timeoutMs = DEFAULT_DELIVERY_TIMEOUT_MS;
  private running = 0;
  private waiting: Array<() => void> = [];
  private inFlight = new Set<Promise<unknown>>();

  /** Runs `task` after the current request has finished, never more than a few at a time. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.acquire())
      .then(task)
      .finally(() => this.release());
    this.inFlight.add(job);
    const forget = () => this.inFlight.delete(job);
    job.then(forget, forget);
    return job;
  }

  /** Resolves once every delivery queued so far (and any they queue) has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private acquire(): Promise<void> {
    if (this.running < DELIVERY_CONCURRENCY) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => {
      this.running++;
      resolve();
    }));
  }

  private release(): void {
    this.running--;
    this.waiting.shift()?.();
  }
}

const queues = new WeakMap<Sandbox, DeliveryQueue>();

export function deliveryQueue(sandbox: Sandbox): DeliveryQueue {
  let queue = queues.get(sandbox);
  if (!queue) {
    queue = new DeliveryQueue();
    queues.set(sandbox, queue);
  }
  return queue;
}

/**
 * Posts an event to every system hook that subscribed to its kind (push events also through the
 * hook's branch filter), in the background: the call returns at once and never throws, so the
 * request that caused the event is neither slowed down nor failed. Call it once the change is
 * committed. `hookId` sends the event to that hook alone, whatever it subscribed to (the test).
 * The promise resolves with the outcomes, for callers that want to wait (tests).
 */
export function deliverSystemEvent(sandbox: Sandbox, event: SystemEvent, options: { hookId?: number } = {}): Promise<DeliveryOutcome[]> {
  let hooks: SystemHookRow[];
  try {
    hooks = options.hookId !== undefined
      ? (sandbox.db.prepare('SELECT * FROM system_hooks WHERE id = ?').all(options.hookId) as SystemHookRow[])
      : (sandbox.db.prepare('SELECT * FROM system_hooks ORDER BY id').all() as SystemHookRow[]).filter((hook) => {
          const flag = EVENT_FLAG[event.kind];
          if (flag && !hook[flag]) return false;
          return event.kind !== 'push' || pushMatchesBranchFilter(hook, event.data.ref);
        });
  } catch {
    return Promise.resolve([]);
  }
  const queue = deliveryQueue(sandbox);
  // the payload is fixed now: later changes to the caller's object do not leak into the delivery
  const body = JSON.stringify(event.data);
  return Promise.all(hooks.map((hook) => queue.run(() => deliver(sandbox, queue, hook, TRIGGER[event.kind], body))));
}

interface ReceiverAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function post(url: URL, body: string, headers: Record<string, string>, verifyTls: boolean, timeoutMs: number): Promise<ReceiverAnswer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      rejectUnauthorized: verifyTls,
    });
    // the whole exchange, answer included, must fit in the timeout; a receiver stalling mid-answer times out too
    const timeout = new Error(`Request timed out after ${timeoutMs / 1000} seconds`);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(timeout);
    }, timeoutMs);
    timer.unref();
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(timedOut ? timeout : error);
    };
    request.on('error', fail);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= RESPONSE_READ_LIMIT) chunks.push(chunk);
        else response.destroy();
      });
      const finish = () => {
        if (timedOut) return fail(timeout);
        clearTimeout(timer);
        const headersOut: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headersOut[name] = Array.isArray(value) ? value.join(', ') : value;
        resolve({ status: response.statusCode ?? 0, headers: headersOut, body: Buffer.concat(chunks).toString('utf8') });
      };
      response.on('end', finish);
      response.on('close', finish);
      response.on('error', fail);
    });
    request.end(body);
  });
}

/** One delivery to one hook, recorded in the hook's log; never rejects. */
async function deliver(sandbox: Sandbox, queue: DeliveryQueue, hook: SystemHookRow, trigger: string, body: string): Promise<DeliveryOutcome> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'Idempotency-Key': randomUUID(),
    'X-Gitlab-Event': 'System Hook',
    'X-Gitlab-Webhook-UUID': randomUUID(),
    'X-Gitlab-Instance': sandbox.config.externalUrl,
    'X-Gitlab-Event-UUID': randomUUID(),
  };
  if (hook.token) headers['X-Gitlab-Token'] = hook.token.replace(/[\r\n]/g, '');
  const started = performance.now();
  let answer: ReceiverAnswer | null = null;
  let error: string | null = null;
  try {
    const variables = urlVariablesOf(hook);
    const missing = missingUrlVariables(hook.url, variables);
    if (missing.length) throw new Error(`Invalid URL template. Missing key ${missing[0]}`);
    const url = new URL(interpolatedUrl(hook.url, variables));
    // credentials in the URL travel as basic auth, as the platform sends them
    if (url.username || url.password) {
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      headers.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    answer = await post(url, body, headers, Boolean(hook.enable_ssl_verification), queue.timeoutMs);
  } catch (failure) {
    error = failure instanceof Error ? failure.message : String(failure);
  }
  const durationSeconds = (performance.now() - started) / 1000;
  const responseStatus = answer ? String(answer.status) : 'internal error';
  const loggedHeaders = { ...headers };
  if (loggedHeaders['X-Gitlab-Token']) loggedHeaders['X-Gitlab-Token'] = REDACTED;
  if (loggedHeaders.Authorization) loggedHeaders.Authorization = REDACTED;
  recordDelivery(sandbox, hook.id, {
    trigger,
    url: hook.url,
    requestHeaders: loggedHeaders,
    requestData: body,
    responseStatus,
    responseHeaders: answer?.headers ?? {},
    responseBody: answer ? Buffer.from(answer.body).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8') : '',
    durationSeconds,
    error,
  });
  return { hookId: hook.id, trigger, responseStatus, durationSeconds, error };
}

function recordDelivery(
  sandbox: Sandbox,
  hookId: number,
  entry: { trigger: string; url: string; requestHeaders: object; requestData: string; responseStatus: string; responseHeaders: object; responseBody: string; durationSeconds: number; error: string | null },
): void {
  const { db } = sandbox;
  try {
    db.transaction(() => {
      // the hook may have been deleted while its delivery was on the way
      if (!db.prepare('SELECT 1 FROM system_hooks WHERE id = ?').get(hookId)) return;
      db.prepare(
        `INSERT INTO system_hook_deliveries (hook_id, trigger, url, request_headers, request_data, response_status, response_headers,
           response_body, execution_duration, internal_error_message, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        hookId, entry.trigger, entry.url, JSON.stringify(entry.requestHeaders), entry.requestData, entry.responseStatus,
        JSON.stringify(entry.responseHeaders), entry.responseBody, entry.durationSeconds, entry.error, sandbox.now().toISOString(),
      );
      db.prepare(
        `DELETE FROM system_hook_deliveries WHERE hook_id = ? AND id NOT IN
           (SELECT id FROM system_hook_deliveries WHERE hook_id = ? ORDER BY id DESC LIMIT ?)`,
      ).run(hookId, hookId, DELIVERIES_KEPT);
    })();
  } catch {
    // a closed store (the sandbox shutting down) has nowhere to keep the result
  }
}

export interface DeliveryRow {
  id: number;
  hook_id: number;
  trigger: string;
  url: string;
  request_headers: string;
  request_data: string;
  response_status: string;
  response_headers: string;
  response_body: string;
  execution_duration: number;
  internal_error_message: string | null;
  created_at: string;
}

/** A delivery as the log shows it, shaped like the platform's WebHookLog entity. */
export function deliveryEntity(row: DeliveryRow) {
  let requestData: unknown = row.request_data;
  try {
    requestData = JSON.parse(row.request_data);
  } catch {
    // kept as text
  }
  return {
    id: row.id,
    hook_id: row.hook_id,
    trigger: row.trigger,
    url: row.url,
    request_headers: JSON.parse(row.request_headers) as Record<string, string>,
    request_data: requestData,
    response_status: row.response_status,
    response_headers: JSON.parse(row.response_headers) as Record<string, string>,
    response_body: row.response_body,
    execution_duration: row.execution_duration,
    internal_error_message: row.internal_error_message,
    created_at: row.created_at,
  };
}
