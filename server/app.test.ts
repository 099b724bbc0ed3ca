import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app.ts';
import { precompress } from './build-plugin.ts';

const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));
fs.mkdirSync(path.join(distDir, 'assets'));
// big enough (over 1 KB) to be precompressed, as the built page is, with the static hosts' policy
fs.writeFileSync(path.join(distDir, 'index.html'), `<!doctype html><meta http-equiv="Content-Security-Policy" content="connect-src 'self' https:" /><title>Platform Console</title>${'<!-- padding -->'.repeat(100)}`);
fs.writeFileSync(path.join(distDir, 'assets', 'index-AbC123.js'), 'export {};');
fs.writeFileSync(path.join(distDir, 'favicon.png'), Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
const bigChunk = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, index) => `word-${index}`))};\n`;
fs.writeFileSync(path.join(distDir, 'assets', 'big-XyZ789.js'), bigChunk);
await precompress(['index.html', 'assets/big-XyZ789.js', 'assets/index-AbC123.js', 'favicon.png'].map((name) => path.join(distDir, name)));
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

const app = createServerApp({ distDir, sandboxFetch: () => Response.json({ answered: 'by the API' }) });
const get = (pathname: string, headers: Record<string, string> = {}) => app.request(`http://localhost${pathname}`, { headers });

describe("the console's files", () => {
  it('serves hashed assets as immutable', async () => {
    const answer = await get('/assets/index-AbC123.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('lets the browser keep the icon for a day, since it asks again at each in-app navigation', async () => {
    const answer = await get('/favicon.png');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it('answers every console route with the page itself, never cached for long', async () => {
    for (const pathname of ['/', '/groups/12/members', '/index.html']) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(200);
      expect(await answer.text(), pathname).toContain('Platform Console');
      expect(answer.headers.get('cache-control'), pathname).toBeNull();
    }
  });

  it('answers a chunk that is not there (an old build\'s) with 404, not with the page', async () => {
    const answer = await get('/assets/index-Gone99.js');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('cache-control')).toBeNull();
    expect(await answer.json()).toEqual({ error: '404 Not Found' });
  });
});

describe('compression of the console\'s files', () => {
  it('writes brotli and gzip copies at build of text files over 1 KB only', () => {
    expect(fs.existsSync(path.join(distDir, 'assets', 'big-XyZ789.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(distDir, 'assets', 'big-XyZ789.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(distDir, 'assets', 'index-AbC123.js.br'))).toBe(false);
    expect(fs.existsSync(path.join(distDir, 'favicon.png.br'))).toBe(false);
  });

  it('serves a hashed file in the best encoding the browser takes, immutable, varying on Accept-Encoding', async () => {
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', zlib.brotliDecompressSync],
      ['gzip, deflate', 'gzip', zlib.gunzipSync],
    ] as const) {
      const answer = await get('/assets/big-XyZ789.js', { 'Accept-Encoding': accept });
      expect(answer.status, accept).toBe(200);
      expect(answer.headers.get('content-encoding'), accept).toBe(encoding);
      expect(answer.headers.get('content-type'), accept).toMatch(/^text\/javascript/);
      expect(answer.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(answer.headers.get('cache-control'), accept).toBe('public, max-age=31536000, immutable');
      expect(decode(Buffer.from(await answer.arrayBuffer())).toString(), accept).toBe(bigChunk);
    }
    const plain = await get('/assets/big-XyZ789.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(bigChunk);
  });

  it('serves the page for every route compressed too, and plain to a client that takes no encoding', async () => {
    const brotli = await get('/groups/12/members', { 'Accept-Encoding': 'gzip, br' });
    expect(brotli.headers.get('content-encoding')).toBe('br');
    expect(brotli.headers.get('vary')).toBe('Accept-Encoding');
    expect(zlib.brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString()).toContain('Platform Console');
    const refused = await get('/groups/12/members', { 'Accept-Encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toContain('Platform Console');
  });
});

describe('security headers of the served console', () => {
  it('sends a strict policy, nosniff, no referrer and its own browsing context group on the page and every answer that may be shown as one', async () => {
    for (const pathname of ['/', '/groups/12/members', '/favicon.png', '/assets/index-Gone99.js']) {
      const answer = await get(pathname);
      const policy = answer.headers.get('content-security-policy') ?? '';
      const directives = new Map(policy.split(';').map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }));
      expect(directives.get('script-src'), pathname).toBe("'self'");
      expect(directives.get('connect-src'), pathname).toBe("'self'");
      expect(directives.get('object-src'), pathname).toBe("'none'");
      expect(directives.get('base-uri'), pathname).toBe("'none'");
      expect(directives.get('frame-ancestors'), pathname).toBe("'none'");
      expect(directives.get('require-trusted-types-for'), pathname).toBe("'script'");
      expect(directives.get('trusted-types'), pathname).toBe('markdown registry-preview');
      expect(policy, pathname).not.toContain('unsafe-eval');
      expect(answer.headers.get('x-content-type-options'), pathname).toBe('nosniff');
      expect(answer.headers.get('referrer-policy'), pathname).toBe('no-referrer');
      expect(answer.headers.get('cross-origin-opener-policy'), pathname).toBe('same-origin');
    }
  });

  it('sends a hashed script nosniff and no referrer, without the headers only a document reads', async () => {
    const answer = await get('/assets/index-AbC123.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.get('content-security-policy')).toBeNull();
    expect(answer.headers.get('cross-origin-opener-policy')).toBeNull();
    expect(answer.headers.get('last-modified')).toBeNull();
  });

  it('behind --target lets the instance\'s own avatars in, whatever its scheme', async () => {
    const proxied = createServerApp({ distDir, target: 'http://gitlab.internal:8929/gitlab/' });
    const policy = (await proxied.request('http://localhost/')).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("img-src 'self' data: blob: https: http://gitlab.internal:8929;");
    expect(policy).toContain("connect-src 'self';");
  });

  it('serves the page without the meta policy meant for static hosts: the header is the policy', async () => {
    for (const pathname of ['/', '/index.html']) {
      const html = await (await get(pathname)).text();
      expect(html, pathname).toContain('Platform Console');
      expect(html, pathname).not.toContain('http-equiv');
    }
  });

  it("leaves the API's answers to the API", async () => {
    const answer = await get('/api/v4/version');
    expect(await answer.json()).toEqual({ answered: 'by the API' });
    expect(answer.headers.get('content-security-policy')).toBeNull();
    // and the platform's GraphQL endpoint beside it, which the pipeline screens read
    const graphql = await app.request('http://localhost/api/graphql', { method: 'POST', body: '{}' });
    expect(await graphql.json()).toEqual({ answered: 'by the API' });
  });
});
