import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Answer } from './harness.ts';
import {
  apiGroup, apiProject, apiUser, shareGroup, shareProject, unique, userWithProjectRole,
  type ApiGroup, type ApiProject, type ApiUser,
} from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const ids = (answer: Answer) => (answer.body as Array<{ id: number }>).map((row) => row.id);
const PATH_FORMAT = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

let owner: ApiUser;
let stranger: ApiUser;

beforeAll(async () => {
  owner = await apiUser(h, { username: 'gp-owner' });
  stranger = await apiUser(h, { username: 'gp-stranger' });
});

describe('POST /groups', () => {
  it('creates a group: 201, the creator its owner', async () => {
    const answer = await h.post('/groups', { name: 'Platform Team', path: 'platform-team', description: 'the team', visibility: 'internal' }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ name: 'Platform Team', path: 'platform-team', full_path: 'platform-team', full_name: 'Platform Team', description: 'the team', visibility: 'internal', parent_id: null, projects: [], shared_with_groups: [] });
    expect(answer.body.web_url).toBe('http://localhost/groups/platform-team');
    const owned = await h.get('/groups?owned=true', { token: owner.token });
    expect(ids(owned)).toContain(answer.body.id);
  });

  it('creates a subgroup under a group the caller owns', async () => {
    const parent = await apiGroup(h, owner.token, { path: 'parent-a', name: 'Parent A', visibility: 'internal' });
    const answer = await h.post('/groups', { name: 'Child', path: 'child', parent_id: parent.id, visibility: 'private' }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ full_path: 'parent-a/child', full_name: 'Parent A / Child', parent_id: parent.id });
  });

  it('answers 400 "Failed to save group" for a bad or taken path', async () => {
    const bad = await h.post('/groups', { name: 'Bad', path: 'bad path!' }, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: `Failed to save group {:path=>[${JSON.stringify(PATH_FORMAT)}]}` });
    for (const path of ['platform-team', 'PLATFORM-team', 'gp-stranger']) {
      const taken = await h.post('/groups', { name: 'Again', path }, { token: owner.token });
      expect(taken.status, path).toBe(400);
      expect(taken.body, path).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    }
  });

  it('keeps a subgroup no more visible than its parent', async () => {
    const parent = await apiGroup(h, owner.token, { visibility: 'private' });
    const answer = await h.post('/groups', { name: 'Loud', path: 'loud', parent_id: parent.id, visibility: 'public' }, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}' });
    const internalParent = await apiGroup(h, owner.token, { visibility: 'internal' });
    expect((await h.post('/groups', { name: 'Same', path: 'same', parent_id: internalParent.id, visibility: 'internal' }, { token: owner.token })).status).toBe(201);
  });

  it('answers 403 for a subgroup of a visible group the caller does not manage, 404 when hidden', async () => {
    const open = await apiGroup(h, owner.token, { visibility: 'public' });
    const forbidden = await h.post('/groups', { name: 'Mine', path: 'mine', parent_id: open.id }, { token: stranger.token });
    expect(forbidden.status).toBe(403);
    const hidden = await apiGroup(h, owner.token, { visibility: 'private' });
    const notFound = await h.post('/groups', { name: 'Mine', path: 'mine', parent_id: hidden.id }, { token: stranger.token });
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ message: '404 Group Not Found' });
  });

  it('answers 400 for an unknown visibility', async () => {
    const answer = await h.post('/groups', { name: 'V', path: unique('v'), visibility: 'secret' }, { token: owner.token });
    expect(answer.body).toEqual({ error: 'visibility does not have a valid value' });
  });
});

