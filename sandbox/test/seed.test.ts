import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { DEMO_DEAD_TOKENS, DEMO_MERGE_REQUESTS, DEMO_PATHS, DEMO_SAML_PROVIDER_ID, DEMO_TOKENS } from '../seed/demo.ts';
import { addDays } from '../model/time.ts';
import { openDb } from '../db.ts';
import { seedInstance } from '../seed/index.ts';
import { DEFAULT_CONFIG } from '../server.ts';

// a fixed clock: expiry dates and the determinism check do not depend on when the suite runs
const NOW = new Date('2026-03-16T10:20:30.000Z');
const clock = (at: Date) => () => new Date(at);

const h = createHarness({ seed: 'demo', now: clock(NOW) });
const extraHarnesses: Harness[] = [];
afterAll(() => {
  h.close();
  for (const other of extraHarnesses) other.close();
});

const enc = encodeURIComponent;

async function userByName(username: string) {
  const answer = await h.get(`/users?username=${enc(username)}`);
  expect(answer.body).toHaveLength(1);
  return answer.body[0] as { id: number; username: string };
}

async function allPages(url: string, token?: string): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await h.get(`${url}${url.includes('?') ? '&' : '?'}per_page=100&page=${page}`, { token });
    expect(answer.status).toBe(200);
    items.push(...answer.body);
    if (!answer.headers.get('x-next-page')) return items;
  }
}

describe('demo seed: users', () => {
  it('has at least 150 people with varied, realistic names', async () => {
    const total = await h.get('/users?per_page=1');
    expect(Number(total.headers.get('x-total'))).toBeGreaterThanOrEqual(150);
    const humans = await h.get('/users?humans=true&per_page=1');
    expect(Number(humans.headers.get('x-total'))).toBeGreaterThanOrEqual(150);
    const users = await allPages('/users');
    expect(users.some((user) => /^user\d+$/.test(user.username))).toBe(false);
    expect(new Set(users.map((user) => user.name)).size).toBe(users.length);
    expect(users.filter((user) => user.public_email).length).toBeGreaterThan(10);
    expect(users.filter((user) => user.organization).length).toBeGreaterThan(100);
    expect(new Set(users.map((user) => user.job_title)).size).toBeGreaterThan(15);
  });

  it('spreads sign-ups over three years and has people who never signed in', async () => {
    const users = await allPages('/users');
    const ages = users.map((user) => (NOW.getTime() - Date.parse(user.created_at)) / 86_400_000);
    expect(Math.max(...ages)).toBeGreaterThan(2.5 * 365);
    expect(Math.max(...ages)).toBeLessThanOrEqual(3 * 365 + 1);
    expect(ages.filter((age) => age < 90).length).toBeGreaterThan(0);
    const neverSignedIn = users.filter((user) => !user.bot && user.last_sign_in_at === null);
    expect(neverSignedIn.length).toBeGreaterThan(3);
    expect(users.filter((user) => user.last_activity_on).length).toBeGreaterThan(120);
  });

  it('has blocked, deactivated, external, admin and bot users', async () => {
    const count = async (query: string) => Number((await h.get(`/users?${query}&per_page=1`)).headers.get('x-total'));
    expect(await count('blocked=true')).toBeGreaterThanOrEqual(3);
    expect(await count('admins=true')).toBe(3);
    expect(await count('external=true')).toBe(2);
    const users = await allPages('/users');
    expect(users.filter((user) => user.state === 'deactivated')).toHaveLength(1);
    const bots = users.filter((user) => user.bot);
    expect(bots.length).toBeGreaterThanOrEqual(3);
    for (const bot of bots) {
      expect(bot.username).toMatch(/^(project|group)_\d+_bot_[0-9a-f]{32}$/);
      expect(bot.namespace_id).toBeNull();
    }
  });

  it('has widely followed people, and root follows a few', async () => {
    const sofia = await userByName('sofia.lindqvist');
    const followers = await h.get(`/users/${sofia.id}/followers?per_page=1`);
    expect(Number(followers.headers.get('x-total'))).toBeGreaterThanOrEqual(40);
    const following = await h.get('/users/1/following');
    expect(following.body.map((user: { username: string }) => user.username)).toEqual(
      expect.arrayContaining(['grace.okafor', 'sofia.lindqvist', 'maya.chen']),
    );
  });
});

