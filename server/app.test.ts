import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerApp } from './app.ts';

const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-dist-'));
fs.mkdirSync(path.join(distDir, 'assets'));
fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>Platform Console</title>');
fs.writeFileSync(path.join(distDir, 'assets', 'index-AbC123.js'), 'export {};');
fs.writeFileSync(path.join(distDir, 'favicon.png'), Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

const app = createServerApp({ distDir });
const get = (pathname: string) => app.request(`http://localhost${pathname}`);

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
