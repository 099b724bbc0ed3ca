import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer, type Harness } from './harness.ts';
import { apiGroup, apiProject, linkRels } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const USER_COUNT = 46; // root and 45 more
const OFFSET_LIMIT_MESSAGE =
  'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type User. Remaining records can be retrieved using keyset pagination.';
const KEYSET_UNAVAILABLE = { error: 'Keyset pagination is not yet available for this type of request' };

beforeAll(() => {
  for (let i = 0; i < USER_COUNT - 1; i++) h.user({ username: `pager${String(i).padStart(2, '0')}` });
});

const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id);
const header = (answer: Answer, name: string) => answer.headers.get(name);

/** Follows rel="next" from `url` to the end, returning every page. */
async function walk(harness: Harness, url: string, options: { token?: string | null } = {}): Promise<Answer[]> {
  const pages: Answer[] = [];
  let next: string | undefined = url;
  while (next) {
    const page: Answer = await harness.get(next, options);
    expect(page.status, next).toBe(200);
    pages.push(page);
    next = linkRels(page.headers.get('link')).next;
    if (pages.length > 100) throw new Error('pagination does not end');
  }
  return pages;
}

describe('offset pagination headers (spec 1, 8.1)', () => {
  it('defaults to page 1 of 20 and sends all six x-* headers', async () => {
    const answer = await h.get('/users');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(20);
    expect(header(answer, 'x-page')).toBe('1');
    expect(header(answer, 'x-per-page')).toBe('20');
    expect(header(answer, 'x-total')).toBe(String(USER_COUNT));
    expect(header(answer, 'x-total-pages')).toBe('3');
    expect(header(answer, 'x-next-page')).toBe('2');
    // present and empty: there is no previous page
    expect(answer.headers.has('x-prev-page')).toBe(true);
    expect(header(answer, 'x-prev-page')).toBe('');
  });

  it('clamps per_page to 100 and treats per_page=0 and page<1 as the defaults', async () => {
    const clamped = await h.get('/users?per_page=500');
    expect(header(clamped, 'x-per-page')).toBe('100');
    expect(clamped.body).toHaveLength(USER_COUNT);
    expect(header(clamped, 'x-total-pages')).toBe('1');
    const zero = await h.get('/users?per_page=0');
    expect(header(zero, 'x-per-page')).toBe('20');
    for (const page of ['0', '-3']) {
      const low = await h.get(`/users?page=${page}`);
      expect(low.status).toBe(200);
      expect(header(low, 'x-page')).toBe('1');
    }
  });

  it('answers 400 for a page or per_page that is not an integer', async () => {
    expect((await h.get('/users?page=two')).body).toEqual({ error: 'page is invalid' });
    expect((await h.get('/users?per_page=1.5')).body).toEqual({ error: 'per_page is invalid' });
  });

  it('links prev, next, first and last as absolute URLs that keep the other parameters', async () => {
    const answer = await h.get('/users?order_by=id&sort=asc&active=true&page=2&per_page=10');
    expect(answer.status).toBe(200);
    const link = header(answer, 'link')!;
    expect(link.split(', ').map((part) => /rel="(\w+)"/.exec(part)?.[1])).toEqual(['prev', 'next', 'first', 'last']);
    const rels = linkRels(link);
    for (const [rel, page] of [['prev', '1'], ['next', '3'], ['first', '1'], ['last', '5']]) {
      const url = new URL(rels[rel]);
      expect(`${url.origin}${url.pathname}`, rel).toBe('http://localhost/api/v4/users');
      expect(url.searchParams.get('page'), rel).toBe(page);
      expect(url.searchParams.get('per_page'), rel).toBe('10');
      expect(url.searchParams.get('order_by'), rel).toBe('id');
      expect(url.searchParams.get('sort'), rel).toBe('asc');
      expect(url.searchParams.get('active'), rel).toBe('true');
    }
    expect(header(answer, 'x-prev-page')).toBe('1');
    expect(header(answer, 'x-next-page')).toBe('3');
    const next = await h.get(rels.next);
    expect(header(next, 'x-page')).toBe('3');
    expect(ids(next)[0]).toBe(ids(answer)[9] + 1);
  });

  it('follows the forwarded host in links', async () => {
    const answer = await h.get('/users?per_page=10', { headers: { 'X-Forwarded-Host': 'gitlab.example.com', 'X-Forwarded-Proto': 'https' } });
    expect(linkRels(header(answer, 'link')).next).toMatch(/^https:\/\/gitlab\.example\.com\/api\/v4\/users\?/);
  });

  it('walks every record exactly once by following rel="next"', async () => {
    const pages = await walk(h, '/users?per_page=7&order_by=id&sort=asc');
    expect(pages).toHaveLength(Math.ceil(USER_COUNT / 7));
    const all = pages.flatMap(ids);
    expect(all).toHaveLength(USER_COUNT);
    expect(new Set(all).size).toBe(USER_COUNT);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const last = pages[pages.length - 1];
    expect(header(last, 'x-next-page')).toBe('');
    expect(Object.keys(linkRels(header(last, 'link')))).toEqual(['prev', 'first', 'last']);
  });

  it('answers an empty page past the end with only first and last links', async () => {
    const answer = await h.get('/users?page=99&per_page=10');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    expect(header(answer, 'x-page')).toBe('99');
    expect(header(answer, 'x-next-page')).toBe('');
    expect(header(answer, 'x-prev-page')).toBe('');
    expect(header(answer, 'x-total')).toBe(String(USER_COUNT));
    expect(header(answer, 'x-total-pages')).toBe('5');
    expect(Object.keys(linkRels(header(answer, 'link')))).toEqual(['first', 'last']);
  });

  it('counts an empty list as one page', async () => {
    const answer = await h.get('/users?username=nobody-at-all');
    expect(answer.body).toEqual([]);
    expect(header(answer, 'x-total')).toBe('0');
    expect(header(answer, 'x-total-pages')).toBe('1');
    expect(new URL(linkRels(header(answer, 'link')).last).searchParams.get('page')).toBe('1');
  });

  it('paginates groups, projects and follow lists the same way', async () => {
    for (let i = 0; i < 3; i++) {
      const group = await apiGroup(h, h.adminToken, { visibility: 'public' });
      await apiProject(h, h.adminToken, { namespace_id: group.id, visibility: 'public' });
    }
    for (const url of ['/groups?per_page=2', '/projects?per_page=2', '/users/1/followers?per_page=2']) {
      const answer = await h.get(url);
      expect(answer.status, url).toBe(200);
      for (const name of ['x-page', 'x-per-page', 'x-next-page', 'x-prev-page', 'x-total', 'x-total-pages', 'link']) {
        expect(answer.headers.has(name), `${url} ${name}`).toBe(true);
      }
      expect(header(answer, 'x-per-page'), url).toBe('2');
    }
    expect(header(await h.get('/groups?per_page=2'), 'x-next-page')).toBe('2');
  });
});

