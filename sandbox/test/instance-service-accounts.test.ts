import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiGroup, apiProject, apiUser, unique, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const db = () => h.sandbox.db;

interface AccountBody { id: number; username: string; name: string; email: string }

let outsider: ApiUser;

beforeAll(async () => {
  outsider = await apiUser(h);
});

async function instanceAccount(body: Record<string, unknown> = {}): Promise<AccountBody> {
  const answer = await h.post('/service_accounts', body, { token: h.adminToken });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** A personal access token of an instance account, through the users API. */
async function accountToken(userId: number): Promise<string> {
  const answer = await h.post(`/users/${userId}/personal_access_tokens`, { name: 'sa', scopes: ['api'] }, { token: h.adminToken });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.token;
}

const userRow = (id: number) => db().prepare('SELECT * FROM users WHERE id = ?').get(id) as
  | { username: string; name: string; email: string; confirmed_at: string | null; bio: string; is_admin: number; private_profile: number; projects_limit: number }
  | undefined;
const ghost = () => db().prepare("SELECT id FROM users WHERE user_type = 'ghost'").get() as { id: number } | undefined;
const creatorOf = (projectId: number) => (db().prepare('SELECT creator_id FROM projects WHERE id = ?').get(projectId) as { creator_id: number | null }).creator_id;

describe('PATCH /service_accounts/:user_id', () => {
  it('updates name, username and email; a new email waits for confirmation', async () => {
    const account = await instanceAccount();
    expect(userRow(account.id)!.confirmed_at).not.toBeNull();
    const username = unique('renamed-sa-');
    const answer = await h.patch(`/service_accounts/${account.id}`, { name: 'Nightly builder', username, email: `${username}@example.org` }, { token: h.adminToken });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ id: account.id, name: 'Nightly builder', username, email: `${username}@example.org` });
    expect(userRow(account.id)).toMatchObject({ name: 'Nightly builder', username, email: `${username}@example.org`, confirmed_at: null });
  });

  it('leaves blank and missing attributes as they were', async () => {
    const account = await instanceAccount({ name: 'Keeper' });
    const answer = await h.patch(`/service_accounts/${account.id}`, { name: '  ', username: '', email: '' }, { token: h.adminToken });
    expect(answer).toMatchObject({ status: 200, body: { name: 'Keeper', username: account.username, email: account.email } });
    expect(userRow(account.id)!.confirmed_at).not.toBeNull();
    const renamed = await h.patch(`/service_accounts/${account.id}?name=Query%20name`, undefined, { token: h.adminToken });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Query name', username: account.username } });
  });

  it('answers the model messages with 400 and no prefix, and changes nothing', async () => {
    const account = await instanceAccount();
    const taken = await h.patch(`/service_accounts/${account.id}`, { username: outsider.username.toUpperCase() }, { token: h.adminToken });
    expect(taken).toMatchObject({ status: 400, body: { message: 'Username has already been taken' } });
    const both = await h.patch(`/service_accounts/${account.id}`, { username: outsider.username, email: outsider.email }, { token: h.adminToken });
    expect(both).toMatchObject({ status: 400, body: { message: 'Username has already been taken. Email has already been taken' } });
    const invalid = await h.patch(`/service_accounts/${account.id}`, { email: 'not-an-address' }, { token: h.adminToken });
    expect(invalid).toMatchObject({ status: 400, body: { message: 'Email is invalid' } });
    expect(userRow(account.id)).toMatchObject({ username: account.username, email: account.email });
  });

  it('updates a group\'s service account too: the instance API reaches every service account', async () => {
    const group = await apiGroup(h, h.adminToken);
    const account = (await h.post(`/groups/${group.id}/service_accounts`, undefined, { token: h.adminToken })).body as AccountBody;
    const answer = await h.patch(`/service_accounts/${account.id}`, { name: 'Group bot, renamed' }, { token: h.adminToken });
    expect(answer).toMatchObject({ status: 200, body: { id: account.id, name: 'Group bot, renamed' } });
  });

  it('answers 404 for unknown ids, 400 for humans and bad ids, and is for administrators only', async () => {
    const account = await instanceAccount();
    expect(await h.patch('/service_accounts/999999', { name: 'x' }, { token: h.adminToken })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await h.patch(`/service_accounts/${outsider.id}`, { name: 'x' }, { token: h.adminToken })).toMatchObject({ status: 400, body: { message: 'User is not a service account' } });
    expect(await h.patch('/service_accounts/abc', { name: 'x' }, { token: h.adminToken })).toMatchObject({ status: 400, body: { error: 'user_id is invalid' } });
    expect(await h.patch(`/service_accounts/${account.id}`, { name: 'x' }, { token: outsider.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await h.patch(`/service_accounts/${account.id}`, { name: 'x' }, { token: null })).status).toBe(401);
    expect(userRow(outsider.id)!.name).not.toBe('x');
    expect(userRow(account.id)!.name).toBe(account.name);
  });
});