describe('demo seed: groups and projects', () => {
  it('has four top-level groups of mixed visibility', async () => {
    const answer = await h.get('/groups?top_level_only=true');
    expect(answer.headers.get('x-total')).toBe('4');
    expect(answer.body.map((group: { full_path: string }) => group.full_path).sort()).toEqual(['acme-design', 'acme-engineering', 'lumen', 'platform-team']);
    expect(new Set(answer.body.map((group: { visibility: string }) => group.visibility))).toEqual(new Set(['public', 'internal', 'private']));
  });

  it('nests subgroups at least two levels deep, never more visible than their parent', async () => {
    const groups = await allPages('/groups');
    const byId = new Map(groups.map((group) => [group.id, group]));
    const rank: Record<string, number> = { private: 0, internal: 1, public: 2 };
    let deepest = 0;
    for (const group of groups) {
      let depth = 0;
      for (let parent = byId.get(group.parent_id); parent; parent = byId.get(parent.parent_id)) depth++;
      deepest = Math.max(deepest, depth);
      if (group.parent_id) expect(rank[group.visibility]).toBeLessThanOrEqual(rank[byId.get(group.parent_id).visibility]);
    }
    expect(deepest).toBeGreaterThanOrEqual(2);
  });

  it('has projects of every visibility in groups, subgroups and two personal namespaces', async () => {
    const projects = await allPages('/projects');
    expect(projects.length).toBeGreaterThanOrEqual(10);
    expect(new Set(projects.map((project) => project.visibility))).toEqual(new Set(['public', 'internal', 'private']));
    expect(projects.filter((project) => project.namespace.kind === 'user')).toHaveLength(2);
    expect(projects.filter((project) => project.path_with_namespace.split('/').length >= 4).length).toBeGreaterThan(0);
    expect(projects.filter((project) => project.default_branch === 'master')).toHaveLength(1);
    expect(projects.filter((project) => project.default_branch === 'main').length).toBe(projects.length - 1);
    for (const project of projects) {
      expect(project.description).not.toBe('');
      expect(project.topics.length).toBeGreaterThan(0);
    }
  });

  it('shares a group with a group and a project with a group, with capped access', async () => {
    const host = await h.get(`/groups/${enc(DEMO_PATHS.sharedGroupHost)}?with_projects=false`);
    expect(host.body.shared_with_groups).toEqual([expect.objectContaining({ group_full_path: DEMO_PATHS.sharedGroupGuest, group_access_level: 20 })]);
    const project = await h.get(`/projects/${enc(DEMO_PATHS.sharedProject)}`);
    expect(project.body.shared_with_groups).toEqual([expect.objectContaining({ group_full_path: 'acme-engineering/backend', group_access_level: 30 })]);
  });

  it('turns on SAML SSO for one top-level group, with identities and enterprise users', async () => {
    const groups = (await h.get('/groups?top_level_only=true')).body as Array<{ full_path: string; saml_enabled: boolean }>;
    expect(groups.filter((group) => group.saml_enabled).map((group) => group.full_path)).toEqual([DEMO_PATHS.bigGroup]);
    const maya = await userByName('maya.chen');
    const full = await h.get(`/users/${maya.id}`);
    expect(full.body.identities).toEqual([{ provider: 'group_saml', extern_uid: 'maya.chen@acme.example', saml_provider_id: DEMO_SAML_PROVIDER_ID }]);
    const engineering = (await h.get(`/groups/${DEMO_PATHS.bigGroup}?with_projects=false`)).body;
    const enterprise = h.sandbox.db.prepare('SELECT count(*) AS n FROM users WHERE enterprise_group_id = ?').get(engineering.id) as { n: number };
    expect(enterprise.n).toBe(10);
  });
});

