import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import { addDays } from '../model/time.ts';
import { tokenDigest } from '../http/auth.ts';
import { apiGroup, apiUser, linkRels, type ApiGroup, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const db = () => h.sandbox.db;
const day = (days: number) => addDays(h.sandbox.now(), days);
const REVOKED_BODY = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };
const ENTITY_KEYS = ['access_level', 'active', 'created_at', 'description', 'expires_at', 'id', 'last_used_at', 'name', 'revoked', 'scopes', 'user_id'];

interface TokenBody {
  id: number;
  user_id: number;
  name: string;
  description: string | null;
  scopes: string[];
  access_level: number;
  active: boolean;
  revoked: boolean;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  token?: string;
}

let owner: ApiUser;
let maintainer: ApiUser;
let outsider: ApiUser;
let group: ApiGroup;
let otherGroup: ApiGroup;

beforeAll(async () => {
  owner = await apiUser(h);
  maintainer = await apiUser(h);
  outsider = await apiUser(h);
  group = await apiGroup(h, owner.token);
  otherGroup = await apiGroup(h, owner.token, { visibility: 'public' });
  const added = await h.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 }, { token: owner.token });
  expect(added.status).toBe(201);
});

async function createToken(groupId: number, body: Record<string, unknown> = {}, token = owner.token): Promise<TokenBody & { token: string }> {
  const answer = await h.post(`/groups/${groupId}/access_tokens`, { name: 'ci', scopes: ['api'], ...body }, { token });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const tokenRow = (id: number) => db().prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(id) as { revoked: number; token_digest: string; family_id: number; previous_token_id: number | null };
const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id);

