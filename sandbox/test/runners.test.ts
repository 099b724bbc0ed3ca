import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import { apiGroup, apiProject, apiUser, type ApiGroup, type ApiProject, type ApiUser } from './core-fixtures.ts';
import { tokenDigest } from '../http/auth.ts';
import { runnerModelStatus, versionMatchesPrefix } from '../model/runners.ts';

// a clock the tests move: runner status is a function of contacted_at, created_at and now
const START = Date.parse('2026-03-16T10:00:00.000Z');
let clock = START;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const h = createHarness({ seed: 'empty', now: () => new Date(clock) });
afterAll(() => h.close());

const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id).sort((a, b) => a - b);
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const db = () => h.sandbox.db;

let groupOwner: ApiUser;
let groupMaintainer: ApiUser;
let groupDeveloper: ApiUser;
let groupReporter: ApiUser;
let projectMaintainer: ApiUser;
let projectDeveloper: ApiUser;
let projectReporter: ApiUser;
let outsider: ApiUser;
let group: ApiGroup;
let subgroup: ApiGroup;
let project: ApiProject;
let otherProject: ApiProject;
let elsewhere: ApiProject;

async function addMember(kind: 'groups' | 'projects', id: number, user: ApiUser, level: number) {
  const answer = await h.post(`/${kind}/${id}/members`, { user_id: user.id, access_level: level });
  expect(answer.status, answer.text).toBe(201);
}

async function createRunner(token: string, body: Record<string, unknown>): Promise<{ id: number; token: string }> {
  const answer = await h.post('/user/runners', body, { token });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function tokenWithScopes(user: ApiUser, scopes: string[]): Promise<string> {
  const answer = await h.post(`/users/${user.id}/personal_access_tokens`, { name: `scoped ${scopes.join(' ')}`, scopes });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.token;
}

beforeAll(async () => {
  [groupOwner, groupMaintainer, groupDeveloper, groupReporter, projectMaintainer, projectDeveloper, projectReporter, outsider] =
    await Promise.all(Array.from({ length: 8 }, () => apiUser(h)));
  group = await apiGroup(h, groupOwner.token);
  subgroup = await apiGroup(h, groupOwner.token, { parent_id: group.id });
  project = await apiProject(h, groupOwner.token, { namespace_id: subgroup.id });
  otherProject = await apiProject(h, groupOwner.token, { namespace_id: group.id });
  elsewhere = await apiProject(h, outsider.token);
  await addMember('groups', group.id, groupMaintainer, 40);
  await addMember('groups', group.id, groupDeveloper, 30);
  await addMember('groups', group.id, groupReporter, 20);
  await addMember('projects', project.id, projectMaintainer, 40);
  await addMember('projects', project.id, projectDeveloper, 30);
  await addMember('projects', project.id, projectReporter, 20);
});

describe('status computation', () => {
  it('follows contact: never_contacted, online for 2 hours, offline, stale after 7 days', async () => {
    clock = START;
    const runner = await createRunner(h.adminToken, { runner_type: 'instance_type', description: 'clock runner' });
    const detail = async () => (await h.get(`/runners/${runner.id}`)).body;
    expect(await detail()).toMatchObject({ status: 'never_contacted', online: null, contacted_at: null });

    const verified = await h.post('/runners/verify', { token: runner.token, system_id: 's_clock' }, { token: null });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ id: runner.id, token: runner.token, token_expires_at: null });
    expect(await detail()).toMatchObject({ status: 'online', online: true, contacted_at: new Date(START).toISOString() });

    clock = START + 2 * HOUR - MINUTE;
    expect(await detail()).toMatchObject({ status: 'online', online: true });
    clock = START + 2 * HOUR;
    expect(await detail()).toMatchObject({ status: 'offline', online: false });
    clock = START + 7 * DAY - MINUTE;
    expect(await detail()).toMatchObject({ status: 'offline' });
    clock = START + 7 * DAY;
    expect(await detail()).toMatchObject({ status: 'stale', online: false });
    // a new contact brings it back
    await h.post('/runners/verify', { token: runner.token }, { token: null });
    expect(await detail()).toMatchObject({ status: 'online', online: true });
  });

  it('makes a runner created more than 7 days ago that never called in stale', async () => {
    clock = START + 10 * DAY;
    const runner = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    clock += 7 * DAY - MINUTE;
    expect((await h.get(`/runners/${runner.id}`)).body.status).toBe('never_contacted');
    clock += MINUTE;
    expect((await h.get(`/runners/${runner.id}`)).body).toMatchObject({ status: 'stale', online: null });
  });

  it('shows a paused runner that called in as paused, but stale and never contacted win', async () => {
    clock = START + 30 * DAY;
    const runner = await createRunner(h.adminToken, { runner_type: 'instance_type', paused: true });
    expect((await h.get(`/runners/${runner.id}`)).body).toMatchObject({ status: 'never_contacted', paused: true, active: false });
    await h.post('/runners/verify', { token: runner.token }, { token: null });
    expect((await h.get(`/runners/${runner.id}`)).body).toMatchObject({ status: 'paused', online: true });
    clock += 8 * DAY;
    expect((await h.get(`/runners/${runner.id}`)).body.status).toBe('stale');
  });

  it('computes the model status from the two timestamps', () => {
    const now = new Date(START);
    const ago = (ms: number) => new Date(START - ms).toISOString();
    expect(runnerModelStatus({ created_at: ago(DAY), contacted_at: ago(HOUR) }, now)).toBe('online');
    expect(runnerModelStatus({ created_at: ago(DAY), contacted_at: ago(3 * HOUR) }, now)).toBe('offline');
    expect(runnerModelStatus({ created_at: ago(DAY), contacted_at: null }, now)).toBe('never_contacted');
    expect(runnerModelStatus({ created_at: ago(8 * DAY), contacted_at: null }, now)).toBe('stale');
    expect(runnerModelStatus({ created_at: ago(80 * DAY), contacted_at: ago(8 * DAY) }, now)).toBe('stale');
  });

  it('matches version prefixes by whole components, as the platform does', () => {
    expect(versionMatchesPrefix('15.1.3', '15.1')).toBe(true);
    expect(versionMatchesPrefix('15.10.0', '15.1')).toBe(false);
    expect(versionMatchesPrefix('15.10.0', '15')).toBe(true);
    expect(versionMatchesPrefix('16.1.241', '16.1.241')).toBe(true);
    expect(versionMatchesPrefix('16.1.2', '16.1.241')).toBe(false);
    expect(versionMatchesPrefix('16.1.2', '16.1.')).toBe(true);
    expect(versionMatchesPrefix(null, '16')).toBe(false);
  });
});

