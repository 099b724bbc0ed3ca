import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { ParamReader, parseParams } from '../http/params.ts';
import { HttpError } from '../http/errors.ts';
import { apiGroup, apiProject, apiUser, unique, type ApiGroup, type ApiProject } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

let group: ApiGroup;
let subgroup: ApiGroup;
let project: ApiProject;

beforeAll(async () => {
  group = await apiGroup(h, h.adminToken, { path: 'conv-group', visibility: 'public' });
  subgroup = await apiGroup(h, h.adminToken, { path: 'sub', parent_id: group.id, visibility: 'public' });
  project = await apiProject(h, h.adminToken, { path: 'conv-project', namespace_id: group.id, visibility: 'public' });
});

function thrown(run: () => unknown): HttpError {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('expected an HttpError');
}

describe('the /api/v4 prefix (spec 1, 4.1.1)', () => {
  it('serves the API under /api/v4', async () => {
    const answer = await h.get('http://localhost/api/v4/user');
    expect(answer.status).toBe(200);
    expect(answer.body.username).toBe('root');
  });

  it('answers 404 {"error":"404 Not Found"} without the prefix or on an unknown route', async () => {
    for (const url of ['http://localhost/user', 'http://localhost/api/v5/user', 'http://localhost/api/v4/no-such-thing']) {
      const answer = await h.get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.body, url).toEqual({ error: '404 Not Found' });
      expect(answer.headers.get('content-type')).toContain('application/json');
    }
  });
});