describe('POST /groups/:id/access_tokens', () => {
  it('creates a bot member at Maintainer with the maximum lifetime, and shows the secret once', async () => {
    const answer = await h.post(`/groups/${group.id}/access_tokens`, { name: 'deploy', scopes: ['api', 'read_repository'] }, { token: owner.token });
    expect(answer.status).toBe(201);
    const body = answer.body as TokenBody;
    expect(Object.keys(body).sort()).toEqual([...ENTITY_KEYS, 'token'].sort());
    expect(body).toMatchObject({
      name: 'deploy', description: null, scopes: ['api', 'read_repository'], access_level: 40, active: true, revoked: false,
      expires_at: day(h.sandbox.config.maxTokenLifetimeDays), last_used_at: null,
    });
    expect(body.token).toMatch(/^glpat-/);
    const bot = db().prepare('SELECT * FROM users WHERE id = ?').get(body.user_id) as { username: string; name: string; email: string; user_type: string; can_create_group: number };
    expect(bot.user_type).toBe('project_bot');
    expect(bot.username).toMatch(new RegExp(`^group_${group.id}_bot_[0-9a-f]{32}$`));
    expect(bot.name).toBe('deploy');
    expect(bot.email).toBe(`${bot.username}@noreply.localhost`);
    expect(bot.can_create_group).toBe(0);
    const member = db().prepare("SELECT access_level FROM members WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").get(group.id, body.user_id) as { access_level: number };
    expect(member.access_level).toBe(40);
    // stored hashed: the plain secret is nowhere in the row
    const row = tokenRow(body.id);
    expect(row.token_digest).toBe(tokenDigest(body.token!));
    expect(JSON.stringify(row)).not.toContain(body.token!);
    // never shown again
    const again = await h.get(`/groups/${group.id}/access_tokens/${body.id}`, { token: owner.token });
    expect(again.body).not.toHaveProperty('token');
  });

  it('takes access_level, description and expires_at', async () => {
    const body = await createToken(group.id, { name: 'reader', scopes: ['read_api'], access_level: 15, description: 'for dashboards', expires_at: day(30) });
    expect(body).toMatchObject({ access_level: 15, description: 'for dashboards', expires_at: day(30), scopes: ['read_api'] });
    const owners = await createToken(group.id, { access_level: 50, expires_at: day(h.sandbox.config.maxTokenLifetimeDays) });
    expect(owners.access_level).toBe(50);
  });

  it('answers Grape 400s for missing and invalid parameters', async () => {
    const post = (body: unknown) => h.post(`/groups/${group.id}/access_tokens`, body, { token: owner.token });
    expect((await post({})).body).toEqual({ error: 'name is missing, scopes is missing' });
    expect((await post({ name: 'x', scopes: ['read_user'] })).body).toEqual({ error: 'scopes does not have a valid value' });
    expect((await post({ name: 'x', scopes: ['api'], access_level: 5 })).body).toEqual({ error: 'access_level does not have a valid value' });
    expect((await post({ name: 'x', scopes: ['api'], access_level: 60 })).status).toBe(400);
    const badDate = await post({ name: 'x', scopes: ['api'], expires_at: '2030-02-30' });
    expect(badDate).toMatchObject({ status: 400, body: { error: 'expires_at is invalid' } });
  });

  it('refuses an expiry that is not in the future or beyond the maximum lifetime', async () => {
    const max = h.sandbox.config.maxTokenLifetimeDays;
    const past = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'], expires_at: day(0) }, { token: owner.token });
    expect(past).toMatchObject({ status: 400, body: { message: '400 Bad request - Expires at must be in the future' } });
    const far = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'], expires_at: day(max + 1) }, { token: owner.token });
    expect(far).toMatchObject({ status: 400, body: { message: `400 Bad request - Expires at must be before ${day(max)}` } });
  });

  it('follows the maximum lifetime setting', async () => {
    const saved = h.sandbox.config.maxTokenLifetimeDays;
    h.sandbox.config.maxTokenLifetimeDays = 30;
    try {
      expect((await createToken(group.id)).expires_at).toBe(day(30));
      const far = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'], expires_at: day(31) }, { token: owner.token });
      expect(far.status).toBe(400);
    } finally {
      h.sandbox.config.maxTokenLifetimeDays = saved;
    }
  });

  it('is for Owners and administrators only', async () => {
    const byMaintainer = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'] }, { token: maintainer.token });
    expect(byMaintainer).toMatchObject({ status: 400, body: { message: '400 Bad request - User does not have permission to create group access token' } });
    const hidden = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'] }, { token: outsider.token });
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect((await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'] }, { token: null })).status).toBe(401);
    const byAdmin = await createToken(group.id, { name: 'by admin' }, h.adminToken);
    expect(byAdmin.access_level).toBe(40);
  });

  it('refuses a group token creating tokens', async () => {
    const bot = await createToken(group.id, { access_level: 50 });
    const answer = await h.post(`/groups/${group.id}/access_tokens`, { name: 'x', scopes: ['api'] }, { token: bot.token });
    expect(answer).toMatchObject({ status: 400, body: { message: '400 Bad request - User does not have permission to create group access token' } });
  });
});

describe('a group token authenticates as its bot, within its group only', () => {
  it('reads its group, records last_used_at, and reaches nothing else', async () => {
    const bot = await createToken(group.id, { name: 'scoped' });
    const own = await h.get(`/groups/${group.id}`, { token: bot.token });
    expect(own.status).toBe(200);
    const listed = await h.get(`/groups/${group.id}/access_tokens/${bot.id}`, { token: owner.token });
    expect(listed.body.last_used_at).not.toBeNull();
    const privateElsewhere = await apiGroup(h, outsider.token);
    expect((await h.get(`/groups/${privateElsewhere.id}`, { token: bot.token })).status).toBe(404);
    const newGroup = await h.post('/groups', { name: 'botgroup', path: `botgroup-${bot.id}` }, { token: bot.token });
    expect(newGroup.status).toBe(403);
    const me = await h.get('/user', { token: bot.token });
    expect(me.body).toMatchObject({ id: bot.user_id, bot: true });
  });
});

describe('GET /groups/:id/access_tokens', () => {
  let listGroup: ApiGroup;
  const made: Record<string, TokenBody & { token: string }> = {};

  beforeAll(async () => {
    listGroup = await apiGroup(h, owner.token);
    for (const name of ['alpha build', 'Beta deploy', 'gamma', 'delta old', 'ab']) made[name] = await createToken(listGroup.id, { name });
    const set = (name: string, column: string, value: unknown) => db().prepare(`UPDATE personal_access_tokens SET ${column} = ? WHERE id = ?`).run(value, made[name].id);
    set('alpha build', 'created_at', '2024-01-01T00:00:00.000Z');
    set('Beta deploy', 'created_at', '2024-02-01T00:00:00.000Z');
    set('gamma', 'created_at', '2024-03-01T00:00:00.000Z');
    set('delta old', 'created_at', '2024-04-01T00:00:00.000Z');
    set('ab', 'created_at', '2024-05-01T00:00:00.000Z');
    set('alpha build', 'expires_at', day(10));
    set('Beta deploy', 'expires_at', day(20));
    set('gamma', 'expires_at', day(30));
    set('delta old', 'expires_at', day(-5));
    set('ab', 'expires_at', day(40));
    set('alpha build', 'last_used_at', '2024-06-01T00:00:00.000Z');
    set('Beta deploy', 'last_used_at', '2024-07-01T00:00:00.000Z');
    set('gamma', 'last_used_at', null);
    set('delta old', 'last_used_at', '2024-05-01T00:00:00.000Z');
    set('ab', 'last_used_at', null);
    set('gamma', 'revoked', 1);
    // a token of another group and a personal token never appear
    await createToken(otherGroup.id, { name: 'alpha elsewhere' });
  });

  const list = (query = '', token = owner.token) => h.get(`/groups/${listGroup.id}/access_tokens${query}`, { token });
  const namesOf = (answer: Answer) => (answer.body as TokenBody[]).map((row) => row.name);

  it('lists every token of the group by id, with the entity and pagination headers', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(namesOf(answer)).toEqual(['alpha build', 'Beta deploy', 'gamma', 'delta old', 'ab']);
    expect(Object.keys(answer.body[0]).sort()).toEqual(ENTITY_KEYS);
    expect(answer.headers.get('x-total')).toBe('5');
    const page = await list('?per_page=2&page=2');
    expect(namesOf(page)).toEqual(['gamma', 'delta old']);
    expect(page.headers.get('x-total-pages')).toBe('3');
    expect(Object.keys(linkRels(page.headers.get('link'))).sort()).toEqual(['first', 'last', 'next', 'prev']);
  });

  it('filters by state and revoked', async () => {
    expect(namesOf(await list('?state=active'))).toEqual(['alpha build', 'Beta deploy', 'ab']);
    expect(namesOf(await list('?state=inactive'))).toEqual(['gamma', 'delta old']);
    expect(namesOf(await list('?revoked=true'))).toEqual(['gamma']);
    expect(namesOf(await list('?revoked=false'))).toEqual(['alpha build', 'Beta deploy', 'delta old', 'ab']);
    const inactive = (await list('?state=inactive')).body as TokenBody[];
    expect(inactive.every((row) => !row.active)).toBe(true);
    expect((await list('?state=expired')).body).toEqual({ error: 'state does not have a valid value' });
  });

  it('filters by creation, expiry and last use', async () => {
    expect(namesOf(await list('?created_after=2024-03-01T00:00:00Z'))).toEqual(['gamma', 'delta old', 'ab']);
    expect(namesOf(await list('?created_before=2024-02-01T00:00:00Z'))).toEqual(['alpha build', 'Beta deploy']);
    expect(namesOf(await list(`?expires_before=${day(20)}`))).toEqual(['alpha build', 'delta old']);
    expect(namesOf(await list(`?expires_after=${day(30)}`))).toEqual(['gamma', 'ab']);
    expect(namesOf(await list('?last_used_after=2024-06-01T00:00:00Z'))).toEqual(['alpha build', 'Beta deploy']);
    expect(namesOf(await list('?last_used_before=2024-06-01T00:00:00Z'))).toEqual(['alpha build', 'delta old']);
    expect((await list('?created_after=yesterday')).body).toEqual({ error: 'created_after is invalid' });
  });

  it('searches names: substrings from three characters, exact below', async () => {
    expect(namesOf(await list('?search=ALPHA'))).toEqual(['alpha build']);
    expect(namesOf(await list('?search=ta'))).toEqual([]);
    expect(namesOf(await list('?search=AB'))).toEqual(['ab']);
    expect(namesOf(await list('?search=deploy'))).toEqual(['Beta deploy']);
  });

  it('sorts by every documented order and ignores unknown ones', async () => {
    expect(namesOf(await list('?sort=created_desc'))).toEqual(['ab', 'delta old', 'gamma', 'Beta deploy', 'alpha build']);
    expect(namesOf(await list('?sort=created_asc'))).toEqual(['alpha build', 'Beta deploy', 'gamma', 'delta old', 'ab']);
    expect(namesOf(await list('?sort=name_asc'))).toEqual(['ab', 'alpha build', 'Beta deploy', 'delta old', 'gamma']);
    expect(namesOf(await list('?sort=name_desc'))).toEqual(['gamma', 'delta old', 'Beta deploy', 'alpha build', 'ab']);
    expect(namesOf(await list('?sort=expires_asc'))).toEqual(['delta old', 'alpha build', 'Beta deploy', 'gamma', 'ab']);
    expect(namesOf(await list('?sort=expires_desc'))).toEqual(['ab', 'gamma', 'Beta deploy', 'alpha build', 'delta old']);
    // never-used tokens come last ascending and first descending, newest id first among equals
    expect(namesOf(await list('?sort=last_used_asc'))).toEqual(['delta old', 'alpha build', 'Beta deploy', 'ab', 'gamma']);
    expect(namesOf(await list('?sort=last_used_desc'))).toEqual(['ab', 'gamma', 'Beta deploy', 'alpha build', 'delta old']);
    expect(namesOf(await list('?sort=sideways'))).toEqual(['alpha build', 'Beta deploy', 'gamma', 'delta old', 'ab']);
  });

  it('combines filters with sorting and paging', async () => {
    const answer = await list('?state=active&sort=name_desc&per_page=2');
    expect(namesOf(answer)).toEqual(['Beta deploy', 'alpha build']);
    expect(answer.headers.get('x-total')).toBe('3');
  });

  it('answers 401 to members below Owner and to the group\'s own tokens, 404 to outsiders', async () => {
    await h.post(`/groups/${listGroup.id}/members`, { user_id: maintainer.id, access_level: 40 }, { token: owner.token });
    expect(await list('', maintainer.token)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await list('', made.ab.token)).status).toBe(401);
    expect(await list('', outsider.token)).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect((await list('', h.adminToken)).status).toBe(200);
  });
});

