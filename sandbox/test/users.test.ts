import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import { addDays } from '../model/time.ts';
import { apiUser, unique, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const USER_BASIC_KEYS = ['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url'];
// UserBasic may also carry public_email; nothing else
const USER_BASIC_ALLOWED = [...USER_BASIC_KEYS, 'public_email'];
const ADMIN_ONLY_KEYS = ['is_admin', 'note', 'namespace_id', 'created_by'];

let alice: ApiUser;
let bob: ApiUser;
let otherAdmin: ApiUser;
let blockedId: number;
let botId: number;
let externalId: number;
let beforeLaterUsers: string;
let later: ApiUser;

beforeAll(async () => {
  alice = await apiUser(h, { username: 'alice-u', name: 'Alice Example', extra: { bio: 'likes tests' } });
  bob = await apiUser(h, { username: 'bob-u', name: 'Bob Builder' });
  otherAdmin = await apiUser(h, { username: 'second-admin', admin: true });
  blockedId = h.user({ username: 'blocked-u', state: 'blocked' }).id;
  botId = h.user({ username: 'project_1_bot_abc' }).id;
  h.sandbox.db.prepare("UPDATE users SET user_type = 'project_bot' WHERE id = ?").run(botId);
  externalId = h.user({ username: 'external-u', external: true }).id;
  // a clear gap in created_at for the created_after filter
  h.sandbox.db.prepare("UPDATE users SET created_at = '2020-01-01T00:00:00.000Z'").run();
  beforeLaterUsers = '2021-06-01T00:00:00Z';
  later = await apiUser(h, { username: 'later-u' });
});

const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id);

describe('GET /user', () => {
  it('answers the caller with private fields, without the administrator ones', async () => {
    const answer = await h.get('/user', { token: alice.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: alice.id, username: 'alice-u', email: alice.email, bio: 'likes tests', state: 'active', can_create_group: true, two_factor_enabled: false, external: false, private_profile: false });
    for (const key of ['last_sign_in_at', 'confirmed_at', 'projects_limit', 'identities', 'commit_email', 'followers', 'following']) {
      expect(answer.body, key).toHaveProperty(key);
    }
    for (const key of ADMIN_ONLY_KEYS) expect(answer.body, key).not.toHaveProperty(key);
  });

  it('adds is_admin and the administrator fields for an administrator', async () => {
    const answer = await h.get('/user', { token: otherAdmin.token });
    expect(answer.body).toMatchObject({ id: otherAdmin.id, is_admin: true });
    expect(typeof answer.body.namespace_id).toBe('number');
    expect(answer.body.created_by).toMatchObject({ id: 1, username: 'root' });
  });
});

