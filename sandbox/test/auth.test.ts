import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { newSecret, tokenDigest } from '../http/auth.ts';
import { addDays, today } from '../model/time.ts';
import { apiGroup, apiProject, apiUser, userWithProjectRole, type ApiGroup, type ApiProject, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const UNAUTHORIZED = { message: '401 Unauthorized' };
const FORBIDDEN = { message: '403 Forbidden' };
const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' };
const REVOKED = { error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' };
const insufficientScope = (scope: string) => ({
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope,
});

let owner: ApiUser;
let stranger: ApiUser;
let publicGroup: ApiGroup;
let privateGroup: ApiGroup;
let publicProject: ApiProject;
let internalProject: ApiProject;
let privateProject: ApiProject;

beforeAll(async () => {
  owner = await apiUser(h, { username: 'auth-owner' });
  stranger = await apiUser(h, { username: 'auth-stranger' });
  publicGroup = await apiGroup(h, owner.token, { path: 'auth-public-group', visibility: 'public' });
  privateGroup = await apiGroup(h, owner.token, { path: 'auth-private-group', visibility: 'private' });
  publicProject = await apiProject(h, owner.token, { path: 'open', visibility: 'public' });
  internalProject = await apiProject(h, owner.token, { path: 'inside', visibility: 'internal' });
  privateProject = await apiProject(h, owner.token, { path: 'secret', visibility: 'private' });
});

/** A token for `userId` created through the API. */
async function tokenFor(userId: number, scopes: string[]): Promise<{ id: number; token: string }> {
  const answer = await h.post(`/users/${userId}/personal_access_tokens`, { name: `scoped-${scopes.join('-')}`, scopes });
  expect(answer.status).toBe(201);
  return { id: answer.body.id, token: answer.body.token };
}

describe('presenting a token (spec 1, 5.1)', () => {
  it('accepts PRIVATE-TOKEN and Authorization: Bearer', async () => {
    const viaHeader = await h.get('/user', { token: owner.token });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.username).toBe('auth-owner');
    for (const authorization of [`Bearer ${owner.token}`, `bearer ${owner.token}`]) {
      const viaBearer = await h.get('/user', { token: null, headers: { Authorization: authorization } });
      expect(viaBearer.status, authorization).toBe(200);
      expect(viaBearer.body.id).toBe(owner.id);
    }
  });

  it('accepts the private_token query parameter', async () => {
    const answer = await h.get(`/user?private_token=${owner.token}`, { token: null });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(owner.id);
  });

  it('answers 401 {"message":"401 Unauthorized"} without a token on a signed-in endpoint', async () => {
    for (const url of ['/user', '/version', '/personal_access_tokens/self', `/users/${owner.id}`]) {
      const answer = await h.get(url, { token: null });
      expect(answer.status, url).toBe(401);
      expect(answer.body, url).toEqual(UNAUTHORIZED);
    }
  });

  it('answers 401 for an unknown token, even on public data', async () => {
    for (const url of ['/user', '/projects', `/projects/${publicProject.id}`]) {
      const answer = await h.get(url, { token: 'glpat-nobody-knows-this-one' });
      expect(answer.status, url).toBe(401);
      expect(answer.body, url).toEqual(UNAUTHORIZED);
    }
    const bearer = await h.get('/user', { token: null, headers: { Authorization: 'Bearer glpat-unknown' } });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 invalid_token for an expired token', async () => {
    const { id, token } = await tokenFor(owner.id, ['api']);
    expect((await h.get('/user', { token })).status).toBe(200);
    h.sandbox.db.prepare('UPDATE personal_access_tokens SET expires_at = ? WHERE id = ?').run(addDays(new Date(), -1), id);
    const answer = await h.get('/user', { token });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(EXPIRED);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // a token expires at the start of its expiry day
    h.sandbox.db.prepare('UPDATE personal_access_tokens SET expires_at = ? WHERE id = ?').run(today(new Date()), id);
    expect((await h.get('/projects', { token })).body).toEqual(EXPIRED);
  });

  it('answers 401 invalid_token for a revoked token', async () => {
    const { id, token } = await tokenFor(owner.id, ['api']);
    h.sandbox.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(id);
    const answer = await h.get('/user', { token });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(REVOKED);
  });

  it('answers 403 for a blocked user', async () => {
    const blocked = h.user({ state: 'blocked' });
    const answer = await h.get('/user', { token: blocked.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
  });

  it('refuses a job token on core endpoints with 401', async () => {
    const secret = newSecret('glcbt-');
    h.sandbox.db
      .prepare('INSERT INTO ci_job_tokens (token_digest, project_id, user_id, expires_at) VALUES (?, ?, ?, ?)')
      .run(tokenDigest(secret), publicProject.id, owner.id, new Date(Date.now() + 3_600_000).toISOString());
    for (const url of ['/user', `/projects/${publicProject.id}`, '/projects', '/groups']) {
      const answer = await h.get(url, { token: null, headers: { 'JOB-TOKEN': secret } });
      expect(answer.status, url).toBe(401);
      expect(answer.body, url).toEqual(UNAUTHORIZED);
    }
    const write = await h.put(`/projects/${publicProject.id}`, { description: 'by a job' }, { token: null, headers: { 'JOB-TOKEN': secret } });
    expect(write.status).toBe(401);
    const unknown = await h.get('/projects', { token: null, headers: { 'JOB-TOKEN': 'glcbt-unknown' } });
    expect(unknown.status).toBe(401);
  });
});

describe('token scopes (spec 1, 5.2)', () => {
  it('lets a read_api token read but answers 403 insufficient_scope to a write', async () => {
    const { token } = await tokenFor(owner.id, ['read_api']);
    expect((await h.get('/user', { token })).status).toBe(200);
    expect((await h.get('/projects', { token })).status).toBe(200);
    expect((await h.get(`/projects/${privateProject.id}`, { token })).status).toBe(200);
    const write = await h.post('/groups', { name: 'nope', path: 'nope-read-api' }, { token });
    expect(write.status).toBe(403);
    expect(write.body).toEqual(insufficientScope('api'));
    const update = await h.put(`/projects/${privateProject.id}`, { description: 'x' }, { token });
    expect(update.status).toBe(403);
    expect(update.body).toEqual(insufficientScope('api'));
  });

  it('answers 403 to a read_repository-only token on /projects', async () => {
    const { token } = await tokenFor(owner.id, ['read_repository']);
    const answer = await h.get('/projects', { token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(insufficientScope('api read_api'));
    const user = await h.get('/user', { token });
    expect(user.status).toBe(403);
    expect(user.body).toEqual(insufficientScope('api read_api read_user'));
  });

  it('lets a read_user token read users but not projects', async () => {
    const { token } = await tokenFor(owner.id, ['read_user']);
    expect((await h.get('/user', { token })).status).toBe(200);
    expect((await h.get('/users', { token })).status).toBe(200);
    expect((await h.get('/projects', { token })).status).toBe(403);
  });

  it('lets any token read itself at /personal_access_tokens/self', async () => {
    const { id, token } = await tokenFor(owner.id, ['read_repository']);
    const answer = await h.get('/personal_access_tokens/self', { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id, user_id: owner.id, scopes: ['read_repository'], active: true, revoked: false });
    expect(answer.body).not.toHaveProperty('token');
  });
});

describe('last_used_at', () => {
  it('is null until the token is used, then set to the time of use', async () => {
    const created = await h.post(`/users/${owner.id}/personal_access_tokens`, { name: 'fresh', scopes: ['api'] });
    expect(created.body.last_used_at).toBeNull();
    const before = Date.now();
    const self = await h.get('/personal_access_tokens/self', { token: created.body.token });
    expect(self.status).toBe(200);
    expect(self.body.id).toBe(created.body.id);
    const used = Date.parse(self.body.last_used_at);
    expect(used).toBeGreaterThanOrEqual(before - 1000);
    expect(used).toBeLessThanOrEqual(Date.now() + 1000);
    const row = h.sandbox.db.prepare('SELECT last_used_at FROM personal_access_tokens WHERE id = ?').get(created.body.id) as { last_used_at: string };
    expect(row.last_used_at).toBe(self.body.last_used_at);
  });
});

describe('public data without a token (spec 1, 5.4)', () => {
  it('shows a public project and a public group', async () => {
    const project = await h.get(`/projects/${publicProject.id}`, { token: null });
    expect(project.status).toBe(200);
    expect(project.body.id).toBe(publicProject.id);
    const group = await h.get(`/groups/${publicGroup.id}`, { token: null });
    expect(group.status).toBe(200);
    expect(group.body.full_path).toBe('auth-public-group');
  });

  it('lists only public projects and groups', async () => {
    const projects = await h.get('/projects?per_page=100', { token: null });
    expect(projects.status).toBe(200);
    expect(projects.body.length).toBeGreaterThan(0);
    expect(projects.body.every((p: { visibility: string }) => p.visibility === 'public')).toBe(true);
    const ids = projects.body.map((p: { id: number }) => p.id);
    expect(ids).toContain(publicProject.id);
    expect(ids).not.toContain(internalProject.id);
    expect(ids).not.toContain(privateProject.id);
    const groups = await h.get('/groups?per_page=100', { token: null });
    expect(groups.body.map((g: { id: number }) => g.id)).toContain(publicGroup.id);
    expect(groups.body.every((g: { visibility: string }) => g.visibility === 'public')).toBe(true);
  });
});

describe('visibility and roles (spec 1, 5.3 and 5.4)', () => {
  it('answers 404 for a private project to a non-member and to anonymous', async () => {
    for (const token of [stranger.token, null]) {
      const answer = await h.get(`/projects/${privateProject.id}`, { token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: '404 Project Not Found' });
      const byPath = await h.get(`/projects/${encodeURIComponent(privateProject.path_with_namespace)}`, { token });
      expect(byPath.status).toBe(404);
    }
    expect((await h.get(`/projects/${privateProject.id}`, { token: owner.token })).status).toBe(200);
  });

  it('answers 404 for a private group to a non-member and to anonymous', async () => {
    for (const token of [stranger.token, null]) {
      const answer = await h.get(`/groups/${privateGroup.id}`, { token });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: '404 Group Not Found' });
    }
  });

  it('hides an internal project from anonymous and external users but shows it to any signed-in user', async () => {
    const anonymous = await h.get(`/projects/${internalProject.id}`, { token: null });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual({ message: '404 Project Not Found' });
    const signedIn = await h.get(`/projects/${internalProject.id}`, { token: stranger.token });
    expect(signedIn.status).toBe(200);
    const list = await h.get('/projects?per_page=100', { token: stranger.token });
    const ids = list.body.map((p: { id: number }) => p.id);
    expect(ids).toContain(internalProject.id);
    expect(ids).not.toContain(privateProject.id);
    const external = h.user({ external: true });
    expect((await h.get(`/projects/${internalProject.id}`, { token: external.token })).status).toBe(404);
  });

  it('answers 403 to a Developer updating project settings, and lets a Maintainer', async () => {
    const developer = await userWithProjectRole(h, privateProject.id, 30);
    expect((await h.get(`/projects/${privateProject.id}`, { token: developer.token })).status).toBe(200);
    const answer = await h.put(`/projects/${privateProject.id}`, { description: 'by a developer' }, { token: developer.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual(FORBIDDEN);
    const maintainer = await userWithProjectRole(h, privateProject.id, 40);
    const allowed = await h.put(`/projects/${privateProject.id}`, { description: 'by a maintainer' }, { token: maintainer.token });
    expect(allowed.status).toBe(200);
    expect(allowed.body.description).toBe('by a maintainer');
  });

  it('answers 404, not 403, to a non-member writing to a private project', async () => {
    const answer = await h.put(`/projects/${privateProject.id}`, { description: 'x' }, { token: stranger.token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 Project Not Found' });
  });

  it('keeps administrator endpoints to administrators: 401 anonymous, 403 others', async () => {
    const body = { email: 'x@example.com', name: 'X', username: 'x-admin-only', password: 'secret-password-1' };
    const anonymous = await h.post('/users', body, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHORIZED);
    const normal = await h.post('/users', body, { token: stranger.token });
    expect(normal.status).toBe(403);
    expect(normal.body).toEqual(FORBIDDEN);
    const tokenByOther = await h.post(`/users/${stranger.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: stranger.token });
    expect(tokenByOther.status).toBe(403);
    expect(tokenByOther.body).toEqual(FORBIDDEN);
    const admin = await apiUser(h, { admin: true });
    const byAdmin = await h.post('/users', body, { token: admin.token });
    expect(byAdmin.status).toBe(201);
  });

  it('treats administrators as able to read every private project', async () => {
    expect((await h.get(`/projects/${privateProject.id}`)).status).toBe(200);
    expect((await h.get(`/groups/${privateGroup.id}`)).status).toBe(200);
  });
});