describe('PUT /users/:id', () => {
  it('updates the attributes it is given and answers the administrator\'s user entity', async () => {
    const person = await apiUser(h);
    const answer = await h.put(`/users/${person.id}`, { name: 'Ada Lovelace', bio: 'Analyst', location: 'London', organization: 'Engines', projects_limit: 5, private_profile: true, can_create_group: false }, { token: h.adminToken });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: person.id, username: person.username, name: 'Ada Lovelace', email: person.email, bio: 'Analyst', location: 'London',
      organization: 'Engines', projects_limit: 5, private_profile: true, can_create_group: false, is_admin: false,
    });
    expect(userRow(person.id)!.confirmed_at).not.toBeNull();
    const promoted = await h.put(`/users/${person.id}`, { admin: true }, { token: h.adminToken });
    expect(promoted).toMatchObject({ status: 200, body: { is_admin: true, name: 'Ada Lovelace', bio: 'Analyst' } });
  });

  it('renames the personal namespace with the username; old project paths keep resolving and the old username is free', async () => {
    const person = await apiUser(h);
    const project = await apiProject(h, person.token);
    expect(project.path_with_namespace).toBe(`${person.username}/${project.path}`);
    const username = unique('renamed-');
    const answer = await h.put(`/users/${person.id}`, { username, email: `${username}@example.org`, skip_reconfirmation: true }, { token: h.adminToken });
    expect(answer).toMatchObject({ status: 200, body: { username, email: `${username}@example.org` } });
    expect(userRow(person.id)!.confirmed_at).not.toBeNull();
    const moved = await h.get(`/projects/${project.id}`, { token: person.token });
    expect(moved.body.path_with_namespace).toBe(`${username}/${project.path}`);
    expect(db().prepare("SELECT path, full_path FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(person.id)).toEqual({ path: username, full_path: username });
    const byOldPath = await h.get(`/projects/${encodeURIComponent(`${person.username}/${project.path}`)}`, { token: person.token });
    expect(byOldPath.status).toBe(301);
    expect(byOldPath.headers.get('location')).toBe(`http://localhost/api/v4/projects/${project.id}`);
    // the old name can be someone else's now, personal namespace included
    const newcomer = await h.post('/users', { email: `${person.username}-2@example.com`, name: 'Newcomer', username: person.username, password: 'secret-password-1' }, { token: h.adminToken });
    expect(newcomer.status, newcomer.text).toBe(201);
  });

  it('a new email without skip_reconfirmation waits for confirmation', async () => {
    const person = await apiUser(h);
    const answer = await h.put(`/users/${person.id}`, { email: `new-${person.email}` }, { token: h.adminToken });
    expect(answer).toMatchObject({ status: 200, body: { email: `new-${person.email}`, confirmed_at: null } });
  });

  it('answers 409 for an email or username of another user, email first; the user\'s own are fine', async () => {
    const person = await apiUser(h);
    expect(await h.put(`/users/${person.id}`, { email: outsider.email.toUpperCase() }, { token: h.adminToken })).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } });
    expect(await h.put(`/users/${person.id}`, { username: outsider.username }, { token: h.adminToken })).toMatchObject({ status: 409, body: { message: 'Username has already been taken' } });
    expect(await h.put(`/users/${person.id}`, { username: outsider.username, email: outsider.email }, { token: h.adminToken })).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } });
    expect(await h.put(`/users/${person.id}`, { username: person.username, email: person.email }, { token: h.adminToken })).toMatchObject({ status: 200 });
    expect(userRow(person.id)).toMatchObject({ username: person.username, email: person.email });
  });

  it('answers model errors as a field hash with 400, and Grape\'s for bad types', async () => {
    const person = await apiUser(h);
    const group = await apiGroup(h, h.adminToken);
    const invalid = await h.put(`/users/${person.id}`, { name: '', username: '-bad', password: 'short', projects_limit: -1 }, { token: h.adminToken });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatchObject({
      name: ["can't be blank"],
      username: [expect.stringContaining('can contain only letters')],
      password: ['is too short (minimum is 8 characters)'],
      projects_limit: ['must be greater than or equal to 0'],
    });
    // a group's path is not a user's, so no 409, but the namespace is taken
    expect(await h.put(`/users/${person.id}`, { username: group.full_path }, { token: h.adminToken })).toMatchObject({ status: 400, body: { message: { username: ['has already been taken'] } } });
    expect(await h.put(`/users/${person.id}`, { admin: 'maybe', projects_limit: 'many' }, { token: h.adminToken })).toMatchObject({ status: 400, body: { error: 'projects_limit is invalid, admin is invalid' } });
    expect(userRow(person.id)).toMatchObject({ name: person.name, username: person.username, is_admin: 0 });
  });

  it('answers 404 for unknown users and is for administrators only', async () => {
    expect(await h.put('/users/999999', { name: 'x' }, { token: h.adminToken })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await h.put(`/users/${outsider.id}`, { name: 'x' }, { token: outsider.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await h.put(`/users/${outsider.id}`, { name: 'x' }, { token: null })).status).toBe(401);
    expect(userRow(outsider.id)!.name).not.toBe('x');
  });
});