describe('GET /users', () => {
  it('shows non-administrators UserBasic only', async () => {
    const answer = await h.get('/users?per_page=100', { token: bob.token });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(3);
    for (const user of answer.body) {
      for (const key of USER_BASIC_KEYS) expect(user, key).toHaveProperty(key);
      expect(Object.keys(user).filter((key) => !USER_BASIC_ALLOWED.includes(key))).toEqual([]);
    }
  });

  it('shows administrators the full entity', async () => {
    const answer = await h.get('/users?username=alice-u');
    expect(answer.body[0]).toMatchObject({ id: alice.id, email: alice.email, is_admin: false });
  });

  it('orders by id descending by default', async () => {
    const all = ids(await h.get('/users?per_page=100'));
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('finds one user by username, ignoring case', async () => {
    expect(ids(await h.get('/users?username=ALICE-U', { token: bob.token }))).toEqual([alice.id]);
    expect(ids(await h.get('/users?username=alice', { token: bob.token }))).toEqual([]);
  });

  it('searches names and usernames', async () => {
    expect(ids(await h.get('/users?search=alice ex', { token: bob.token }))).toEqual([alice.id]);
    expect(ids(await h.get('/users?search=bob-', { token: bob.token }))).toEqual([bob.id]);
    // LIKE wildcards in the search are plain characters
    expect(ids(await h.get('/users?search=%25', { token: bob.token }))).toEqual([]);
  });

  it('filters active and blocked users; only administrators see blocked ones', async () => {
    const active = ids(await h.get('/users?active=true&per_page=100'));
    expect(active).toContain(alice.id);
    expect(active).not.toContain(blockedId);
    expect(ids(await h.get('/users?blocked=true&per_page=100'))).toEqual([blockedId]);
    expect(ids(await h.get('/users?per_page=100', { token: bob.token }))).not.toContain(blockedId);
    expect(ids(await h.get('/users?blocked=true', { token: bob.token }))).toEqual([]);
    expect(ids(await h.get('/users?username=blocked-u', { token: bob.token }))).toEqual([]);
  });

  it('filters humans and leaves out project bots', async () => {
    const all = ids(await h.get('/users?per_page=100'));
    expect(all).toContain(botId);
    const humans = ids(await h.get('/users?humans=true&per_page=100'));
    expect(humans).not.toContain(botId);
    expect(humans).toContain(alice.id);
    const withoutBots = ids(await h.get('/users?without_project_bots=true&per_page=100'));
    expect(withoutBots).not.toContain(botId);
    expect(withoutBots).toHaveLength(all.length - 1);
  });

  it('filters administrators for administrators and ignores the filter for others', async () => {
    expect(ids(await h.get('/users?admins=true&per_page=100')).sort()).toEqual([1, otherAdmin.id].sort());
    const asUser = await h.get('/users?admins=true&per_page=100', { token: bob.token });
    expect(asUser.status).toBe(200);
    expect(ids(asUser)).toContain(alice.id);
  });

  it('filters external users', async () => {
    expect(ids(await h.get('/users?external=true', { token: bob.token }))).toEqual([externalId]);
  });

  it('filters by created_after for administrators and ignores it for others', async () => {
    expect(ids(await h.get(`/users?created_after=${beforeLaterUsers}`))).toEqual([later.id]);
    const asUser = ids(await h.get(`/users?created_after=${beforeLaterUsers}&per_page=100`, { token: bob.token }));
    expect(asUser).toContain(alice.id);
    expect(asUser).toContain(later.id);
    expect((await h.get('/users?created_after=not-a-date')).body).toEqual({ error: 'created_after is invalid' });
  });

  it('requires a username from anonymous callers', async () => {
    const refused = await h.get('/users', { token: null });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
    const found = await h.get('/users?username=alice-u', { token: null });
    expect(found.status).toBe(200);
    expect(ids(found)).toEqual([alice.id]);
    expect(Object.keys(found.body[0]).filter((key) => !USER_BASIC_ALLOWED.includes(key))).toEqual([]);
  });

  it('answers 400 for an unknown order', async () => {
    expect((await h.get('/users?order_by=email')).body).toEqual({ error: 'order_by does not have a valid value' });
    expect((await h.get('/users?sort=up')).body).toEqual({ error: 'sort does not have a valid value' });
  });
});

describe('GET /users/:id', () => {
  it('shows another user the public profile', async () => {
    const answer = await h.get(`/users/${alice.id}`, { token: bob.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: alice.id, username: 'alice-u', name: 'Alice Example', bio: 'likes tests', bot: false, followers: 0, following: 0 });
    expect(answer.body).toHaveProperty('created_at');
    for (const key of ['email', 'is_admin', 'projects_limit', 'identities', 'last_sign_in_at']) expect(answer.body, key).not.toHaveProperty(key);
  });

  it('shows the public profile for yourself too', async () => {
    const answer = await h.get(`/users/${alice.id}`, { token: alice.token });
    expect(answer.body.id).toBe(alice.id);
    expect(answer.body).not.toHaveProperty('email');
  });

  it('shows an administrator every field', async () => {
    const answer = await h.get(`/users/${alice.id}`);
    expect(answer.body).toMatchObject({ id: alice.id, email: alice.email, is_admin: false, external: false });
    expect(answer.body.created_by).toMatchObject({ id: 1 });
  });

  it('answers 404 User Not Found for an unknown id and 404 Not Found for a non-number', async () => {
    const missing = await h.get('/users/999999', { token: bob.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
    for (const id of ['alice-u', '1abc', '-1']) {
      const answer = await h.get(`/users/${id}`, { token: bob.token });
      expect(answer.status, id).toBe(404);
      expect(answer.body, id).toEqual({ error: '404 Not Found' });
    }
  });
});

describe('POST /users', () => {
  it('creates a user: 201 with the administrator entity', async () => {
    const username = unique('new-');
    const answer = await h.post('/users', { email: `${username}@example.com`, name: 'New Person', username, password: 'long-enough', projects_limit: 7, can_create_group: false, external: true, bio: 'hello' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ username, name: 'New Person', email: `${username}@example.com`, state: 'active', is_admin: false, projects_limit: 7, can_create_group: false, external: true, bio: 'hello' });
    expect(answer.body.created_by).toMatchObject({ id: 1, username: 'root' });
    expect(answer.body).not.toHaveProperty('password');
    expect((await h.get(`/users/${answer.body.id}`)).body.username).toBe(username);
  });

  it('accepts reset_password or force_random_password instead of a password', async () => {
    for (const flag of ['reset_password', 'force_random_password']) {
      const username = unique('flag-');
      const answer = await h.post('/users', { email: `${username}@example.com`, name: 'Flagged', username, [flag]: true });
      expect(answer.status, flag).toBe(201);
    }
  });

  it('answers 409 for a taken email, then for a taken username, ignoring case', async () => {
    const email = await h.post('/users', { email: alice.email.toUpperCase(), name: 'X', username: unique('x-'), password: 'long-enough' });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: 'Email has already been taken' });
    const username = await h.post('/users', { email: `${unique('x')}@example.com`, name: 'X', username: 'Alice-U', password: 'long-enough' });
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: 'Username has already been taken' });
    const both = await h.post('/users', { email: alice.email, name: 'X', username: 'alice-u', password: 'long-enough' });
    expect(both.body).toEqual({ message: 'Email has already been taken' });
  });

  it('answers 400 for missing parameters', async () => {
    const none = await h.post('/users', {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'email is missing, name is missing, username is missing' });
    const noPassword = await h.post('/users', { email: `${unique('np')}@example.com`, name: 'No Password', username: unique('np-') });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body).toEqual({ error: 'password, reset_password, force_random_password are missing, at least one parameter must be provided' });
  });

  it('answers 400 with the field errors for a short password or a bad email or username', async () => {
    const short = await h.post('/users', { email: `${unique('sp')}@example.com`, name: 'Short', username: unique('sp-'), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
    const email = await h.post('/users', { email: 'not-an-email', name: 'Bad', username: unique('be-'), password: 'long-enough' });
    expect(email.status).toBe(400);
    expect(email.body).toEqual({ message: { email: ['is invalid'] } });
    const username = await h.post('/users', { email: `${unique('bu')}@example.com`, name: 'Bad', username: '-starts-with-dash', password: 'long-enough' });
    expect(username.status).toBe(400);
    expect(Object.keys(username.body.message)).toEqual(['username']);
    // nothing of the refused users was stored
    expect((await h.get('/users?search=not-an-email')).body).toEqual([]);
  });
});

describe('POST /users/:id/personal_access_tokens', () => {
  it('answers 201 with the secret once; the token then authenticates as that user', async () => {
    const answer = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'ci', scopes: ['api', 'read_user'], description: 'for ci' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ name: 'ci', description: 'for ci', scopes: ['api', 'read_user'], user_id: bob.id, revoked: false, active: true, last_used_at: null });
    expect(answer.body.token).toMatch(/^glpat-[A-Za-z0-9_-]{20,}$/);
    expect(answer.body.expires_at).toBe(addDays(new Date(), 365));
    const self = await h.get('/personal_access_tokens/self', { token: answer.body.token });
    expect(self.body.id).toBe(answer.body.id);
    expect(self.body).not.toHaveProperty('token');
    expect((await h.get('/user', { token: answer.body.token })).body.id).toBe(bob.id);
    // only the digest is stored
    const stored = JSON.stringify(h.sandbox.db.prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(answer.body.id));
    expect(stored).not.toContain(answer.body.token);
  });

  it('accepts scopes as a comma-separated list', async () => {
    const answer = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'comma', scopes: 'read_api,read_user' });
    expect(answer.status).toBe(201);
    expect(answer.body.scopes).toEqual(['read_api', 'read_user']);
  });

  it('answers 400 for missing or unknown scopes', async () => {
    expect((await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'x' })).body).toEqual({ error: 'scopes is missing' });
    for (const scopes of [['api', 'root_everything'], [], ['']]) {
      const answer = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'x', scopes });
      expect(answer.status, JSON.stringify(scopes)).toBe(400);
      expect(answer.body).toEqual({ error: 'scopes does not have a valid value' });
    }
  });

  it('keeps expires_at within the maximum lifetime and in the future', async () => {
    const now = new Date();
    const atMax = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'max', scopes: ['api'], expires_at: addDays(now, 365) });
    expect(atMax.status).toBe(201);
    const beyond = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'long', scopes: ['api'], expires_at: addDays(now, 366) });
    expect(beyond.status).toBe(400);
    expect(beyond.body.message.expires_at[0]).toMatch(/^must be before /);
    const past = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'past', scopes: ['api'], expires_at: addDays(now, -1) });
    expect(past.status).toBe(400);
    expect(past.body.message).toHaveProperty('expires_at');
    const invalid = await h.post(`/users/${bob.id}/personal_access_tokens`, { name: 'bad', scopes: ['api'], expires_at: '2030-02-30' });
    expect(invalid.body).toEqual({ error: 'expires_at is invalid' });
  });

  it('answers 404 User Not Found for an unknown user', async () => {
    const answer = await h.post('/users/999999/personal_access_tokens', { name: 'x', scopes: ['api'] });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 User Not Found' });
  });
});

