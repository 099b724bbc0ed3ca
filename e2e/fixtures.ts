import { randomBytes } from 'node:crypto';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { DEMO_DEAD_TOKENS, DEMO_PATHS, DEMO_TOKENS } from '../sandbox/seed/demo.ts';
import type { LoggedRequest } from '../sandbox/http/request-log.ts';
import { startConsoleServer } from './console-server.ts';
import { ConnectPage } from './pages/connect.ts';
import { Shell } from './pages/shell.ts';

export { expect } from '@playwright/test';
export { DEMO_DEAD_TOKENS, DEMO_PATHS, DEMO_TOKENS };

export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** The sandbox's HTTP API, as the administrator unless a call names another token. */
export interface Api {
  /** Any call; resolves whatever the status, for tests that assert an error. */
  call<T = unknown>(method: string, path: string, options?: { body?: unknown; token?: string }): Promise<ApiAnswer<T>>;
  /** These four throw unless the answer is 2xx (or 304). */
  get<T = unknown>(path: string, options?: { token?: string }): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: { token?: string }): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: { token?: string }): Promise<T>;
  delete(path: string, options?: { token?: string }): Promise<void>;
  /** Runs after the test, newest first, so what a test made is undone in reverse. */
  cleanup(step: () => Promise<unknown>): void;
  /** DELETE `path` after the test; a 404 is fine (the test may have removed it itself). */
  deleteAfter(path: string): void;
  /** A new user with a personal access token; names are unique so re-runs on one server never collide. */
  createUser(options?: { scopes?: string[]; name?: string }): Promise<{ id: number; username: string; name: string; token: string }>;
  /** `GET /groups/:path` or `/projects/:path` id of a demo object, e.g. DEMO_PATHS.bigGroup. */
  groupId(fullPath: string): Promise<number>;
  projectId(fullPath: string): Promise<number>;
  /** A user found by exact username (`GET /users?username=`); throws when there is none. */
  userByUsername(username: string): Promise<{ id: number; name: string }>;
  /** A sandbox fault rule (its test control outside /api/v4), removed after the test; resolves to its removal. */
  injectFault(rule: Record<string, unknown>): Promise<() => Promise<void>>;
  /** The sandbox's request log (its test control): the id of the newest API request, to count from. */
  requestMark(): Promise<number>;
  /** API requests that arrived after `mark`, by method and path glob (`*` any run, e.g. `/api/v4/hooks/*`). */
  requestsSince(mark: number, filter: { method: string; path: string }): Promise<LoggedRequest[]>;
}

/** What a remembered sign-in left in the console's localStorage (the token among it). */
export interface AdminSession {
  origin: string;
  items: Array<[string, string]>;
}

/**
 * Opens every page of `context` signed in as the worker's administrator, as a remembered
 * connection does, without a sign-in per test: an init script is cheaper than a context started
 * from a storage state, which loads the origin once to fill it.
 */
export async function applyAdminSession(context: BrowserContext, session: AdminSession): Promise<void> {
  await context.addInitScript(({ origin, items }) => {
    if (location.origin !== origin) return;
    for (const [name, value] of items) localStorage.setItem(name, value);
  }, session);
}

export type ConnectAs = (page: Page, token: string, options?: { remember?: boolean }) => Promise<void>;

interface WorkerFixtures {
  /** One console server per worker: built console plus a fresh demo sandbox. */
  consoleServer: { baseURL: string; adminToken: string };
  /** Every token secret this worker knows: the admin's, the demo seed's, and those tests created. */
  knownSecrets: Set<string>;
  /** The administrator signed in once per worker through the connect screen: see `applyAdminSession`. */
  adminSession: AdminSession;
}

interface TestFixtures {
  api: Api;
  connectAs: ConnectAs;
  /** Fails the test when a token shows up in a page URL, a request URL or a console message. */
  tokenLeakGuard: void;
  /** Fails the test when the page breaks its Content-Security-Policy or Trusted Types. */
  policyGuard: void;
}

