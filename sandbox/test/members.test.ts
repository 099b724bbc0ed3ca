import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { addDays } from '../model/time.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

type TestUser = ReturnType<typeof h.user>;
interface GroupBody { id: number; name: string; full_path: string; parent_id: number | null }
interface ProjectBody { id: number; name: string; path_with_namespace: string }

let sequence = 0;
const unique = (prefix: string) => `${prefix}${++sequence}x${Math.random().toString(36).slice(2, 6)}`;
const enc = encodeURIComponent;
const db = () => h.sandbox.db;
const futureDay = (days: number) => addDays(h.sandbox.now(), days);

async function newGroup(owner: TestUser | null, options: { parent?: number; visibility?: string; name?: string } = {}): Promise<GroupBody> {
  const path = unique('g');
  const answer = await h.post('/groups', { name: options.name ?? `Group ${path}`, path, parent_id: options.parent, visibility: options.visibility ?? 'private' }, { token: owner?.token ?? h.adminToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function newProject(owner: TestUser | null, namespaceId?: number, visibility = 'private'): Promise<ProjectBody> {
  const path = unique('p');
  const answer = await h.post('/projects', { name: `Project ${path}`, path, namespace_id: namespaceId, visibility }, { token: owner?.token ?? h.adminToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function addMember(kind: 'groups' | 'projects', sourceId: number, userId: number, accessLevel: number, token: string = h.adminToken) {
  const answer = await h.post(`/${kind}/${sourceId}/members`, { user_id: userId, access_level: accessLevel }, { token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function share(kind: 'groups' | 'projects', sourceId: number, groupId: number, groupAccess: number) {
  const answer = await h.post(`/${kind}/${sourceId}/share`, { group_id: groupId, group_access: groupAccess });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);
const levels = (body: Array<{ id: number; access_level: number }>) => Object.fromEntries(body.map((item) => [item.id, item.access_level]));

describe('GET direct members', () => {
  let owner: TestUser;
  let dev: TestUser;
  let reporter: TestUser;
  let group: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = h.user();
    dev = h.user({ username: unique('devname') });
    reporter = h.user();
    db().prepare('UPDATE users SET public_email = ? WHERE id = ?').run(`public-${reporter.username}@example.org`, reporter.id);
    group = await newGroup(owner);
    sub = await newGroup(owner, { parent: group.id });
    project = await newProject(owner, sub.id);
    await addMember('groups', group.id, dev.id, 30, owner.token);
    await addMember('groups', group.id, reporter.id, 20, owner.token);
    await addMember('projects', project.id, reporter.id, 30, owner.token);
  });

  it('lists direct members with the Member entity fields and nothing more', async () => {
    const answer = await h.get(`/groups/${group.id}/members`, { token: dev.token });
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual([owner.id, dev.id, reporter.id]);
    const member = answer.body.find((item: { id: number }) => item.id === dev.id);
    expect(Object.keys(member).sort()).toEqual(
      ['access_level', 'avatar_url', 'created_at', 'created_by', 'expires_at', 'id', 'locked', 'membership_state', 'name', 'state', 'username', 'web_url'],
    );
    expect(member).toMatchObject({
      id: dev.id, username: dev.username, name: dev.name, state: 'active', locked: false, access_level: 30, expires_at: null, membership_state: 'active',
      web_url: `${h.sandbox.config.externalUrl}/${dev.username}`,
    });
    expect(member.created_by).toEqual({
      id: owner.id, username: owner.username, name: owner.name, state: 'active', locked: false,
      avatar_url: expect.any(String), web_url: `${h.sandbox.config.externalUrl}/${owner.username}`,
    });
    expect(Date.parse(member.created_at)).not.toBeNaN();
  });

  it('omits created_by when nobody is recorded as the creator', async () => {
    db().prepare("UPDATE members SET created_by_id = NULL WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").run(group.id, reporter.id);
    const answer = await h.get(`/groups/${group.id}/members/${reporter.id}`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).not.toHaveProperty('created_by');
    expect(answer.body.access_level).toBe(20);
  });

  it('leaves out inherited members and resolves URL-encoded full paths', async () => {
    const subMembers = await h.get(`/groups/${enc(sub.full_path)}/members`, { token: owner.token });
    expect(subMembers.status).toBe(200);
    // the creator of a subgroup is its Owner; members of the parent are not listed
    expect(ids(subMembers.body)).toEqual([owner.id]);
    const projectMembers = await h.get(`/projects/${enc(project.path_with_namespace)}/members`, { token: owner.token });
    expect(projectMembers.status).toBe(200);
    expect(ids(projectMembers.body)).toEqual([reporter.id]);
    expect(projectMembers.body[0].access_level).toBe(30);
  });

  it('filters by partial name or username, and by exact email for non-admins', async () => {
    const byUsername = await h.get(`/groups/${group.id}/members?query=${enc(dev.username.slice(0, 7).toUpperCase())}`, { token: owner.token });
    expect(ids(byUsername.body)).toEqual([dev.id]);
    const byName = await h.get(`/groups/${group.id}/members?query=${enc(`user ${reporter.username}`)}`, { token: owner.token });
    expect(ids(byName.body)).toEqual([reporter.id]);
    const exactEmail = await h.get(`/groups/${group.id}/members?query=${enc(dev.email)}`, { token: owner.token });
    expect(ids(exactEmail.body)).toEqual([dev.id]);
    const publicEmail = await h.get(`/groups/${group.id}/members?query=${enc(`public-${reporter.username}@example.org`)}`, { token: owner.token });
    expect(ids(publicEmail.body)).toEqual([reporter.id]);
    const partialEmail = await h.get(`/groups/${group.id}/members?query=${enc('@example.com')}`, { token: owner.token });
    expect(partialEmail.body).toEqual([]);
    const partialEmailAsAdmin = await h.get(`/groups/${group.id}/members?query=${enc(`${dev.username}@exa`)}`);
    expect(ids(partialEmailAsAdmin.body)).toEqual([dev.id]);
  });

  it('filters by user_ids and skip_users in both array spellings', async () => {
    const picked = await h.get(`/groups/${group.id}/members?user_ids[]=${dev.id}&user_ids[]=${reporter.id}`, { token: owner.token });
    expect(ids(picked.body)).toEqual([dev.id, reporter.id]);
    const comma = await h.get(`/groups/${group.id}/members?user_ids=${owner.id},${reporter.id}`, { token: owner.token });
    expect(ids(comma.body)).toEqual([owner.id, reporter.id]);
    const skipped = await h.get(`/groups/${group.id}/members?skip_users[]=${owner.id}`, { token: owner.token });
    expect(ids(skipped.body)).toEqual([dev.id, reporter.id]);
    const bad = await h.get(`/groups/${group.id}/members?user_ids=abc`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'user_ids is invalid' });
  });

  it('adds is_using_seat only with show_seat_info', async () => {
    const guest = h.user();
    await addMember('groups', group.id, guest.id, 10, owner.token);
    const plain = await h.get(`/groups/${group.id}/members`, { token: owner.token });
    expect(plain.body[0]).not.toHaveProperty('is_using_seat');
    const withSeats = await h.get(`/groups/${group.id}/members?show_seat_info=true`, { token: owner.token });
    const seats = Object.fromEntries(withSeats.body.map((item: { id: number; is_using_seat: boolean }) => [item.id, item.is_using_seat]));
    expect(seats[dev.id]).toBe(true);
    expect(seats[guest.id]).toBe(false);
    const bad = await h.get(`/groups/${group.id}/members?show_seat_info=maybe`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'show_seat_info is invalid' });
  });

  it('paginates with the Link and x-* headers', async () => {
    const first = await h.get(`/groups/${group.id}/members?per_page=2`, { token: owner.token });
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('x-total')).toBe('4');
    expect(first.headers.get('x-total-pages')).toBe('2');
    expect(first.headers.get('x-page')).toBe('1');
    expect(first.headers.get('x-per-page')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('x-prev-page')).toBe('');
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await h.get(`/groups/${group.id}/members?per_page=2&page=2`, { token: owner.token });
    expect(second.body).toHaveLength(2);
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('x-prev-page')).toBe('1');
    expect([...ids(first.body), ...ids(second.body)]).toHaveLength(4);
    expect(new Set([...ids(first.body), ...ids(second.body)]).size).toBe(4);
  });

  it('hides private sources (404) and needs authentication (401)', async () => {
    const stranger = h.user();
    const groupAnswer = await h.get(`/groups/${group.id}/members`, { token: stranger.token });
    expect(groupAnswer.status).toBe(404);
    expect(groupAnswer.body).toEqual({ message: '404 Group Not Found' });
    const projectAnswer = await h.get(`/projects/${project.id}/members/all`, { token: stranger.token });
    expect(projectAnswer.status).toBe(404);
    expect(projectAnswer.body).toEqual({ message: '404 Project Not Found' });
    const anonymous = await h.get(`/groups/${group.id}/members`, { token: null });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });

  it('answers one direct member, 404 for inherited-only users and 400 for a bad id', async () => {
    const direct = await h.get(`/groups/${group.id}/members/${dev.id}`, { token: owner.token });
    expect(direct.status).toBe(200);
    expect(direct.body).toMatchObject({ id: dev.id, access_level: 30 });
    const inheritedOnly = await h.get(`/groups/${sub.id}/members/${dev.id}`, { token: owner.token });
    expect(inheritedOnly.status).toBe(404);
    expect(inheritedOnly.body).toEqual({ message: '404 Not found' });
    const bad = await h.get(`/groups/${group.id}/members/abc`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'user_id is invalid' });
  });
});

describe('GET members/all', () => {
  let owner: TestUser;
  let top: GroupBody;
  let middle: GroupBody;
  let bottom: GroupBody;
  let project: ProjectBody;
  const people: Record<string, TestUser> = {};

  beforeAll(async () => {
    owner = h.user();
    for (const name of ['topDev', 'climber', 'bottomOwner', 'projectOnly', 'waiting']) people[name] = h.user();
    top = await newGroup(owner, { name: 'Top Group' });
    middle = await newGroup(owner, { parent: top.id });
    bottom = await newGroup(owner, { parent: middle.id });
    project = await newProject(owner, bottom.id);
    await addMember('groups', top.id, people.topDev.id, 30, owner.token);
    await addMember('groups', top.id, people.climber.id, 20, owner.token);
    await addMember('groups', middle.id, people.climber.id, 40, owner.token);
    await addMember('groups', bottom.id, people.bottomOwner.id, 50, owner.token);
    await addMember('projects', project.id, people.projectOnly.id, 10, owner.token);
    await addMember('projects', project.id, people.climber.id, 50, owner.token);
    await addMember('groups', top.id, people.waiting.id, 20, owner.token);
    db().prepare("UPDATE members SET state = 'awaiting' WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").run(top.id, people.waiting.id);
  });

  it('inherits through nested groups into projects', async () => {
    const answer = await h.get(`/groups/${bottom.id}/members/all`, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(levels(answer.body)).toEqual({
      [owner.id]: 50, [people.topDev.id]: 30, [people.climber.id]: 40, [people.bottomOwner.id]: 50, [people.waiting.id]: 20,
    });
    const projectAll = await h.get(`/projects/${project.id}/members/all`, { token: owner.token });
    expect(levels(projectAll.body)).toEqual({
      [owner.id]: 50, [people.topDev.id]: 30, [people.climber.id]: 50, [people.bottomOwner.id]: 50, [people.projectOnly.id]: 10, [people.waiting.id]: 20,
    });
  });

  it('returns one row per user, the highest access level, ordered by user id', async () => {
    const answer = await h.get(`/groups/${middle.id}/members/all`, { token: owner.token });
    const climberRows = answer.body.filter((item: { id: number }) => item.id === people.climber.id);
    expect(climberRows).toHaveLength(1);
    expect(climberRows[0].access_level).toBe(40);
    const order = ids(answer.body);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const topAll = await h.get(`/groups/${top.id}/members/all`, { token: owner.token });
    expect(levels(topAll.body)[people.climber.id]).toBe(20);
    expect(levels(topAll.body)).not.toHaveProperty(String(people.bottomOwner.id));
  });

  it('filters by query, user_ids and state, and validates state', async () => {
    const byQuery = await h.get(`/groups/${bottom.id}/members/all?query=${enc(people.topDev.username)}`, { token: owner.token });
    expect(ids(byQuery.body)).toEqual([people.topDev.id]);
    const byIds = await h.get(`/groups/${bottom.id}/members/all?user_ids=${people.climber.id},${people.bottomOwner.id}`, { token: owner.token });
    expect(ids(byIds.body)).toEqual([people.climber.id, people.bottomOwner.id]);
    const awaiting = await h.get(`/groups/${bottom.id}/members/all?state=awaiting`, { token: owner.token });
    expect(ids(awaiting.body)).toEqual([people.waiting.id]);
    expect(awaiting.body[0].membership_state).toBe('awaiting');
    const active = await h.get(`/groups/${bottom.id}/members/all?state=active`, { token: owner.token });
    expect(ids(active.body)).not.toContain(people.waiting.id);
    expect(active.body.length).toBe(4);
    const bad = await h.get(`/groups/${bottom.id}/members/all?state=gone`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
    const seats = await h.get(`/groups/${bottom.id}/members/all?show_seat_info=true&user_ids=${people.topDev.id}`, { token: owner.token });
    expect(seats.body[0].is_using_seat).toBe(true);
  });

  it('skips expired memberships', async () => {
    const expiring = h.user();
    await addMember('groups', top.id, expiring.id, 30, owner.token);
    db().prepare("UPDATE members SET expires_at = '2000-01-01' WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").run(top.id, expiring.id);
    const all = await h.get(`/groups/${bottom.id}/members/all`, { token: owner.token });
    expect(ids(all.body)).not.toContain(expiring.id);
    const direct = await h.get(`/groups/${top.id}/members`, { token: owner.token });
    expect(ids(direct.body)).not.toContain(expiring.id);
    // the expired row is gone for the API, so the user can be added again
    const again = await h.post(`/groups/${top.id}/members`, { user_id: expiring.id, access_level: 20 }, { token: owner.token });
    expect(again.status).toBe(201);
  });

  it('answers one member including inherited ones, 404 otherwise', async () => {
    const inherited = await h.get(`/projects/${project.id}/members/all/${people.topDev.id}`, { token: owner.token });
    expect(inherited.status).toBe(200);
    expect(inherited.body).toMatchObject({ id: people.topDev.id, access_level: 30 });
    const highest = await h.get(`/groups/${bottom.id}/members/all/${people.climber.id}`, { token: owner.token });
    expect(highest.body.access_level).toBe(40);
    const stranger = h.user();
    const missing = await h.get(`/groups/${bottom.id}/members/all/${stranger.id}`, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
  });
});

describe('members of invited groups', () => {
  let owner: TestUser;
  let invitedOwner: TestUser;
  let invitedDev: TestUser;
  let invitedPeer: TestUser;
  let invitedGuest: TestUser;
  let projectReporter: TestUser;
  let outsider: TestUser;
  let publicGroup: GroupBody;
  let project: ProjectBody;
  let invited: GroupBody;

  beforeAll(async () => {
    owner = h.user();
    invitedOwner = h.user();
    invitedDev = h.user();
    invitedPeer = h.user();
    invitedGuest = h.user();
    projectReporter = h.user();
    outsider = h.user();
    publicGroup = await newGroup(owner, { visibility: 'public' });
    project = await newProject(owner, publicGroup.id, 'public');
    invited = await newGroup(invitedOwner);
    await addMember('groups', invited.id, invitedDev.id, 40, invitedOwner.token);
    await addMember('groups', invited.id, invitedPeer.id, 30, invitedOwner.token);
    await addMember('groups', invited.id, invitedGuest.id, 10, invitedOwner.token);
    await addMember('projects', project.id, projectReporter.id, 20, owner.token);
    await share('projects', project.id, invited.id, 20);
  });

  it('caps invited members at the link access level', async () => {
    const answer = await h.get(`/projects/${project.id}/members/all`, { token: owner.token });
    const byId = levels(answer.body);
    expect(byId[invitedDev.id]).toBe(20);
    expect(byId[invitedOwner.id]).toBe(20);
    expect(byId[invitedGuest.id]).toBe(10);
    expect(byId[projectReporter.id]).toBe(20);
    expect(byId[owner.id]).toBe(50);
    const direct = await h.get(`/projects/${project.id}/members`, { token: owner.token });
    expect(ids(direct.body)).toEqual([projectReporter.id]);
  });

  it('hides members of a private invited group from outsiders', async () => {
    const answer = await h.get(`/projects/${project.id}/members/all`, { token: outsider.token });
    expect(answer.status).toBe(200);
    expect(ids(answer.body).sort((a, b) => a - b)).toEqual([owner.id, projectReporter.id].sort((a, b) => a - b));
    const single = await h.get(`/projects/${project.id}/members/all/${invitedDev.id}`, { token: outsider.token });
    expect(single.status).toBe(404);
  });

  it('shows them to members of the invited group, of the project, and to admins', async () => {
    for (const token of [invitedPeer.token, projectReporter.token, h.adminToken]) {
      const answer = await h.get(`/projects/${project.id}/members/all`, { token });
      expect(ids(answer.body)).toEqual(expect.arrayContaining([invitedDev.id, invitedOwner.id, invitedGuest.id]));
    }
  });

  it('shows them to everyone once the invited group is public', async () => {
    db().prepare("UPDATE namespaces SET visibility = 'public' WHERE id = ?").run(invited.id);
    try {
      const answer = await h.get(`/projects/${project.id}/members/all`, { token: outsider.token });
      expect(ids(answer.body)).toEqual(expect.arrayContaining([invitedDev.id, invitedPeer.id]));
    } finally {
      db().prepare("UPDATE namespaces SET visibility = 'private' WHERE id = ?").run(invited.id);
    }
  });

  it('includes groups invited into an ancestor group of a project', async () => {
    const host = await newGroup(owner);
    const inner = await newProject(owner, host.id);
    await share('groups', host.id, invited.id, 40);
    const answer = await h.get(`/projects/${inner.id}/members/all`, { token: owner.token });
    expect(levels(answer.body)).toMatchObject({ [invitedDev.id]: 40, [invitedOwner.id]: 40, [invitedGuest.id]: 10, [owner.id]: 50 });
    const single = await h.get(`/projects/${inner.id}/members/all/${invitedPeer.id}`, { token: owner.token });
    expect(single.body.access_level).toBe(30);
  });

  it('counts a group invited into a group, keeping a higher direct role', async () => {
    const host = await newGroup(owner);
    await addMember('groups', host.id, invitedPeer.id, 40, owner.token);
    await share('groups', host.id, invited.id, 30);
    const answer = await h.get(`/groups/${host.id}/members/all`, { token: owner.token });
    const byId = levels(answer.body);
    expect(byId[invitedDev.id]).toBe(30);
    expect(byId[invitedPeer.id]).toBe(40);
    expect(byId[invitedGuest.id]).toBe(10);
    const sub = await newGroup(owner, { parent: host.id });
    const subAll = await h.get(`/groups/${sub.id}/members/all`, { token: owner.token });
    expect(levels(subAll.body)[invitedDev.id]).toBe(30);
  });
});

describe('POST members', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let group: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = h.user();
    maintainer = h.user();
    group = await newGroup(owner, { name: 'Parent Team' });
    sub = await newGroup(owner, { parent: group.id });
    project = await newProject(owner, group.id);
    await addMember('groups', group.id, maintainer.id, 40, owner.token);
  });

  it('adds a member by user id with an expiry and answers 201 with the entity', async () => {
    const user = h.user();
    const expiresAt = futureDay(30);
    const answer = await h.post(`/groups/${sub.id}/members`, { user_id: user.id, access_level: 30, expires_at: expiresAt }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ id: user.id, username: user.username, access_level: 30, expires_at: expiresAt, membership_state: 'active', created_by: { id: owner.id } });
    const listed = await h.get(`/groups/${sub.id}/members/${user.id}`, { token: owner.token });
    expect(listed.body.expires_at).toBe(expiresAt);
  });

  it('answers is_using_seat on create when asked, and needs the api scope', async () => {
    const seated = h.user();
    const answer = await h.post(`/groups/${group.id}/members?show_seat_info=true`, { user_id: seated.id, access_level: 30 }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body.is_using_seat).toBe(true);
    const readOnly = h.user({ scopes: ['read_api'] });
    await addMember('groups', group.id, readOnly.id, 50, owner.token);
    const denied = await h.post(`/groups/${group.id}/members`, { user_id: h.user().id, access_level: 30 }, { token: readOnly.token });
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe('insufficient_scope');
    const reading = await h.get(`/groups/${group.id}/members`, { token: readOnly.token });
    expect(reading.status).toBe(200);
  });

  it('adds by username and accepts form bodies', async () => {
    const byName = h.user();
    const answer = await h.post(`/groups/${sub.id}/members`, { username: byName.username, access_level: 20 }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body.id).toBe(byName.id);
    const formUser = h.user();
    const form = await h.call('POST', `/projects/${project.id}/members`, { token: owner.token, form: `user_id=${formUser.id}&access_level=30` });
    expect(form.status).toBe(201);
    expect(form.body.access_level).toBe(30);
  });

  it('answers 409 for an existing member and 404 for an unknown user', async () => {
    const existing = await h.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 30 }, { token: owner.token });
    expect(existing.status).toBe(409);
    expect(existing.body).toEqual({ message: 'Member already exists' });
    const unknown = await h.post(`/groups/${group.id}/members`, { user_id: 999999, access_level: 30 }, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
    const unknownName = await h.post(`/groups/${group.id}/members`, { username: 'nobody-here', access_level: 30 }, { token: owner.token });
    expect(unknownName.status).toBe(404);
  });

  it('needs Owner on groups', async () => {
    const user = h.user();
    const answer = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 10 }, { token: maintainer.token });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: '403 Forbidden' });
    const asAdmin = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 10 });
    expect(asAdmin.status).toBe(201);
  });

  it('lets project Maintainers add up to Maintainer, and only Owners grant Owner', async () => {
    const projectMaintainer = h.user();
    await addMember('projects', project.id, projectMaintainer.id, 40, owner.token);
    const dev = h.user();
    const ok = await h.post(`/projects/${project.id}/members`, { user_id: dev.id, access_level: 40 }, { token: projectMaintainer.token });
    expect(ok.status).toBe(201);
    const wanted = h.user();
    const denied = await h.post(`/projects/${project.id}/members`, { user_id: wanted.id, access_level: 50 }, { token: projectMaintainer.token });
    expect(denied.status).toBe(403);
    const byOwner = await h.post(`/projects/${project.id}/members`, { user_id: wanted.id, access_level: 50 }, { token: owner.token });
    expect(byOwner.status).toBe(201);
    const developer = h.user();
    await addMember('projects', project.id, developer.id, 30, owner.token);
    const byDeveloper = await h.post(`/projects/${project.id}/members`, { user_id: h.user().id, access_level: 10 }, { token: developer.token });
    expect(byDeveloper.status).toBe(403);
  });

  it('rejects access levels outside the list, Minimal Access below the top level', async () => {
    const user = h.user();
    const invalid = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 35 }, { token: owner.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const minimalSub = await h.post(`/groups/${sub.id}/members`, { user_id: user.id, access_level: 5 }, { token: owner.token });
    expect(minimalSub.status).toBe(400);
    expect(minimalSub.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const minimalProject = await h.post(`/projects/${project.id}/members`, { user_id: user.id, access_level: 5 }, { token: owner.token });
    expect(minimalProject.status).toBe(400);
    const minimalTop = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 5 }, { token: owner.token });
    expect(minimalTop.status).toBe(201);
    expect(minimalTop.body.access_level).toBe(5);
    const notInteger = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 'high' }, { token: owner.token });
    expect(notInteger.status).toBe(400);
    expect(notInteger.body).toEqual({ error: 'access_level is invalid' });
  });

  it('refuses a role below an inherited membership', async () => {
    const inheritedDev = h.user();
    await addMember('groups', group.id, inheritedDev.id, 30, owner.token);
    const lower = await h.post(`/groups/${sub.id}/members`, { user_id: inheritedDev.id, access_level: 20 }, { token: owner.token });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({ message: { access_level: ['should be greater than or equal to Developer inherited membership from group Parent Team'] } });
    const lowerProject = await h.post(`/projects/${project.id}/members`, { user_id: inheritedDev.id, access_level: 10 }, { token: owner.token });
    expect(lowerProject.status).toBe(400);
    expect(lowerProject.body.message.access_level[0]).toBe('should be greater than or equal to Developer inherited membership from group Parent Team');
    const equal = await h.post(`/groups/${sub.id}/members`, { user_id: inheritedDev.id, access_level: 30 }, { token: owner.token });
    expect(equal.status).toBe(201);
  });

  it('validates expires_at and the required parameters', async () => {
    const user = h.user();
    const past = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 30, expires_at: '2001-01-01' }, { token: owner.token });
    expect(past.status).toBe(400);
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    const garbled = await h.post(`/groups/${group.id}/members`, { user_id: user.id, access_level: 30, expires_at: 'soon' }, { token: owner.token });
    expect(garbled.status).toBe(400);
    expect(garbled.body).toEqual({ error: 'expires_at is invalid' });
    const noLevel = await h.post(`/groups/${group.id}/members`, { user_id: user.id }, { token: owner.token });
    expect(noLevel.status).toBe(400);
    expect(noLevel.body).toEqual({ error: 'access_level is missing' });
    const noUser = await h.post(`/groups/${group.id}/members`, { access_level: 30 }, { token: owner.token });
    expect(noUser.status).toBe(400);
    expect(noUser.body).toEqual({ error: 'user_id, username are missing, at least one parameter must be provided' });
    const both = await h.post(`/groups/${group.id}/members`, { user_id: user.id, username: user.username, access_level: 30 }, { token: owner.token });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'user_id, username are mutually exclusive' });
    const nothing = await h.post(`/groups/${group.id}/members`, {}, { token: owner.token });
    expect(nothing.body).toEqual({ error: 'access_level is missing, user_id, username are missing, at least one parameter must be provided' });
  });

  it('adds several users from a comma-separated list', async () => {
    const first = h.user();
    const second = h.user();
    const answer = await h.post(`/groups/${sub.id}/members`, { user_id: `${first.id},${second.id}`, access_level: 30 }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ status: 'success' });
    const listed = await h.get(`/groups/${sub.id}/members?user_ids=${first.id},${second.id}`, { token: owner.token });
    expect(levels(listed.body)).toEqual({ [first.id]: 30, [second.id]: 30 });
    const byNames = await h.post(`/projects/${project.id}/members`, { username: `${first.username},${second.username}`, access_level: 20 }, { token: owner.token });
    expect(byNames.body).toEqual({ status: 'success' });
  });

  it('reports per-user failures of a list and still adds the others', async () => {
    const inherited = h.user();
    const fresh = h.user();
    await addMember('groups', group.id, inherited.id, 40, owner.token);
    const answer = await h.post(`/groups/${sub.id}/members`, { user_id: `${inherited.id},${fresh.id}`, access_level: 20 }, { token: owner.token });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      status: 'error',
      message: `${inherited.username}: Access level should be greater than or equal to Maintainer inherited membership from group Parent Team`,
    });
    const added = await h.get(`/groups/${sub.id}/members/${fresh.id}`, { token: owner.token });
    expect(added.status).toBe(200);
    const denied = await h.post(`/groups/${sub.id}/members`, { user_id: `${fresh.id},${inherited.id}`, access_level: 20 }, { token: maintainer.token });
    expect(denied.status).toBe(403);
    const blank = await h.post(`/groups/${sub.id}/members`, { username: 'ghost-one,ghost-two', access_level: 20 }, { token: owner.token });
    expect(blank.body).toMatchObject({ status: 'error', message: 'No users specified.' });
  });
});

