import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError, describeErrorBody } from './errors.ts';
import { apiPath, encodeQuery } from './params.ts';
import { parseLinkHeader, toPage } from './pagination.ts';
import { flag, loose } from './schema.ts';
import { request, requestKeysetPage, requestPage, type Connection } from './http.ts';
import { SessionStore, expiryWatcher } from './session.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';

describe('encodeQuery', () => {
  it('writes arrays as name[]= and hashes as name[k]=', () => {
    expect(encodeQuery({ user_ids: [1, 2], labels: { team: 'core' }, state: 'active' })).toBe('user_ids[]=1&user_ids[]=2&labels[team]=core&state=active');
  });
  it('sends + as %2B and spaces as %20, and leaves out undefined and null', () => {
    expect(encodeQuery({ created_after: '2026-01-01T00:00:00+01:00', search: 'a b', skip: undefined, none: null })).toBe('created_after=2026-01-01T00%3A00%3A00%2B01%3A00&search=a%20b');
  });
  it('writes booleans as true and false', () => {
    expect(encodeQuery({ owned: true, archived: false })).toBe('owned=true&archived=false');
  });
  it('writes arrays of hashes as name[][key]=', () => {
    expect(encodeQuery({ variables: [{ key: 'A', value: '1' }] })).toBe('variables[][key]=A&variables[][value]=1');
  });
});

describe('apiPath', () => {
  it('encodes a full path, a file path and a branch as one segment each', () => {
    expect(apiPath`/projects/${'group/sub/app'}/repository/files/${'src/a b.ts'}?ref=${'feature/x'}`).toBe('/projects/group%2Fsub%2Fapp/repository/files/src%2Fa%20b.ts?ref=feature%2Fx');
  });
});

describe('describeErrorBody', () => {
  it('reads all four platform shapes', () => {
    expect(describeErrorBody({ message: '404 Project Not Found' }, 404).message).toBe('404 Project Not Found');
    expect(describeErrorBody({ message: ['first', 'second'] }, 400).message).toBe('first; second');
    expect(describeErrorBody({ error: 'title is missing' }, 400).message).toBe('title is missing');
    const fields = describeErrorBody({ message: { access_level: ['is not included in the list'], expires_at: ['must be in the future'] } }, 400);
    expect(fields.fieldErrors).toEqual({ access_level: ['is not included in the list'], expires_at: ['must be in the future'] });
    expect(fields.message).toBe('access level is not included in the list; expires at must be in the future');
  });
  it('prefers the OAuth description and never returns an HTML page as the message', () => {
    expect(describeErrorBody({ error: 'invalid_token', error_description: 'Token was revoked.' }, 401).message).toBe('Token was revoked.');
    expect(describeErrorBody('<html><body>Bad gateway</body></html>', 502).message).toBe('The server answered 502 without an explanation.');
  });
});

describe('pagination headers', () => {
  it('parses Link with every rel', () => {
    const links = parseLinkHeader('<https://h/api/v4/x?page=1>; rel="prev", <https://h/api/v4/x?page=3>; rel="next", <https://h/api/v4/x?page=1>; rel="first", <https://h/api/v4/x?page=9>; rel="last"');
    expect(links).toEqual({ prev: 'https://h/api/v4/x?page=1', next: 'https://h/api/v4/x?page=3', first: 'https://h/api/v4/x?page=1', last: 'https://h/api/v4/x?page=9' });
  });
  it('reads totals when present', () => {
    const page = toPage([1, 2], new Headers({ 'x-page': '2', 'x-per-page': '2', 'x-total': '5', 'x-total-pages': '3', 'x-next-page': '3', 'x-prev-page': '1' }));
    expect(page).toMatchObject({ page: 2, perPage: 2, total: 5, totalPages: 3, nextPage: 3, prevPage: 1 });
  });
  it('works without totals, from x-next-page or the Link header alone', () => {
    const page = toPage([1, 2], new Headers({ 'x-page': '4', 'x-per-page': '2', 'x-next-page': '5', 'x-prev-page': '3' }));
    expect(page.total).toBeUndefined();
    expect(page.totalPages).toBeUndefined();
    expect(page.nextPage).toBe(5);
    const linkOnly = toPage([1], new Headers({ link: '<https://h/api/v4/x?page=7&per_page=1>; rel="next"' }), { page: 6, perPage: 1 });
    expect(linkOnly).toMatchObject({ page: 6, nextPage: 7, prevPage: 5 });
  });
  it('has no next page when x-next-page is empty', () => {
    expect(toPage([1], new Headers({ 'x-page': '1', 'x-per-page': '1', 'x-next-page': '' })).nextPage).toBeUndefined();
  });
});

