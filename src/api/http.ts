import * as z from 'zod/mini';
import { ApiError, describeErrorBody } from './errors.ts';
import { apiBase, encodeQuery, type QueryParams } from './params.ts';
import { toKeysetPage, toPage, type KeysetPage, type Page } from './pagination.ts';
import { rateLimitStore } from './rate-limit.ts';
import { asking, jsonGetHeaders } from './early.ts';
import { GRAPHQL_PATH } from './graphql-reads.ts';

/** Where requests go and who makes them. The token lives here and nowhere else. */
export interface Connection {
  /** The instance origin, e.g. `https://gitlab.example.com` (the API is under `/api/v4`). */
  instanceUrl: string;
  token: string | null;
  /** Called on any 401, so the app can return to the connect screen. */
  onUnauthorized?: (error: ApiError) => void;
}

export interface RequestOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: QueryParams;
  /** Sent as JSON with `Content-Type: application/json`. */
  body?: unknown;
  signal?: AbortSignal;
  /** Milliseconds before the request is abandoned with a timeout error. */
  timeoutMs?: number;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      if (response.ok) throw new ApiError(response.status, 'The server sent a response that is not valid JSON.', 'parse');
      return text;
    }
  }
  return text;
}

/** A GraphQL query (not a mutation): a read, which may have been sent early. */
function isGraphqlQuery(url: string, body: unknown): boolean {
  const query = (body as { query?: unknown } | undefined)?.query;
  return new URL(url, 'http://relative.invalid').pathname.endsWith(GRAPHQL_PATH) && typeof query === 'string' && /^\s*query\b/.test(query);
}

/** `response`, or a rejection as soon as `signal` aborts (an early request is not the caller's to abort). */
function untilAborted(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    response.then(resolve, reject);
  });
}

/** Raw call: resolves with the parsed JSON (unvalidated) or rejects with an ApiError. */
export function send(connection: Connection, path: string, options: RequestOptions = {}): Promise<ApiResponse<unknown>> {
  const query = encodeQuery(options.query);
  return sendTo(connection, `${apiBase(connection)}${path}${query ? `${path.includes('?') ? '&' : '?'}${query}` : ''}`, options);
}

/** `send` to a full URL of the instance outside `/api/v4` (`/api/graphql`): the same auth, errors and limits. */
export async function sendTo(connection: Connection, url: string, options: Omit<RequestOptions, 'query'> = {}): Promise<ApiResponse<unknown>> {
  const method = options.method ?? 'GET';
  const headers = jsonGetHeaders(connection.token);
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const controller = new AbortController();
  const abortFromCaller = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abortFromCaller, { once: true });
  let timedOut = false;
  const timer = options.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeoutMs)
    : undefined;
  let response: Response;
  // a plain GET or a GraphQL query may have gone out already, before this code was there (api/early.ts)
  // until it is answered, a pressed link's early request for the same would ask twice
  const asked = !connection.token ? null : method === 'GET' && body === undefined ? asking(url, connection.token) : method === 'POST' && isGraphqlQuery(url, options.body) ? asking(url, connection.token, undefined, body) : null;
  try {
    response = await (asked?.early ? untilAborted(asked.early, controller.signal) : fetch(url, { method, headers, body, signal: controller.signal }));
  } catch {
    asked?.done(false);
    if (timedOut) throw new ApiError(0, `The instance did not answer within ${Math.round(options.timeoutMs! / 1000)} s.`, 'timeout');
    if (options.signal?.aborted) throw new ApiError(0, 'The request was cancelled.', 'aborted');
    // the URL carries no token, but keep even the host out of the message shown in error reports
    throw new ApiError(0, 'The instance could not be reached. Check the address and your network.', 'network');
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener('abort', abortFromCaller);
  }
  rateLimitStore.record(response.headers);
  let data: unknown;
  try {
    if (method === 'HEAD') {
      // a HEAD answer's body is always empty, but a fetch that leaves it unread is cancelled (logged as aborted)
      await response.arrayBuffer();
      data = null;
    } else {
      data = await readBody(response);
    }
  } catch (error) {
    asked?.done(false);
    if (error instanceof ApiError) throw error;
    throw new ApiError(response.status, 'The connection broke while the answer was arriving.', 'network');
  }
  asked?.done(response.ok);
  if (!response.ok) {
    const retryAfterHeader = Number(response.headers.get('retry-after') ?? NaN);
    const retryAfter = Number.isFinite(retryAfterHeader) && retryAfterHeader >= 0 ? retryAfterHeader : undefined;
    // the platform's throttle answers "Retry later" in plain text: say who refused and for how long
    const { message, fieldErrors } =
      response.status === 429 ? { message: `Rate limited by the instance: try again ${retryAfter === undefined ? 'shortly' : `in ${retryAfter} s`}.`, fieldErrors: undefined } : describeErrorBody(data, response.status);
    const error = new ApiError(response.status, message, 'http', fieldErrors, retryAfter, data);
    if (response.status === 401) connection.onUnauthorized?.(error);
    throw error;
  }
  return { data, status: response.status, headers: response.headers };
}

