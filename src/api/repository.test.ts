import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './errors.ts';
import type { Connection } from './http.ts';
import { fetchTreePage, parentDirectory, pathCrumbs, repositoryQueries } from './repository.ts';
import { normalizePath } from './params.ts';
import { clientTestSandbox } from './test-sandbox.ts';

const offline: Connection = { instanceUrl: 'https://code.example.com', token: 't' };

describe('path helpers', () => {
  it('splits a path into crumbs and finds its directory', () => {
    expect(pathCrumbs('src/components/Order Summary.tsx')).toEqual([
      { name: 'src', path: 'src' },
      { name: 'components', path: 'src/components' },
      { name: 'Order Summary.tsx', path: 'src/components/Order Summary.tsx' },
    ]);
    expect(pathCrumbs('')).toEqual([]);
    expect(parentDirectory('a/b/c.txt')).toBe('a/b');
    expect(parentDirectory('c.txt')).toBe('');
    expect(normalizePath('/a//b/')).toBe('a/b');
  });
});

describe('the tree client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a keyset page of a directory at a ref, path and ref encoded', async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response('[{"id":"1","name":"a b","type":"tree","path":"x/a b","mode":"040000"}]', {
      headers: { 'content-type': 'application/json', link: '<https://code.example.com/api/v4/projects/3/repository/tree?page_token=1&pagination=keyset>; rel="next"' },
    }));
    vi.stubGlobal('fetch', fetchMock);
    const page = await fetchTreePage(offline, 3, { path: 'x/y z', ref: 'feature/a+b' }, null);
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/v4/projects/3/repository/tree?path=x%2Fy%20z&ref=feature%2Fa%2Bb&pagination=keyset&per_page=100');
    expect(page.items[0].name).toBe('a b');
    expect(page.nextUrl).toContain('page_token=1');
    await fetchTreePage(offline, 3, { path: 'x/y z', ref: '' }, page.nextUrl!);
    expect(fetchMock.mock.calls[1][0]).toBe('https://code.example.com/api/v4/projects/3/repository/tree?page_token=1&pagination=keyset');
  });

  it('leaves out an empty path and ref (the root of the default branch)', async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response('[]', { headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetchMock);
    await fetchTreePage(offline, 3, { path: '', ref: '' }, null);
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/v4/projects/3/repository/tree?pagination=keyset&per_page=100');
  });

  it('turns "404 Tree Not Found" into an ApiError', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{"message":"404 Tree Not Found"}', { status: 404, headers: { 'content-type': 'application/json' } })));
    await expect(fetchTreePage(offline, 3, { path: 'nope', ref: 'main' }, null)).rejects.toMatchObject({ status: 404, message: '404 Tree Not Found' });
    await expect(fetchTreePage(offline, 3, { path: 'nope', ref: 'main' }, null)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('the tree client against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let connection: Connection;
  let projectId: number;

  beforeAll(async () => {
    connection = sandbox.connection();
    const post = sandbox.post;
    projectId = (await post('/projects', { name: 'tree-client' })).id;
    const actions = Array.from({ length: 130 }, (_, index) => ({ action: 'create', file_path: `many/f${String(index).padStart(3, '0')}.txt`, content: `${index}` }));
    await post(`/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'Many files', actions: [...actions, { action: 'create', file_path: 'many/sub dir/x.txt', content: 'x' }] });
    await post(`/projects/${projectId}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main' });
  });

  it('follows keyset pages through a large directory, trees first', async () => {
    const client = new QueryClient();
    const options = repositoryQueries.tree(connection, projectId, { path: 'many', ref: 'main' });
    const first = await client.fetchInfiniteQuery(options);
    expect(first.pages[0].items).toHaveLength(100);
    expect(first.pages[0].items[0]).toMatchObject({ name: 'sub dir', type: 'tree', path: 'many/sub dir' });
    const next = first.pages[0].nextUrl!;
    const second = await fetchTreePage(connection, projectId, { path: 'many', ref: 'main' }, next);
    expect(second.items).toHaveLength(31);
    expect(second.nextUrl).toBeUndefined();
  });

  it('lists tags', async () => {
    const tags = await new QueryClient().fetchQuery(repositoryQueries.tags(connection, projectId));
    expect(tags.items.map((tag) => tag.name)).toEqual(['v1.0.0']);
  });
});
