import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { acceptsEncoding } from '../http/compress.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const request = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  h.app.request(`http://localhost/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': h.adminToken, ...headers } });

let projectId = 0;
let projectPath = '';
beforeAll(async () => {
  for (let index = 0; index < 8; index++) await h.post('/groups', { name: `Compressed ${index}`, path: `compressed-${index}` });
  const project = await h.post<{ id: number; path_with_namespace: string }>('/projects', { name: 'Raw', initialize_with_readme: true });
  projectId = project.body.id;
  projectPath = project.body.path_with_namespace;
  await h.post(`/projects/${projectId}/repository/commits`, {
    branch: 'main',
    commit_message: 'a big JSON file',
    actions: [
      { action: 'create', file_path: 'data.json', content: JSON.stringify(Array.from({ length: 200 }, (_, index) => ({ index }))) },
      { action: 'create', file_path: 'big.txt', content: 'line of text\n'.repeat(10_000) },
    ],
  });
});

describe('JSON answers are gzipped when the client accepts it, as behind the platform\'s front proxy', () => {
  it('gzips a list for a client that accepts gzip, and says the answer varies on it', async () => {
    const answer = await request('/groups', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    expect(answer.headers.get('vary')).toContain('Accept-Encoding');
    expect(answer.headers.get('x-total')).toBe('8');
    const groups = JSON.parse(zlib.gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()) as unknown[];
    expect(groups).toHaveLength(8);
  });

  it('gzips a large answer too (over 64 KB, compressed off the event loop)', async () => {
    const answer = await request(`/projects/${projectId}/repository/files/big.txt?ref=main`, { 'Accept-Encoding': 'gzip' });
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    const file = JSON.parse(zlib.gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()) as { content: string; size: number };
    expect(file.size).toBe(130_000);
    expect(Buffer.from(file.content, 'base64').toString()).toBe('line of text\n'.repeat(10_000));
  });

  it('sends the same list plain to a client that does not accept gzip, and small answers always plain', async () => {
    const plain = await request('/groups');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.json()) as unknown[]).toHaveLength(8);
    const small = await request('/version', { 'Accept-Encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.json()).toHaveProperty('version');
  });

  it('gzips a GraphQL answer as it does REST', async () => {
    // the project sixty times over (aliases): an answer past the size worth compressing
    const query = `query { ${Array.from({ length: 60 }, (_, index) => `p${index}: project(fullPath: ${JSON.stringify(projectPath)}) { id fullPath }`).join(' ')} }`;
    const headers = { 'PRIVATE-TOKEN': h.adminToken, 'Content-Type': 'application/json' };
    const answer = await h.app.request('http://localhost/api/graphql', { method: 'POST', headers: { ...headers, 'Accept-Encoding': 'gzip' }, body: JSON.stringify({ query }) });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-encoding')).toBe('gzip');
    const zipped = JSON.parse(zlib.gunzipSync(Buffer.from(await answer.arrayBuffer())).toString()) as { data: Record<string, { fullPath: string }> };
    expect(Object.values(zipped.data).map((project) => project.fullPath)).toEqual(Array(60).fill(projectPath));
    const plain = await h.app.request('http://localhost/api/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(zipped).toEqual(await plain.json());
  });

  it('leaves raw file downloads and HEAD answers untouched', async () => {
    const raw = await request(`/projects/${projectId}/repository/files/data.json/raw?ref=main`, { 'Accept-Encoding': 'gzip' });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(await raw.text()) as unknown[]).toHaveLength(200);
    const head = await request(`/projects/${projectId}/repository/files/data.json?ref=main`, { 'Accept-Encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBeNull();
  });
});

describe('acceptsEncoding', () => {
  it('reads tokens, q-values and the wildcard', () => {
    expect(acceptsEncoding('gzip, deflate, br', 'gzip')).toBe(true);
    expect(acceptsEncoding('GZIP;q=0.5', 'gzip')).toBe(true);
    expect(acceptsEncoding('br, gzip;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('*', 'gzip')).toBe(true);
    expect(acceptsEncoding('*;q=0', 'gzip')).toBe(false);
    expect(acceptsEncoding('identity', 'gzip')).toBe(false);
    expect(acceptsEncoding(undefined, 'gzip')).toBe(false);
  });
});