describe('list filters', () => {
  // every runner here carries the tag `fx`, so the assertions see only this fleet
  const fleet: Record<string, number> = {};
  let tokens: { instance: string; group: string; project: string };

  async function register(registrationToken: string, name: string, body: Record<string, unknown>): Promise<string> {
    const answer = await h.post('/runners', { token: registrationToken, description: name, ...body }, { token: null });
    expect(answer.status, answer.text).toBe(201);
    fleet[name] = answer.body.id;
    return answer.body.token;
  }
  const verify = async (token: string) => expect((await h.post('/runners/verify', { token }, { token: null })).status).toBe(200);
  const list = async (query: string, path = '/runners/all') => {
    const answer = await h.get(`${path}?tag_list=fx&per_page=100&${query}`);
    expect(answer.status, answer.text).toBe(200);
    return ids(answer);
  };
  const of = (...names: string[]) => sorted(names.map((name) => fleet[name]));

  beforeAll(async () => {
    clock = START + 100 * DAY;
    tokens = {
      instance: (await h.post('/runners/reset_registration_token')).body.token,
      group: (await h.post(`/groups/${group.id}/runners/reset_registration_token`, undefined, { token: groupOwner.token })).body.token,
      project: (await h.post(`/projects/${project.id}/runners/reset_registration_token`, undefined, { token: projectMaintainer.token })).body.token,
    };
    const staleToken = await register(tokens.instance, 'stale', { tag_list: 'fx', info: { version: '14.10.1' } });
    await register(tokens.group, 'oldNever', { tag_list: 'fx', info: { version: '17.0.0' } });
    await verify(staleToken);
    clock += 8 * DAY;
    await verify(await register(tokens.project, 'offline', { tag_list: 'fx,docker', info: { version: '15.1.0' } }));
    await register(tokens.instance, 'never', { tag_list: ['fx'] });
    const pausedToken = await register(tokens.instance, 'paused', { tag_list: 'fx,docker', paused: true, info: { version: '16.1.2' } });
    clock += 3 * HOUR;
    await verify(await register(tokens.group, 'online1', { tag_list: 'fx,docker,gpu', info: { version: '15.10.0' } }));
    await verify(await register(tokens.project, 'online2', { tag_list: 'fx,gpu', info: { version: '16.1.241' } }));
    await verify(pausedToken);
  });

  it('filters by status, the deprecated active and paused values included', async () => {
    expect(await list('status=online')).toEqual(of('online1', 'online2', 'paused'));
    // offline includes stale runners that once called in
    expect(await list('status=offline')).toEqual(of('stale', 'offline'));
    expect(await list('status=stale')).toEqual(of('stale', 'oldNever'));
    expect(await list('status=never_contacted')).toEqual(of('oldNever', 'never'));
    expect(await list('status=paused')).toEqual(of('paused'));
    expect(await list('status=active')).toEqual(of('stale', 'oldNever', 'offline', 'never', 'online1', 'online2'));
  });

  it('shows the REST status and online of each runner', async () => {
    const answer = await h.get('/runners/all?tag_list=fx&per_page=100');
    const byId = new Map((answer.body as Array<{ id: number; status: string; online: boolean | null }>).map((row) => [row.id, row]));
    expect(byId.get(fleet.stale)).toMatchObject({ status: 'stale', online: false });
    expect(byId.get(fleet.oldNever)).toMatchObject({ status: 'stale', online: null });
    expect(byId.get(fleet.offline)).toMatchObject({ status: 'offline', online: false });
    expect(byId.get(fleet.never)).toMatchObject({ status: 'never_contacted', online: null });
    expect(byId.get(fleet.online1)).toMatchObject({ status: 'online', online: true });
    expect(byId.get(fleet.paused)).toMatchObject({ status: 'paused', online: true, paused: true, active: false });
  });

  it('filters by paused, type and combinations', async () => {
    expect(await list('paused=true')).toEqual(of('paused'));
    expect(await list('paused=false')).toEqual(of('stale', 'oldNever', 'offline', 'never', 'online1', 'online2'));
    expect(await list('type=instance_type')).toEqual(of('stale', 'never', 'paused'));
    expect(await list('type=group_type')).toEqual(of('oldNever', 'online1'));
    expect(await list('type=project_type')).toEqual(of('offline', 'online2'));
    expect(await list('type=instance_type&status=online')).toEqual(of('paused'));
    expect(await list('type=project_type&paused=false&status=offline')).toEqual(of('offline'));
  });

  it('filters by every tag given, comma-separated or as an array', async () => {
    expect(await list('tag_list=fx,docker')).toEqual(of('offline', 'online1', 'paused'));
    expect(ids(await h.get('/runners/all?tag_list[]=fx&tag_list[]=docker&tag_list[]=gpu'))).toEqual(of('online1'));
    expect(ids(await h.get('/runners/all?tag_list=fx,nosuchtag'))).toEqual([]);
  });

  it('filters by version prefix by whole components', async () => {
    expect(await list('version_prefix=15.1')).toEqual(of('offline'));
    expect(await list('version_prefix=15')).toEqual(of('offline', 'online1'));
    expect(await list('version_prefix=16.1')).toEqual(of('online2', 'paused'));
    expect(await list('version_prefix=16.1.241')).toEqual(of('online2'));
    expect(await list('version_prefix=14.')).toEqual(of('stale'));
    const bad = await h.get('/runners/all?version_prefix=v16');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'version_prefix is invalid' });
  });

  it('takes the deprecated scope, with the values each endpoint allows', async () => {
    expect(await list('scope=shared')).toEqual(of('stale', 'never', 'paused'));
    expect(await list('scope=specific')).toEqual(of('oldNever', 'offline', 'online1', 'online2'));
    expect(await list('scope=online')).toEqual(of('online1', 'online2', 'paused'));
    expect(await list('scope=project_type')).toEqual(of('offline', 'online2'));
    // /runners only takes statuses as scope
    const refused = await h.get('/runners?scope=shared', { token: groupOwner.token });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Scope contains invalid value' });
    expect((await h.get('/runners?scope=paused', { token: groupOwner.token })).status).toBe(200);
    const unknown = await h.get('/runners/all?scope=everything');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ error: 'scope does not have a valid value' });
  });

  it('answers Grape 400s for bad values, all at once', async () => {
    const answer = await h.get('/runners/all?type=shared&status=busy&paused=maybe');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'type does not have a valid value, paused is invalid, status does not have a valid value' });
  });

  it('paginates with the platform headers', async () => {
    const first = await h.get('/runners/all?tag_list=fx&per_page=3');
    expect(first.body).toHaveLength(3);
    expect(first.headers.get('x-total')).toBe('7');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    const last = await h.get('/runners/all?tag_list=fx&per_page=3&page=3');
    expect(last.body).toHaveLength(1);
    expect(last.headers.get('x-next-page')).toBe('');
    expect([...ids(first), ...ids(await h.get('/runners/all?tag_list=fx&per_page=3&page=2')), ...ids(last)].sort((a, b) => a - b))
      .toEqual(of('stale', 'oldNever', 'offline', 'never', 'paused', 'online1', 'online2'));
  });

  it('lists a project\'s runners: its own, its groups\' and the instance\'s, with the same filters', async () => {
    const path = `/projects/${project.id}/runners`;
    expect(await list('', path)).toEqual(of('stale', 'oldNever', 'offline', 'never', 'paused', 'online1', 'online2'));
    expect(await list('type=project_type', path)).toEqual(of('offline', 'online2'));
    expect(await list('scope=shared', path)).toEqual(of('stale', 'never', 'paused'));
    // the other project sees the group's and the instance's runners, not this project's
    expect(await list('', `/projects/${otherProject.id}/runners`)).toEqual(of('stale', 'oldNever', 'never', 'paused', 'online1'));
    expect((await h.get(path, { token: projectMaintainer.token })).status).toBe(200);
    expect((await h.get(path, { token: projectDeveloper.token })).status).toBe(403);
    expect((await h.get(path, { token: outsider.token })).status).toBe(404);
  });

  it('lists a group\'s runners: its own, its ancestors\' and the instance\'s; Owners only', async () => {
    expect(await list('', `/groups/${group.id}/runners`)).toEqual(of('stale', 'oldNever', 'never', 'paused', 'online1'));
    expect(await list('type=group_type&status=online', `/groups/${subgroup.id}/runners`)).toEqual(of('online1'));
    expect((await h.get(`/groups/${group.id}/runners?tag_list=fx`, { token: groupOwner.token })).status).toBe(200);
    const maintainer = await h.get(`/groups/${group.id}/runners`, { token: groupMaintainer.token });
    expect(maintainer.status).toBe(403);
    expect(maintainer.body).toEqual({ message: '403 Forbidden' });
    // the group endpoint has no scope parameter: a scope is ignored
    expect(await list('scope=shared', `/groups/${group.id}/runners`)).toEqual(of('stale', 'oldNever', 'never', 'paused', 'online1'));
  });

  it('lists under /runners the runners the caller owns, never instance runners', async () => {
    expect(ids(await h.get('/runners?tag_list=fx', { token: groupOwner.token }))).toEqual(of('oldNever', 'offline', 'online1', 'online2'));
    expect(ids(await h.get('/runners?tag_list=fx', { token: projectMaintainer.token }))).toEqual(of('offline', 'online2'));
    expect(ids(await h.get('/runners?tag_list=fx', { token: groupMaintainer.token }))).toEqual(of('offline', 'online2'));
    expect(ids(await h.get('/runners?tag_list=fx', { token: projectDeveloper.token }))).toEqual([]);
    expect(ids(await h.get('/runners?tag_list=fx'))).toEqual([]);
    expect(ids(await h.get('/runners?tag_list=fx&type=group_type', { token: groupOwner.token }))).toEqual(of('oldNever', 'online1'));
  });

  it('keeps /runners/all to administrators', async () => {
    const answer = await h.get('/runners/all', { token: groupOwner.token });
    expect(answer.status).toBe(403);
    expect((await h.get('/runners/all', { token: null })).status).toBe(401);
  });
});