describe('following users (spec 1, 4.8)', () => {
  it('follows: 201 with the user summary, 304 when already following', async () => {
    const answer = await h.post(`/users/${alice.id}/follow`, undefined, { token: bob.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ id: alice.id, username: 'alice-u', name: 'Alice Example', state: 'active', locked: false });
    expect(Object.keys(answer.body).filter((key) => !USER_BASIC_ALLOWED.includes(key))).toEqual([]);
    const again = await h.post(`/users/${alice.id}/follow`, undefined, { token: bob.token });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const profile = await h.get(`/users/${alice.id}`, { token: bob.token });
    expect(profile.body).toMatchObject({ followers: 1, is_followed: true });
  });

  it('answers 304 to following yourself', async () => {
    const answer = await h.post(`/users/${bob.id}/follow`, undefined, { token: bob.token });
    expect(answer.status).toBe(304);
    expect((await h.get(`/users/${bob.id}/following`, { token: bob.token })).body.map((u: { id: number }) => u.id)).not.toContain(bob.id);
  });

  it('unfollows: 201, then 304 when not following', async () => {
    const target = await apiUser(h);
    await h.post(`/users/${target.id}/follow`, undefined, { token: bob.token });
    const answer = await h.post(`/users/${target.id}/unfollow`, undefined, { token: bob.token });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(target.id);
    expect((await h.post(`/users/${target.id}/unfollow`, undefined, { token: bob.token })).status).toBe(304);
    expect((await h.get(`/users/${target.id}/followers`, { token: bob.token })).body).toEqual([]);
  });

  it('answers 401 anonymous and 404 for an unknown user', async () => {
    expect((await h.post(`/users/${alice.id}/follow`, undefined, { token: null })).status).toBe(401);
    const missing = await h.post('/users/999999/follow', undefined, { token: bob.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 User Not Found' });
  });

  it('lists followers and following, paginated', async () => {
    const star = await apiUser(h, { username: 'star-u' });
    const fans: ApiUser[] = [];
    for (let i = 0; i < 3; i++) {
      const fan = await apiUser(h);
      expect((await h.post(`/users/${star.id}/follow`, undefined, { token: fan.token })).status).toBe(201);
      fans.push(fan);
    }
    const first = await h.get(`/users/${star.id}/followers?per_page=2`, { token: bob.token });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('x-total')).toBe('3');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await h.get(`/users/${star.id}/followers?per_page=2&page=2`, { token: bob.token });
    const all = [...ids(first), ...ids(second)];
    expect(all.sort()).toEqual(fans.map((fan) => fan.id).sort());
    const following = await h.get(`/users/${fans[0].id}/following`, { token: bob.token });
    expect(ids(following)).toEqual([star.id]);
    expect(following.headers.get('x-total')).toBe('1');
    expect((await h.get('/users/999999/followers', { token: bob.token })).body).toEqual({ message: '404 User Not Found' });
  });
});