describe('GET /groups/:id/access_tokens/:token_id', () => {
  it('answers one token with its role; 404 for unknown ids and other groups\' tokens', async () => {
    const token = await createToken(group.id, { name: 'one', access_level: 30 });
    const answer = await h.get(`/groups/${group.id}/access_tokens/${token.id}`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: token.id, name: 'one', access_level: 30, active: true });
    const missing = await h.get(`/groups/${group.id}/access_tokens/999999`, { token: owner.token });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 group Access Token Not Found' } });
    const foreign = await createToken(otherGroup.id);
    expect((await h.get(`/groups/${group.id}/access_tokens/${foreign.id}`, { token: owner.token })).status).toBe(404);
    expect((await h.get(`/groups/${group.id}/access_tokens/${owner.id}`, { token: owner.token })).status).toBe(404);
    expect((await h.get(`/groups/${group.id}/access_tokens/${token.id}`, { token: maintainer.token })).status).toBe(401);
  });

  it('answers the authenticating group token for `self`', async () => {
    const token = await createToken(group.id, { name: 'me', scopes: ['read_api'], access_level: 20 });
    const answer = await h.get(`/groups/${group.id}/access_tokens/self`, { token: token.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: token.id, name: 'me', access_level: 20, scopes: ['read_api'] });
    expect(answer.body).not.toHaveProperty('token');
    // a personal token, or a token of another group, is not this group's `self`
    expect((await h.get(`/groups/${group.id}/access_tokens/self`, { token: owner.token })).status).toBe(404);
    const elsewhere = await createToken(otherGroup.id);
    expect((await h.get(`/groups/${group.id}/access_tokens/self`, { token: elsewhere.token })).status).toBe(404);
  });
});