describe('permission matrix per runner type', () => {
  let instanceRunner: { id: number; token: string };
  let groupRunner: { id: number; token: string };
  let projectRunner: { id: number; token: string };

  beforeAll(async () => {
    instanceRunner = await createRunner(h.adminToken, { runner_type: 'instance_type', description: 'matrix instance' });
    groupRunner = await createRunner(groupOwner.token, { runner_type: 'group_type', group_id: group.id, description: 'matrix group', maintenance_note: 'group note' });
    projectRunner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id, description: 'matrix project', maintenance_note: 'project note' });
  });

  const read = (id: number, user: ApiUser | null) => h.get(`/runners/${id}`, user ? { token: user.token } : undefined);
  const update = (id: number, user: ApiUser | null, body: Record<string, unknown> = { description: 'renamed' }) =>
    h.put(`/runners/${id}`, body, user ? { token: user.token } : undefined);

  it('lets anyone signed in read an instance runner, and only administrators change it', async () => {
    expect((await read(instanceRunner.id, outsider)).status).toBe(200);
    expect((await h.get(`/runners/${instanceRunner.id}`, { token: null })).status).toBe(401);
    const refused = await update(instanceRunner.id, groupOwner);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - No access granted' });
    expect((await update(instanceRunner.id, null)).status).toBe(200);
    expect((await h.post(`/runners/${instanceRunner.id}/reset_authentication_token`, undefined, { token: groupOwner.token })).status).toBe(403);
    expect((await h.delete(`/runners/${instanceRunner.id}`, { token: groupOwner.token })).status).toBe(403);
  });

  it('lets Developers of the group read a group runner and only its Owners change it', async () => {
    for (const user of [groupOwner, groupMaintainer, groupDeveloper]) expect((await read(groupRunner.id, user)).status, user.username).toBe(200);
    for (const user of [groupReporter, outsider, projectMaintainer]) {
      const answer = await read(groupRunner.id, user);
      expect(answer.status, user.username).toBe(403);
      expect(answer.body).toEqual({ message: '403 Forbidden - No access granted' });
    }
    expect((await update(groupRunner.id, groupMaintainer)).status).toBe(403);
    expect((await update(groupRunner.id, groupOwner)).status).toBe(200);
    expect((await h.post(`/runners/${groupRunner.id}/reset_authentication_token`, undefined, { token: groupMaintainer.token })).status).toBe(403);
    // the maintenance note only for those who may edit
    expect((await read(groupRunner.id, groupOwner)).body.maintenance_note).toBe('group note');
    expect((await read(groupRunner.id, groupMaintainer)).body.maintenance_note).toBeNull();
  });

  it('lets Developers of the project read a project runner and its Maintainers change it', async () => {
    for (const user of [projectMaintainer, projectDeveloper, groupOwner, groupMaintainer, groupDeveloper]) {
      expect((await read(projectRunner.id, user)).status, user.username).toBe(200);
    }
    for (const user of [projectReporter, groupReporter, outsider]) expect((await read(projectRunner.id, user)).status, user.username).toBe(403);
    expect((await update(projectRunner.id, projectDeveloper)).status).toBe(403);
    expect((await update(projectRunner.id, projectMaintainer)).status).toBe(200);
    expect((await update(projectRunner.id, groupMaintainer)).status).toBe(200);
    const detail = await read(projectRunner.id, projectMaintainer);
    expect(detail.body.maintenance_note).toBe('project note');
    expect(detail.body.projects).toEqual([expect.objectContaining({ id: project.id, path_with_namespace: project.path_with_namespace })]);
    // a reader only sees the projects it is a member of
    expect((await read(projectRunner.id, projectDeveloper)).body.projects.map((row: { id: number }) => row.id)).toEqual([project.id]);
  });

  it('refuses to delete a project runner serving two projects, except for administrators', async () => {
    const shared = await createRunner(groupOwner.token, { runner_type: 'project_type', project_id: project.id });
    db().prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(shared.id, otherProject.id, new Date(clock).toISOString());
    const refused = await h.delete(`/runners/${shared.id}`, { token: groupOwner.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Runner associated with more than one project' });
    expect((await h.delete(`/runners/${shared.id}`)).status).toBe(204);
    expect((await h.get(`/runners/${shared.id}`)).status).toBe(404);
  });

  it('deletes a project runner for a Maintainer and a group runner for an Owner only', async () => {
    const own = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    expect((await h.delete(`/runners/${own.id}`, { token: projectDeveloper.token })).status).toBe(403);
    expect((await h.delete(`/runners/${own.id}`, { token: projectMaintainer.token })).status).toBe(204);
    const groups = await createRunner(groupOwner.token, { runner_type: 'group_type', group_id: group.id });
    expect((await h.delete(`/runners/${groups.id}`, { token: groupMaintainer.token })).status).toBe(403);
    expect((await h.delete(`/runners/${groups.id}`, { token: groupOwner.token })).status).toBe(204);
  });

  it('answers 404 for a missing runner and 400 for an id that is not a number', async () => {
    const missing = await h.get('/runners/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    expect((await h.put('/runners/999999', { description: 'x' })).status).toBe(404);
    expect((await h.delete('/runners/999999')).status).toBe(404);
    const bad = await h.get('/runners/abc');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'id is invalid' });
  });

  it('creates runners of each type only for those allowed', async () => {
    const forbiddenBody = { message: '403 Forbidden - Insufficient permissions' };
    const instance = await h.post('/user/runners', { runner_type: 'instance_type' }, { token: groupOwner.token });
    expect(instance.status).toBe(403);
    expect(instance.body).toEqual(forbiddenBody);
    expect((await h.post('/user/runners', { runner_type: 'group_type', group_id: group.id }, { token: groupMaintainer.token })).body).toEqual(forbiddenBody);
    expect((await h.post('/user/runners', { runner_type: 'project_type', project_id: project.id }, { token: projectDeveloper.token })).status).toBe(403);
    expect((await h.post('/user/runners', { runner_type: 'project_type', project_id: elsewhere.id }, { token: groupOwner.token })).status).toBe(403);
    const created = await h.post('/user/runners', { runner_type: 'project_type', project_id: project.id, tag_list: 'a,b' }, { token: projectMaintainer.token });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['id', 'token', 'token_expires_at']);
    expect(created.body.token).toMatch(/^glrt-/);
    const detail = (await h.get(`/runners/${created.body.id}`, { token: projectMaintainer.token })).body;
    expect(detail).toMatchObject({ runner_type: 'project_type', is_shared: false, tag_list: ['a', 'b'], run_untagged: true, locked: false, access_level: 'not_protected' });
    expect(detail.created_by).toMatchObject({ id: projectMaintainer.id, username: projectMaintainer.username });
  });

  it('checks the create parameters', async () => {
    expect((await h.post('/user/runners', {})).body).toEqual({ error: 'runner_type is missing' });
    expect((await h.post('/user/runners', { runner_type: 'bogus' })).body).toEqual({ error: 'runner_type does not have a valid value' });
    expect((await h.post('/user/runners', { runner_type: 'group_type' })).body).toEqual({ error: 'group_id is missing' });
    expect((await h.post('/user/runners', { runner_type: 'project_type' })).body).toEqual({ error: 'project_id is missing' });
    const missing = await h.post('/user/runners', { runner_type: 'group_type', group_id: 999999 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: '400 Bad request - Missing/invalid group' });
    expect((await h.post('/user/runners', { runner_type: 'project_type', project_id: 999999 })).body).toEqual({ message: '400 Bad request - Missing/invalid project' });
    const longNote = await h.post('/user/runners', { runner_type: 'instance_type', maintenance_note: 'n'.repeat(1025) });
    expect(longNote.status).toBe(400);
    expect(longNote.body).toEqual({ message: '400 Bad request - Maintenance note is too long (maximum is 1024 characters)' });
  });
});

