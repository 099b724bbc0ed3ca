import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../app.ts';
import { prepareSandbox } from '../server.ts';
import type { Sandbox } from '../context.ts';
import type { SeedKind } from '../seed/index.ts';
import { Faults } from '../http/faults.ts';
import { newSecret } from '../http/auth.ts';
import { createUser, insertToken } from '../model/users.ts';
import { addDays, timestamp } from '../model/time.ts';

export interface CallOptions {
  token?: string | null;
  /** JSON body (sent with Content-Type: application/json) */
  json?: unknown;
  /** form body (application/x-www-form-urlencoded), already encoded */
  form?: string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** An in-process sandbox on a fresh data directory, driven over HTTP with `app.request()`. */
export function createHarness(options: { seed?: SeedKind; now?: () => Date; rateLimitPerMinute?: number } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-test-'));
  // no throttle unless a test asks: under a frozen clock every request falls in one minute
  // and a cheap password digest: the fuzz tests create a thousand users
  const config = { rateLimitPerMinute: options.rateLimitPerMinute ?? 0, passwordCost: 16 };
  const { sandbox, adminToken } = prepareSandbox({ dataDir, seed: options.seed ?? 'empty', now: options.now, config });
  const faults = new Faults();
  const app = createApp(sandbox, { faults });

  async function call<T = any>(method: string, url: string, options: CallOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? adminToken : options.token;
    if (token) headers['PRIVATE-TOKEN'] = token;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = options.form;
    }
    const target = url.startsWith('http') ? url : `http://localhost${url.startsWith('/-/') ? '' : '/api/v4'}${url}`;
    const response = await app.request(target, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // non-JSON answers (301 text) stay text
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  let counter = 0;
  /** A user with a personal access token (scopes default to api). */
  function user(overrides: { username?: string; isAdmin?: boolean; scopes?: string[]; external?: boolean; state?: string; enterpriseGroupId?: number } = {}) {
    counter++;
    const username = overrides.username ?? `user${counter}_${Math.random().toString(36).slice(2, 7)}`;
    const row = sandbox.db.transaction(() =>
      createUser(sandbox.db, {
        username,
        name: `User ${username}`,
        email: `${username}@example.com`,
        isAdmin: overrides.isAdmin,
        external: overrides.external,
        state: overrides.state,
        enterpriseGroupId: overrides.enterpriseGroupId,
        createdAt: timestamp(sandbox.now()),
      }),
    )();
    const token = newSecret();
    insertToken(sandbox.db, {
      userId: row.id,
      name: 'test',
      secret: token,
      scopes: overrides.scopes ?? ['api'],
      createdAt: timestamp(sandbox.now()),
      expiresAt: addDays(sandbox.now(), 30),
    });
    return { ...row, token };
  }

  return {
    sandbox: sandbox as Sandbox,
    app,
    faults,
    adminToken,
    dataDir,
    call,
    get: <T = any>(url: string, options?: CallOptions) => call<T>('GET', url, options),
    post: <T = any>(url: string, json?: unknown, options?: CallOptions) => call<T>('POST', url, { json, ...options }),
    put: <T = any>(url: string, json?: unknown, options?: CallOptions) => call<T>('PUT', url, { json, ...options }),
    patch: <T = any>(url: string, json?: unknown, options?: CallOptions) => call<T>('PATCH', url, { json, ...options }),
    delete: <T = any>(url: string, options?: CallOptions) => call<T>('DELETE', url, options),
    user,
    close: () => sandbox.db.close(),
  };
}

export type Harness = ReturnType<typeof createHarness>;