describe('POST /groups/:id/access_tokens/:token_id/rotate', () => {
  it('revokes the old token at once and answers a new one-week token with its secret', async () => {
    const old = await createToken(group.id, { name: 'rotating', description: 'nightly', scopes: ['api', 'read_repository'], access_level: 30 });
    const answer = await h.post(`/groups/${group.id}/access_tokens/${old.id}/rotate`, undefined, { token: owner.token });
    expect(answer.status).toBe(200);
    const fresh = answer.body as TokenBody;
    expect(Object.keys(fresh).sort()).toEqual([...ENTITY_KEYS, 'token'].sort());
    expect(fresh).toMatchObject({ name: 'rotating', description: 'nightly', scopes: ['api', 'read_repository'], access_level: 30, user_id: old.user_id, active: true, revoked: false, expires_at: day(7) });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.token).not.toBe(old.token);
    expect(tokenRow(old.id).revoked).toBe(1);
    expect(tokenRow(fresh.id)).toMatchObject({ previous_token_id: old.id, family_id: tokenRow(old.id).family_id });
    const oldUse = await h.get(`/groups/${group.id}`, { token: old.token });
    expect(oldUse).toMatchObject({ status: 401, body: REVOKED_BODY });
    expect((await h.get(`/groups/${group.id}`, { token: fresh.token! })).status).toBe(200);
    const listed = await h.get(`/groups/${group.id}/access_tokens/${old.id}`, { token: owner.token });
    expect(listed.body).toMatchObject({ revoked: true, active: false });
  });

  it('takes expires_at up to the maximum lifetime ahead', async () => {
    const old = await createToken(group.id);
    const answer = await h.post(`/groups/${group.id}/access_tokens/${old.id}/rotate`, { expires_at: day(365) }, { token: owner.token });
    expect(answer).toMatchObject({ status: 200, body: { expires_at: day(365) } });
    const other = await createToken(group.id);
    const far = await h.post(`/groups/${group.id}/access_tokens/${other.id}/rotate`, { expires_at: day(366) }, { token: owner.token });
    expect(far).toMatchObject({ status: 400, body: { message: `400 Bad request - Expires at must be before ${day(365)}` } });
    expect(tokenRow(other.id).revoked).toBe(0);
    const past = await h.post(`/groups/${group.id}/access_tokens/${other.id}/rotate`, { expires_at: day(-1) }, { token: owner.token });
    expect(past.status).toBe(400);
    expect((await h.post(`/groups/${group.id}/access_tokens/${other.id}/rotate`, { expires_at: 'soon' }, { token: owner.token })).body).toEqual({ error: 'expires_at is invalid' });
  });

  it('answers 401 to a group token rotating a different token, and to non-Owners', async () => {
    const target = await createToken(group.id, { name: 'target' });
    const other = await createToken(group.id, { name: 'other', access_level: 50 });
    const byToken = await h.post(`/groups/${group.id}/access_tokens/${target.id}/rotate`, undefined, { token: other.token });
    expect(byToken).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    // by id, even its own token: group tokens rotate themselves through `self`
    expect((await h.post(`/groups/${group.id}/access_tokens/${other.id}/rotate`, undefined, { token: other.token })).status).toBe(401);
    expect((await h.post(`/groups/${group.id}/access_tokens/${target.id}/rotate`, undefined, { token: maintainer.token })).status).toBe(401);
    expect(tokenRow(target.id).revoked).toBe(0);
  });

  it('answers 404 to an administrator for a missing token and 401 to an Owner', async () => {
    const admin = await h.post(`/groups/${group.id}/access_tokens/999999/rotate`, undefined, { token: h.adminToken });
    expect(admin).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect((await h.post(`/groups/${group.id}/access_tokens/999999/rotate`, undefined, { token: owner.token })).status).toBe(401);
    // a personal token is not a token of the group
    const personal = db().prepare('SELECT id FROM personal_access_tokens WHERE user_id = ?').get(maintainer.id) as { id: number };
    expect((await h.post(`/groups/${group.id}/access_tokens/${personal.id}/rotate`, undefined, { token: owner.token })).status).toBe(401);
    expect((await h.post(`/groups/${group.id}/access_tokens/${personal.id}/rotate`, undefined, { token: h.adminToken })).status).toBe(404);
    expect(tokenRow(personal.id).revoked).toBe(0);
  });

  it('refuses a revoked token and revokes every active token of its family (reuse detection)', async () => {
    const first = await createToken(group.id, { name: 'family' });
    const bystander = await createToken(group.id, { name: 'bystander' });
    const second = (await h.post(`/groups/${group.id}/access_tokens/${first.id}/rotate`, undefined, { token: owner.token })).body as TokenBody;
    expect((await h.get(`/groups/${group.id}`, { token: second.token! })).status).toBe(200);
    const reuse = await h.post(`/groups/${group.id}/access_tokens/${first.id}/rotate`, undefined, { token: owner.token });
    expect(reuse).toMatchObject({ status: 400, body: { message: '400 Bad request - Token already revoked' } });
    expect(tokenRow(second.id).revoked).toBe(1);
    expect((await h.get(`/groups/${group.id}`, { token: second.token! })).status).toBe(401);
    expect(tokenRow(bystander.id).revoked).toBe(0);
  });

  it('revokes the family when a revoked secret is presented to a rotate endpoint', async () => {
    const first = await createToken(group.id, { name: 'leaked' });
    const second = (await h.post(`/groups/${group.id}/access_tokens/self/rotate`, undefined, { token: first.token })).body as TokenBody;
    expect(tokenRow(second.id).revoked).toBe(0);
    const stolen = await h.post(`/groups/${group.id}/access_tokens/self/rotate`, undefined, { token: first.token });
    expect(stolen).toMatchObject({ status: 401, body: REVOKED_BODY });
    expect(tokenRow(second.id).revoked).toBe(1);
    // any other request with a revoked secret leaves the family alone
    const third = await createToken(group.id, { name: 'careful' });
    const fourth = (await h.post(`/groups/${group.id}/access_tokens/${third.id}/rotate`, undefined, { token: owner.token })).body as TokenBody;
    expect((await h.get(`/groups/${group.id}`, { token: third.token })).status).toBe(401);
    expect(tokenRow(fourth.id).revoked).toBe(0);
  });
});