function apiClient(baseURL: string, adminToken: string, knownSecrets: Set<string>) {
  const cleanups: Array<() => Promise<unknown>> = [];
  const call = async <T>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { 'PRIVATE-TOKEN': options.token ?? adminToken, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${baseURL}/api/v4${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // a plain-text answer (the rate limiter's) stays text
    }
    return { status: response.status, headers: response.headers, body: body as T };
  };
  const expectOk = async <T>(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<T> => {
    const answer = await call<T>(method, path, options);
    if ((answer.status < 200 || answer.status > 299) && answer.status !== 304) {
      throw new Error(`${method} /api/v4${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
    }
    return answer.body;
  };
  const requestLog = async (query = new URLSearchParams()) => {
    const answer = await fetch(`${baseURL}/-/sandbox/requests?${query}`, { headers: { 'PRIVATE-TOKEN': adminToken } });
    if (answer.status !== 200) throw new Error(`GET /-/sandbox/requests answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { last: number; requests: LoggedRequest[] };
  };
  const idOf = async (kind: 'groups' | 'projects', fullPath: string) => (await expectOk<{ id: number }>('GET', `/${kind}/${encodeURIComponent(fullPath)}`)).id;
  const api: Api = {
    call,
    get: (path, options) => expectOk('GET', path, options),
    post: (path, body, options) => expectOk('POST', path, { body, token: options?.token }),
    put: (path, body, options) => expectOk('PUT', path, { body, token: options?.token }),
    delete: async (path, options) => void (await expectOk('DELETE', path, options)),
    cleanup: (step) => void cleanups.push(step),
    deleteAfter: (path) =>
      void cleanups.push(async () => {
        const answer = await call('DELETE', path);
        if (answer.status >= 300 && answer.status !== 404) throw new Error(`cleanup DELETE /api/v4${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }),
    async createUser(options = {}) {
      const username = `e2e-${randomBytes(5).toString('hex')}`;
      const name = options.name ?? `E2E ${username.slice(4)}`;
      const user = await expectOk<{ id: number }>('POST', '/users', {
        body: { username, name, email: `${username}@example.com`, password: randomBytes(12).toString('base64url'), skip_confirmation: true },
      });
      const token = await expectOk<{ token: string }>('POST', `/users/${user.id}/personal_access_tokens`, {
        body: { name: 'e2e', scopes: options.scopes ?? ['api'] },
      });
      knownSecrets.add(token.token);
      return { id: user.id, username, name, token: token.token };
    },
    async injectFault(rule) {
      const headers = { 'PRIVATE-TOKEN': adminToken, 'Content-Type': 'application/json' };
      const answer = await fetch(`${baseURL}/-/sandbox/faults`, { method: 'POST', headers, body: JSON.stringify(rule) });
      if (answer.status !== 201) throw new Error(`POST /-/sandbox/faults answered ${answer.status}: ${await answer.text()}`);
      const { id } = (await answer.json()) as { id: number };
      const remove = async () => void (await fetch(`${baseURL}/-/sandbox/faults/${id}`, { method: 'DELETE', headers }));
      cleanups.push(remove);
      return remove;
    },
    requestMark: async () => (await requestLog()).last,
    requestsSince: async (mark, { method, path }) => (await requestLog(new URLSearchParams({ after: String(mark), method, path }))).requests,
    async userByUsername(username) {
      const [user] = await expectOk<Array<{ id: number; name: string }>>('GET', `/users?username=${encodeURIComponent(username)}`);
      if (!user) throw new Error(`no user ${username}`);
      return user;
    },
    groupId: (fullPath) => idOf('groups', fullPath),
    projectId: (fullPath) => idOf('projects', fullPath),
  };
  const runCleanups = async () => {
    const failures: string[] = [];
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    if (failures.length) throw new Error(`cleanup failed:\n${failures.join('\n')}`);
  };
  return { api, runCleanups };
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  consoleServer: [
    async ({}, use) => {
      const server = await startConsoleServer();
      try {
        await use({ baseURL: server.baseURL, adminToken: server.adminToken });
      } finally {
        await server.stop();
      }
    },
    // starting includes seeding the demo instance
    { scope: 'worker', timeout: 90_000 },
  ],

  knownSecrets: [
    async ({ consoleServer }, use) => {
      const demo = [...Object.values(DEMO_TOKENS), ...Object.values(DEMO_DEAD_TOKENS)].map((token) => token.secret);
      await use(new Set([consoleServer.adminToken, ...demo]));
    },
    { scope: 'worker' },
  ],

  adminSession: [
    async ({ browser, consoleServer }, use) => {
      const context = await browser.newContext({ baseURL: consoleServer.baseURL });
      let session: AdminSession;
      try {
        const page = await context.newPage();
        await page.goto('/connect');
        await signIn(page, consoleServer.baseURL, consoleServer.adminToken, true);
        const origin = new URL(consoleServer.baseURL).origin;
        session = { origin, items: await page.evaluate(() => Object.entries(localStorage)) };
      } finally {
        await context.close();
      }
      await use(session);
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  baseURL: async ({ consoleServer }, use) => {
    await use(consoleServer.baseURL);
  },

  api: async ({ consoleServer, knownSecrets }, use) => {
    const { api, runCleanups } = apiClient(consoleServer.baseURL, consoleServer.adminToken, knownSecrets);
    await use(api);
    await runCleanups();
  },

  connectAs: async ({ consoleServer }, use) => {
    await use(async (page, token, options = {}) => {
      // a redirect to /connect (a deep link, an expired session) is completed where it stands
      if (!isConnectUrl(page.url())) await page.goto('/connect');
      await signIn(page, consoleServer.baseURL, token, options.remember ?? false);
    });
  },

  tokenLeakGuard: [
    async ({ context, knownSecrets }, use) => {
      const leaks: string[] = [];
      const check = (where: string, text: string) => {
        // URLs may carry it percent-encoded
        let redacted = text;
        for (const secret of knownSecrets) redacted = redacted.replaceAll(secret, '<token>').replaceAll(encodeURIComponent(secret), '<token>');
        // the report names where it leaked, without printing the token once more
        if (redacted !== text) leaks.push(`${where}: ${redacted}`);
      };
      const watch = (page: Page) => {
        // same-document navigations (the router's pushState) fire this too
        page.on('framenavigated', (frame) => check('page URL', frame.url()));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      context.on('request', (request) => check('request URL', request.url()));
      context.on('console', (message) => check(`console.${message.type()}`, message.text()));
      await use();
      expect(leaks, 'a token must never appear in a URL or a log line').toEqual([]);
    },
    { auto: true },
  ],

  policyGuard: [
    async ({ context }, use) => {
      const violations: string[] = [];
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`policy violation: ${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
        });
      });
      context.on('console', (message) => {
        const text = message.text();
        // connect-src keeps other origins out on purpose (tests connect to unreachable ones): anything else is a defect
        if (message.type() === 'error' && /^policy violation: |Content Security Policy|TrustedHTML|TrustedScript/.test(text) && !/connect-src|Refused to connect/.test(text)) violations.push(text);
      });
      await use();
      expect(violations, 'the console keeps to its Content-Security-Policy and Trusted Types').toEqual([]);
    },
    { auto: true },
  ],
});

/** Fills the connect screen the page shows and waits for the console's shell. */
async function signIn(page: Page, instanceUrl: string, token: string, remember: boolean): Promise<void> {
  const connect = new ConnectPage(page);
  await connect.instanceUrl.fill(instanceUrl);
  await connect.accessToken.fill(token);
  await connect.remember.setChecked(remember);
  await connect.submit.click();
  await expect(new Shell(page).navigationToggle).toBeVisible();
}

function isConnectUrl(url: string): boolean {
  try {
    return new URL(url).pathname === '/connect';
  } catch {
    return false;
  }
}