describe('the users offset limit (spec 1, 8.3)', () => {
  it('allows page * per_page up to 50000', async () => {
    const answer = await h.get('/users?page=2000&per_page=25');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
  });

  it('answers 405 past 50000 records', async () => {
    // page 400 of 500 is past the limit although the platform then serves 100 per page
    for (const query of ['page=2001&per_page=25', 'page=501&per_page=100', 'page=1000000', 'page=400&per_page=500']) {
      const answer = await h.get(`/users?${query}`);
      expect(answer.status, query).toBe(405);
      expect(answer.body, query).toEqual({ error: OFFSET_LIMIT_MESSAGE });
    }
  });
});

describe('keyset pagination on /users (spec 1, 8.4)', () => {
  it('carries a cursor in rel="next" and walks every user once, with no Link at the end', async () => {
    const first = await h.get('/users?pagination=keyset&order_by=id&sort=asc&per_page=10');
    expect(first.status).toBe(200);
    expect(header(first, 'x-total')).toBeNull();
    const next = new URL(linkRels(header(first, 'link')).next);
    expect(next.searchParams.get('cursor')).toBeTruthy();
    expect(next.searchParams.get('pagination')).toBe('keyset');
    expect(next.searchParams.get('order_by')).toBe('id');
    expect(next.searchParams.get('sort')).toBe('asc');
    expect(next.searchParams.get('per_page')).toBe('10');
    expect(next.searchParams.get('page')).toBeNull();

    const pages = await walk(h, '/users?pagination=keyset&order_by=id&sort=asc&per_page=10');
    const all = pages.flatMap(ids);
    expect(all).toHaveLength(USER_COUNT);
    expect(all).toEqual([...all].sort((a, b) => a - b));
    const last = pages[pages.length - 1];
    expect(header(last, 'link')).toBeNull();
    expect(last.body.length).toBeLessThanOrEqual(10);
  });

  it('walks by name descending with ties broken by id', async () => {
    h.user({ username: 'same-name-a' });
    h.sandbox.db.prepare("UPDATE users SET name = 'Twin' WHERE username IN ('same-name-a', 'pager00', 'pager01')").run();
    const pages = await walk(h, '/users?pagination=keyset&order_by=name&sort=desc&per_page=4');
    const rows = pages.flatMap((page) => page.body as Array<{ id: number; name: string }>);
    expect(rows).toHaveLength(USER_COUNT + 1);
    expect(new Set(rows.map((row) => row.id)).size).toBe(USER_COUNT + 1);
    const names = rows.map((row) => row.name.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
  });

  it('answers 400 for a cursor it did not write', async () => {
    const answer = await h.get('/users?pagination=keyset&order_by=id&sort=asc&cursor=not-a-cursor');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'cursor is invalid' });
  });
});