describe('a project runner assigned to more projects (POST and DELETE /projects/:id/runners)', () => {
  const assign = (projectId: number, runnerId: unknown, user: ApiUser | null) =>
    h.post(`/projects/${projectId}/runners`, runnerId === undefined ? {} : { runner_id: runnerId }, user ? { token: user.token } : undefined);
  const unassign = (projectId: number, runnerId: number, user: ApiUser | null) => h.delete(`/projects/${projectId}/runners/${runnerId}`, user ? { token: user.token } : undefined);
  const projectsOf = async (runnerId: number) => ((await h.get(`/runners/${runnerId}`)).body.projects as Array<{ id: number }>).map((row) => row.id);

  it('lets a Maintainer of both projects assign a runner they own, once; the runner then serves both', async () => {
    const runner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    const assigned = await assign(otherProject.id, runner.id, groupMaintainer);
    expect(assigned.status, assigned.text).toBe(201);
    expect(assigned.body).toMatchObject({ id: runner.id, runner_type: 'project_type', is_shared: false });
    expect(await projectsOf(runner.id)).toEqual([project.id, otherProject.id]);
    expect(ids(await h.get(`/projects/${otherProject.id}/runners?type=project_type`))).toContain(runner.id);
    const again = await assign(otherProject.id, runner.id, groupMaintainer);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: '400 Bad request - Runner has already been taken' });
  });

  it('refuses what the platform refuses, each with its reason', async () => {
    const runner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    // the target project's Maintainers only: a Developer there, or a Maintainer of the runner's project only
    expect((await assign(project.id, runner.id, projectDeveloper)).status).toBe(403);
    expect((await assign(otherProject.id, runner.id, projectMaintainer)).status).toBe(404);
    // the runner must be the caller's: a project runner of a project they do not maintain
    const foreign = await createRunner(outsider.token, { runner_type: 'project_type', project_id: elsewhere.id });
    expect((await assign(otherProject.id, foreign.id, groupMaintainer)).body).toEqual({ message: '403 Forbidden - No access granted' });
    const groupRunner = await createRunner(groupOwner.token, { runner_type: 'group_type', group_id: group.id });
    expect((await assign(otherProject.id, groupRunner.id, groupOwner)).body).toEqual({ message: '403 Forbidden - Runner is a group runner' });
    const locked = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id, locked: true });
    expect((await assign(otherProject.id, locked.id, groupMaintainer)).body).toEqual({ message: '403 Forbidden - Runner is locked' });
    expect((await assign(otherProject.id, locked.id, null)).status).toBe(201);
    const instance = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    expect((await assign(otherProject.id, instance.id, null)).status).toBe(400);
    expect((await assign(otherProject.id, undefined, groupMaintainer)).body).toEqual({ error: 'runner_id is missing' });
    expect((await assign(otherProject.id, 'one', groupMaintainer)).status).toBe(400);
    expect((await assign(otherProject.id, 999_999, groupMaintainer)).status).toBe(404);
  });

  it('unassigns from any project but its owner, and never its last one', async () => {
    const runner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    expect((await assign(otherProject.id, runner.id, groupMaintainer)).status).toBe(201);
    const fromOwner = await unassign(project.id, runner.id, groupMaintainer);
    expect(fromOwner.status).toBe(403);
    expect(fromOwner.body).toEqual({ message: '403 Forbidden - You cannot unassign a runner from the owner project. Delete the runner instead' });
    expect((await unassign(otherProject.id, runner.id, groupDeveloper)).status).toBe(403);
    expect((await unassign(otherProject.id, runner.id, groupMaintainer)).status).toBe(204);
    expect(await projectsOf(runner.id)).toEqual([project.id]);
    const gone = await unassign(otherProject.id, runner.id, groupMaintainer);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: '404 Runner Not Found' });
    const last = await unassign(project.id, runner.id, null);
    expect(last.status).toBe(403);
    expect(last.body).toEqual({ message: '403 Forbidden - Only one project associated with the runner. Please remove the runner instead' });
    expect((await h.delete(`/projects/${project.id}/runners/one`)).status).toBe(400);
  });
});