describe('schemas', () => {
  const schema = loose({ id: z.number(), archived: flag });
  it('keeps unknown fields and reads a null boolean as false', () => {
    expect(schema.parse({ id: 1, archived: null, added_later: 'x' })).toEqual({ id: 1, archived: false, added_later: 'x' });
  });
});

describe('request() against a real sandbox', () => {
  let sandbox: RunningSandbox;
  let connection: Connection;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'empty' });
    connection = { instanceUrl: sandbox.url, token: sandbox.adminToken };
  });
  afterAll(() => sandbox.close());

  it('parses a response with its schema', async () => {
    const user = await request(connection, '/user', loose({ id: z.number(), username: z.string(), is_admin: flag }));
    expect(user).toMatchObject({ id: 1, username: 'root', is_admin: true });
  });

  it('turns a response that does not match into a readable ApiError', async () => {
    const promise = request(connection, '/user', loose({ id: z.string() }));
    await expect(promise).rejects.toBeInstanceOf(ApiError);
    await expect(promise).rejects.toMatchObject({ kind: 'parse', message: expect.stringContaining('at id') });
  });

  it('turns a 401 into an ApiError and tells the connection', async () => {
    let told = 0;
    const bad: Connection = { instanceUrl: sandbox.url, token: 'glpat-wrong', onUnauthorized: () => told++ };
    await expect(request(bad, '/user', z.unknown())).rejects.toMatchObject({ status: 401, message: '401 Unauthorized', retryable: false });
    expect(told).toBe(1);
  });

  it('keeps the field errors of a validation answer', async () => {
    const promise = request(connection, '/users', z.unknown(), { method: 'POST', body: { email: 'bad', name: 'N', username: 'ok_name', password: 'short' } });
    await expect(promise).rejects.toMatchObject({ status: 400, fieldErrors: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] } });
  });

  it('reads pages and follows keyset links', async () => {
    for (let index = 0; index < 5; index++) {
      await request(connection, '/users', z.unknown(), { method: 'POST', body: { email: `p${index}@example.com`, name: `P ${index}`, username: `pager${index}`, password: 'long-enough-1' } });
    }
    const page = await requestPage(connection, '/users', loose({ id: z.number() }), { query: { per_page: 2, page: 2 } });
    expect(page).toMatchObject({ page: 2, perPage: 2, total: 6, totalPages: 3, nextPage: 3, prevPage: 1 });
    const seen: number[] = [];
    let next: string | undefined = '/users';
    let query: Record<string, string | number> | undefined = { pagination: 'keyset', order_by: 'id', sort: 'asc', per_page: 2 };
    while (next) {
      const keyset: Awaited<ReturnType<typeof requestKeysetPage>> = await requestKeysetPage(connection, next, loose({ id: z.number() }), { query });
      seen.push(...keyset.items.map((item) => (item as { id: number }).id));
      next = keyset.nextUrl;
      query = undefined;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('ends a session on 401 only when GET /user refuses the token too', async () => {
    const memory = () => {
      const items = new Map<string, string>();
      return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key), clear: () => items.clear(), key: () => null, length: 0 } as Storage;
    };
    const store = new SessionStore(memory(), memory());
    const checked = { instanceUrl: sandbox.url, userId: 1, username: 'root', name: 'Administrator', avatarUrl: null, isAdmin: true, canWrite: true, version: null, remember: false };
    let expired = 0;
    const watch = expiryWatcher(store, () => expired++);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
    store.connect(checked, sandbox.adminToken);
    watch(new ApiError(401, 'not allowed here'));
    await settle();
    expect(expired).toBe(0);
    store.connect(checked, 'glpat-no-longer-valid');
    watch(new ApiError(401, 'first'));
    watch(new ApiError(401, 'second, while the first is checked'));
    await settle();
    expect(expired).toBe(1);
  });

  it('reports an unreachable instance as a network error without the token', async () => {
    const offline: Connection = { instanceUrl: 'http://127.0.0.1:9', token: 'glpat-secret-value' };
    const error = await request(offline, '/user', z.unknown()).catch((caught: unknown) => caught as ApiError);
    expect(error).toMatchObject({ kind: 'network', retryable: true });
    expect(String((error as ApiError).message)).not.toContain('glpat-secret-value');
  });
});