describe('keyset pagination on /projects (spec 1, 8.4)', () => {
  let projectIds: number[];
  beforeAll(async () => {
    for (let i = 0; i < 9; i++) await apiProject(h, h.adminToken, { visibility: 'public' });
    projectIds = ids(await h.get('/projects?per_page=100&order_by=id&sort=asc'));
  });

  it('links to the next page with id_after and walks to the end', async () => {
    const first = await h.get('/projects?pagination=keyset&order_by=id&sort=asc&per_page=5');
    expect(first.status).toBe(200);
    expect(header(first, 'x-total')).toBeNull();
    const next = new URL(linkRels(header(first, 'link')).next);
    expect(next.searchParams.get('id_after')).toBe(String(ids(first)[4]));
    expect(next.searchParams.get('pagination')).toBe('keyset');
    const pages = await walk(h, '/projects?pagination=keyset&order_by=id&sort=asc&per_page=5');
    expect(pages.flatMap(ids)).toEqual(projectIds);
    expect(header(pages[pages.length - 1], 'link')).toBeNull();
  });

  it('links with id_before when sorting descending', async () => {
    const first = await h.get('/projects?pagination=keyset&order_by=id&sort=desc&per_page=5');
    const next = new URL(linkRels(header(first, 'link')).next);
    expect(next.searchParams.get('id_before')).toBe(String(ids(first)[4]));
    const pages = await walk(h, '/projects?pagination=keyset&order_by=id&sort=desc&per_page=5');
    expect(pages.flatMap(ids)).toEqual([...projectIds].reverse());
  });

  it('answers 405 for an order keyset does not support, including the default', async () => {
    for (const query of ['pagination=keyset', 'pagination=keyset&order_by=name&sort=asc', 'pagination=keyset&order_by=created_at']) {
      const answer = await h.get(`/projects?${query}`);
      expect(answer.status, query).toBe(405);
      expect(answer.body, query).toEqual(KEYSET_UNAVAILABLE);
    }
  });

  it('offers groups keyset to anonymous callers by name only', async () => {
    const pages = await walk(h, '/groups?pagination=keyset&order_by=name&sort=asc&per_page=2', { token: null });
    const all = pages.flatMap(ids);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(new Set(all).size).toBe(all.length);
    const refused = await h.get('/groups?pagination=keyset&order_by=id&sort=asc', { token: null });
    expect(refused.status).toBe(405);
    expect(refused.body).toEqual(KEYSET_UNAVAILABLE);
  });
});

describe('over 10,000 records (spec 1, 8.1)', () => {
  const big = createHarness({ seed: 'empty' });
  afterAll(() => big.close());

  function addUsers(count: number, prefix: string) {
    const insert = big.sandbox.db.prepare('INSERT INTO users (username, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const stamp = new Date().toISOString();
    big.sandbox.db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`${prefix}${i}`, `Bulk ${prefix}${i}`, `${prefix}${i}@example.com`, stamp, stamp);
    })();
  }

  it('still counts exactly 10,000 records', () => {
    addUsers(9_999, 'bulk-a');
    return big.get('/users?per_page=100').then((answer) => {
      expect(header(answer, 'x-total')).toBe('10000');
      expect(header(answer, 'x-total-pages')).toBe('100');
      expect(linkRels(header(answer, 'link')).last).toBeDefined();
    });
  });

  it('omits x-total, x-total-pages and rel="last" past 10,000 records', async () => {
    addUsers(50, 'bulk-b');
    const answer = await big.get('/users?per_page=100&page=3');
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveLength(100);
    expect(answer.headers.has('x-total')).toBe(false);
    expect(answer.headers.has('x-total-pages')).toBe(false);
    expect(header(answer, 'x-page')).toBe('3');
    expect(header(answer, 'x-next-page')).toBe('4');
    expect(header(answer, 'x-prev-page')).toBe('2');
    expect(Object.keys(linkRels(header(answer, 'link')))).toEqual(['prev', 'next', 'first']);
  });

  it('knows the last page without counting: no next page there', async () => {
    const answer = await big.get('/users?per_page=100&page=101');
    expect(answer.body).toHaveLength(50);
    expect(header(answer, 'x-next-page')).toBe('');
    expect(Object.keys(linkRels(header(answer, 'link')))).toEqual(['prev', 'first']);
  });
});