describe('manage_runner and create_runner scopes', () => {
  let runner: { id: number; token: string };
  beforeAll(async () => {
    runner = await createRunner(groupOwner.token, { runner_type: 'group_type', group_id: group.id, description: 'scoped' });
  });

  it('lets a manage_runner token read, update, pause and reset /runners/:id, and nothing else', async () => {
    const token = await tokenWithScopes(groupOwner, ['manage_runner']);
    expect((await h.get(`/runners/${runner.id}`, { token })).status).toBe(200);
    expect((await h.put(`/runners/${runner.id}`, { paused: true }, { token })).body.paused).toBe(true);
    expect((await h.get(`/runners/${runner.id}/jobs`, { token })).status).toBe(200);
    expect((await h.post(`/runners/${runner.id}/reset_authentication_token`, undefined, { token })).status).toBe(201);
    for (const url of ['/runners', `/groups/${group.id}/runners`, '/user']) {
      const answer = await h.get(url, { token });
      expect(answer.status, url).toBe(403);
      expect(answer.body.error).toBe('insufficient_scope');
    }
  });

  it('reads with read_api but refuses its writes, and refuses read_user', async () => {
    const readApi = await tokenWithScopes(groupOwner, ['read_api']);
    expect((await h.get(`/runners/${runner.id}`, { token: readApi })).status).toBe(200);
    const write = await h.put(`/runners/${runner.id}`, { paused: false }, { token: readApi });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'api manage_runner',
    });
    const readUser = await tokenWithScopes(groupOwner, ['read_user']);
    expect((await h.get(`/runners/${runner.id}`, { token: readUser })).body.scope).toBe('api read_api manage_runner');
  });

  it('still needs the role: a manage_runner token of a Maintainer cannot change a group runner', async () => {
    const token = await tokenWithScopes(groupMaintainer, ['manage_runner']);
    expect((await h.put(`/runners/${runner.id}`, { paused: false }, { token })).status).toBe(403);
  });

  it('creates runners with a create_runner token', async () => {
    const token = await tokenWithScopes(groupOwner, ['create_runner']);
    expect((await h.post('/user/runners', { runner_type: 'group_type', group_id: group.id }, { token })).status).toBe(201);
    const readApi = await tokenWithScopes(groupOwner, ['read_api']);
    expect((await h.post('/user/runners', { runner_type: 'group_type', group_id: group.id }, { token: readApi })).status).toBe(403);
  });
});

