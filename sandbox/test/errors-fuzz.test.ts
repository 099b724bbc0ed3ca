import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiGroup, apiProject, apiUser, type ApiGroup, type ApiProject, type ApiUser } from './core-fixtures.ts';

/** Bad input answers 4xx with a JSON error body, never 500 (brief rules). */

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

let user: ApiUser;
let group: ApiGroup;
let otherGroup: ApiGroup;
let project: ApiProject;

beforeAll(async () => {
  user = await apiUser(h, { username: 'fuzz-user' });
  group = await apiGroup(h, h.adminToken, { path: 'fuzz-group', visibility: 'public' });
  otherGroup = await apiGroup(h, h.adminToken, { path: 'fuzz-other', visibility: 'internal' });
  project = await apiProject(h, h.adminToken, { path: 'fuzz-project', namespace_id: group.id, visibility: 'public' });
});

/** A small deterministic generator, so a failure reproduces. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SCALARS: unknown[] = [
  null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER, '', ' ', 'x', '-1', '0x10', '1e3',
  '99999999999999999999999', '2024-02-30', '2024-13-01T25:61:61Z', 'yesterday', 'null', 'true,false', '\u0000', '\uD800',
  '../../etc/passwd', "'; DROP TABLE users; --", '%', '%%', '<script>', 'x'.repeat(5000),
];

function garbage(random: () => number, depth = 0): unknown {
  const pick = random();
  if (depth > 3 || pick < 0.5) return SCALARS[Math.floor(random() * SCALARS.length)];
  if (pick < 0.75) return Array.from({ length: Math.floor(random() * 3) }, () => garbage(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < 1 + Math.floor(random() * 3); i++) object[['a', 'id', 'name', '__proto__', 'constructor', ''][Math.floor(random() * 6)]] = garbage(random, depth + 1);
  return object;
}

function expectErrorOrSuccess(status: number, text: string, what: string): void {
  expect(status, `${what} -> ${status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (status >= 400) {
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(typeof body === 'object' && body !== null && ('message' in body || 'error' in body), `${what} -> ${text.slice(0, 200)}`).toBe(true);
  }
}

async function raw(method: string, url: string, init: { body?: string; contentType?: string; token?: string | null } = {}) {
  const headers: Record<string, string> = {};
  const token = init.token === undefined ? h.adminToken : init.token;
  if (token) headers['PRIVATE-TOKEN'] = token;
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const response = await h.app.request(`http://localhost/api/v4${url}`, { method, headers, body: init.body });
  return { status: response.status, text: await response.text() };
}

const GET_ENDPOINTS = () => [
  '/users', `/users/${user.id}`, `/users/${user.id}/followers`, `/users/${user.id}/following`, '/groups', `/groups/${group.id}`,
  `/groups/${group.id}/subgroups`, `/groups/${group.id}/projects`, '/projects', `/projects/${project.id}`, '/user',
  '/personal_access_tokens/self', '/version',
];

const QUERY_PARAMS = [
  'page', 'per_page', 'order_by', 'sort', 'search', 'username', 'active', 'blocked', 'humans', 'admins', 'external', 'created_after',
  'created_before', 'visibility', 'owned', 'membership', 'min_access_level', 'archived', 'top_level_only', 'skip_groups', 'all_available',
  'id_after', 'id_before', 'pagination', 'cursor', 'include_subgroups', 'with_shared', 'simple', 'topic', 'last_activity_after',
  'updated_after', 'with_projects', 'search_namespaces', 'exclude_internal', 'repository_storage',
];

const QUERY_VALUES = [
  'x', '-1', '0', '99999999999999999999999', '9007199254740993', '1e309', '1.5', '2020-13-45', '2020-02-30T25:61:61Z', '%E0%A4%A', '%ZZ',
  '%00', '%FF', 'true,false', 'keyset', 'similarity', 'eyJpZCI6bnVsbH0', 'bnVsbA', 'W10', encodeURIComponent('{"id":"1","name":{}}'), 'a'.repeat(2000),
];

describe('query-string fuzz over the GET endpoints', () => {
  it('never answers 500 to a bad value in any parameter', async () => {
    const check = async (endpoint: string, query: string, token: string | null) => {
      const answer = await raw('GET', `${endpoint}?${query}`, { token });
      expectErrorOrSuccess(answer.status, answer.text, `GET ${endpoint}?${query.slice(0, 80)}`);
    };
    for (const endpoint of GET_ENDPOINTS()) {
      for (const name of QUERY_PARAMS) {
        // each value meets one of the three callers in turn, so all three see every parameter
        const callers = [h.adminToken, user.token, null];
        for (const [index, value] of QUERY_VALUES.entries()) {
          await check(endpoint, `${name}=${value}`, callers[index % 3]);
          await check(endpoint, `pagination=keyset&order_by=id&${name}=${value}`, callers[(index + 1) % 3]);
        }
        // arrays and hashes where a scalar is expected, and the reverse
        for (const query of [`${name}[]=1`, `${name}[]=x&${name}[]=`, `${name}[a][b]=1`, `${name}[][a]=1`]) {
          for (const token of [h.adminToken, user.token, null]) await check(endpoint, query, token);
        }
      }
    }
  }, 120_000);

  it('answers 400 with an error body to bad %-encoding and malformed keys', async () => {
    for (const query of ['search=%E0%A4%A', '%ZZ=1', 'search=%', 'a%5=1']) {
      const answer = await raw('GET', `/projects?${query}`);
      expect(answer.status, query).toBe(400);
      expect(JSON.parse(answer.text), query).toHaveProperty('error');
    }
    for (const query of ['a[=1', 'a]=1', '[]=1', '=1', '&&&', 'a[b]c=1', 'a[][][]=1', 'page[]=1', 'per_page[x]=1']) {
      const answer = await raw('GET', `/users?${query}`);
      expectErrorOrSuccess(answer.status, answer.text, query);
    }
  });

  it('answers 4xx to a cursor that decodes to something other than a cursor', async () => {
    for (const decoded of ['null', '[]', '"text"', '{"id":null}', '{"name":{},"id":"1"}', '{"id":"1e400","name":"x"}']) {
      const cursor = Buffer.from(decoded).toString('base64url');
      const byName = await raw('GET', `/users?pagination=keyset&order_by=name&sort=asc&cursor=${cursor}`);
      expect(byName.status, `users cursor ${decoded}`).toBe(400);
      expect(JSON.parse(byName.text)).toEqual({ error: 'cursor is invalid' });
      const byId = await raw('GET', `/users?pagination=keyset&order_by=id&cursor=${cursor}`);
      expectErrorOrSuccess(byId.status, byId.text, `users id cursor ${decoded}`);
      const groups = await raw('GET', `/groups?pagination=keyset&order_by=name&sort=asc&cursor=${cursor}`, { token: null });
      expect(groups.status, `groups cursor ${decoded}`).toBe(400);
      expect(JSON.parse(groups.text)).toEqual({ error: 'cursor is invalid' });
    }
  });

  it('answers 404 to garbage in path parameters', async () => {
    for (const id of ['%ZZ', '%E0%A4%A', '99999999999999999999999', '-1', '1.5', '%00', 'a%2F%2Fb', '%2F', '..%2F..', encodeURIComponent('x'.repeat(3000))]) {
      for (const template of ['/projects/:id', '/groups/:id', '/groups/:id/projects', '/groups/:id/subgroups', '/users/:id', '/users/:id/followers']) {
        const url = template.replace(':id', id);
        const answer = await raw('GET', url);
        expect(answer.status, url).toBe(404);
        expect(JSON.parse(answer.text), url).toBeTypeOf('object');
      }
    }
  });

  it('answers 4xx to garbage ids on the delete endpoints', async () => {
    for (const url of [`/projects/${project.id}/share/abc`, `/projects/${project.id}/share/%ZZ`, `/projects/${project.id}/share/99999999999999999999999`, `/groups/${group.id}/share/-1`, '/projects/%ZZ/share/1']) {
      const answer = await raw('DELETE', url);
      expect(answer.status, url).toBeGreaterThanOrEqual(400);
      expectErrorOrSuccess(answer.status, answer.text, `DELETE ${url}`);
    }
    for (const id of ['abc', '-1', '99999999999999999999999', '%ZZ']) {
      const response = await h.app.request(`http://localhost/-/sandbox/faults/${id}`, { method: 'DELETE', headers: { 'PRIVATE-TOKEN': h.adminToken } });
      expect(response.status, id).toBe(404);
      expect(await response.json()).toHaveProperty('message');
    }
  });

  it('does not let a __proto__ key reach other objects', async () => {
    await raw('GET', '/projects?__proto__[polluted]=1&constructor[prototype][polluted]=1');
    await raw('POST', '/groups', { body: '__proto__[polluted]=1&name=x&path=proto-form', contentType: 'application/x-www-form-urlencoded' });
    await raw('POST', '/groups', { body: '{"__proto__":{"polluted":1},"name":"y","path":"proto-json"}', contentType: 'application/json' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('body fuzz over the write endpoints', () => {
  let serial = 0;
  const fresh = (prefix: string) => `${prefix}${++serial}`;

  const writes = () => [
    { method: 'POST', url: '/users', base: () => ({ email: `${fresh('fz')}@example.com`, name: 'Fuzz', username: fresh('fz-'), password: 'long-enough' }) },
    { method: 'POST', url: `/users/${user.id}/personal_access_tokens`, base: () => ({ name: 'fuzz', scopes: ['api'] }) },
    { method: 'POST', url: `/users/${user.id}/follow`, base: () => ({}) },
    { method: 'POST', url: '/groups', base: () => ({ name: 'Fuzz', path: fresh('fzg'), visibility: 'private' }) },
    { method: 'POST', url: '/projects', base: () => ({ name: fresh('Fuzz '), path: fresh('fzp'), visibility: 'private' }) },
    { method: 'PUT', url: `/projects/${project.id}`, base: () => ({ description: 'fuzz' }) },
    { method: 'POST', url: `/projects/${project.id}/share`, base: () => ({ group_id: otherGroup.id, group_access: 30 }) },
    { method: 'POST', url: `/groups/${group.id}/share`, base: () => ({ group_id: otherGroup.id, group_access: 30 }) },
  ];

  const FIELDS = [
    'name', 'path', 'email', 'username', 'password', 'visibility', 'description', 'parent_id', 'namespace_id', 'scopes', 'expires_at',
    'group_id', 'group_access', 'admin', 'projects_limit', 'can_create_group', 'external', 'reset_password', 'topics', 'tag_list',
    'default_branch', 'container_registry_access_level', 'issues_enabled', 'merge_method', 'squash_option', 'ci_default_git_depth',
    'ci_config_path', 'lfs_enabled', 'public_email', 'bio', 'archived',
  ];

  it('never answers 500 to a wrong type in any field, as JSON or as a form', async () => {
    for (const write of writes()) {
      for (const field of FIELDS) {
        for (const value of [...SCALARS, [], [1, [2]], {}, { a: { b: { c: [] } } }, [{ k: 'v' }]]) {
          const json = { ...write.base(), [field]: value };
          const answer = await raw(write.method, write.url, { body: JSON.stringify(json), contentType: 'application/json' });
          expectErrorOrSuccess(answer.status, answer.text, `${write.method} ${write.url} ${field}=${JSON.stringify(value)?.slice(0, 60)}`);
        }
        for (const form of [`${field}=%ZZ`, `${field}[]=1&${field}[]=2`, `${field}[a][b]=1`, `${field}=`, `${field}`]) {
          const answer = await raw(write.method, write.url, { body: form, contentType: 'application/x-www-form-urlencoded' });
          expectErrorOrSuccess(answer.status, answer.text, `${write.method} ${write.url} form ${form}`);
        }
      }
    }
  }, 120_000);

  it('never answers 500 to random nested garbage', async () => {
    const random = prng(20240611);
    for (let round = 0; round < 300; round++) {
      for (const write of writes()) {
        const body: Record<string, unknown> = { ...write.base() };
        for (let i = 0; i < 1 + Math.floor(random() * 4); i++) body[FIELDS[Math.floor(random() * FIELDS.length)]] = garbage(random);
        const answer = await raw(write.method, write.url, { body: JSON.stringify(body), contentType: 'application/json' });
        expectErrorOrSuccess(answer.status, answer.text, `round ${round}: ${write.method} ${write.url} ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
  }, 120_000);

  it('answers 400 to bodies that are not JSON objects, however deep or odd', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    for (const body of ['null', '1', '"x"', '[]', '[{}]', '{', '{"a":1,}', "{'a':1}", '\u0000', 'NaN', '{"a":1}{"b":2}']) {
      const answer = await raw('POST', '/groups', { body, contentType: 'application/json' });
      expect(answer.status, body).toBe(400);
      expect(JSON.parse(answer.text), body).toHaveProperty('error');
    }
    const nested = await raw('POST', '/groups', { body: deep, contentType: 'application/json' });
    expect(nested.status).toBe(400);
    const wrongType = await raw('POST', '/groups', { body: '{"name":"x","path":"typed"}', contentType: 'text/plain' });
    expectErrorOrSuccess(wrongType.status, wrongType.text, 'text/plain body');
  });

  it('answers 4xx to wrong types on the fault controls', async () => {
    const random = prng(7);
    for (let round = 0; round < 100; round++) {
      const body = JSON.stringify({ path: garbage(random), latency_ms: garbage(random), error_rate: garbage(random), times: garbage(random) });
      const response = await h.app.request('http://localhost/-/sandbox/faults', { method: 'POST', headers: { 'PRIVATE-TOKEN': h.adminToken, 'Content-Type': 'application/json' }, body });
      const text = await response.text();
      if (response.status === 201) continue; // a generated rule can be valid
      expect(response.status, body).toBe(400);
      expect(JSON.parse(text)).toHaveProperty('message');
    }
    await h.delete('/-/sandbox/faults');
  });
});