describe('demo seed: memberships', () => {
  it('paginates the direct members of the big group', async () => {
    const first = await h.get(`/groups/${DEMO_PATHS.bigGroup}/members?per_page=20`);
    expect(first.status).toBe(200);
    expect(Number(first.headers.get('x-total'))).toBeGreaterThanOrEqual(60);
    expect(Number(first.headers.get('x-total-pages'))).toBeGreaterThanOrEqual(3);
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).toContain('rel="next"');
    expect(first.body).toHaveLength(20);
    const last = await h.get(`/groups/${DEMO_PATHS.bigGroup}/members?per_page=20&page=${first.headers.get('x-total-pages')}`);
    expect(last.headers.get('x-next-page')).toBe('');
    expect(last.body.length).toBeGreaterThan(0);
  });

  it('shows inherited, overridden and expiring members in /members/all of the deep project', async () => {
    const members = await allPages(`/projects/${enc(DEMO_PATHS.inheritedProject)}/members/all`);
    const byName = new Map(members.map((member) => [member.username, member]));
    // Developer of the top-level group only: inherited two subgroups down
    expect(byName.get('diego.ramirez')).toMatchObject({ access_level: 30 });
    // Developer at the top, Maintainer of the backend subgroup, Owner of the payments subgroup
    expect(byName.get('maya.chen')).toMatchObject({ access_level: 40 });
    expect(byName.get('hiroshi.tanaka')).toMatchObject({ access_level: 50 });
    expect(byName.get('tom.becker')).toMatchObject({ access_level: 30, expires_at: addDays(NOW, 20) });
    expect(members.some((member) => member.expires_at === addDays(NOW, 3))).toBe(true);
    expect(members.length).toBeGreaterThan(60);
    const direct = await allPages(`/projects/${enc(DEMO_PATHS.inheritedProject)}/members`);
    expect(direct.map((member) => member.username)).not.toContain('diego.ramirez');
  });

  it('uses every role value in groups and in projects, most rows naming who added them', async () => {
    const groups = await allPages('/groups');
    const projects = await allPages('/projects');
    const groupLevels = new Set<number>();
    const projectLevels = new Set<number>();
    let withCreator = 0;
    let rows = 0;
    for (const group of groups) {
      for (const member of await allPages(`/groups/${group.id}/members`)) {
        groupLevels.add(member.access_level);
        rows++;
        if (member.created_by) withCreator++;
      }
    }
    for (const project of projects) {
      for (const member of await allPages(`/projects/${project.id}/members`)) projectLevels.add(member.access_level);
    }
    expect([...groupLevels].sort((a, b) => a - b)).toEqual([5, 10, 15, 20, 30, 40, 50]);
    expect([...projectLevels].sort((a, b) => a - b)).toEqual([10, 15, 20, 30, 40, 50]);
    expect(withCreator / rows).toBeGreaterThan(0.9);
  });

  it('has members awaiting approval and memberships ending in 3 days, 20 days and 6 months', () => {
    const db = h.sandbox.db;
    const awaiting = db.prepare("SELECT count(*) AS n FROM members WHERE state = 'awaiting'").get() as { n: number };
    expect(awaiting.n).toBeGreaterThanOrEqual(2);
    const ends = (db.prepare('SELECT DISTINCT expires_at FROM members WHERE expires_at IS NOT NULL').all() as Array<{ expires_at: string }>).map((row) => row.expires_at);
    expect(ends.sort()).toEqual([addDays(NOW, 3), addDays(NOW, 20), addDays(NOW, 182)]);
  });
});

describe('demo seed: tokens', () => {
  it('authenticates each demo token as its user', async () => {
    for (const demo of Object.values(DEMO_TOKENS)) {
      const answer = await h.get('/user', { token: demo.secret });
      expect(answer.status).toBe(200);
      expect(answer.body.username).toBe(demo.username);
    }
  });

  it('gives the demo tokens their roles and scopes', async () => {
    const project = `/projects/${enc(DEMO_PATHS.inheritedProject)}`;
    for (const demo of Object.values(DEMO_TOKENS)) expect((await h.get(project, { token: demo.secret })).status).toBe(200);
    const gateway = `/projects/${enc('acme-engineering/backend/api-gateway')}`;
    const edit = { description: 'Edge routing for every public API.' };
    expect((await h.put(gateway, edit, { token: DEMO_TOKENS.developer.secret })).status).toBe(403);
    expect((await h.put(gateway, edit, { token: DEMO_TOKENS.maintainer.secret })).status).toBe(200);
    const write = await h.post('/projects', { name: 'not allowed' }, { token: DEMO_TOKENS.readonly.secret });
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('insufficient_scope');
  });

  it('refuses the expired and the revoked token', async () => {
    const expired = await h.get('/user', { token: DEMO_DEAD_TOKENS.expired.secret });
    expect(expired.status).toBe(401);
    expect(expired.body.error_description).toMatch(/expired/);
    const revoked = await h.get('/user', { token: DEMO_DEAD_TOKENS.revoked.secret });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error_description).toMatch(/revoked/);
  });
});