describe('update, pause and the maintenance note', () => {
  let runner: { id: number; token: string };
  beforeAll(async () => {
    runner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id, tag_list: 'linux' });
  });
  const update = (body: Record<string, unknown>) => h.put(`/runners/${runner.id}`, body, { token: projectMaintainer.token });

  it('updates every attribute and answers the detail', async () => {
    const answer = await update({
      description: 'build box', tag_list: 'docker, linux,,docker', run_untagged: false, locked: true,
      access_level: 'ref_protected', maximum_timeout: 3600, maintenance_note: 'disk swap on Friday',
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: runner.id, description: 'build box', tag_list: ['docker', 'linux'], run_untagged: false, locked: true,
      access_level: 'ref_protected', maximum_timeout: 3600, maintenance_note: 'disk swap on Friday', paused: false, active: true,
    });
    expect((await h.get(`/runners/${runner.id}`)).body.description).toBe('build box');
  });

  it('pauses and resumes with paused, or the deprecated active', async () => {
    expect((await update({ paused: true })).body).toMatchObject({ paused: true, active: false });
    expect(ids(await h.get(`/runners?paused=true&type=project_type`, { token: projectMaintainer.token }))).toContain(runner.id);
    expect((await update({ paused: false })).body).toMatchObject({ paused: false, active: true });
    expect((await update({ active: false })).body).toMatchObject({ paused: true });
    expect((await update({ active: 'true' })).body).toMatchObject({ paused: false });
    const both = await update({ active: true, paused: true });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'active, paused are mutually exclusive' });
  });

  it('takes a maintenance note of 1,024 characters and refuses 1,025', async () => {
    const exact = 'é'.repeat(1024);
    expect((await update({ maintenance_note: exact })).body.maintenance_note).toBe(exact);
    const tooLong = await update({ maintenance_note: 'x'.repeat(1025) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: { maintenance_note: ['is too long (maximum is 1024 characters)'] } });
    expect((await h.get(`/runners/${runner.id}`)).body.maintenance_note).toBe(exact);
  });

  it('checks the other attributes the way the platform does', async () => {
    expect((await update({})).body).toEqual({
      error: 'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
    });
    expect((await update({ access_level: 'protected' })).body).toEqual({ error: 'access_level does not have a valid value' });
    expect((await update({ maximum_timeout: 'soon' })).body).toEqual({ error: 'maximum_timeout is invalid' });
    expect((await update({ maximum_timeout: 599 })).body).toEqual({ message: { maximum_timeout: ['needs to be at least 10 minutes'] } });
    expect((await update({ tag_list: '', run_untagged: false })).body).toEqual({ message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } });
    const tooMany = await update({ tag_list: Array.from({ length: 51 }, (_, i) => `t${i}`) });
    expect(tooMany.body).toEqual({ message: { tags_list: ['Too many tags specified. Please limit the number of tags to 50'] } });
    expect((await update({ description: 'd'.repeat(1025) })).body).toEqual({ message: { description: ['is too long (maximum is 1024 characters)'] } });
  });
});