describe('POST /groups/:id/access_tokens/self/rotate', () => {
  it('rotates the authenticating token with the api scope', async () => {
    const token = await createToken(group.id, { name: 'self-api', scopes: ['api'] });
    const answer = await h.post(`/groups/${group.id}/access_tokens/self/rotate`, { expires_at: day(30) }, { token: token.token });
    expect(answer).toMatchObject({ status: 200, body: { name: 'self-api', expires_at: day(30), active: true } });
    expect(answer.body.token).toMatch(/^glpat-/);
    expect(tokenRow(token.id).revoked).toBe(1);
    expect((await h.get(`/groups/${group.id}/access_tokens/self`, { token: answer.body.token })).body.id).toBe(answer.body.id);
  });

  it('rotates with self_rotate alone', async () => {
    const token = await createToken(group.id, { name: 'self-only', scopes: ['self_rotate'] });
    const answer = await h.post(`/groups/${group.id}/access_tokens/self/rotate`, undefined, { token: token.token });
    expect(answer).toMatchObject({ status: 200, body: { scopes: ['self_rotate'], expires_at: day(7) } });
    // self_rotate reaches nothing else
    expect((await h.get(`/groups/${group.id}`, { token: answer.body.token })).status).toBe(403);
  });

  it('answers 403 when the token may not rotate itself', async () => {
    const token = await createToken(group.id, { name: 'reader', scopes: ['read_api', 'read_repository'] });
    const answer = await h.post(`/groups/${group.id}/access_tokens/self/rotate`, undefined, { token: token.token });
    expect(answer).toMatchObject({
      status: 403,
      body: { error: 'insufficient_scope', error_description: 'The request requires higher privileges than provided by the access token.', scope: 'api self_rotate' },
    });
    expect(tokenRow(token.id).revoked).toBe(0);
  });

  it('answers 405 when the authenticating token is not an access token', async () => {
    const answer = await h.post(`/groups/${group.id}/access_tokens/self/rotate`, undefined, { token: owner.token });
    expect(answer).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
  });

  it('answers 401 to a token of another group', async () => {
    const elsewhere = await createToken(group.id, { name: 'wrong group' });
    const answer = await h.post(`/groups/${otherGroup.id}/access_tokens/self/rotate`, undefined, { token: elsewhere.token });
    expect(answer).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(tokenRow(elsewhere.id).revoked).toBe(0);
  });
});

