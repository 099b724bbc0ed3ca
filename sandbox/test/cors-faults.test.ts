import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import { startSandbox, type RunningSandbox } from '../server.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const EXPOSED = ['Link', 'X-Total', 'X-Total-Pages', 'X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page', 'X-Request-Id', 'ETag'];
const FAULTS = '/-/sandbox/faults';

let user: ApiUser;
beforeAll(async () => {
  user = await apiUser(h);
});

const listOf = (value: string | null) => (value ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);

function expectCorsHeaders(answer: Answer, what: string) {
  expect(answer.headers.get('access-control-allow-origin'), what).toBe('*');
  const exposed = listOf(answer.headers.get('access-control-expose-headers'));
  for (const name of EXPOSED) expect(exposed, `${what}: ${name}`).toContain(name.toLowerCase());
}

describe('CORS', () => {
  it('answers a preflight from any origin with 204, echoing the requested headers', async () => {
    for (const origin of ['https://console.example.com', 'http://localhost:5173', 'null']) {
      const answer = await h.call('OPTIONS', '/projects/1/share', {
        token: null,
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'PUT',
          'Access-Control-Request-Headers': 'PRIVATE-TOKEN, Content-Type, X-Console-Trace, If-None-Match',
        },
      });
      expect(answer.status, origin).toBe(204);
      expect(answer.text).toBe('');
      expectCorsHeaders(answer, origin);
      expect(listOf(answer.headers.get('access-control-allow-headers'))).toEqual(['private-token', 'content-type', 'x-console-trace', 'if-none-match']);
      expect(listOf(answer.headers.get('access-control-allow-methods'))).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']));
    }
  });

  it('answers a preflight for any path under /api/v4 without authentication', async () => {
    const answer = await h.call('OPTIONS', '/no/such/route', {
      token: null,
      headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    expect(answer.status).toBe(204);
    expect(listOf(answer.headers.get('access-control-allow-headers'))).toEqual(['authorization']);
  });

  it('puts allow-origin and expose-headers on normal answers, errors included', async () => {
    const origin = { Origin: 'https://console.example.com' };
    expectCorsHeaders(await h.get('/users', { headers: origin }), '200');
    expectCorsHeaders(await h.get('/user', { token: null, headers: origin }), '401');
    expectCorsHeaders(await h.get('/user', { token: 'glpat-unknown', headers: origin }), '401 unknown token');
    expectCorsHeaders(await h.get('/no-such-route', { headers: origin }), '404');
    expectCorsHeaders(await h.post('/groups', {}, { headers: origin }), '400');
    expectCorsHeaders(await h.get(`/projects?search=${'x'.repeat(9000)}`, { headers: origin }), '414');
  });

  it('sends an X-Request-Id on every answer', async () => {
    const first = await h.get('/user');
    const second = await h.get('/user');
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });
});

describe('fault injection controls', () => {
  afterEach(async () => {
    await h.delete(FAULTS);
  });

  it('is for administrators only: 401 anonymous, 403 others', async () => {
    const anonymous = await h.get(FAULTS, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
    const normal = await h.get(FAULTS, { token: user.token });
    expect(normal.status).toBe(403);
    expect(normal.body).toEqual({ message: '403 Forbidden' });
    const write = await h.post(FAULTS, { path: '/api/v4/*', error_rate: 1 }, { token: user.token });
    expect(write.status).toBe(403);
    expect((await h.get('/user', { token: user.token })).status).toBe(200);
    const list = await h.get(FAULTS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });

  it('answers 400 for an invalid rule', async () => {
    for (const rule of [{}, { path: '' }, { path: '/api/v4/*', error_rate: 2 }, { path: '/api/v4/*', error_status: 200 }, { path: '/api/v4/*', latency_ms: -1 }, { path: '/api/v4/*', surprise: true }, { path: '/api/v4/*', methods: ['FETCH'] }, { path: '/api/v4/*', times: 0 }]) {
      const answer = await h.post(FAULTS, rule);
      expect(answer.status, JSON.stringify(rule)).toBe(400);
      expect(answer.body).toHaveProperty('message');
    }
    const raw = await h.app.request(`http://localhost${FAULTS}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': h.adminToken, 'Content-Type': 'application/json' }, body: '{not json' });
    expect(raw.status).toBe(400);
    expect((await h.get(FAULTS)).body).toEqual([]);
  });

  it('delays only the matching path', async () => {
    const created = await h.post(FAULTS, { path: '/api/v4/version', latency_ms: 300 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), path: '/api/v4/version', latency_ms: 300, matched: 0 });
    let started = Date.now();
    expect((await h.get('/version')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    started = Date.now();
    expect((await h.get('/user')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(250);
    expect((await h.get(FAULTS)).body[0].matched).toBe(1);
    expect((await h.delete(`${FAULTS}/${created.body.id}`)).status).toBe(204);
    started = Date.now();
    await h.get('/version');
    expect(Date.now() - started).toBeLessThan(250);
    expect((await h.delete(`${FAULTS}/${created.body.id}`)).status).toBe(404);
  });

  it('answers the chosen status with error_rate 1, for the listed methods only', async () => {
    await h.post(FAULTS, { path: '/api/v4/projects*', error_rate: 1, error_status: 503 });
    const failed = await h.get('/projects');
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ message: expect.stringContaining('503') });
    expect((await h.get('/user')).status).toBe(200);
    await h.delete(FAULTS);
    await h.post(FAULTS, { path: '/api/v4/groups', methods: ['POST'], error_rate: 1 });
    expect((await h.get('/groups')).status).toBe(200);
    const write = await h.post('/groups', { name: 'Never', path: 'never-made' });
    expect(write.status).toBe(500);
    // the injected failure happened before the handler: nothing was stored
    await h.delete(FAULTS);
    expect((await h.get('/groups/never-made')).status).toBe(404);
  });

  it('answers 429 with Retry-After for rate_limit', async () => {
    await h.post(FAULTS, { path: '/api/v4/users', rate_limit_rate: 1, retry_after_seconds: 7 });
    const answer = await h.get('/users');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.text).toBe('Retry later\n');
    expectCorsHeaders(answer, '429');
  });

  it('expires a rule after `times` matches', async () => {
    await h.post(FAULTS, { path: '/api/v4/user', error_rate: 1, error_status: 502, times: 2 });
    expect((await h.get('/user')).status).toBe(502);
    expect((await h.get('/user')).status).toBe(502);
    expect((await h.get('/user')).status).toBe(200);
    expect((await h.get(FAULTS)).body).toEqual([]);
  });

  it('clears every rule with DELETE', async () => {
    await h.post(FAULTS, { path: '/api/v4/user', error_rate: 1 });
    await h.post(FAULTS, { path: '/api/v4/users', latency_ms: 5000 });
    expect((await h.get(FAULTS)).body).toHaveLength(2);
    const cleared = await h.delete(FAULTS);
    expect(cleared.status).toBe(204);
    expect((await h.get(FAULTS)).body).toEqual([]);
    expect((await h.get('/user')).status).toBe(200);
  });

  it('answers 502 for a dropped connection when there is no socket (in process)', async () => {
    await h.post(FAULTS, { path: '/api/v4/version', drop_rate: 1 });
    expect((await h.get('/version')).status).toBe(502);
  });
});

describe('dropped connections over a real port', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({ port: 0, seed: 'empty', dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-drop-')) });
  });
  afterAll(() => running.close());

  it('makes fetch reject when drop_rate is 1, and only on the matching path', async () => {
    const admin = { 'PRIVATE-TOKEN': running.adminToken };
    const rule = await fetch(`${running.url}${FAULTS}`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: '/api/v4/version', drop_rate: 1 }),
    });
    expect(rule.status).toBe(201);
    await expect(fetch(`${running.apiUrl}/version`, { headers: admin })).rejects.toThrow();
    const other = await fetch(`${running.apiUrl}/user`, { headers: admin });
    expect(other.status).toBe(200);
    expect((await other.json()).username).toBe('root');
    await fetch(`${running.url}${FAULTS}`, { method: 'DELETE', headers: admin });
    expect((await fetch(`${running.apiUrl}/version`, { headers: admin })).status).toBe(200);
  });
});