describe('registration and tokens', () => {
  it('gives registration tokens to administrators, group Owners and project Maintainers only', async () => {
    const instance = await h.post('/runners/reset_registration_token');
    expect(instance.status).toBe(201);
    expect(instance.body.token).toMatch(/^GR1348941/);
    expect(instance.body.token_expires_at).toBeNull();
    expect((await h.post('/runners/reset_registration_token', undefined, { token: groupOwner.token })).status).toBe(403);
    expect((await h.post(`/groups/${group.id}/runners/reset_registration_token`, undefined, { token: groupMaintainer.token })).status).toBe(403);
    expect((await h.post(`/projects/${project.id}/runners/reset_registration_token`, undefined, { token: projectDeveloper.token })).status).toBe(403);
    expect((await h.post(`/projects/${elsewhere.id}/runners/reset_registration_token`, undefined, { token: groupOwner.token })).status).toBe(404);
  });

  it('registers a runner of the token\'s type and owner, with what the runner says about itself', async () => {
    const groupToken = (await h.post(`/groups/${subgroup.id}/runners/reset_registration_token`, undefined, { token: groupOwner.token })).body.token;
    const answer = await h.post('/runners', {
      token: groupToken, description: 'registered', tag_list: 'ruby,mysql', run_untagged: false, access_level: 'ref_protected',
      maximum_timeout: 7200, maintainer_note: 'old name of the note', info: { name: 'gitlab-runner', version: '17.8.1', revision: 'abc123', platform: 'linux', architecture: 'arm64' },
    }, { token: null });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({ id: expect.any(Number), token: expect.any(String), token_expires_at: null });
    expect(answer.body.token).not.toMatch(/^glrt-/);
    const detail = (await h.get(`/runners/${answer.body.id}`)).body;
    expect(detail).toMatchObject({
      runner_type: 'group_type', description: 'registered', name: 'gitlab-runner', tag_list: ['ruby', 'mysql'], run_untagged: false,
      access_level: 'ref_protected', maximum_timeout: 7200, maintenance_note: 'old name of the note', version: '17.8.1',
      revision: 'abc123', platform: 'linux', architecture: 'arm64', status: 'never_contacted', created_by: null,
    });
    expect(detail.groups).toEqual([expect.objectContaining({ id: subgroup.id })]);
  });

  it('refuses an unknown or replaced registration token', async () => {
    const wrong = await h.post('/runners', { token: 'GR1348941nope' }, { token: null });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ message: '403 Forbidden - invalid token supplied' });
    const first = (await h.post(`/projects/${project.id}/runners/reset_registration_token`, undefined, { token: projectMaintainer.token })).body.token;
    await h.post(`/projects/${project.id}/runners/reset_registration_token`, undefined, { token: projectMaintainer.token });
    expect((await h.post('/runners', { token: first }, { token: null })).status).toBe(403);
    expect((await h.post('/runners', {}, { token: null })).body).toEqual({ error: 'token is missing' });
    expect((await h.post('/runners', { token: first, active: true, paused: false }, { token: null })).body).toEqual({ error: 'active, paused are mutually exclusive' });
  });

  it('stores authentication tokens hashed only', async () => {
    const created = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    const row = db().prepare('SELECT * FROM ci_runners WHERE id = ?').get(created.id) as Record<string, unknown>;
    expect(row.token_digest).toBe(tokenDigest(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);
  });

  it('resets the authentication token by id: the old one stops working', async () => {
    const created = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    const reset = await h.post(`/runners/${created.id}/reset_authentication_token`, undefined, { token: projectMaintainer.token });
    expect(reset.status).toBe(201);
    expect(reset.body).toEqual({ token: expect.stringMatching(/^glrt-/), token_expires_at: null });
    expect(reset.body.token).not.toBe(created.token);
    const stale = await h.post('/runners/verify', { token: created.token }, { token: null });
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ message: '403 Forbidden' });
    expect((await h.post('/runners/verify', { token: reset.body.token }, { token: null })).status).toBe(200);
    expect((await h.post(`/runners/${created.id}/reset_authentication_token`, undefined, { token: projectDeveloper.token })).status).toBe(403);
  });

  it('resets the authentication token with the current one', async () => {
    const created = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    const reset = await h.post('/runners/reset_authentication_token', { token: created.token }, { token: null });
    expect(reset.status).toBe(201);
    expect((await h.post('/runners/reset_authentication_token', { token: created.token }, { token: null })).status).toBe(403);
    expect((await h.post('/runners/verify', { token: reset.body.token }, { token: null })).body.id).toBe(created.id);
  });

  it('deletes a runner with its authentication token', async () => {
    const created = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    expect((await h.call('DELETE', '/runners', { json: { token: 'nope' }, token: null })).status).toBe(403);
    expect((await h.call('DELETE', '/runners', { json: { token: created.token }, token: null })).status).toBe(204);
    expect((await h.get(`/runners/${created.id}`)).status).toBe(404);
  });

  it('lets a runner call in with its token even when a user token of any scope comes along', async () => {
    const created = await createRunner(h.adminToken, { runner_type: 'instance_type' });
    const readOnly = await tokenWithScopes(outsider, ['read_user']);
    expect((await h.post('/runners/verify', { token: created.token }, { token: readOnly })).status).toBe(200);
  });
});