describe('DELETE /groups/:id/access_tokens/:token_id', () => {
  it('revokes: 204, the token stops working and stays listed as revoked', async () => {
    const token = await createToken(group.id, { name: 'to revoke' });
    const answer = await h.delete(`/groups/${group.id}/access_tokens/${token.id}`, { token: owner.token });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(await h.get(`/groups/${group.id}`, { token: token.token })).toMatchObject({ status: 401, body: REVOKED_BODY });
    const shown = await h.get(`/groups/${group.id}/access_tokens?revoked=true`, { token: owner.token });
    expect(ids(shown)).toContain(token.id);
    // the bot keeps its membership, so the revoked token keeps its role in the list
    expect((shown.body as TokenBody[]).find((row) => row.id === token.id)!.access_level).toBe(40);
  });

  it('answers 400 for a token already revoked and 404 for an unknown one', async () => {
    const token = await createToken(group.id, { name: 'twice' });
    expect((await h.delete(`/groups/${group.id}/access_tokens/${token.id}`, { token: owner.token })).status).toBe(204);
    const again = await h.delete(`/groups/${group.id}/access_tokens/${token.id}`, { token: owner.token });
    expect(again).toMatchObject({ status: 400, body: { message: '400 Bad request - Token already revoked' } });
    const missing = await h.delete(`/groups/${group.id}/access_tokens/999999`, { token: owner.token });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 group Access Token Not Found' } });
    const foreign = await createToken(otherGroup.id);
    expect((await h.delete(`/groups/${group.id}/access_tokens/${foreign.id}`, { token: owner.token })).status).toBe(404);
    expect(tokenRow(foreign.id).revoked).toBe(0);
  });

  it('answers 400 to members who may not revoke', async () => {
    const token = await createToken(group.id, { name: 'Protected Bot' });
    const answer = await h.delete(`/groups/${group.id}/access_tokens/${token.id}`, { token: maintainer.token });
    expect(answer).toMatchObject({ status: 400, body: { message: `400 Bad request - ${maintainer.name} cannot delete Protected Bot` } });
    expect(tokenRow(token.id).revoked).toBe(0);
  });
});