describe('GET /groups', () => {
  let lister: ApiUser;
  let alpha: ApiGroup;
  let beta: ApiGroup;
  let betaChild: ApiGroup;
  let reporterOnly: ApiGroup;
  let foreignPublic: ApiGroup;
  let foreignPrivate: ApiGroup;

  beforeAll(async () => {
    lister = await apiUser(h, { username: 'lister' });
    alpha = await apiGroup(h, lister.token, { path: 'lst-alpha', name: 'Zulu Alpha', visibility: 'private' });
    beta = await apiGroup(h, lister.token, { path: 'lst-beta', name: 'Yankee Beta', visibility: 'public' });
    betaChild = await apiGroup(h, lister.token, { path: 'kid', name: 'Xray Kid', parent_id: beta.id, visibility: 'public' });
    // the lister reaches this group as a Reporter through an invited group it owns
    const other = await apiUser(h);
    reporterOnly = await apiGroup(h, other.token, { path: 'lst-reporter', name: 'Whiskey Reporter', visibility: 'private' });
    await shareGroup(h, h.adminToken, reporterOnly.id, alpha.id, 20);
    foreignPublic = await apiGroup(h, other.token, { path: 'lst-foreign', name: 'Victor Foreign', visibility: 'public' });
    foreignPrivate = await apiGroup(h, other.token, { path: 'lst-hidden', name: 'Uniform Hidden', visibility: 'private' });
  });

  const list = async (query: string, token = lister.token) => {
    const answer = await h.get(`/groups?per_page=100&${query}`, { token });
    expect(answer.status, query).toBe(200);
    return ids(answer);
  };

  it('lists only the groups a user belongs to unless all_available', async () => {
    const mine = await list('');
    expect(mine.sort()).toEqual([alpha.id, beta.id, betaChild.id, reporterOnly.id].sort());
    const available = await list('all_available=true');
    expect(available).toEqual(expect.arrayContaining([alpha.id, beta.id, foreignPublic.id]));
    expect(available).not.toContain(foreignPrivate.id);
    // administrators see every group by default
    expect(await list('', h.adminToken)).toEqual(expect.arrayContaining([foreignPrivate.id, alpha.id]));
    // and only their own with all_available=false
    expect(await list('all_available=false', h.adminToken)).not.toContain(foreignPrivate.id);
  });

  it('filters by search on name or path', async () => {
    expect(await list('search=yankee')).toEqual([beta.id]);
    expect(await list('search=lst-al')).toEqual([alpha.id]);
  });

  it('filters owned groups and by min_access_level', async () => {
    expect((await list('owned=true')).sort()).toEqual([alpha.id, beta.id, betaChild.id].sort());
    expect(await list('min_access_level=30')).not.toContain(reporterOnly.id);
    expect(await list('min_access_level=20')).toContain(reporterOnly.id);
    expect((await h.get('/groups?min_access_level=7', { token: lister.token })).body).toEqual({ error: 'min_access_level does not have a valid value' });
  });

  it('filters by visibility, top_level_only and skip_groups', async () => {
    expect((await list('visibility=public')).sort()).toEqual([beta.id, betaChild.id].sort());
    expect(await list('top_level_only=true')).not.toContain(betaChild.id);
    expect(await list(`skip_groups[]=${alpha.id}&skip_groups[]=${beta.id}`)).not.toEqual(expect.arrayContaining([alpha.id]));
    expect((await h.get('/groups?visibility=hidden', { token: lister.token })).body).toEqual({ error: 'visibility does not have a valid value' });
  });

  it('orders by name ascending by default, and by order_by and sort', async () => {
    // names: Zulu Alpha, Yankee Beta, Xray Kid, Whiskey Reporter
    expect(await list('')).toEqual([reporterOnly.id, betaChild.id, beta.id, alpha.id]);
    expect(await list('sort=desc')).toEqual([alpha.id, beta.id, betaChild.id, reporterOnly.id]);
    expect(await list('order_by=path&sort=asc')).toEqual([betaChild.id, alpha.id, beta.id, reporterOnly.id]);
    expect(await list('order_by=id&sort=asc')).toEqual([alpha.id, beta.id, betaChild.id, reporterOnly.id]);
    expect((await h.get('/groups?order_by=members', { token: lister.token })).body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('lists public groups to anonymous callers', async () => {
    const anonymous = await list('', null as unknown as string);
    expect(anonymous).toEqual(expect.arrayContaining([beta.id, betaChild.id, foreignPublic.id]));
    expect(anonymous).not.toContain(alpha.id);
  });

  it('lists the direct subgroups of a group with GET /groups/:id/subgroups', async () => {
    const grandchild = await apiGroup(h, lister.token, { path: 'grandkid', parent_id: betaChild.id, visibility: 'public' });
    const hiddenChild = await apiGroup(h, lister.token, { path: 'quiet', parent_id: beta.id, visibility: 'private' });
    const asMember = await h.get(`/groups/${beta.id}/subgroups`, { token: lister.token });
    expect(asMember.status).toBe(200);
    expect(ids(asMember).sort()).toEqual([betaChild.id, hiddenChild.id].sort());
    expect(ids(asMember)).not.toContain(grandchild.id);
    const asStranger = await h.get('/groups/lst-beta/subgroups', { token: stranger.token });
    expect(ids(asStranger)).toEqual([betaChild.id]);
    const hidden = await h.get(`/groups/${alpha.id}/subgroups`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('GET /groups/:id/projects', () => {
  let team: ApiGroup;
  let nested: ApiGroup;
  let direct: ApiProject[];
  let deep: ApiProject;
  let sharedIn: ApiProject;

  beforeAll(async () => {
    team = await apiGroup(h, owner.token, { path: 'gp-team', visibility: 'internal' });
    nested = await apiGroup(h, owner.token, { path: 'nested', parent_id: team.id, visibility: 'internal' });
    direct = [];
    for (const name of ['Bravo', 'Alpha', 'Charlie']) direct.push(await apiProject(h, owner.token, { name, path: name.toLowerCase(), namespace_id: team.id, visibility: 'internal' }));
    deep = await apiProject(h, owner.token, { path: 'deep', namespace_id: nested.id, visibility: 'internal' });
    sharedIn = await apiProject(h, stranger.token, { path: 'outside', visibility: 'private' });
    await shareProject(h, h.adminToken, sharedIn.id, team.id, 30);
  });

  it('lists the group\'s projects and the projects shared with it, newest first', async () => {
    const answer = await h.get(`/groups/${team.id}/projects`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(ids(answer)).toEqual([sharedIn.id, ...direct.map((p) => p.id).reverse()]);
    expect(answer.headers.get('x-total')).toBe('4');
  });

  it('leaves shared projects out with with_shared=false and adds subgroups with include_subgroups', async () => {
    expect(ids(await h.get(`/groups/${team.id}/projects?with_shared=false`, { token: owner.token })).sort()).toEqual(direct.map((p) => p.id).sort());
    const withSubgroups = ids(await h.get(`/groups/${team.id}/projects?with_shared=false&include_subgroups=true`, { token: owner.token }));
    expect(withSubgroups.sort()).toEqual([...direct.map((p) => p.id), deep.id].sort());
  });

  it('orders by name and sorts', async () => {
    const byName = await h.get(`/groups/gp-team/projects?with_shared=false&order_by=name&sort=asc`, { token: owner.token });
    expect(byName.body.map((p: { name: string }) => p.name)).toEqual(['Alpha', 'Bravo', 'Charlie']);
  });

  it('shows a private shared project only to those who may read it', async () => {
    expect(ids(await h.get(`/groups/${team.id}/projects`, { token: owner.token }))).toContain(sharedIn.id);
    const other = await apiUser(h);
    expect(ids(await h.get(`/groups/${team.id}/projects`, { token: other.token }))).not.toContain(sharedIn.id);
  });
});

describe('GET /projects', () => {
  let me: ApiUser;
  let personal: ApiProject;
  let archived: ApiProject;
  let inGroup: ApiProject;
  let reporterProject: ApiProject;
  let otherPublic: ApiProject;
  let otherPrivate: ApiProject;

  beforeAll(async () => {
    me = await apiUser(h, { username: 'proj-lister' });
    personal = await apiProject(h, me.token, { name: 'Kilo Personal', path: 'kilo', visibility: 'private', description: 'needle in description' });
    archived = await apiProject(h, me.token, { name: 'Lima Archived', path: 'lima', visibility: 'private' });
    h.sandbox.db.prepare('UPDATE projects SET archived = 1 WHERE id = ?').run(archived.id);
    const group = await apiGroup(h, me.token, { visibility: 'private' });
    inGroup = await apiProject(h, me.token, { name: 'Mike Group', path: 'mike', namespace_id: group.id, visibility: 'private' });
    const other = await apiUser(h);
    reporterProject = await apiProject(h, other.token, { name: 'November Reporter', path: 'november', visibility: 'private' });
    const myTeam = await apiGroup(h, me.token, { visibility: 'private' });
    await shareProject(h, h.adminToken, reporterProject.id, myTeam.id, 20);
    otherPublic = await apiProject(h, other.token, { name: 'Oscar Public', path: 'oscar', visibility: 'public' });
    otherPrivate = await apiProject(h, other.token, { name: 'Papa Private', path: 'papa', visibility: 'private' });
  });

  const list = async (query: string, token: string | null = me.token) => {
    const answer = await h.get(`/projects?per_page=100&${query}`, { token });
    expect(answer.status, query).toBe(200);
    return ids(answer);
  };

  it('lists what the caller may see', async () => {
    const all = await list('');
    expect(all).toEqual(expect.arrayContaining([personal.id, archived.id, inGroup.id, reporterProject.id, otherPublic.id]));
    expect(all).not.toContain(otherPrivate.id);
  });

  it('filters by search over name, path and description', async () => {
    expect(await list('search=kilo')).toEqual([personal.id]);
    expect(await list('search=needle')).toEqual([personal.id]);
    expect(await list('search=MIKE')).toEqual([inGroup.id]);
  });

  it('filters owned projects (personal ones and those the caller is Owner of) and memberships', async () => {
    expect((await list('owned=true')).sort()).toEqual([personal.id, archived.id, inGroup.id].sort());
    expect(await list('owned=true', null)).toEqual([]);
    const membership = await list('membership=true');
    expect(membership.sort()).toEqual([personal.id, archived.id, inGroup.id, reporterProject.id].sort());
    expect(membership).not.toContain(otherPublic.id);
  });

  it('filters by min_access_level', async () => {
    expect(await list('min_access_level=30')).not.toContain(reporterProject.id);
    expect(await list('min_access_level=20')).toContain(reporterProject.id);
    expect(await list('min_access_level=50')).toEqual(expect.arrayContaining([personal.id, inGroup.id]));
    expect((await h.get('/projects?min_access_level=60', { token: me.token })).body).toEqual({ error: 'min_access_level does not have a valid value' });
  });

  it('filters by visibility and archived', async () => {
    const publicOnes = await list('visibility=public');
    expect(publicOnes).toContain(otherPublic.id);
    expect(publicOnes).not.toContain(personal.id);
    expect(await list('archived=true&membership=true')).toEqual([archived.id]);
    expect(await list('archived=false&membership=true')).not.toContain(archived.id);
  });

  it('stars and unstars (201 with the project, 304 when nothing changes) and filters starred projects', async () => {
    const star = await h.post(`/projects/${otherPublic.id}/star`, {}, { token: me.token });
    expect(star.status).toBe(201);
    expect(star.body).toMatchObject({ id: otherPublic.id, star_count: 1 });
    expect((await h.post(`/projects/${otherPublic.id}/star`, {}, { token: me.token })).status).toBe(304);
    expect((await h.post(`/projects/${personal.id}/star`, {}, { token: me.token })).status).toBe(201);
    expect((await list('starred=true')).sort()).toEqual([personal.id, otherPublic.id].sort());
    // stars are the caller's own
    expect(await list('starred=true', h.adminToken)).toEqual([]);
    expect((await h.post(`/projects/${personal.id}/unstar`, {}, { token: me.token })).status).toBe(201);
    expect((await h.post(`/projects/${personal.id}/unstar`, {}, { token: me.token })).status).toBe(304);
    expect(await list('starred=true')).toEqual([otherPublic.id]);
    // a project the caller may not read is not found, starred or not
    expect((await h.post(`/projects/${otherPrivate.id}/star`, {}, { token: me.token })).status).toBe(404);
  });

  it('lists every project to an administrator, and narrows to memberships with membership=true', async () => {
    expect(await list('', h.adminToken)).toEqual(expect.arrayContaining([otherPrivate.id, personal.id]));
    expect(await list('membership=true', h.adminToken)).not.toContain(otherPrivate.id);
  });

  it('orders by created_at descending by default, and by order_by and sort', async () => {
    const membership = await list('membership=true');
    expect(membership).toEqual([...membership].sort((a, b) => b - a));
    const names = async (query: string) => (await h.get(`/projects?membership=true&${query}`, { token: me.token })).body.map((p: { name: string }) => p.name);
    expect(await names('order_by=name&sort=asc')).toEqual(['Kilo Personal', 'Lima Archived', 'Mike Group', 'November Reporter']);
    expect(await names('order_by=name&sort=desc')).toEqual(['November Reporter', 'Mike Group', 'Lima Archived', 'Kilo Personal']);
    expect(await names('order_by=path')).toEqual(['November Reporter', 'Mike Group', 'Lima Archived', 'Kilo Personal']);
    expect(await list('membership=true&order_by=id&sort=asc')).toEqual([personal.id, archived.id, inGroup.id, reporterProject.id]);
    expect((await h.get('/projects?order_by=stars', { token: me.token })).body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('answers simple entities to anonymous callers', async () => {
    const answer = await h.get('/projects?per_page=100', { token: null });
    const oscar = answer.body.find((p: { id: number }) => p.id === otherPublic.id);
    expect(oscar).toMatchObject({ id: otherPublic.id, name: 'Oscar Public', visibility: 'public' });
    expect(oscar).not.toHaveProperty('permissions');
    expect(oscar).not.toHaveProperty('container_registry_access_level');
  });
});

describe('GET /projects/:id permissions', () => {
  it('reports the highest role on the project\'s group or any ancestor as group_access (highest_group_member)', async () => {
    const parent = await apiGroup(h, owner.token);
    const child = await apiGroup(h, owner.token, { parent_id: parent.id });
    const project = await apiProject(h, owner.token, { namespace_id: child.id });
    const developer = await apiUser(h, { username: unique('gp-dev') });
    expect((await h.post(`/groups/${parent.id}/members`, { user_id: developer.id, access_level: 30 }, { token: owner.token })).status).toBe(201);
    const seen = await h.get(`/projects/${project.id}`, { token: developer.token });
    expect(seen.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    expect((await h.post(`/groups/${child.id}/members`, { user_id: developer.id, access_level: 40 }, { token: owner.token })).status).toBe(201);
    expect((await h.get(`/projects/${project.id}`, { token: developer.token })).body.permissions.group_access.access_level).toBe(40);
  });
});

describe('PUT /projects/:id', () => {
  let project: ApiProject;
  beforeAll(async () => {
    project = await apiProject(h, owner.token, { name: 'Editable', path: 'editable', visibility: 'private' });
  });

  it('updates name and description', async () => {
    const answer = await h.put(`/projects/${project.id}`, { name: 'Edited Name', description: 'new words' }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: project.id, name: 'Edited Name', description: 'new words', path: 'editable' });
    expect((await h.get(`/projects/${project.id}`, { token: owner.token })).body.name).toBe('Edited Name');
  });

  it('sets container_registry_access_level to enabled, private or disabled, and nothing else', async () => {
    for (const level of ['private', 'disabled', 'enabled']) {
      const answer = await h.put(`/projects/${project.id}`, { container_registry_access_level: level }, { token: owner.token });
      expect(answer.status, level).toBe(200);
      expect(answer.body.container_registry_access_level).toBe(level);
      expect(answer.body.container_registry_enabled).toBe(level !== 'disabled');
      expect((await h.get(`/projects/${project.id}`, { token: owner.token })).body.container_registry_access_level).toBe(level);
    }
    for (const level of ['public', 'on', '']) {
      const answer = await h.put(`/projects/${project.id}`, { container_registry_access_level: level }, { token: owner.token });
      expect(answer.status, level).toBe(400);
      expect(answer.body).toEqual({ error: 'container_registry_access_level does not have a valid value' });
    }
    expect((await h.get(`/projects/${project.id}`, { token: owner.token })).body.container_registry_access_level).toBe('enabled');
  });

  it('answers 400 for a taken name and changes nothing', async () => {
    await apiProject(h, owner.token, { name: 'Occupied', path: 'occupied' });
    const answer = await h.put(`/projects/${project.id}`, { name: 'occupied', description: 'should not stick' }, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: { name: ['has already been taken'] } });
    expect((await h.get(`/projects/${project.id}`, { token: owner.token })).body.description).toBe('new words');
  });

  it('after a path change, redirects GET on the old path, refuses writes there, and resolves the new one', async () => {
    const moving = await apiProject(h, owner.token, { path: 'before-move', visibility: 'private' });
    const renamed = await h.put(`/projects/${moving.id}`, { path: 'after-move' }, { token: owner.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body.path_with_namespace).toBe('gp-owner/after-move');

    const location = `http://localhost/api/v4/projects/${moving.id}`;
    const old = await h.get('/projects/gp-owner%2Fbefore-move', { token: owner.token });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe(location);
    expect(old.headers.get('content-type')).toContain('text/plain');
    expect(old.text).toBe(`This resource has been moved permanently to ${location}`);
    const withQuery = await h.get('/projects/gp-owner%2Fbefore-move?statistics=true', { token: owner.token });
    expect(withQuery.headers.get('location')).toBe(`${location}?statistics=true`);

    const write = await h.put('/projects/gp-owner%2Fbefore-move', { description: 'x' }, { token: owner.token });
    expect(write.status).toBe(405);
    expect(write.body).toEqual({ message: 'Non GET methods are not allowed for moved projects' });

    const current = await h.get('/projects/gp-owner%2Fafter-move', { token: owner.token });
    expect(current.status).toBe(200);
    expect(current.body.id).toBe(moving.id);
    // the old path of a private project stays hidden from others
    expect((await h.get('/projects/gp-owner%2Fbefore-move', { token: stranger.token })).status).toBe(404);
  });

  it('stops redirecting an old path once a new project takes it', async () => {
    const first = await apiProject(h, owner.token, { path: 'reused-path' });
    await h.put(`/projects/${first.id}`, { path: 'moved-away' }, { token: owner.token });
    const second = await apiProject(h, owner.token, { name: 'Second at reused-path', path: 'reused-path' });
    const answer = await h.get('/projects/gp-owner%2Freused-path', { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(second.id);
  });

  it('answers 400 for a bad or taken path', async () => {
    const answer = await h.put(`/projects/${project.id}`, { path: 'occupied' }, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: { path: ['has already been taken'] } });
    const bad = await h.put(`/projects/${project.id}`, { path: 'no spaces' }, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.message.path).toEqual([PATH_FORMAT]);
  });
});

describe('inherited and shared access', () => {
  it('lets a member of a parent group read a private project in a subgroup', async () => {
    const parentMember = await apiUser(h);
    const parent = await apiGroup(h, parentMember.token, { visibility: 'private' });
    // the administrator builds the subgroup and project; the parent member is a member of neither
    const sub = await apiGroup(h, h.adminToken, { parent_id: parent.id, visibility: 'private' });
    const project = await apiProject(h, h.adminToken, { namespace_id: sub.id, visibility: 'private' });
    const answer = await h.get(`/projects/${project.id}`, { token: parentMember.token });
    expect(answer.status).toBe(200);
    expect(answer.body.path_with_namespace).toBe(`${parent.path}/${sub.path}/${project.path}`);
    expect((await h.get(`/groups/${sub.id}`, { token: parentMember.token })).status).toBe(200);
    expect(ids(await h.get('/projects?membership=true', { token: parentMember.token }))).toContain(project.id);
    expect((await h.get(`/projects/${project.id}`, { token: stranger.token })).status).toBe(404);
  });

  it('gives the members of a group a project shares with, capped at the shared role', async () => {
    const project = await apiProject(h, owner.token, { visibility: 'private' });
    const member = await apiUser(h);
    const team = await apiGroup(h, member.token, { visibility: 'internal' });
    expect((await h.get(`/projects/${project.id}`, { token: member.token })).status).toBe(404);

    const share = await h.post(`/projects/${project.id}/share`, { group_id: team.id, group_access: 30 }, { token: owner.token });
    expect(share.status).toBe(201);
    expect(share.body).toMatchObject({ project_id: project.id, group_id: team.id, group_access: 30, expires_at: null });

    const seen = await h.get(`/projects/${project.id}`, { token: member.token });
    expect(seen.status).toBe(200);
    expect(seen.body.shared_with_groups).toEqual([expect.objectContaining({ group_id: team.id, group_access_level: 30, group_full_path: team.full_path })]);
    expect(ids(await h.get('/projects?membership=true&min_access_level=30', { token: member.token }))).toContain(project.id);
    expect(ids(await h.get('/projects?min_access_level=40', { token: member.token }))).not.toContain(project.id);
    // Developer through the share: no settings changes
    expect((await h.put(`/projects/${project.id}`, { description: 'x' }, { token: member.token })).status).toBe(403);

    const again = await h.post(`/projects/${project.id}/share`, { group_id: team.id, group_access: 30 }, { token: owner.token });
    expect(again.status).toBe(409);
    const unshare = await h.delete(`/projects/${project.id}/share/${team.id}`, { token: owner.token });
    expect(unshare.status).toBe(204);
    expect((await h.get(`/projects/${project.id}`, { token: member.token })).status).toBe(404);
  });

  it('lets only Maintainers and up share, with a valid role', async () => {
    const project = await apiProject(h, owner.token, { visibility: 'private' });
    const developer = await userWithProjectRole(h, project.id, 30);
    const team = await apiGroup(h, developer.token, { visibility: 'internal' });
    const refused = await h.post(`/projects/${project.id}/share`, { group_id: team.id, group_access: 30 }, { token: developer.token });
    expect(refused.status).toBe(403);
    const badRole = await h.post(`/projects/${project.id}/share`, { group_id: team.id, group_access: 35 }, { token: owner.token });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toEqual({ error: 'group_access does not have a valid value' });
    const missing = await h.post(`/projects/${project.id}/share`, { group_access: 30 }, { token: owner.token });
    expect(missing.body).toEqual({ error: 'group_id is missing' });
  });
});

describe('one space of full paths for groups and projects', () => {
  it('refuses a subgroup at a project\'s full path, and a project at a subgroup\'s', async () => {
    const owner = await apiUser(h, { username: 'paths-owner' });
    const group = await apiGroup(h, owner.token, { path: 'paths-top' });
    await apiProject(h, owner.token, { path: 'taken-by-project', namespace_id: group.id });
    const subgroup = await h.post('/groups', { name: 'Sub', path: 'taken-by-project', parent_id: group.id }, { token: owner.token });
    expect(subgroup.status).toBe(400);
    expect(subgroup.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    await apiGroup(h, owner.token, { path: 'taken-by-group', parent_id: group.id });
    const project = await h.post('/projects', { name: 'P', path: 'taken-by-group', namespace_id: group.id }, { token: owner.token });
    expect(project.status).toBe(400);
    expect(project.body).toEqual({ message: { path: ['has already been taken'] } });
  });
});

describe('POST /projects by an account without a personal namespace', () => {
  it('answers 403 instead of failing', async () => {
    const group = await apiGroup(h, h.adminToken, { path: 'bot-home' });
    const created = await h.post(`/groups/${group.id}/access_tokens`, { name: 'ci', scopes: ['api'], access_level: 40 });
    expect(created.status).toBe(201);
    const answer = await h.post('/projects', { name: 'bot-project' }, { token: created.body.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: ['Personal project creation is not allowed. Please contact your administrator with questions'] });
  });
});