describe('DELETE /users/:id', () => {
  it('deletes an instance service account and hands its records to the Ghost User', async () => {
    const account = await instanceAccount();
    const token = await accountToken(account.id);
    const group = await apiGroup(h, h.adminToken);
    const project = await apiProject(h, h.adminToken, { namespace_id: group.id });
    db().prepare('UPDATE projects SET creator_id = ? WHERE id = ?').run(account.id, project.id);
    expect((await h.post(`/projects/${project.id}/members`, { user_id: account.id, access_level: 40 }, { token: h.adminToken })).status).toBe(201);

    const answer = await h.delete(`/users/${account.id}`, { token: h.adminToken });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(userRow(account.id)).toBeUndefined();
    expect((await h.get('/user', { token })).status).toBe(401);
    expect(creatorOf(project.id)).toBe(ghost()!.id);
    expect(db().prepare('SELECT 1 FROM members WHERE user_id = ?').get(account.id)).toBeUndefined();
    expect((await h.get(`/service_accounts?per_page=100`, { token: h.adminToken })).body.map((row: AccountBody) => row.id)).not.toContain(account.id);
  });

  it('refuses with 409 while the account alone owns a group; hard_delete deletes that group and its contributions instead', async () => {
    const account = await instanceAccount();
    const token = await accountToken(account.id);
    const owned = await apiGroup(h, token);
    const ownedSub = await apiGroup(h, token, { parent_id: owned.id });
    const ownedProject = await apiProject(h, token, { namespace_id: ownedSub.id });
    const shared = await apiGroup(h, h.adminToken);
    const sharedProject = await apiProject(h, h.adminToken, { namespace_id: shared.id });
    db().prepare('UPDATE projects SET creator_id = ? WHERE id = ?').run(account.id, sharedProject.id);

    const refused = await h.delete(`/users/${account.id}`, { token: h.adminToken });
    expect(refused).toMatchObject({ status: 409, body: { message: 'User cannot be removed while is the sole-owner of a group' } });
    expect(userRow(account.id)).toBeDefined();
    expect((await h.get('/user', { token })).status).toBe(200);

    const ghostBefore = ghost()?.id;
    const hard = await h.delete(`/users/${account.id}?hard_delete=true`, { token: h.adminToken });
    expect(hard.status).toBe(204);
    expect(userRow(account.id)).toBeUndefined();
    for (const id of [owned.id, ownedSub.id]) expect((await h.get(`/groups/${id}`, { token: h.adminToken })).status).toBe(404);
    expect((await h.get(`/projects/${ownedProject.id}`, { token: h.adminToken })).status).toBe(404);
    // contributions are deleted or cleared, not reassigned
    expect((await h.get(`/groups/${shared.id}`, { token: h.adminToken })).status).toBe(200);
    expect(creatorOf(sharedProject.id)).toBeNull();
    expect(ghost()?.id).toBe(ghostBefore);
  });

  it('deletes a person with the personal namespace and its projects; the username is free again', async () => {
    const person = await apiUser(h);
    const project = await apiProject(h, person.token);
    expect((await h.delete(`/users/${person.id}`, { token: h.adminToken })).status).toBe(204);
    expect((await h.get(`/projects/${project.id}`, { token: h.adminToken })).status).toBe(404);
    expect(db().prepare("SELECT 1 FROM namespaces WHERE kind = 'user' AND full_path = ?").get(person.username)).toBeUndefined();
    const again = await h.post('/users', { email: person.email, name: 'Again', username: person.username, password: 'secret-password-1' }, { token: h.adminToken });
    expect(again.status, again.text).toBe(201);
  });

  it('answers 404, 400 for a bad hard_delete, 403 to non-administrators, and keeps the Ghost User', async () => {
    const account = await instanceAccount();
    expect(await h.delete('/users/999999', { token: h.adminToken })).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect(await h.delete(`/users/${account.id}?hard_delete=maybe`, { token: h.adminToken })).toMatchObject({ status: 400, body: { error: 'hard_delete is invalid' } });
    expect(await h.delete(`/users/${account.id}`, { token: outsider.token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await h.delete(`/users/${account.id}`, { token: null })).status).toBe(401);
    expect(userRow(account.id)).toBeDefined();
    const ghostId = ghost()!.id;
    expect((await h.delete(`/users/${ghostId}`, { token: h.adminToken })).status).toBe(204);
    expect(userRow(ghostId)).toBeDefined();
  });
});