describe('personal access tokens API', () => {
  let person: ApiUser;
  beforeAll(async () => {
    person = await apiUser(h);
    const second = await h.post(`/users/${person.id}/personal_access_tokens`, { name: 'laptop backup', scopes: ['read_api'] }, { token: h.adminToken });
    expect(second.status).toBe(201);
  });

  it('lists a user\'s own tokens, with the filters, and refuses other users\' ids', async () => {
    const own = await h.get('/personal_access_tokens', { token: person.token });
    expect(own.status).toBe(200);
    expect((own.body as TokenBody[]).every((row) => row.user_id === person.id)).toBe(true);
    expect((own.body as TokenBody[]).map((row) => row.name).sort()).toEqual(['fixture', 'laptop backup']);
    expect(own.body[0]).not.toHaveProperty('access_level');
    expect((await h.get('/personal_access_tokens?search=laptop', { token: person.token })).body).toHaveLength(1);
    expect((await h.get(`/personal_access_tokens?user_id=${person.id}`, { token: person.token })).status).toBe(200);
    expect(await h.get(`/personal_access_tokens?user_id=${owner.id}`, { token: person.token })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('lets administrators list anyone\'s tokens, including a bot\'s', async () => {
    const bot = await createToken(group.id, { name: 'listed by admin' });
    const answer = await h.get(`/personal_access_tokens?user_id=${bot.user_id}`, { token: h.adminToken });
    expect(ids(answer)).toEqual([bot.id]);
    expect(await h.get('/personal_access_tokens?user_id=999999', { token: h.adminToken })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect((await h.get('/personal_access_tokens?user_id=abc', { token: h.adminToken })).body).toEqual({ error: 'user_id is invalid' });
    const all = await h.get('/personal_access_tokens?per_page=100', { token: h.adminToken });
    expect(new Set((all.body as TokenBody[]).map((row) => row.user_id)).size).toBeGreaterThan(2);
  });

  it('gets, rotates and revokes by id for the owner or an administrator', async () => {
    const mine = (await h.post(`/users/${person.id}/personal_access_tokens`, { name: 'cycle', scopes: ['api'] }, { token: h.adminToken })).body as TokenBody & { token: string };
    expect((await h.get(`/personal_access_tokens/${mine.id}`, { token: person.token })).body).toMatchObject({ id: mine.id, name: 'cycle' });
    expect((await h.get(`/personal_access_tokens/${mine.id}`, { token: outsider.token })).status).toBe(401);
    expect((await h.get('/personal_access_tokens/999999', { token: h.adminToken })).status).toBe(404);
    const rotated = await h.post(`/personal_access_tokens/${mine.id}/rotate`, undefined, { token: person.token });
    expect(rotated).toMatchObject({ status: 200, body: { name: 'cycle', expires_at: day(7) } });
    expect((await h.post(`/personal_access_tokens/${rotated.body.id}/rotate`, undefined, { token: outsider.token })).status).toBe(401);
    expect((await h.delete(`/personal_access_tokens/${rotated.body.id}`, { token: outsider.token }))).toMatchObject({ status: 400, body: { message: '400 Bad request' } });
    expect((await h.delete('/personal_access_tokens/999999', { token: person.token }))).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await h.delete(`/personal_access_tokens/${rotated.body.id}`, { token: person.token })).status).toBe(204);
    expect((await h.get('/user', { token: rotated.body.token })).status).toBe(401);
  });

  it('self-rotates and self-revokes', async () => {
    const mine = (await h.post(`/users/${person.id}/personal_access_tokens`, { name: 'selfish', scopes: ['read_api'] }, { token: h.adminToken })).body as TokenBody & { token: string };
    expect((await h.post('/personal_access_tokens/self/rotate', undefined, { token: mine.token })).status).toBe(403);
    const rotator = (await h.post(`/users/${person.id}/personal_access_tokens`, { name: 'rotator', scopes: ['self_rotate'] }, { token: h.adminToken })).body as TokenBody & { token: string };
    const rotated = await h.post('/personal_access_tokens/self/rotate', undefined, { token: rotator.token });
    expect(rotated).toMatchObject({ status: 200, body: { name: 'rotator', scopes: ['self_rotate'] } });
    // presenting the old secret again to the rotate endpoint revokes the new token too
    expect((await h.post('/personal_access_tokens/self/rotate', undefined, { token: rotator.token })).status).toBe(401);
    expect(tokenRow(rotated.body.id).revoked).toBe(1);
    expect((await h.delete('/personal_access_tokens/self', { token: mine.token })).status).toBe(204);
    expect((await h.get('/user', { token: mine.token })).status).toBe(401);
  });
});