describe('PUT and DELETE members', () => {
  let owner: TestUser;
  let coOwner: TestUser;
  let dev: TestUser;
  let group: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = h.user();
    coOwner = h.user();
    dev = h.user();
    group = await newGroup(owner, { name: 'Edit Team' });
    sub = await newGroup(owner, { parent: group.id });
    project = await newProject(owner, sub.id);
    await addMember('groups', group.id, dev.id, 30, owner.token);
  });

  it('updates access_level and expires_at, and clears the expiry', async () => {
    const expiresAt = futureDay(10);
    const answer = await h.put(`/groups/${group.id}/members/${dev.id}`, { access_level: 40, expires_at: expiresAt }, { token: owner.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: dev.id, access_level: 40, expires_at: expiresAt });
    const keep = await h.put(`/groups/${group.id}/members/${dev.id}`, { access_level: 30 }, { token: owner.token });
    expect(keep.body).toMatchObject({ access_level: 30, expires_at: expiresAt });
    const cleared = await h.put(`/groups/${group.id}/members/${dev.id}`, { access_level: 30, expires_at: '' }, { token: owner.token });
    expect(cleared.body.expires_at).toBeNull();
  });

  it('answers 404 for non-members, 400 for bad input and 403 without rights', async () => {
    const stranger = h.user();
    const missing = await h.put(`/groups/${group.id}/members/${stranger.id}`, { access_level: 30 }, { token: owner.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    const invalid = await h.put(`/groups/${group.id}/members/${dev.id}`, { access_level: 99 }, { token: owner.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ message: { access_level: ['is not included in the list'] } });
    const noLevel = await h.put(`/groups/${group.id}/members/${dev.id}`, {}, { token: owner.token });
    expect(noLevel.body).toEqual({ error: 'access_level is missing' });
    const past = await h.put(`/groups/${group.id}/members/${dev.id}`, { access_level: 30, expires_at: '2002-02-02' }, { token: owner.token });
    expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    const byDev = await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 30 }, { token: dev.token });
    expect(byDev.status).toBe(403);
  });

  it('refuses to lower a member below an inherited role', async () => {
    await addMember('groups', sub.id, dev.id, 40, owner.token);
    const answer = await h.put(`/groups/${sub.id}/members/${dev.id}`, { access_level: 20 }, { token: owner.token });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: { access_level: ['should be greater than or equal to Developer inherited membership from group Edit Team'] } });
  });

  it('protects the last Owner of a group from demotion and removal', async () => {
    const demote = await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 40 }, { token: owner.token });
    expect(demote.status).toBe(403);
    const newExpiry = await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 50, expires_at: '2999-01-01' }, { token: owner.token });
    expect(newExpiry.status).toBe(200);
    expect(newExpiry.body.expires_at).toBe('2999-01-01');
    await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 50, expires_at: '' }, { token: owner.token });
    const remove = await h.delete(`/groups/${group.id}/members/${owner.id}`, { token: owner.token });
    expect(remove.status).toBe(403);
    const asAdmin = await h.delete(`/groups/${group.id}/members/${owner.id}`);
    expect(asAdmin.status).toBe(403);
    await addMember('groups', group.id, coOwner.id, 50, owner.token);
    const nowAllowed = await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 40 }, { token: coOwner.token });
    expect(nowAllowed.status).toBe(200);
    const coOwnerIsLast = await h.delete(`/groups/${group.id}/members/${coOwner.id}`, { token: coOwner.token });
    expect(coOwnerIsLast.status).toBe(403);
    await h.put(`/groups/${group.id}/members/${owner.id}`, { access_level: 50 }, { token: coOwner.token });
  });

  it('lets a subgroup owner go while the parent still has an Owner', async () => {
    const lonely = await newGroup(owner, { parent: group.id });
    const subOwner = h.user();
    await addMember('groups', lonely.id, subOwner.id, 50, owner.token);
    // the creator's own row goes first, so subOwner is the only direct Owner left
    expect((await h.delete(`/groups/${lonely.id}/members/${owner.id}`, { token: owner.token })).status).toBe(204);
    const leave = await h.delete(`/groups/${lonely.id}/members/${subOwner.id}`, { token: subOwner.token });
    expect(leave.status).toBe(204);
    const inheritedOwnerStays = await h.get(`/groups/${lonely.id}/members/all/${owner.id}`, { token: owner.token });
    expect(inheritedOwnerStays.body.access_level).toBe(50);
  });

  it('removes a member with 204 and 404 afterwards', async () => {
    const leaver = h.user();
    await addMember('groups', group.id, leaver.id, 20, owner.token);
    const answer = await h.delete(`/groups/${group.id}/members/${leaver.id}`, { token: owner.token });
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const after = await h.get(`/groups/${group.id}/members/${leaver.id}`, { token: owner.token });
    expect(after.status).toBe(404);
    const again = await h.delete(`/groups/${group.id}/members/${leaver.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Not found' });
  });

  it('also removes subgroup and project memberships unless skip_subresources', async () => {
    const wide = h.user();
    await addMember('groups', group.id, wide.id, 20, owner.token);
    await addMember('groups', sub.id, wide.id, 30, owner.token);
    await addMember('projects', project.id, wide.id, 40, owner.token);
    const kept = await h.delete(`/groups/${group.id}/members/${wide.id}?skip_subresources=true`, { token: owner.token });
    expect(kept.status).toBe(204);
    expect((await h.get(`/groups/${sub.id}/members/${wide.id}`, { token: owner.token })).status).toBe(200);
    expect((await h.get(`/projects/${project.id}/members/${wide.id}`, { token: owner.token })).status).toBe(200);

    await addMember('groups', group.id, wide.id, 20, owner.token);
    const cascaded = await h.delete(`/groups/${group.id}/members/${wide.id}?unassign_issuables=true`, { token: owner.token });
    expect(cascaded.status).toBe(204);
    expect((await h.get(`/groups/${sub.id}/members/${wide.id}`, { token: owner.token })).status).toBe(404);
    expect((await h.get(`/projects/${project.id}/members/${wide.id}`, { token: owner.token })).status).toBe(404);
    const badFlag = await h.delete(`/groups/${group.id}/members/${dev.id}?skip_subresources=perhaps`, { token: owner.token });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body).toEqual({ error: 'skip_subresources is invalid' });
  });

  it('lets a member leave but not remove others', async () => {
    const one = h.user();
    const other = h.user();
    await addMember('groups', group.id, one.id, 30, owner.token);
    await addMember('groups', group.id, other.id, 30, owner.token);
    const removeOther = await h.delete(`/groups/${group.id}/members/${other.id}`, { token: one.token });
    expect(removeOther.status).toBe(403);
    const leave = await h.delete(`/groups/${group.id}/members/${one.id}`, { token: one.token });
    expect(leave.status).toBe(204);
  });

  it('keeps project Owners to Owners, and the personal project holder in place', async () => {
    const projectMaintainer = h.user();
    const projectOwner = h.user();
    await addMember('projects', project.id, projectMaintainer.id, 40, owner.token);
    await addMember('projects', project.id, projectOwner.id, 50, owner.token);
    const promote = await h.put(`/projects/${project.id}/members/${dev.id}`, { access_level: 50 }, { token: projectMaintainer.token });
    expect(promote.status).toBe(404); // dev is not a direct project member
    const target = h.user();
    await addMember('projects', project.id, target.id, 30, owner.token);
    const promoteTarget = await h.put(`/projects/${project.id}/members/${target.id}`, { access_level: 50 }, { token: projectMaintainer.token });
    expect(promoteTarget.status).toBe(403);
    const raise = await h.put(`/projects/${project.id}/members/${target.id}`, { access_level: 40 }, { token: projectMaintainer.token });
    expect(raise.status).toBe(200);
    const demoteOwner = await h.put(`/projects/${project.id}/members/${projectOwner.id}`, { access_level: 30 }, { token: projectMaintainer.token });
    expect(demoteOwner.status).toBe(403);
    const removeOwner = await h.delete(`/projects/${project.id}/members/${projectOwner.id}`, { token: projectMaintainer.token });
    expect(removeOwner.status).toBe(403);
    const removeByOwner = await h.delete(`/projects/${project.id}/members/${projectOwner.id}`, { token: owner.token });
    expect(removeByOwner.status).toBe(204);

    const holder = h.user();
    const personal = await newProject(holder);
    const personalMembers = await h.get(`/projects/${personal.id}/members`, { token: holder.token });
    expect(ids(personalMembers.body)).toEqual([holder.id]);
    expect(personalMembers.body[0].access_level).toBe(50);
    const removeHolder = await h.delete(`/projects/${personal.id}/members/${holder.id}`);
    expect(removeHolder.status).toBe(403);
    const demoteHolder = await h.put(`/projects/${personal.id}/members/${holder.id}`, { access_level: 30 });
    expect(demoteHolder.status).toBe(403);
  });
});

describe('email and group_saml_identity visibility', () => {
  let owner: TestUser;
  let maintainer: TestUser;
  let enterprise: TestUser;
  let plain: TestUser;
  let otherOwner: TestUser;
  let top: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;
  let other: GroupBody;
  const find = (body: Array<{ id: number }>, id: number) => body.find((item) => item.id === id) as Record<string, unknown>;

  beforeAll(async () => {
    owner = h.user();
    maintainer = h.user();
    enterprise = h.user();
    plain = h.user();
    otherOwner = h.user();
    top = await newGroup(owner);
    sub = await newGroup(owner, { parent: top.id });
    project = await newProject(owner, sub.id);
    other = await newGroup(otherOwner);
    await addMember('groups', top.id, maintainer.id, 40, owner.token);
    for (const user of [enterprise, plain]) {
      await addMember('groups', top.id, user.id, 30, owner.token);
      await addMember('groups', sub.id, user.id, 30, owner.token);
      await addMember('projects', project.id, user.id, 30, owner.token);
      await addMember('groups', other.id, user.id, 30, otherOwner.token);
    }
    db().prepare('UPDATE users SET enterprise_group_id = ? WHERE id = ?').run(top.id, enterprise.id);
  });

  it('shows an enterprise user\'s email to Owners of its top-level group, in the whole hierarchy', async () => {
    for (const url of [`/groups/${top.id}/members`, `/groups/${sub.id}/members`, `/projects/${project.id}/members`, `/groups/${sub.id}/members/all`, `/groups/${top.id}/members/${enterprise.id}`]) {
      const answer = await h.get(url, { token: owner.token });
      const row = Array.isArray(answer.body) ? find(answer.body, enterprise.id) : answer.body;
      expect(row.email, url).toBe(enterprise.email);
      if (Array.isArray(answer.body)) expect(find(answer.body, plain.id)).not.toHaveProperty('email');
    }
  });

  it('hides it from Maintainers and from Owners of other groups', async () => {
    const byMaintainer = await h.get(`/groups/${top.id}/members`, { token: maintainer.token });
    expect(find(byMaintainer.body, enterprise.id)).not.toHaveProperty('email');
    const byOtherOwner = await h.get(`/groups/${other.id}/members`, { token: otherOwner.token });
    expect(find(byOtherOwner.body, enterprise.id)).not.toHaveProperty('email');
  });

  it('shows every member\'s email to administrators', async () => {
    const answer = await h.get(`/groups/${other.id}/members`);
    expect(find(answer.body, plain.id).email).toBe(plain.email);
    expect(find(answer.body, otherOwner.id).email).toBe(otherOwner.email);
  });

  it('shows group_saml_identity to Owners of groups under an SSO-enabled top-level group', async () => {
    db().prepare('UPDATE namespaces SET saml_provider_id = 42 WHERE id = ?').run(top.id);
    db().prepare("INSERT INTO identities (user_id, provider, extern_uid, saml_provider_id) VALUES (?, 'group_saml', 'ent-uid', 42)").run(enterprise.id);
    db().prepare("INSERT INTO identities (user_id, provider, extern_uid, saml_provider_id) VALUES (?, 'group_saml', 'elsewhere', 43)").run(plain.id);
    db().prepare("INSERT INTO identities (user_id, provider, extern_uid, saml_provider_id) VALUES (?, 'ldapmain', 'cn=plain', NULL)").run(plain.id);
    for (const groupId of [top.id, sub.id]) {
      const answer = await h.get(`/groups/${groupId}/members`, { token: owner.token });
      expect(find(answer.body, enterprise.id).group_saml_identity).toEqual({ extern_uid: 'ent-uid', provider: 'group_saml', saml_provider_id: 42 });
      expect(find(answer.body, plain.id)).toHaveProperty('group_saml_identity', null);
    }
    const byMaintainer = await h.get(`/groups/${top.id}/members`, { token: maintainer.token });
    expect(find(byMaintainer.body, enterprise.id)).not.toHaveProperty('group_saml_identity');
    const projectRows = await h.get(`/projects/${project.id}/members`, { token: owner.token });
    expect(find(projectRows.body, enterprise.id)).not.toHaveProperty('group_saml_identity');
    const otherGroup = await h.get(`/groups/${other.id}/members`, { token: otherOwner.token });
    expect(find(otherGroup.body, enterprise.id)).not.toHaveProperty('group_saml_identity');
  });
});

describe('billable members', () => {
  let owner: TestUser;
  let root: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;
  const u: Record<string, TestUser> = {};

  beforeAll(async () => {
    owner = h.user();
    for (const name of ['dev', 'guest', 'minimal', 'subReporter', 'projectDev', 'invitedOwner', 'invitedDev', 'projectInvitedOwner', 'projectInvitedMaintainer', 'guestInviteOwner', 'guestInviteDev', 'blocked', 'bot', 'waiting', 'guestPlusInvite', 'outside']) {
      u[name] = h.user();
    }
    root = await newGroup(owner, { name: 'Billing Root' });
    sub = await newGroup(owner, { parent: root.id, name: 'Billing Sub' });
    project = await newProject(owner, sub.id);
    await addMember('groups', root.id, u.dev.id, 30, owner.token);
    await addMember('groups', root.id, u.guest.id, 10, owner.token);
    await addMember('groups', root.id, u.minimal.id, 5, owner.token);
    await addMember('groups', sub.id, u.subReporter.id, 20, owner.token);
    await addMember('projects', project.id, u.projectDev.id, 30, owner.token);
    for (const name of ['blocked', 'bot', 'waiting']) await addMember('groups', root.id, u[name].id, 30, owner.token);
    db().prepare("UPDATE users SET state = 'blocked' WHERE id = ?").run(u.blocked.id);
    db().prepare("UPDATE users SET user_type = 'project_bot' WHERE id = ?").run(u.bot.id);
    db().prepare("UPDATE members SET state = 'awaiting' WHERE user_id = ?").run(u.waiting.id);
    await addMember('groups', root.id, u.guestPlusInvite.id, 10, owner.token);

    const invitedGroup = await newGroup(u.invitedOwner);
    await addMember('groups', invitedGroup.id, u.invitedDev.id, 30, u.invitedOwner.token);
    await addMember('groups', invitedGroup.id, u.guestPlusInvite.id, 30, u.invitedOwner.token);
    await share('groups', root.id, invitedGroup.id, 30);
    const projectInvited = await newGroup(u.projectInvitedOwner);
    await addMember('groups', projectInvited.id, u.projectInvitedMaintainer.id, 40, u.projectInvitedOwner.token);
    await share('projects', project.id, projectInvited.id, 20);
    const guestInvited = await newGroup(u.guestInviteOwner);
    await addMember('groups', guestInvited.id, u.guestInviteDev.id, 30, u.guestInviteOwner.token);
    await share('groups', sub.id, guestInvited.id, 10);
    const elsewhere = await newGroup(u.outside);
    await addMember('groups', elsewhere.id, u.dev.id, 40, u.outside.token);
  });

  it('counts active humans above Guest anywhere in the hierarchy, with their membership type', async () => {
    const answer = await h.get(`/groups/${root.id}/billable_members?per_page=100`, { token: owner.token });
    expect(answer.status).toBe(200);
    const types = Object.fromEntries(answer.body.map((item: { id: number; membership_type: string }) => [item.id, item.membership_type]));
    expect(types).toEqual({
      [owner.id]: 'group_member',
      [u.dev.id]: 'group_member',
      [u.subReporter.id]: 'group_member',
      [u.projectDev.id]: 'project_member',
      [u.invitedOwner.id]: 'group_invite',
      [u.invitedDev.id]: 'group_invite',
      [u.guestPlusInvite.id]: 'group_invite',
      [u.projectInvitedOwner.id]: 'project_invite',
      [u.projectInvitedMaintainer.id]: 'project_invite',
    });
    expect(ids(answer.body)).toEqual([...ids(answer.body)].sort((a, b) => a - b));
  });

  it('carries the billable member fields', async () => {
    db().prepare("UPDATE users SET public_email = 'dev-public@example.org', last_activity_on = '2024-05-01', current_sign_in_at = '2024-05-02T10:00:00.000Z' WHERE id = ?").run(u.dev.id);
    const answer = await h.get(`/groups/${root.id}/billable_members?per_page=100`, { token: owner.token });
    const row = (id: number) => answer.body.find((item: { id: number }) => item.id === id);
    expect(Object.keys(row(u.dev.id)).sort()).toEqual(
      ['avatar_url', 'created_at', 'email', 'id', 'is_last_owner', 'last_activity_on', 'last_login_at', 'locked', 'membership_type', 'name', 'removable', 'state', 'username', 'web_url'],
    );
    expect(row(u.dev.id)).toMatchObject({
      email: 'dev-public@example.org', last_activity_on: '2024-05-01', last_login_at: '2024-05-02T10:00:00.000Z',
      removable: true, is_last_owner: false, created_at: u.dev.created_at,
    });
    expect(row(u.subReporter.id).email).toBeNull();
    expect(row(owner.id).is_last_owner).toBe(true);
    expect(row(u.invitedDev.id).removable).toBe(false);
    expect(row(u.projectDev.id).removable).toBe(true);
    db().prepare('UPDATE users SET enterprise_group_id = ? WHERE id = ?').run(root.id, u.subReporter.id);
    const enterpriseView = await h.get(`/groups/${root.id}/billable_members?search=${enc(u.subReporter.username)}`, { token: owner.token });
    expect(enterpriseView.body[0].email).toBe(u.subReporter.email);
    const adminView = await h.get(`/groups/${root.id}/billable_members?search=${enc(u.projectDev.username)}`);
    expect(adminView.body[0].email).toBe(u.projectDev.email);
  });

  it('searches by name, username and exact public email', async () => {
    const byUsername = await h.get(`/groups/${root.id}/billable_members?search=${enc(u.invitedDev.username.slice(0, 8))}`, { token: owner.token });
    expect(ids(byUsername.body)).toEqual([u.invitedDev.id]);
    const byName = await h.get(`/groups/${root.id}/billable_members?search=${enc(`User ${u.projectDev.username}`)}`, { token: owner.token });
    expect(ids(byName.body)).toEqual([u.projectDev.id]);
    db().prepare("UPDATE users SET public_email = 'searchable@example.org' WHERE id = ?").run(u.projectInvitedOwner.id);
    const byEmail = await h.get(`/groups/${root.id}/billable_members?search=searchable@example.org`, { token: owner.token });
    expect(ids(byEmail.body)).toEqual([u.projectInvitedOwner.id]);
    const partialEmail = await h.get(`/groups/${root.id}/billable_members?search=searchable@`, { token: owner.token });
    expect(partialEmail.body).toEqual([]);
    const nonBillable = await h.get(`/groups/${root.id}/billable_members?search=${enc(u.guest.username)}`, { token: owner.token });
    expect(nonBillable.body).toEqual([]);
  });

  it('paginates', async () => {
    const answer = await h.get(`/groups/${root.id}/billable_members?per_page=4&page=2`, { token: owner.token });
    expect(answer.body).toHaveLength(4);
    expect(answer.headers.get('x-total')).toBe('9');
    expect(answer.headers.get('x-total-pages')).toBe('3');
    expect(answer.headers.get('x-page')).toBe('2');
    expect(answer.headers.get('x-next-page')).toBe('3');
    expect(answer.headers.get('x-prev-page')).toBe('1');
  });

  it('is for Owners of top-level groups only, and validates sort', async () => {
    const onSub = await h.get(`/groups/${sub.id}/billable_members`, { token: owner.token });
    expect(onSub.status).toBe(400);
    expect(onSub.body).toEqual({ message: '400 Bad request' });
    const byDeveloper = await h.get(`/groups/${root.id}/billable_members`, { token: u.dev.token });
    expect(byDeveloper.status).toBe(400);
    expect(byDeveloper.body).toEqual({ message: '400 Bad request' });
    const byStranger = await h.get(`/groups/${root.id}/billable_members`, { token: h.user().token });
    expect(byStranger.status).toBe(404);
    const asAdmin = await h.get(`/groups/${root.id}/billable_members`);
    expect(asAdmin.status).toBe(200);
    const badSort = await h.get(`/groups/${root.id}/billable_members?sort=size`, { token: owner.token });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual({ error: 'sort does not have a valid value' });
  });

  it('lists the direct memberships of a billable member inside the hierarchy', async () => {
    await addMember('projects', project.id, u.subReporter.id, 30, owner.token);
    const answer = await h.get(`/groups/${root.id}/billable_members/${u.subReporter.id}/memberships`, { token: owner.token });
    expect(answer.status).toBe(200);
    const base = h.sandbox.config.externalUrl;
    expect(answer.body).toEqual([
      {
        id: expect.any(Number), source_id: sub.id, source_full_name: 'Billing Root / Billing Sub',
        source_members_url: `${base}/groups/${sub.full_path}/-/group_members`, created_at: expect.any(String), expires_at: null,
        access_level: { string_value: 'Reporter', integer_value: 20, custom_role: null },
      },
      {
        id: expect.any(Number), source_id: project.id, source_full_name: `Billing Root / Billing Sub / ${project.name}`,
        source_members_url: `${base}/${project.path_with_namespace}/-/project_members`, created_at: expect.any(String), expires_at: null,
        access_level: { string_value: 'Developer', integer_value: 30, custom_role: null },
      },
    ]);
    expect(answer.headers.get('x-total')).toBe('2');
    const outsideRows = await h.get(`/groups/${root.id}/billable_members/${u.dev.id}/memberships`, { token: owner.token });
    expect(outsideRows.body.map((item: { source_id: number }) => item.source_id)).toEqual([root.id]);
    const invitedOnly = await h.get(`/groups/${root.id}/billable_members/${u.invitedDev.id}/memberships`, { token: owner.token });
    expect(invitedOnly.body).toEqual([]);
    const notBillable = await h.get(`/groups/${root.id}/billable_members/${u.guest.id}/memberships`, { token: owner.token });
    expect(notBillable.status).toBe(404);
    expect(notBillable.body).toEqual({ message: '404 User Not Found' });
    const unknown = await h.get(`/groups/${root.id}/billable_members/999999/memberships`, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Not found' });
    const byDeveloper = await h.get(`/groups/${root.id}/billable_members/${u.dev.id}/memberships`, { token: u.dev.token });
    expect(byDeveloper.status).toBe(400);
  });
});

describe('billable member sorting', () => {
  let owner: TestUser;
  let a: TestUser;
  let b: TestUser;
  let c: TestUser;
  let root: GroupBody;

  beforeAll(async () => {
    owner = h.user();
    a = h.user();
    b = h.user();
    c = h.user();
    root = await newGroup(owner);
    await addMember('groups', root.id, a.id, 20, owner.token);
    await addMember('groups', root.id, b.id, 40, owner.token);
    await addMember('groups', root.id, c.id, 30, owner.token);
    const facts: Array<[TestUser, string, string | null, string | null, string]> = [
      [owner, 'Delta', '2024-01-02T00:00:00.000Z', '2024-01-15', '2023-01-01T00:00:00.000Z'],
      [a, 'alpha', '2024-01-03T00:00:00.000Z', '2024-02-01', '2023-03-01T00:00:00.000Z'],
      [b, 'Charlie', '2024-01-01T00:00:00.000Z', null, '2023-02-01T00:00:00.000Z'],
      [c, 'Bravo', null, '2024-03-01', '2023-04-01T00:00:00.000Z'],
    ];
    for (const [user, name, signIn, activity, joined] of facts) {
      db().prepare('UPDATE users SET name = ?, last_sign_in_at = ?, last_activity_on = ? WHERE id = ?').run(name, signIn, activity, user.id);
      db().prepare("UPDATE members SET created_at = ? WHERE source_type = 'Namespace' AND source_id = ? AND user_id = ?").run(joined, root.id, user.id);
    }
  });

  const order = async (sort?: string) => {
    const answer = await h.get(`/groups/${root.id}/billable_members${sort ? `?sort=${sort}` : ''}`, { token: owner.token });
    expect(answer.status).toBe(200);
    const byId = new Map([[owner.id, 'owner'], [a.id, 'a'], [b.id, 'b'], [c.id, 'c']]);
    return ids(answer.body).map((id) => byId.get(id));
  };

  it.each([
    [undefined, ['owner', 'a', 'b', 'c']],
    ['access_level_asc', ['a', 'c', 'b', 'owner']],
    ['access_level_desc', ['owner', 'b', 'c', 'a']],
    ['last_joined', ['c', 'a', 'b', 'owner']],
    ['oldest_joined', ['owner', 'b', 'a', 'c']],
    ['name_asc', ['a', 'c', 'b', 'owner']],
    ['name_desc', ['owner', 'b', 'c', 'a']],
    ['oldest_sign_in', ['b', 'owner', 'a', 'c']],
    ['recent_sign_in', ['a', 'owner', 'b', 'c']],
    ['last_activity_on_asc', ['b', 'owner', 'a', 'c']],
    ['last_activity_on_desc', ['c', 'a', 'owner', 'b']],
  ])('sort=%s', async (sort, expected) => {
    expect(await order(sort)).toEqual(expected);
  });
});

describe('removing a billable member', () => {
  let owner: TestUser;
  let root: GroupBody;
  let sub: GroupBody;
  let project: ProjectBody;

  beforeAll(async () => {
    owner = h.user();
    root = await newGroup(owner);
    sub = await newGroup(owner, { parent: root.id });
    project = await newProject(owner, sub.id);
  });

  it('removes the user from the group, its subgroups and projects, and nothing outside', async () => {
    const wide = h.user();
    const elsewhere = await newGroup(owner);
    await addMember('groups', root.id, wide.id, 20, owner.token);
    await addMember('groups', sub.id, wide.id, 30, owner.token);
    await addMember('projects', project.id, wide.id, 30, owner.token);
    await addMember('groups', elsewhere.id, wide.id, 30, owner.token);
    const answer = await h.delete(`/groups/${root.id}/billable_members/${wide.id}`, { token: owner.token });
    expect(answer.status).toBe(204);
    const remaining = db().prepare('SELECT source_type, source_id FROM members WHERE user_id = ?').all(wide.id);
    expect(remaining).toEqual([{ source_type: 'Namespace', source_id: elsewhere.id }]);
    const billable = await h.get(`/groups/${root.id}/billable_members`, { token: owner.token });
    expect(ids(billable.body)).not.toContain(wide.id);
  });

  it('answers 400 for invited-only members, the last owner, subgroups and non-Owners', async () => {
    const invitedOwner = h.user();
    const invited = await newGroup(invitedOwner);
    const invitedDev = h.user();
    await addMember('groups', invited.id, invitedDev.id, 30, invitedOwner.token);
    await share('groups', root.id, invited.id, 30);
    const invitedOnly = await h.delete(`/groups/${root.id}/billable_members/${invitedDev.id}`, { token: owner.token });
    expect(invitedOnly.status).toBe(400);
    expect(invitedOnly.body).toEqual({ message: '400 Bad request - No member found for the given user_id' });
    const lastOwner = await h.delete(`/groups/${root.id}/billable_members/${owner.id}`, { token: owner.token });
    expect(lastOwner.status).toBe(400);
    expect((await h.get(`/groups/${root.id}/members/${owner.id}`, { token: owner.token })).status).toBe(200);
    const member = h.user();
    await addMember('groups', root.id, member.id, 30, owner.token);
    const onSub = await h.delete(`/groups/${sub.id}/billable_members/${member.id}`, { token: owner.token });
    expect(onSub.status).toBe(400);
    expect(onSub.body).toEqual({ message: '400 Bad request - Invalid group provided, must be top-level' });
    const byMember = await h.delete(`/groups/${root.id}/billable_members/${owner.id}`, { token: member.token });
    expect(byMember.status).toBe(400);
    expect(byMember.body).toEqual({ message: '400 Bad request - User unauthorized to remove member' });
  });
});

describe('PUT members/:user_id/state', () => {
  it('moves a user\'s memberships in the hierarchy between awaiting and active', async () => {
    const owner = h.user();
    const user = h.user();
    const root = await newGroup(owner);
    const sub = await newGroup(owner, { parent: root.id });
    await addMember('groups', root.id, user.id, 30, owner.token);
    await addMember('groups', sub.id, user.id, 30, owner.token);
    const awaiting = await h.put(`/groups/${root.id}/members/${user.id}/state`, { state: 'awaiting' }, { token: owner.token });
    expect(awaiting.status).toBe(200);
    expect(awaiting.body).toEqual({ success: true });
    const subRow = await h.get(`/groups/${sub.id}/members/${user.id}`, { token: owner.token });
    expect(subRow.body.membership_state).toBe('awaiting');
    const billable = await h.get(`/groups/${root.id}/billable_members`, { token: owner.token });
    expect(ids(billable.body)).not.toContain(user.id);
    const active = await h.put(`/groups/${root.id}/members/${user.id}/state`, { state: 'active' }, { token: owner.token });
    expect(active.body).toEqual({ success: true });
    expect((await h.get(`/groups/${root.id}/members/${user.id}`, { token: owner.token })).body.membership_state).toBe('active');

    const bad = await h.put(`/groups/${root.id}/members/${user.id}/state`, { state: 'sleeping' }, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'state does not have a valid value' });
    const onSub = await h.put(`/groups/${sub.id}/members/${user.id}/state`, { state: 'active' }, { token: owner.token });
    expect(onSub.status).toBe(400);
    const byMember = await h.put(`/groups/${root.id}/members/${owner.id}/state`, { state: 'awaiting' }, { token: user.token });
    expect(byMember.status).toBe(400);
    const lastOwner = await h.put(`/groups/${root.id}/members/${owner.id}/state`, { state: 'awaiting' });
    expect(lastOwner.status).toBe(422);
    const unknown = await h.put(`/groups/${root.id}/members/999999/state`, { state: 'active' }, { token: owner.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 User Not Found' });
  });
});
