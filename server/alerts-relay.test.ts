import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app.ts';
import { isAlertPath } from './alerts-relay.ts';

interface Seen {
  url: string;
  method: string;
  authorization: string | null;
  contentType: string | null;
  cookie: string | null;
  privateToken: string | null;
  body: string;
}

const sandboxSeen: Seen[] = [];
async function record(into: Seen[], request: Request): Promise<void> {
  into.push({
    url: request.url,
    method: request.method,
    authorization: request.headers.get('authorization'),
    contentType: request.headers.get('content-type'),
    cookie: request.headers.get('cookie'),
    privateToken: request.headers.get('private-token'),
    body: await request.text(),
  });
}

const sandboxApp = createServerApp({
  alertsRelayLimitBytes: 1000,
  sandboxFetch: async (request) => {
    await record(sandboxSeen, request);
    if (request.headers.get('authorization') !== 'Bearer right-key') return Response.json({ message: '401 Unauthorized' }, { status: 401 });
    return Response.json([{ iid: 7, title: 'Disk full' }]);
  },
});

const relay = (app: ReturnType<typeof createServerApp>, alertPath: string | null, body: string, headers: Record<string, string> = {}) =>
  app.request('http://console.test/-/alerts-relay', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(alertPath === null ? {} : { 'X-Alert-Path': alertPath }), ...headers },
    body,
  });

describe('isAlertPath', () => {
  it('takes the three alert endpoints of a project path, nested groups too', () => {
    expect(isAlertPath('/group/project/alerts/notify.json')).toBe(true);
    expect(isAlertPath('/group/sub.group/my_project/alerts/notify/my-endpoint/a1b2c3.json')).toBe(true);
    expect(isAlertPath('/group/project/prometheus/alerts/notify.json')).toBe(true);
  });

  it('refuses anything else: the API, other routes, dot segments, queries, encodings, a lone project name', () => {
    for (const path of [
      '/api/v4/projects',
      '/api/graphql',
      '/group/project/alerts/notify.json?private_token=x',
      '/group/project/-/alerts/notify.json',
      '/group/../admin/alerts/notify.json',
      '/group/./project/alerts/notify.json',
      '/group%2Fproject/alerts/notify.json',
      '/project/alerts/notify.json',
      '/group/project.git/alerts/notify.json',
      '/group/project/alerts/notify/name/id',
      '/group/project/alerts/notify/na/me/id.json',
      '//evil.example/group/project/alerts/notify.json',
      'http://evil.example/group/project/alerts/notify.json',
      '/group/project/alerts/notify.json/../../../api/v4/user',
      '',
    ]) {
      expect(isAlertPath(path), path).toBe(false);
    }
  });
});