describe(':id by number or URL-encoded full path (spec 1, 4.1.4)', () => {
  it('finds a project by its number and by its encoded path', async () => {
    const byId = await h.get(`/projects/${project.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body.path_with_namespace).toBe('conv-group/conv-project');
    for (const encoded of ['conv-group%2Fconv-project', 'conv-group%2fconv-project', encodeURIComponent('conv-group/conv-project')]) {
      const byPath = await h.get(`/projects/${encoded}`);
      expect(byPath.status, encoded).toBe(200);
      expect(byPath.body.id).toBe(project.id);
    }
  });

  it('resolves a path that differs only in letter case without a redirect', async () => {
    const answer = await h.get('/projects/CONV-GROUP%2FConv-Project');
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(project.id);
  });

  it('answers 404 {"error":"404 Not Found"} for an unencoded path', async () => {
    const answer = await h.get('/projects/conv-group/conv-project');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: '404 Not Found' });
    const nested = await h.get('/groups/conv-group/sub');
    expect(nested.status).toBe(404);
    expect(nested.body).toEqual({ error: '404 Not Found' });
  });

  it('answers 404 Project Not Found for a bare name or an unknown id', async () => {
    for (const id of ['conv-project', '999999', 'conv-group%2Fmissing']) {
      const answer = await h.get(`/projects/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.body, id).toEqual({ message: '404 Project Not Found' });
    }
  });

  it('finds groups and subgroups by number and by encoded full path', async () => {
    expect((await h.get(`/groups/${group.id}`)).body.full_path).toBe('conv-group');
    expect((await h.get('/groups/conv-group')).body.id).toBe(group.id);
    const sub = await h.get('/groups/conv-group%2Fsub');
    expect(sub.status).toBe(200);
    expect(sub.body.id).toBe(subgroup.id);
    expect((await h.get('/groups/conv-group%2Fnothing')).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('parseParams: Rack-style arrays and hashes (spec 1, 4.1.5)', () => {
  it('collects name[]= into an array in order', () => {
    expect(parseParams('a[]=1&a[]=2&a[]=3')).toEqual({ a: ['1', '2', '3'] });
  });

  it('collects name[key]= into a hash, nested to any depth', () => {
    expect(parseParams('h[k]=v&h[j]=w')).toEqual({ h: { k: 'v', j: 'w' } });
    expect(parseParams('a[b][c]=1&a[b][d]=2&a[e]=3')).toEqual({ a: { b: { c: '1', d: '2' }, e: '3' } });
    expect(parseParams('a[b][]=1&a[b][]=2')).toEqual({ a: { b: ['1', '2'] } });
  });

  it('reads arrays of hashes written with indexes or with []', () => {
    expect(parseParams('n[0][key]=k&n[0][value]=v&n[1][key]=k2')).toEqual({ n: { 0: { key: 'k', value: 'v' }, 1: { key: 'k2' } } });
    expect(parseParams('x[][k]=1&x[][v]=2&x[][k]=3')).toEqual({ x: [{ k: '1', v: '2' }, { k: '3' }] });
  });

  it('decodes %2B to a plus and a literal + to a space (spec 1, 4.1.6)', () => {
    expect(parseParams('t=2024-01-01T10:00:00%2B02:00&s=a+b&k%5Bx%5D=1')).toEqual({ t: '2024-01-01T10:00:00+02:00', s: 'a b', k: { x: '1' } });
  });

  it('keeps empty values and keys without =', () => {
    expect(parseParams('a=&b&&c=1')).toEqual({ a: '', b: '', c: '1' });
    expect(parseParams('')).toEqual({});
  });

  it('keeps a key with unbalanced brackets as one name', () => {
    expect(parseParams('a[b=1&c]=2')).toEqual({ 'a[b': '1', 'c]': '2' });
  });

  it('answers 400 for a bad %-encoding', () => {
    const error = thrown(() => parseParams('search=%E0%A4%A'));
    expect(error.status).toBe(400);
    expect(error.body).toHaveProperty('error');
  });

  it('never writes through __proto__ into every object', () => {
    try {
      const parsed = parseParams('__proto__[polluted]=yes&a[__proto__][polluted]=yes&constructor[prototype][polluted]=yes');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // the keys stay ordinary data
      expect(JSON.stringify(parsed)).toBe('{"__proto__":{"polluted":"yes"},"a":{"__proto__":{"polluted":"yes"}},"constructor":{"prototype":{"polluted":"yes"}}}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});

describe('ParamReader', () => {
  it('reads booleans as true/false/1/0 in any case, else 400 "<name> is invalid" (spec 1, 4.1.8)', () => {
    const reader = new ParamReader({ a: 'true', b: 'FALSE', c: '1', d: '0', e: true, f: 'maybe', g: '2', h: { x: '1' } });
    expect([reader.bool('a'), reader.bool('b'), reader.bool('c'), reader.bool('d'), reader.bool('e')]).toEqual([true, false, true, false, true]);
    expect(reader.bool('absent')).toBeUndefined();
    for (const name of ['f', 'g', 'h']) {
      const error = thrown(() => reader.bool(name));
      expect(error.status).toBe(400);
      expect(error.body).toEqual({ error: `${name} is invalid` });
    }
  });

  it('reads arrays from name[]=, JSON arrays and comma lists', () => {
    const reader = new ParamReader({ ...parseParams('a[]=x&a[]=y&b=x,y'), c: ['x', 'y'], d: { k: 'v' } });
    expect(reader.stringArray('a')).toEqual(['x', 'y']);
    expect(reader.stringArray('b')).toEqual(['x', 'y']);
    expect(reader.stringArray('c')).toEqual(['x', 'y']);
    expect(thrown(() => reader.stringArray('d')).body).toEqual({ error: 'd is invalid' });
    expect(thrown(() => new ParamReader({ n: ['1', 'x'] }).intArray('n')).body).toEqual({ error: 'n is invalid' });
  });

  it('refuses a hash where a scalar is expected, and bad integers and dates', () => {
    const reader = new ParamReader({ s: { k: 'v' }, i: '12x', big: '99999999999999999999', f: 1.5, d: '2024-02-30', t: 'yesterday' });
    expect(thrown(() => reader.string('s')).body).toEqual({ error: 's is invalid' });
    expect(thrown(() => reader.int('i')).body).toEqual({ error: 'i is invalid' });
    expect(thrown(() => reader.int('big')).body).toEqual({ error: 'big is invalid' });
    expect(thrown(() => reader.int('f')).body).toEqual({ error: 'f is invalid' });
    expect(thrown(() => reader.date('d')).body).toEqual({ error: 'd is invalid' });
    expect(thrown(() => reader.dateTime('t')).body).toEqual({ error: 't is invalid' });
    expect(thrown(() => reader.requiredString('missing')).body).toEqual({ error: 'missing is missing' });
  });
});

describe('arrays and hashes over HTTP', () => {
  it('reads name[]= in the query string', async () => {
    const a = await apiGroup(h, h.adminToken, { path: unique('skip-a'), visibility: 'public' });
    const b = await apiGroup(h, h.adminToken, { path: unique('skip-b'), visibility: 'public' });
    const all = await h.get('/groups?per_page=100');
    expect(all.body.map((g: { id: number }) => g.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    const skipped = await h.get(`/groups?per_page=100&skip_groups[]=${a.id}&skip_groups%5B%5D=${b.id}`);
    expect(skipped.status).toBe(200);
    const ids = skipped.body.map((g: { id: number }) => g.id);
    expect(ids).not.toContain(a.id);
    expect(ids).not.toContain(b.id);
    expect(ids).toContain(group.id);
  });

  it('reads name[]= in a form body and arrays in a JSON body', async () => {
    const user = await apiUser(h);
    const form = await h.call('POST', `/users/${user.id}/personal_access_tokens`, { form: 'name=form-token&scopes[]=read_api&scopes%5B%5D=read_user' });
    expect(form.status).toBe(201);
    expect(form.body.scopes).toEqual(['read_api', 'read_user']);
    const json = await h.post(`/users/${user.id}/personal_access_tokens`, { name: 'json-token', scopes: ['read_repository', 'api'] });
    expect(json.status).toBe(201);
    expect(json.body.scopes).toEqual(['read_repository', 'api']);
  });

  it('answers 400 "<name> is invalid" when a hash arrives where a value is expected', async () => {
    const query = await h.get('/projects?search[x]=1');
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ error: 'search is invalid' });
    const form = await h.call('POST', '/groups', { form: 'name[a]=x&path=hash-group' });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ error: 'name is invalid' });
    const json = await h.post('/groups', { name: { a: 'x' }, path: 'hash-group' });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ error: 'name is invalid' });
  });

  it('accepts form-encoded and JSON bodies alike', async () => {
    const path = unique('form-group');
    const form = await h.call('POST', '/groups', { form: `name=Form+Group&path=${path}&visibility=internal` });
    expect(form.status).toBe(201);
    expect(form.body).toMatchObject({ name: 'Form Group', path, visibility: 'internal' });
  });
});

describe('+ and %2B in query values (spec 1, 4.1.6)', () => {
  it('reads %2B as a plus and a literal + as a space', async () => {
    const plus = await apiUser(h, { name: 'Plus+Sign Person' });
    const spaced = await apiUser(h, { name: 'Plus Sign Person' });
    const encoded = await h.get('/users?search=Plus%2BSign');
    expect(encoded.body.map((u: { id: number }) => u.id)).toEqual([plus.id]);
    const literal = await h.get('/users?search=Plus+Sign');
    expect(literal.body.map((u: { id: number }) => u.id)).toEqual([spaced.id]);
  });

  it('reads a time zone offset sent as %2B', async () => {
    const fresh = await apiUser(h);
    // an hour ago, written as local time two hours east of UTC
    const hourAgo = new Date(Date.now() - 3_600_000);
    const local = new Date(hourAgo.getTime() + 2 * 3_600_000).toISOString().slice(0, 19);
    const answer = await h.get(`/users?per_page=100&created_after=${local}%2B02:00`);
    expect(answer.status).toBe(200);
    const ids = answer.body.map((u: { id: number }) => u.id);
    expect(ids).toContain(fresh.id);
    expect(ids).not.toContain(1);
    // a literal + becomes a space and the value no longer reads as a time
    const broken = await h.get(`/users?created_after=${local}+02:00`);
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ error: 'created_after is invalid' });
  });
});

describe('boolean parameters (spec 1, 4.1.8)', () => {
  it('accepts true, false, 1 and 0', async () => {
    for (const value of ['true', 'false', '1', '0', 'TRUE']) {
      const answer = await h.get(`/projects?archived=${value}`);
      expect(answer.status, value).toBe(200);
    }
  });

  it('answers 400 {"error":"<name> is invalid"} for any other value', async () => {
    for (const [url, name] of [
      ['/projects?archived=maybe', 'archived'],
      ['/groups?top_level_only=2', 'top_level_only'],
      ['/users?active=yes-please', 'active'],
      [`/groups/${group.id}/projects?include_subgroups=on-off`, 'include_subgroups'],
    ]) {
      const answer = await h.get(url);
      expect(answer.status, url).toBe(400);
      expect(answer.body, url).toEqual({ error: `${name} is invalid` });
    }
  });

  it('accepts JSON booleans in a body', async () => {
    const answer = await h.post('/users', { email: `${unique('jb')}@example.com`, name: 'Json Bool', username: unique('jb'), password: 'secret-password-1', admin: true, can_create_group: false });
    expect(answer.status).toBe(201);
    expect(answer.body.is_admin).toBe(true);
    expect(answer.body.can_create_group).toBe(false);
  });
});

describe('request size and body format', () => {
  it('answers 414 for a query string over 8 KB', async () => {
    const long = await h.get(`/projects?search=${'a'.repeat(9000)}`);
    expect(long.status).toBe(414);
    expect(long.body).toEqual({ message: expect.stringContaining('414') });
    const fits = await h.get(`/projects?search=${'a'.repeat(7000)}`);
    expect(fits.status).toBe(200);
  });

  it('answers 400 for a malformed JSON body or one that is not an object', async () => {
    for (const body of ['{"name": "x", ', '[1,2]', '"text"', '{\'single\': 1}']) {
      const raw = await h.app.request('http://localhost/api/v4/groups', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': h.adminToken, 'Content-Type': 'application/json' },
        body,
      });
      expect(raw.status, body).toBe(400);
      expect(await raw.json(), body).toHaveProperty('error');
    }
  });

  it('answers {"error":"<name> is missing"} for missing required parameters', async () => {
    const one = await h.post('/groups', { path: unique('nameless') });
    expect(one.status).toBe(400);
    expect(one.body).toEqual({ error: 'name is missing' });
    const two = await h.post('/groups', {});
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ error: 'name is missing, path is missing' });
    const user = await h.post('/users', { name: 'No Email', username: unique('ne'), password: 'secret-password-1' });
    expect(user.status).toBe(400);
    expect(user.body).toEqual({ error: 'email is missing' });
    const token = await h.post('/users/1/personal_access_tokens', { scopes: ['api'] });
    expect(token.status).toBe(400);
    expect(token.body).toEqual({ error: 'name is missing' });
  });
});
