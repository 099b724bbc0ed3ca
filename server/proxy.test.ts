import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { Hono } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app.ts';

// an instance behind its own URL prefix that, like one reached over the internet, ignores the
// proxy's X-Forwarded-Host and writes its own origin into absolute links
let upstream: ServerType;
let upstreamOrigin = '';
const seen: Array<{ url: string; token: string | undefined; forwardedHost: string | undefined; body: string }> = [];

beforeAll(async () => {
  const instance = new Hono();
  instance.all('/gitlab/api/v4/*', async (c) => {
    seen.push({ url: c.req.url.slice(upstreamOrigin.length), token: c.req.header('private-token'), forwardedHost: c.req.header('x-forwarded-host'), body: await c.req.text() });
    if (c.req.path === '/gitlab/api/v4/projects/old-path') {
      return c.body(null, 301, { Location: `${upstreamOrigin}/gitlab/api/v4/projects/5` });
    }
    c.header('Link', `<${upstreamOrigin}/gitlab/api/v4/users?cursor=abc&pagination=keyset>; rel="next", <https://elsewhere.example/api/v4/x>; rel="help"`);
    c.header('X-Total', '42');
    const many = Array.from({ length: 100 }, (_, index) => ({ id: index + 1, name: `project ${index + 1}` }));
    if (c.req.path === '/gitlab/api/v4/projects') return c.json(many);
    if (c.req.path === '/gitlab/api/v4/projects/5/repository/files/big.txt/raw') return c.text(JSON.stringify(many));
    return c.json([{ id: 1 }], c.req.method === 'POST' ? 201 : 200);
  });
  instance.post('/gitlab/api/graphql', async (c) => {
    seen.push({ url: c.req.url.slice(upstreamOrigin.length), token: c.req.header('private-token'), forwardedHost: c.req.header('x-forwarded-host'), body: await c.req.text() });
    return c.json({ data: { project: null } });
  });
  await new Promise<void>((resolve) => {
    upstream = serve({ fetch: instance.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      upstreamOrigin = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

const proxied = () => createServerApp({ target: `${upstreamOrigin}/gitlab/` });

describe('npm start -- --target: /api/v4 goes to the instance', () => {
  it('forwards the raw path (%2F stays encoded), the token and the caller host', async () => {
    const answer = await proxied().request('http://console.test:8080/api/v4/projects/group%2Fproject/repository/files/src%2Fa.ts?ref=main', {
      headers: { 'PRIVATE-TOKEN': 'glpat-secret' },
    });
    expect(answer.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({
      url: '/gitlab/api/v4/projects/group%2Fproject/repository/files/src%2Fa.ts?ref=main',
      token: 'glpat-secret',
      forwardedHost: 'console.test:8080',
    });
    expect(answer.headers.get('x-total')).toBe('42');
  });

  it("rewrites the instance's own next-page links to come back through the console server, and only those", async () => {
    const answer = await proxied().request('http://console.test:8080/api/v4/users?pagination=keyset');
    expect(answer.headers.get('link')).toBe('<http://console.test:8080/api/v4/users?cursor=abc&pagination=keyset>; rel="next", <https://elsewhere.example/api/v4/x>; rel="help"');
  });

  it('rewrites a redirect of a renamed path the same way', async () => {
    const answer = await proxied().request('http://console.test:8080/api/v4/projects/old-path');
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe('http://console.test:8080/api/v4/projects/5');
  });

  it('forwards a JSON body and the status', async () => {
    const answer = await proxied().request('http://console.test:8080/api/v4/groups/3/members', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user_id: 7, access_level: 30 }),
    });
    expect(answer.status).toBe(201);
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ user_id: 7, access_level: 30 });
  });

  it('gzips JSON answers for a client that accepts gzip, and leaves raw files and other clients alone', async () => {
    const list = await proxied().request('http://console.test:8080/api/v4/projects', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(list.headers.get('content-encoding')).toBe('gzip');
    expect(list.headers.get('vary')).toContain('Accept-Encoding');
    expect(list.headers.get('x-total')).toBe('42');
    const items = JSON.parse(zlib.gunzipSync(Buffer.from(await list.arrayBuffer())).toString()) as unknown[];
    expect(items).toHaveLength(100);

    const plain = await proxied().request('http://console.test:8080/api/v4/projects');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.json()) as unknown[]).toHaveLength(100);

    const raw = await proxied().request('http://console.test:8080/api/v4/projects/5/repository/files/big.txt/raw', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await raw.text()) as unknown[]).toHaveLength(100);
  });

  it('forwards /api/graphql too, with the token and the body', async () => {
    const answer = await proxied().request('http://console.test:8080/api/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': 'secret' },
      body: JSON.stringify({ query: '{ project(fullPath: "a/b") { id } }' }),
    });
    expect(await answer.json()).toEqual({ data: { project: null } });
    expect(seen.at(-1)).toMatchObject({ url: '/gitlab/api/graphql', token: 'secret', body: JSON.stringify({ query: '{ project(fullPath: "a/b") { id } }' }) });
  });

  it('answers 502 with a message naming the instance when it does not answer', async () => {
    const app = createServerApp({ target: 'http://127.0.0.1:9' });
    const answer = await app.request('http://console.test:8080/api/v4/version');
    expect(answer.status).toBe(502);
    expect((await answer.json()) as { message: string }).toMatchObject({ message: expect.stringMatching(/^502 Bad Gateway - http:\/\/127\.0\.0\.1:9 did not answer/) });
  });
});
