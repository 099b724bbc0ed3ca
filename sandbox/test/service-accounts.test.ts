import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import { addDays } from '../model/time.ts';
import { apiGroup, apiProject, apiUser, type ApiGroup, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const db = () => h.sandbox.db;
const day = (days: number) => addDays(h.sandbox.now(), days);
const REVOKED_BODY = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };

interface AccountBody { id: number; username: string; name: string; email: string }
interface TokenBody { id: number; name: string; user_id: number; revoked: boolean; active: boolean; expires_at: string; description: string | null; scopes: string[]; token?: string }

let owner: ApiUser;
let maintainer: ApiUser;
let outsider: ApiUser;
let group: ApiGroup;

beforeAll(async () => {
  owner = await apiUser(h);
  maintainer = await apiUser(h);
  outsider = await apiUser(h);
  group = await apiGroup(h, owner.token);
  expect((await h.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 }, { token: owner.token })).status).toBe(201);
});

async function createAccount(groupId: number, body: Record<string, unknown> = {}, token = owner.token): Promise<AccountBody> {
  const answer = await h.post(`/groups/${groupId}/service_accounts`, body, { token });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function createAccountToken(accountId: number, body: Record<string, unknown> = {}, groupId = group.id): Promise<TokenBody & { token: string }> {
  const answer = await h.post(`/groups/${groupId}/service_accounts/${accountId}/personal_access_tokens`, { name: 'sa token', scopes: ['api'], ...body }, { token: owner.token });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const userRow = (id: number) => db().prepare('SELECT * FROM users WHERE id = ?').get(id) as
  | { user_type: string; external: number; provisioned_by_group_id: number | null; confirmed_at: string | null; username: string; name: string }
  | undefined;
const tokenRevoked = (id: number) => (db().prepare('SELECT revoked FROM personal_access_tokens WHERE id = ?').get(id) as { revoked: number }).revoked;
const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id);

describe('POST /groups/:id/service_accounts', () => {
  it('creates a service account with the platform defaults', async () => {
    const answer = await h.post(`/groups/${group.id}/service_accounts`, undefined, { token: owner.token });
    expect(answer.status).toBe(201);
    const body = answer.body as AccountBody;
    expect(Object.keys(body).sort()).toEqual(['email', 'id', 'name', 'username']);
    expect(body.name).toBe('Service account user');
    expect(body.username).toMatch(new RegExp(`^service_account_group_${group.id}_[0-9a-f]{32}$`));
    expect(body.email).toBe(`${body.username}@noreply.localhost`);
    expect(userRow(body.id)).toMatchObject({ user_type: 'service_account', external: 1, provisioned_by_group_id: group.id });
    expect(userRow(body.id)!.confirmed_at).not.toBeNull();
    // the group owns the account; it is not made a member
    expect(db().prepare("SELECT 1 FROM members WHERE user_id = ?").get(body.id)).toBeUndefined();
  });

  it('takes name, username and email; a custom email waits for confirmation', async () => {
    const body = await createAccount(group.id, { name: 'Deployer', username: 'deployer-sa', email: 'deployer@example.org' });
    expect(body).toMatchObject({ name: 'Deployer', username: 'deployer-sa', email: 'deployer@example.org' });
    expect(userRow(body.id)!.confirmed_at).toBeNull();
  });

  it('answers 400 with the model messages when the username or email is taken', async () => {
    await createAccount(group.id, { username: 'taken-sa', email: 'taken-sa@example.org' });
    const answer = await h.post(`/groups/${group.id}/service_accounts`, { username: 'taken-sa', email: 'taken-sa@example.org' }, { token: owner.token });
    expect(answer).toMatchObject({ status: 400, body: { message: '400 Bad request - Username has already been taken and Email has already been taken' } });
    const email = await h.post(`/groups/${group.id}/service_accounts`, { email: owner.email }, { token: owner.token });
    expect(email).toMatchObject({ status: 400, body: { message: '400 Bad request - Email has already been taken' } });
  });

  it('is for Owners and administrators of top-level groups', async () => {
    expect(await h.post(`/groups/${group.id}/service_accounts`, undefined, { token: maintainer.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await h.post(`/groups/${group.id}/service_accounts`, undefined, { token: outsider.token })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect((await h.post(`/groups/${group.id}/service_accounts`, undefined, { token: null })).status).toBe(401);
    const byAdmin = await createAccount(group.id, {}, h.adminToken);
    expect(userRow(byAdmin.id)!.provisioned_by_group_id).toBe(group.id);
    const sub = await apiGroup(h, owner.token, { parent_id: group.id });
    const inSub = await h.post(`/groups/${sub.id}/service_accounts`, undefined, { token: owner.token });
    expect(inSub).toMatchObject({ status: 400, body: { message: '400 Bad request - User does not have permission to create a service account in this namespace.' } });
    const byPath = await h.post(`/groups/${encodeURIComponent(group.full_path)}/service_accounts`, undefined, { token: owner.token });
    expect(byPath.status).toBe(201);
  });
});

describe('GET /groups/:id/service_accounts', () => {
  let listGroup: ApiGroup;
  let made: AccountBody[];

  beforeAll(async () => {
    listGroup = await apiGroup(h, owner.token);
    made = [];
    for (const username of ['sa-charlie', 'sa-alpha', 'sa-bravo']) made.push(await createAccount(listGroup.id, { username }));
    await createAccount(group.id, { username: 'sa-elsewhere' });
  });

  it('lists the group\'s accounts, newest id first by default', async () => {
    const answer = await h.get(`/groups/${listGroup.id}/service_accounts`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual(made.map((row) => row.id).reverse());
    expect(answer.body[0]).toEqual(made[2]);
    expect(answer.headers.get('x-total')).toBe('3');
  });

  it('orders by username or id, in either direction, and pages', async () => {
    const byName = await h.get(`/groups/${listGroup.id}/service_accounts?order_by=username&sort=asc`, { token: owner.token });
    expect((byName.body as AccountBody[]).map((row) => row.username)).toEqual(['sa-alpha', 'sa-bravo', 'sa-charlie']);
    const byId = await h.get(`/groups/${listGroup.id}/service_accounts?order_by=id&sort=asc&per_page=2`, { token: owner.token });
    expect(ids(byId)).toEqual([made[0].id, made[1].id]);
    expect(byId.headers.get('x-next-page')).toBe('2');
    expect((await h.get(`/groups/${listGroup.id}/service_accounts?order_by=name`, { token: owner.token })).body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('answers 403 to non-Owners', async () => {
    await h.post(`/groups/${listGroup.id}/members`, { user_id: maintainer.id, access_level: 40 }, { token: owner.token });
    expect((await h.get(`/groups/${listGroup.id}/service_accounts`, { token: maintainer.token })).status).toBe(403);
  });
});

describe('PATCH /groups/:id/service_accounts/:user_id', () => {
  it('updates name and username', async () => {
    const account = await createAccount(group.id);
    const answer = await h.patch(`/groups/${group.id}/service_accounts/${account.id}`, { name: 'Renamed', username: `renamed-${account.id}` }, { token: owner.token });
    expect(answer).toMatchObject({ status: 200, body: { id: account.id, name: 'Renamed', username: `renamed-${account.id}`, email: account.email } });
    expect(userRow(account.id)).toMatchObject({ name: 'Renamed', username: `renamed-${account.id}` });
  });

  it('answers the model message for a taken username', async () => {
    const account = await createAccount(group.id);
    const answer = await h.patch(`/groups/${group.id}/service_accounts/${account.id}`, { username: owner.username }, { token: owner.token });
    expect(answer).toMatchObject({ status: 400, body: { message: 'Username has already been taken' } });
  });

  it('answers 404 for accounts of other groups, 400 for humans and bad ids', async () => {
    const otherGroup = await apiGroup(h, owner.token);
    const foreign = await createAccount(otherGroup.id);
    const answer = await h.patch(`/groups/${group.id}/service_accounts/${foreign.id}`, { name: 'x' }, { token: owner.token });
    expect(answer).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    db().prepare('UPDATE users SET provisioned_by_group_id = ? WHERE id = ?').run(group.id, outsider.id);
    const human = await h.patch(`/groups/${group.id}/service_accounts/${outsider.id}`, { name: 'x' }, { token: owner.token });
    expect(human).toMatchObject({ status: 400, body: { message: '400 Bad request - User is not of type Service Account' } });
    db().prepare('UPDATE users SET provisioned_by_group_id = NULL WHERE id = ?').run(outsider.id);
    expect((await h.patch(`/groups/${group.id}/service_accounts/abc`, { name: 'x' }, { token: owner.token })).body).toEqual({ error: 'user_id is invalid' });
    expect((await h.patch(`/groups/${group.id}/service_accounts/${foreign.id}`, { name: 'x' }, { token: maintainer.token })).status).toBe(403);
  });
});

describe('DELETE /groups/:id/service_accounts/:user_id', () => {
  it('deletes the account and hands its records to the Ghost User', async () => {
    const account = await createAccount(group.id);
    const token = await createAccountToken(account.id);
    // the account is a Maintainer of a project it created
    const project = await apiProject(h, owner.token, { namespace_id: group.id });
    db().prepare("INSERT INTO members (source_type, source_id, user_id, access_level, created_at, updated_at) VALUES ('Project', ?, ?, 40, '2024-01-01', '2024-01-01')").run(project.id, account.id);
    db().prepare('UPDATE projects SET creator_id = ? WHERE id = ?').run(account.id, project.id);
    const answer = await h.delete(`/groups/${group.id}/service_accounts/${account.id}`, { token: owner.token });
    expect(answer.status).toBe(204);
    expect(userRow(account.id)).toBeUndefined();
    expect((await h.get('/user', { token: token.token })).status).toBe(401);
    const ghost = db().prepare("SELECT id, username, name FROM users WHERE user_type = 'ghost'").get() as { id: number; username: string; name: string };
    expect(ghost).toMatchObject({ username: 'ghost', name: 'Ghost User' });
    expect((db().prepare('SELECT creator_id FROM projects WHERE id = ?').get(project.id) as { creator_id: number }).creator_id).toBe(ghost.id);
  });

  it('refuses with 409 while the account is the sole owner of a group, unless hard_delete', async () => {
    const account = await createAccount(group.id);
    const owned = await apiGroup(h, owner.token);
    const ownedProject = await apiProject(h, owner.token, { namespace_id: owned.id });
    const sub = await apiGroup(h, owner.token, { parent_id: owned.id });
    // the account becomes the only Owner of `owned`
    db().prepare("UPDATE members SET user_id = ? WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").run(account.id, owned.id, owner.id);
    db().prepare("DELETE FROM members WHERE source_type = 'Namespace' AND source_id = ?").run(sub.id);
    const bot = await h.post(`/groups/${owned.id}/access_tokens`, { name: 'owned bot', scopes: ['api'] }, { token: h.adminToken });
    expect(bot.status).toBe(201);
    // a group shared with another Owner survives
    const shared = await apiGroup(h, owner.token);
    db().prepare("INSERT INTO members (source_type, source_id, user_id, access_level, created_at, updated_at) VALUES ('Namespace', ?, ?, 50, '2024-01-01', '2024-01-01')").run(shared.id, account.id);
    const sharedProject = await apiProject(h, owner.token, { namespace_id: shared.id });
    db().prepare('UPDATE projects SET creator_id = ? WHERE id = ?').run(account.id, sharedProject.id);

    const refused = await h.delete(`/groups/${group.id}/service_accounts/${account.id}`, { token: owner.token });
    expect(refused).toMatchObject({ status: 409, body: { message: 'User cannot be removed while is the sole-owner of a group' } });
    expect(userRow(account.id)).toBeDefined();

    const hard = await h.delete(`/groups/${group.id}/service_accounts/${account.id}?hard_delete=true`, { token: owner.token });
    expect(hard.status).toBe(204);
    expect(userRow(account.id)).toBeUndefined();
    for (const id of [owned.id, sub.id]) expect(db().prepare('SELECT 1 FROM namespaces WHERE id = ?').get(id)).toBeUndefined();
    expect(db().prepare('SELECT 1 FROM projects WHERE id = ?').get(ownedProject.id)).toBeUndefined();
    expect(userRow(bot.body.user_id)).toBeUndefined();
    expect((await h.get(`/groups/${owned.id}`, { token: h.adminToken })).status).toBe(404);
    // contributions are not reassigned to the Ghost User
    expect(db().prepare('SELECT 1 FROM namespaces WHERE id = ?').get(shared.id)).toBeDefined();
    expect((db().prepare('SELECT creator_id FROM projects WHERE id = ?').get(sharedProject.id) as { creator_id: number | null }).creator_id).toBeNull();
  });

  it('answers 404, 400 and 403 as update does', async () => {
    const account = await createAccount(group.id);
    expect((await h.delete(`/groups/${group.id}/service_accounts/999999`, { token: owner.token })).status).toBe(404);
    expect((await h.delete(`/groups/${group.id}/service_accounts/${account.id}`, { token: maintainer.token })).status).toBe(403);
    expect((await h.delete(`/groups/${group.id}/service_accounts/${account.id}?hard_delete=maybe`, { token: owner.token })).body).toEqual({ error: 'hard_delete is invalid' });
    expect(userRow(account.id)).toBeDefined();
  });
});

describe('personal access tokens of a group service account', () => {
  let account: AccountBody;
  beforeAll(async () => {
    account = await createAccount(group.id, { username: 'token-holder' });
  });

  it('creates a token with the maximum lifetime by default; it authenticates as the account', async () => {
    const answer = await h.post(`/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens`, { name: 'deploy', scopes: ['api', 'read_user'], description: 'prod' }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['active', 'created_at', 'description', 'expires_at', 'id', 'last_used_at', 'name', 'revoked', 'scopes', 'token', 'user_id']);
    expect(answer.body).toMatchObject({ name: 'deploy', scopes: ['api', 'read_user'], description: 'prod', user_id: account.id, active: true, revoked: false, expires_at: day(h.sandbox.config.maxTokenLifetimeDays) });
    expect((await h.get('/user', { token: answer.body.token })).body).toMatchObject({ id: account.id, username: 'token-holder' });
  });

  it('validates the parameters; an expiry beyond the maximum answers 422', async () => {
    const base = `/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens`;
    expect((await h.post(base, { name: 'x' }, { token: owner.token })).body).toEqual({ error: 'scopes is missing' });
    expect((await h.post(base, { name: 'x', scopes: ['everything'] }, { token: owner.token })).body).toEqual({ error: 'scopes does not have a valid value' });
    const max = h.sandbox.config.maxTokenLifetimeDays;
    const far = await h.post(base, { name: 'x', scopes: ['api'], expires_at: day(max + 1) }, { token: owner.token });
    expect(far).toMatchObject({ status: 422, body: { message: `Expires at must be before ${day(max)}` } });
    const ok = await h.post(base, { name: 'comma', scopes: 'read_api,read_repository', expires_at: day(3) }, { token: owner.token });
    expect(ok).toMatchObject({ status: 201, body: { scopes: ['read_api', 'read_repository'], expires_at: day(3) } });
    expect((await h.post(base, { name: 'x', scopes: ['api'] }, { token: maintainer.token })).status).toBe(403);
  });

  it('lists the account\'s tokens with the token filters', async () => {
    const holder = await createAccount(group.id);
    const a = await createAccountToken(holder.id, { name: 'alpha', expires_at: day(3) });
    const b = await createAccountToken(holder.id, { name: 'beta', expires_at: day(40) });
    expect((await h.delete(`/groups/${group.id}/service_accounts/${holder.id}/personal_access_tokens/${b.id}`, { token: owner.token })).status).toBe(204);
    const base = `/groups/${group.id}/service_accounts/${holder.id}/personal_access_tokens`;
    expect(ids(await h.get(base, { token: owner.token }))).toEqual([a.id, b.id]);
    expect(ids(await h.get(`${base}?state=active`, { token: owner.token }))).toEqual([a.id]);
    expect(ids(await h.get(`${base}?expires_before=${day(7)}`, { token: owner.token }))).toEqual([a.id]);
    expect(ids(await h.get(`${base}?sort=name_desc`, { token: owner.token }))).toEqual([b.id, a.id]);
    expect((await h.get(base, { token: owner.token })).body[0]).not.toHaveProperty('token');
  });

  it('revokes a token: 204, then 404 for tokens that are not the account\'s', async () => {
    const token = await createAccountToken(account.id);
    const base = `/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens`;
    expect((await h.delete(`${base}/${token.id}`, { token: owner.token })).status).toBe(204);
    expect(await h.get('/user', { token: token.token })).toMatchObject({ status: 401, body: REVOKED_BODY });
    const personal = db().prepare('SELECT id FROM personal_access_tokens WHERE user_id = ?').get(owner.id) as { id: number };
    expect(await h.delete(`${base}/${personal.id}`, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Personal Access Token Not Found' } });
  });

  it('rotates: a new one-week token, the old one revoked at once', async () => {
    const old = await createAccountToken(account.id, { name: 'rotating', description: 'ci' });
    const answer = await h.post(`/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens/${old.id}/rotate`, undefined, { token: owner.token });
    expect(answer).toMatchObject({ status: 200, body: { name: 'rotating', description: 'ci', scopes: ['api'], user_id: account.id, expires_at: day(7), active: true } });
    expect(answer.body.token).toMatch(/^glpat-/);
    expect(tokenRevoked(old.id)).toBe(1);
    expect((await h.get('/user', { token: old.token })).status).toBe(401);
    expect((await h.get('/user', { token: answer.body.token })).body.id).toBe(account.id);
    const chosen = await h.post(`/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens/${answer.body.id}/rotate`, { expires_at: day(90) }, { token: owner.token });
    expect(chosen).toMatchObject({ status: 200, body: { expires_at: day(90) } });
  });

  it('refuses a revoked token and revokes its family; 404 for tokens of someone else', async () => {
    const first = await createAccountToken(account.id, { name: 'family' });
    const base = `/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens`;
    const second = (await h.post(`${base}/${first.id}/rotate`, undefined, { token: owner.token })).body as TokenBody;
    const again = await h.post(`${base}/${first.id}/rotate`, undefined, { token: owner.token });
    expect(again).toMatchObject({ status: 400, body: { message: '400 Bad request - Token already revoked' } });
    expect(tokenRevoked(second.id)).toBe(1);
    const personal = db().prepare('SELECT id FROM personal_access_tokens WHERE user_id = ?').get(owner.id) as { id: number };
    expect(await h.post(`${base}/${personal.id}/rotate`, undefined, { token: owner.token })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(tokenRevoked(personal.id)).toBe(0);
    const far = await createAccountToken(account.id);
    expect((await h.post(`${base}/${far.id}/rotate`, { expires_at: day(400) }, { token: owner.token })).status).toBe(400);
    expect(tokenRevoked(far.id)).toBe(0);
  });
});

describe('instance service accounts', () => {
  it('creates with the defaults, administrators only', async () => {
    const answer = await h.post('/service_accounts', undefined, { token: h.adminToken });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['email', 'id', 'name', 'username']);
    expect(answer.body.name).toBe('Service account user');
    expect(answer.body.username).toMatch(/^service_account_[0-9a-f]{32}$/);
    expect(answer.body.email).toBe(`${answer.body.username}@noreply.localhost`);
    expect(userRow(answer.body.id)).toMatchObject({ user_type: 'service_account', provisioned_by_group_id: null });
    expect(await h.post('/service_accounts', undefined, { token: owner.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await h.post('/service_accounts', undefined, { token: null })).status).toBe(401);
  });

  it('answers 400 with a message when the email is already taken', async () => {
    const custom = await h.post('/service_accounts', { name: 'Mailer', username: 'mailer-sa', email: 'mailer@example.org' }, { token: h.adminToken });
    expect(custom).toMatchObject({ status: 201, body: { name: 'Mailer', username: 'mailer-sa', email: 'mailer@example.org' } });
    const taken = await h.post('/service_accounts', { email: 'mailer@example.org' }, { token: h.adminToken });
    expect(taken).toMatchObject({ status: 400, body: { message: '400 Bad request - Email has already been taken' } });
    const human = await h.post('/service_accounts', { email: owner.email.toUpperCase() }, { token: h.adminToken });
    expect(human).toMatchObject({ status: 400, body: { message: '400 Bad request - Email has already been taken' } });
  });

  it('lists every service account of the instance, ordered and paged', async () => {
    const answer = await h.get('/service_accounts?per_page=100', { token: h.adminToken });
    expect(answer.status).toBe(200);
    const all = db().prepare("SELECT id FROM users WHERE user_type = 'service_account' ORDER BY id DESC").all() as Array<{ id: number }>;
    expect(ids(answer)).toEqual(all.map((row) => row.id));
    const byName = await h.get('/service_accounts?order_by=username&sort=asc&per_page=100', { token: h.adminToken });
    const names = (byName.body as AccountBody[]).map((row) => row.username);
    expect(names).toEqual([...names].sort());
    expect((await h.get('/service_accounts', { token: owner.token })).status).toBe(403);
    expect((await h.get('/service_accounts?sort=up', { token: h.adminToken })).body).toEqual({ error: 'sort does not have a valid value' });
  });

  it('manages an instance account\'s tokens through the personal access tokens API', async () => {
    const account = (await h.post('/service_accounts', undefined, { token: h.adminToken })).body as AccountBody;
    const token = await h.post(`/users/${account.id}/personal_access_tokens`, { name: 'instance sa', scopes: ['api'] }, { token: h.adminToken });
    expect(token.status).toBe(201);
    expect(ids(await h.get(`/personal_access_tokens?user_id=${account.id}`, { token: h.adminToken }))).toEqual([token.body.id]);
    const rotated = await h.post(`/personal_access_tokens/${token.body.id}/rotate`, undefined, { token: h.adminToken });
    expect(rotated).toMatchObject({ status: 200, body: { user_id: account.id, expires_at: day(7) } });
  });
});