describe('demo seed: issue tracker', () => {
  const tracker = `/projects/${enc(DEMO_PATHS.issueTracker)}`;

  it('holds 3,000 issues with scoped labels, milestones past and upcoming, assignees and confidential ones', async () => {
    const stats = await h.get(`${tracker}/issues_statistics`);
    expect(stats.body.statistics.counts.all).toBe(3000);
    expect(stats.body.statistics.counts.opened).toBeGreaterThan(500);
    const labels = (await h.get(`${tracker}/labels?per_page=100`)).body.map((label: any) => label.name);
    expect(labels).toEqual(expect.arrayContaining(['priority::1', 'workflow::in dev', 'bug', 'security']));
    const milestones = (await h.get(`${tracker}/milestones?per_page=100`)).body;
    expect(milestones.some((m: any) => m.state === 'closed' && m.expired)).toBe(true);
    expect(milestones.some((m: any) => m.state === 'active' && !m.expired)).toBe(true);
    expect((await h.get(`${tracker}/issues?milestone_id=Upcoming&per_page=1`)).headers.get('x-total')).not.toBe('0');
    expect(Number((await h.get(`${tracker}/issues?confidential=true&per_page=1`)).headers.get('x-total'))).toBeGreaterThan(0);
    expect(Number((await h.get(`${tracker}/issues?assignee_id=None&per_page=1`)).headers.get('x-total'))).toBeGreaterThan(0);
    const withTasks = (await h.get(`${tracker}/issues?search=Tasks&in=description&per_page=5`)).body;
    expect(withTasks.every((issue: any) => issue.has_tasks)).toBe(true);
  });

  it('has threads with system notes and resource events, and boards over the subgroups', async () => {
    const busy = (await h.get(`${tracker}/issues?order_by=updated_at&per_page=100`)).body.find((issue: any) => issue.user_notes_count >= 2 && issue.assignees.length);
    const notes = (await h.get(`${tracker}/issues/${busy.iid}/notes`)).body;
    expect(notes.some((note: any) => note.system && note.body.startsWith('assigned to @'))).toBe(true);
    expect((await h.get(`${tracker}/issues/${busy.iid}/resource_label_events`)).body.length).toBeGreaterThan(0);
    const boards = (await h.get(`/groups/${DEMO_PATHS.bigGroup}/boards`)).body;
    expect(boards.map((board: any) => board.name)).toEqual(['Engineering workflow', 'Priorities']);
    expect(boards[0].lists.map((list: any) => list.label.name)).toEqual(['workflow::triage', 'workflow::ready', 'workflow::in dev', 'workflow::in review', 'workflow::blocked']);
    const projects = new Set((await h.get(`/groups/${DEMO_PATHS.bigGroup}/issues?labels=workflow::ready&per_page=100`)).body.map((issue: any) => issue.project_id));
    expect(projects.size).toBeGreaterThan(1);
  });
});