/**
 * A GET whose answer is not JSON (raw files, job logs): the response itself, for its bytes or
 * text, the token in a header; a failure is an ApiError as with `send`. A log that starts with
 * `{` or `[` stays text.
 */
export async function sendRaw(connection: Connection, path: string, options: Pick<RequestOptions, 'query' | 'signal'> = {}): Promise<Response> {
  const query = encodeQuery(options.query);
  const url = `${apiBase(connection)}${path}${query ? `?${query}` : ''}`;
  const headers: Record<string, string> = {};
  if (connection.token) headers['PRIVATE-TOKEN'] = connection.token;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: options.signal });
  } catch {
    if (options.signal?.aborted) throw new ApiError(0, 'The request was cancelled.', 'aborted');
    throw new ApiError(0, 'The instance could not be reached. Check the address and your network.', 'network');
  }
  rateLimitStore.record(response.headers);
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // a plain-text error stays text
    }
    const error = new ApiError(response.status, describeErrorBody(body, response.status).message);
    if (response.status === 401) connection.onUnauthorized?.(error);
    throw error;
  }
  return response;
}

/** A write the platform answers 304 when there is nothing to change (subscribe twice): false then, not an error. */
export async function sendUnlessUnchanged(connection: Connection, path: string, options: RequestOptions = {}): Promise<boolean> {
  try {
    await send(connection, path, options);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 304) return false;
    throw error;
  }
}

/** Checks a response against its schema; a mismatch is a readable error, never a crash. */
export function parseWith<S extends z.ZodMiniType>(schema: S, data: unknown, what: string): z.infer<S> {
  const result = z.safeParse(schema, data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new ApiError(200, `The server's answer for ${what} was not in the expected form${where}: ${issue.message}.`, 'parse');
}

/** One call, one schema: the typed result. */
export async function request<S extends z.ZodMiniType>(connection: Connection, path: string, schema: S, options: RequestOptions = {}): Promise<z.infer<S>> {
  const response = await send(connection, path, options);
  return parseWith(schema, response.data, `${options.method ?? 'GET'} ${path}`);
}

/** An offset list page: items parsed one schema each, totals from the headers when present. */
export async function requestPage<S extends z.ZodMiniType>(
  connection: Connection,
  path: string,
  itemSchema: S,
  options: RequestOptions & { query?: QueryParams & { page?: number; per_page?: number } } = {},
): Promise<Page<z.infer<S>>> {
  const response = await send(connection, path, options);
  if (!Array.isArray(response.data)) throw new ApiError(response.status, `The server's answer for GET ${path} was not a list.`, 'parse');
  const items = response.data.map((item, index) => parseWith(itemSchema, item, `item ${index + 1} of GET ${path}`));
  return toPage(items, response.headers, { page: Number(options.query?.page ?? 1), perPage: Number(options.query?.per_page ?? 20) });
}

/** Every page of an offset list, a hundred at a time (the platform's largest page), one after another (totals may be missing), to an empty or last page. */
export async function requestAllPages<S extends z.ZodMiniType>(connection: Connection, path: string, itemSchema: S, options: Pick<RequestOptions, 'signal'> & { query?: QueryParams } = {}): Promise<Array<z.infer<S>>> {
  const items: Array<z.infer<S>> = [];
  for (let page: number | undefined = 1; page !== undefined; ) {
    const answer: Page<z.infer<S>> = await requestPage(connection, path, itemSchema, { ...options, query: { ...options.query, page, per_page: 100 } });
    items.push(...answer.items);
    page = answer.items.length ? answer.nextPage : undefined;
  }
  return items;
}

/** The ids of every item of an offset list (requestAllPages): what a screen checks an item against. */
export async function requestAllIds(connection: Connection, path: string, itemSchema: z.ZodMiniType<{ id: number }>, options: Pick<RequestOptions, 'signal'> & { query?: QueryParams } = {}): Promise<Set<number>> {
  return new Set((await requestAllPages(connection, path, itemSchema, options)).map((item) => item.id));
}

/** A keyset page: follow `nextUrl` (an absolute URL from the Link header) for the next one. */
export async function requestKeysetPage<S extends z.ZodMiniType>(
  connection: Connection,
  pathOrNextUrl: string,
  itemSchema: S,
  options: RequestOptions = {},
): Promise<KeysetPage<z.infer<S>>> {
  const base = apiBase(connection);
  let path = pathOrNextUrl;
  if (/^https?:\/\//.test(pathOrNextUrl)) {
    const next = new URL(pathOrNextUrl);
    // follow only links into the same API, keeping the token on its own instance
    const api = new URL(base);
    if (next.origin !== api.origin || !next.pathname.startsWith(api.pathname)) throw new ApiError(0, 'The next-page link points outside this instance.', 'parse');
    path = next.pathname.slice(api.pathname.length) + next.search;
  }
  const response = await send(connection, path, { ...options, query: /^https?:/.test(pathOrNextUrl) ? undefined : options.query });
  if (!Array.isArray(response.data)) throw new ApiError(response.status, `The server's answer for GET ${path} was not a list.`, 'parse');
  const items = response.data.map((item, index) => parseWith(itemSchema, item, `item ${index + 1} of GET ${path}`));
  return toKeysetPage(items, response.headers);
}
