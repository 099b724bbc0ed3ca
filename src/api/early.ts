/**
 * Reads sent before the code that reads them is there: a deep link's first requests go out from
 * the small boot script while the console's code is still downloading, and a pressed link's as the
 * button goes down, before its route's code has run (api/first-requests.ts says which). They are
 * JSON GETs, and GraphQL queries (a POST whose body is the query: the body is part of what is
 * asked). The API client takes such an answer when it asks for the same URL and body with the same
 * token; one nobody takes within KEEP_MS is dropped.
 */

const KEEP_MS = 10_000;
/** The query cache's staleTime (api/query-client.ts takes it from here): a URL answered this recently is shown from the cache, not asked again. */
export const FRESH_MS = 30_000;
/** How long a group's or project's details stay fresh (a screen's title reads them; they rarely change). */
export const DETAIL_FRESH_MS = 5 * 60_000;
/** How long the caller's role in a group or project stays fresh (it decides what a screen offers). */
export const ROLE_FRESH_MS = 60_000;
const ANSWERED_KEPT = 500;

interface Early {
  token: string;
  at: number;
  response: Promise<Response>;
}

interface EarlyStore {
  waiting: Map<string, Early>;
  answered: Map<string, { token: string; at: number }>;
  /** URLs the client is asking for now, and with which token, counted: an early request for one would be the same request twice. */
  inFlight: Map<string, { token: string; count: number }>;
}

// the boot script is built apart from the entry (server/build-plugin.ts), each with its own copy of
// this module: both reach the one store through the page's global object
const STORE = Symbol.for('platform-console.early');
const store = ((globalThis as { [STORE]?: EarlyStore })[STORE] ??= { waiting: new Map(), answered: new Map(), inFlight: new Map() });
const { waiting, answered, inFlight } = store;

/** The same URL whatever the order of its query parameters. */
export function canonicalUrl(url: string): string {
  const parsed = new URL(url, 'http://relative.invalid');
  parsed.searchParams.sort();
  return parsed.href;
}

/** What a read asks: its URL, and a POST's body (a GraphQL query) after it. */
const requestKey = (url: string, body: string | undefined) => (body === undefined ? canonicalUrl(url) : `${canonicalUrl(url)}\n${body}`);

/** What the client sends with a JSON GET (api/http.ts): an early request must be that same request. */
export function jsonGetHeaders(token: string | null): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers['PRIVATE-TOKEN'] = token;
  return headers;
}

/**
 * Sends a JSON GET of `url` now (a POST of `body`, a GraphQL query, when given), unless one is
 * already waiting or the same was answered within `freshMs` (how long the cache shows its answer
 * without asking) for this token. Resolves with the response (for a request that depends on it),
 * or null when nothing was sent.
 */
export function startEarly(url: string, token: string, freshMs = FRESH_MS, now = performance.now(), body?: string): Promise<Response> | null {
  const key = requestKey(url, body);
  const last = answered.get(key);
  if (last && last.token === token && now - last.at < freshMs) return null;
  // a loader already asking (a link's hover preload, before the press) is answered for this screen too
  if (inFlight.get(key)?.token === token) return null;
  const pending = waiting.get(key);
  if (pending && pending.token === token && now - pending.at < KEEP_MS) return pending.response;
  const response = fetch(url, body === undefined ? { headers: jsonGetHeaders(token) } : { method: 'POST', headers: { ...jsonGetHeaders(token), 'Content-Type': 'application/json' }, body });
  // a failure is the taker's to report; one nobody takes must not surface as unhandled
  response.catch(() => undefined);
  waiting.set(key, { token, at: now, response });
  setTimeout(() => {
    if (waiting.get(key)?.response === response) waiting.delete(key);
  }, KEEP_MS);
  return response;
}

/**
 * The client's GET of `url` (or its GraphQL query, `body`) with `token`, from its start to its
 * answer: the early answer to read instead of sending (once), and `done` to call when it is
 * answered. Until then a press sends no early request for it; a 2xx answer counts as fresh for
 * FRESH_MS.
 */
export function asking(url: string, token: string, now = performance.now(), body?: string): { early: Promise<Response> | null; done: (ok: boolean) => void } {
  const key = requestKey(url, body);
  const pending = waiting.get(key);
  waiting.delete(key);
  const early = pending && pending.token === token && now - pending.at < KEEP_MS ? pending.response : null;
  const current = inFlight.get(key);
  inFlight.set(key, current?.token === token ? { token, count: current.count + 1 } : { token, count: 1 });
  let open = true;
  const done = (ok: boolean) => {
    if (!open) return;
    open = false;
    if (ok) {
      answered.delete(key);
      answered.set(key, { token, at: performance.now() });
      if (answered.size > ANSWERED_KEPT) answered.delete(answered.keys().next().value!);
    }
    const entry = inFlight.get(key);
    if (entry?.token !== token) return;
    if (entry.count > 1) inFlight.set(key, { token, count: entry.count - 1 });
    else inFlight.delete(key);
  };
  return { early, done };
}

/** Everything forgotten: another connection must not see this one's answers. */
export function forgetEarly(): void {
  waiting.clear();
  answered.clear();
  inFlight.clear();
}