describe('demo seed: merge requests', () => {
  const base = `/projects/${enc(DEMO_PATHS.mergeRequests)}/merge_requests`;
  const get = async (iid: number) => (await h.get(`${base}/${iid}`)).body;

  it('has one in every state, each as git and the rules make it', async () => {
    expect(await get(DEMO_MERGE_REQUESTS.draft)).toMatchObject({ draft: true, detailed_merge_status: 'draft_status' });
    expect(await get(DEMO_MERGE_REQUESTS.awaitingReview)).toMatchObject({ state: 'opened', detailed_merge_status: 'not_approved', reviewers: [{ username: 'diego.ramirez' }, { username: 'grace.okafor' }] });
    expect(await get(DEMO_MERGE_REQUESTS.conflict)).toMatchObject({ has_conflicts: true, detailed_merge_status: 'conflict' });
    expect(await get(DEMO_MERGE_REQUESTS.unresolvedThreads)).toMatchObject({ blocking_discussions_resolved: false, user_notes_count: 5 });
    expect(await get(DEMO_MERGE_REQUESTS.approved)).toMatchObject({ detailed_merge_status: 'mergeable', upvotes: 2 });
    const merged = await get(DEMO_MERGE_REQUESTS.merged);
    expect(merged).toMatchObject({ state: 'merged', merge_user: { username: 'maya.chen' } });
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(await get(DEMO_MERGE_REQUESTS.closed)).toMatchObject({ state: 'closed', closed_by: { username: 'maya.chen' } });
    const approvals = async (iid: number) => (await h.get(`${base}/${iid}/approvals`)).body;
    expect(await approvals(DEMO_MERGE_REQUESTS.partlyApproved)).toMatchObject({ approvals_required: 2, approvals_left: 1 });
    expect(await approvals(DEMO_MERGE_REQUESTS.approved)).toMatchObject({ approvals_left: 0, approved: true });
    const review = await h.get('/merge_requests?scope=reviews_for_me&state=opened', { token: DEMO_TOKENS.developer.secret });
    expect(review.body.length).toBeGreaterThanOrEqual(4);
  });

  it('has a request with 100 files and 5,000 changed lines, and threads on a diff line', async () => {
    const diffs = await allPages(`${base}/${DEMO_MERGE_REQUESTS.big}/diffs`);
    expect(diffs).toHaveLength(100);
    const added = diffs.reduce((sum, diff) => sum + diff.diff.split('\n').filter((line: string) => line.startsWith('+')).length, 0);
    expect(added).toBe(5_000);
    const threads = (await h.get(`${base}/${DEMO_MERGE_REQUESTS.unresolvedThreads}/discussions`)).body;
    expect(threads.map((thread: any) => thread.notes[0].resolved)).toEqual([false, false, true]);
    expect(threads[0].notes[0]).toMatchObject({ type: 'DiffNote', position: { new_path: 'src/lib/places.ts', new_line: 2 } });
  });
});

describe('demo seed: determinism', () => {
  const usersPages = async (harness: Harness) => {
    const pages: unknown[] = [];
    for (const page of [1, 2]) pages.push((await harness.get(`/users?per_page=100&page=${page}`)).body);
    return pages;
  };

  it('produces identical users, groups and projects from two fresh seeds', async () => {
    const first = createHarness({ seed: 'demo', now: clock(NOW) });
    const second = createHarness({ seed: 'demo', now: clock(NOW) });
    extraHarnesses.push(first, second);
    expect(await usersPages(second)).toEqual(await usersPages(first));
    for (const url of ['/groups?per_page=100', '/projects?per_page=100', `/groups/${DEMO_PATHS.bigGroup}/members?per_page=100`]) {
      expect((await second.get(url)).body).toEqual((await first.get(url)).body);
    }
  });

  it('gives the same demo data at any time of the same day', async () => {
    const later = createHarness({ seed: 'demo', now: clock(new Date(NOW.getTime() + 5 * 3_600_000)) });
    extraHarnesses.push(later);
    // root is made by the instance seed at the clock's exact time; the demo data is anchored to the day
    const withoutRoot = (pages: unknown[]) => (pages as Array<Array<{ id: number }>>).flat().filter((user) => user.id !== 1);
    expect(withoutRoot(await usersPages(later))).toEqual(withoutRoot(await usersPages(h)));
  });
});

describe('seed: foreign keys and journal', () => {
  it('leaves foreign keys enforced and the store in WAL mode (readers beside a writer) after the demo seed', () => {
    expect(h.sandbox.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(h.sandbox.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });

  it('refuses a seed that leaves a row pointing at nothing, and stores none of it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-test-'));
    const db = openDb(dataDir);
    // a row the seed's one check at the end must catch: a job of a project that does not exist
    db.pragma('foreign_keys = OFF');
    db.prepare("INSERT INTO ci_builds (project_id, name, stage, status, ref, sha, created_at, updated_at) VALUES (424242, 'orphan', 'test', 'success', 'main', 'abc', '2026-01-01', '2026-01-01')").run();
    db.pragma('foreign_keys = ON');
    const sandbox = { db, config: DEFAULT_CONFIG, now: clock(NOW), dataDir };
    try {
      expect(() => seedInstance(sandbox, 'empty')).toThrow(/broke 1 foreign keys, first ci_builds row \d+ → projects/);
      expect(db.prepare("SELECT count(*) FROM settings WHERE key = 'seed'").pluck().get()).toBe(0);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