describe('jobs of a runner', () => {
  let runner: { id: number; token: string };
  const jobIds: Record<string, number> = {};

  beforeAll(async () => {
    runner = await createRunner(projectMaintainer.token, { runner_type: 'project_type', project_id: project.id });
    // the runner also serves the other project, where the project Maintainer has no role
    db().prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(runner.id, otherProject.id, new Date(clock).toISOString());
    const insert = db().prepare(
      `INSERT INTO ci_builds (project_id, runner_id, system_id, pipeline_id, pipeline_iid, user_id, name, stage, status, ref, tag, sha, commit_title, created_at, started_at, finished_at)
       VALUES (?, ?, ?, 7, 1, ?, ?, 'test', ?, 'main', 0, ?, 'Fix it', ?, ?, ?)`,
    );
    const at = (minutes: number) => new Date(clock - minutes * MINUTE).toISOString();
    const add = (name: string, projectId: number, status: string, systemId: string) => {
      jobIds[name] = Number(insert.run(projectId, runner.id, systemId, projectMaintainer.id, name, status, 'a'.repeat(40), at(30), at(29), status === 'running' ? null : at(20)).lastInsertRowid);
    };
    add('unit', project.id, 'success', 's_one');
    add('lint', project.id, 'failed', 's_two');
    add('e2e', project.id, 'running', 's_one');
    add('hidden', otherProject.id, 'success', 's_one');
  });

  const jobs = async (query = '', token?: string) => {
    const answer = await h.get(`/runners/${runner.id}/jobs${query}`, token ? { token } : undefined);
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as Array<{ id: number }>).map((job) => job.id);
  };

  it('lists the jobs, newest first, with their project, pipeline and commit', async () => {
    expect(await jobs()).toEqual([jobIds.hidden, jobIds.e2e, jobIds.lint, jobIds.unit]);
    const answer = await h.get(`/runners/${runner.id}/jobs?status=running`);
    expect(answer.body).toHaveLength(1);
    expect(answer.body[0]).toMatchObject({
      id: jobIds.e2e, status: 'running', stage: 'test', name: 'e2e', ref: 'main', tag: false, finished_at: null,
      pipeline: { id: 7, iid: 1, project_id: project.id, sha: 'a'.repeat(40), ref: 'main' },
      commit: { id: 'a'.repeat(40), short_id: 'aaaaaaaa', title: 'Fix it' },
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
      user: { id: projectMaintainer.id },
    });
    expect(answer.body[0].duration).toBeGreaterThan(0);
  });

  it('filters by status and system_id and sorts by id', async () => {
    expect(await jobs('?status=success')).toEqual([jobIds.hidden, jobIds.unit]);
    expect(await jobs('?system_id=s_two')).toEqual([jobIds.lint]);
    expect(await jobs('?order_by=id&sort=asc')).toEqual([jobIds.unit, jobIds.lint, jobIds.e2e, jobIds.hidden]);
    expect((await h.get(`/runners/${runner.id}/jobs?status=done`)).body).toEqual({ error: 'status does not have a valid value' });
    expect((await h.get(`/runners/${runner.id}/jobs?order_by=name`)).body).toEqual({ error: 'order_by does not have a valid value' });
    const page = await h.get(`/runners/${runner.id}/jobs?per_page=2`);
    expect(page.headers.get('x-total')).toBe('4');
  });

  it('shows a runner owner only the jobs of projects where it is Reporter or more', async () => {
    expect(await jobs('', projectMaintainer.token)).toEqual([jobIds.e2e, jobIds.lint, jobIds.unit]);
    expect(await jobs('', groupOwner.token)).toEqual([jobIds.hidden, jobIds.e2e, jobIds.lint, jobIds.unit]);
  });

  it('refuses the jobs to those who do not own the runner', async () => {
    for (const user of [projectDeveloper, projectReporter, outsider]) {
      const answer = await h.get(`/runners/${runner.id}/jobs`, { token: user.token });
      expect(answer.status, user.username).toBe(403);
      expect(answer.body).toEqual({ message: '403 Forbidden - No access granted' });
    }
    expect((await h.get('/runners/999999/jobs')).status).toBe(404);
  });

  it('shows a runner with a running job as active', async () => {
    expect((await h.get(`/runners/${runner.id}`)).body.job_execution_status).toBe('active');
  });
});