describe('the alert relay, sandbox mounted', () => {
  it('forwards the payload and the key to the alert path and answers with the instance status and body', async () => {
    const payload = JSON.stringify({ title: 'Disk full', fingerprint: 'abc' });
    const answer = await relay(sandboxApp, '/group/project/alerts/notify/http/abc123.json', payload, { Authorization: 'Bearer right-key', Cookie: 'session=1', 'PRIVATE-TOKEN': 'glpat-x' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 200, contentType: 'application/json', body: [{ iid: 7, title: 'Disk full' }] });
    expect(sandboxSeen.at(-1)).toMatchObject({
      url: 'http://console.test/group/project/alerts/notify/http/abc123.json',
      method: 'POST',
      authorization: 'Bearer right-key',
      contentType: 'application/json',
      // nothing of the console's own session goes along
      cookie: null,
      privateToken: null,
      body: payload,
    });
  });

  it("relays the instance's refusal as data, so the tester shows it", async () => {
    const answer = await relay(sandboxApp, '/group/project/alerts/notify.json', '{}', { Authorization: 'Bearer wrong' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ status: 401, contentType: 'application/json', body: { message: '401 Unauthorized' } });
  });

  it('passes Basic auth through and refuses other schemes', async () => {
    const basic = `Basic ${Buffer.from(':right-key').toString('base64')}`;
    await relay(sandboxApp, '/group/project/prometheus/alerts/notify.json', '{}', { Authorization: basic });
    expect(sandboxSeen.at(-1)?.authorization).toBe(basic);
    const count = sandboxSeen.length;
    const answer = await relay(sandboxApp, '/group/project/alerts/notify.json', '{}', { Authorization: 'Token right-key' });
    expect(answer.status).toBe(400);
    expect(sandboxSeen.length).toBe(count);
  });

  it('answers 400 for a path that is not an alert endpoint, and forwards nothing', async () => {
    const count = sandboxSeen.length;
    for (const path of [null, '/api/v4/user', '/group/project/alerts/notify.json?x=1']) {
      const answer = await relay(sandboxApp, path, '{}', { Authorization: 'Bearer right-key' });
      expect(answer.status, String(path)).toBe(400);
      expect((await answer.json()) as { message: string }).toMatchObject({ message: expect.stringContaining('alert endpoints') });
    }
    expect(sandboxSeen.length).toBe(count);
  });

  it('answers 413 above its size limit, declared or streamed, and forwards nothing', async () => {
    const count = sandboxSeen.length;
    const big = JSON.stringify({ title: 'x'.repeat(2000) });
    expect((await relay(sandboxApp, '/group/project/alerts/notify.json', big)).status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let index = 0; index < 5; index += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(300)));
        controller.close();
      },
    });
    const streamed = await sandboxApp.request('http://console.test/-/alerts-relay', {
      method: 'POST',
      headers: { 'X-Alert-Path': '/group/project/alerts/notify.json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(sandboxSeen.length).toBe(count);
  });

  it("passes a monitoring tool's POST to an alert path of this origin straight to the sandbox, and nothing else", async () => {
    const answer = await sandboxApp.request('http://console.test/group/project/alerts/notify.json', { method: 'POST', headers: { Authorization: 'Bearer right-key' }, body: '{}' });
    expect(await answer.json()).toEqual([{ iid: 7, title: 'Disk full' }]);
    expect(sandboxSeen.at(-1)?.url).toBe('http://console.test/group/project/alerts/notify.json');
    const count = sandboxSeen.length;
    expect((await sandboxApp.request('http://console.test/group/project/issues', { method: 'POST', body: '{}' })).status).toBe(404);
    expect(sandboxSeen.length).toBe(count);
  });

  it('takes POST only', async () => {
    const answer = await sandboxApp.request('http://console.test/-/alerts-relay', { headers: { 'X-Alert-Path': '/group/project/alerts/notify.json' } });
    expect(answer.status).toBe(405);
  });
});

describe('the alert relay with --target', () => {
  let upstream: ServerType;
  let upstreamOrigin = '';
  const seen: Seen[] = [];

  beforeAll(async () => {
    const instance = new Hono();
    instance.all('*', async (c) => {
      await record(seen, c.req.raw);
      return c.json({ message: 'from the instance' }, 422);
    });
    await new Promise<void>((resolve) => {
      upstream = serve({ fetch: instance.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
        upstreamOrigin = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it("forwards to the target's alert path under its prefix, with the key and nothing else of the caller", async () => {
    const app = createServerApp({ target: `${upstreamOrigin}/gitlab/` });
    const answer = await relay(app, '/group/project/prometheus/alerts/notify.json', '{"alerts":[]}', { Authorization: 'Bearer k', Cookie: 'a=b' });
    expect(await answer.json()).toEqual({ status: 422, contentType: 'application/json', body: { message: 'from the instance' } });
    expect(seen.at(-1)).toMatchObject({ url: `${upstreamOrigin}/gitlab/group/project/prometheus/alerts/notify.json`, authorization: 'Bearer k', cookie: null, body: '{"alerts":[]}' });
  });

  it('answers 502 when the target does not answer', async () => {
    const app = createServerApp({ target: 'http://127.0.0.1:9' });
    const answer = await relay(app, '/group/project/alerts/notify.json', '{}');
    expect(answer.status).toBe(502);
  });
});
