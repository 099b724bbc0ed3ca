import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiGroup, apiProject, linkRels } from './core-fixtures.ts';

let clock = new Date('2026-03-10T09:00:00Z');
const h = createHarness({ now: () => clock });
const reporter = h.user();
const guest = h.user();
let groupId = 0;
let projectId = 0;

beforeAll(async () => {
  groupId = (await apiGroup(h, h.adminToken)).id;
  projectId = (await apiProject(h, h.adminToken, { namespace_id: groupId })).id;
  for (const [user, level] of [[reporter, 20], [guest, 10]] as const) {
    expect((await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
});

describe('labels', () => {
  it('creates a project label with a computed text color, refuses duplicates and bad colors', async () => {
    const created = await h.post(`/projects/${projectId}/labels`, { name: 'bug', color: '#FFEE00', description: 'Broken', priority: 2 }, { token: reporter.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'bug', color: '#FFEE00', text_color: '#1F1E24', description: 'Broken', priority: 2, subscribed: false, is_project_label: true });
    const dark = await h.post(`/projects/${projectId}/labels`, { name: 'backend', color: 'navy' });
    expect(dark.body).toMatchObject({ color: '#000080', text_color: '#FFFFFF' });
    expect((await h.post(`/projects/${projectId}/labels`, { name: 'bug', color: '#000000' })).status).toBe(409);
    const bad = await h.post(`/projects/${projectId}/labels`, { name: 'x', color: 'not-a-color' });
    expect(bad.status).toBe(400);
    expect(bad.body.message.color).toBeTruthy();
    expect((await h.post(`/projects/${projectId}/labels`, { color: '#000000' })).body).toEqual({ error: 'name is missing' });
    expect((await h.post(`/projects/${projectId}/labels`, { name: 'g', color: '#000000' }, { token: guest.token })).status).toBe(403);
  });

  it('lists project labels with the group labels, by id or name, and edits and deletes them', async () => {
    const group = await h.post(`/groups/${groupId}/labels`, { name: 'priority::high', color: '#dc143c' });
    expect(group.status, group.text).toBe(201);
    expect(group.body.priority).toBeUndefined();
    const list = await h.get(`/projects/${projectId}/labels?with_counts=true`);
    expect(list.body.map((label: any) => label.name)).toEqual(['backend', 'bug', 'priority::high']);
    expect(list.body[1]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
    expect((await h.get(`/projects/${projectId}/labels?include_ancestor_groups=false`)).body).toHaveLength(2);
    const byName = await h.get(`/projects/${projectId}/labels/bug`);
    expect(byName.body.name).toBe('bug');
    // a project may prioritise a group label, not rename it
    const prioritised = await h.put(`/projects/${projectId}/labels/${group.body.id}`, { priority: 0 });
    expect(prioritised.body).toMatchObject({ name: 'priority::high', priority: 0 });
    expect((await h.put(`/projects/${projectId}/labels/${group.body.id}`, { new_name: 'x' })).status).toBe(404);
    const renamed = await h.put(`/projects/${projectId}/labels/backend`, { new_name: 'server', color: '#123456', priority: null });
    expect(renamed.body).toMatchObject({ name: 'server', color: '#123456', priority: null });
    expect((await h.put(`/projects/${projectId}/labels/server`, {})).status).toBe(400);
    expect((await h.delete(`/projects/${projectId}/labels/server`)).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/labels/server`)).status).toBe(404);
  });

  it('subscribes and unsubscribes, 304 when nothing changes', async () => {
    const first = await h.post(`/projects/${projectId}/labels/bug/subscribe`, undefined, { token: guest.token });
    expect(first.status).toBe(201);
    expect(first.body.subscribed).toBe(true);
    expect((await h.post(`/projects/${projectId}/labels/bug/subscribe`, undefined, { token: guest.token })).status).toBe(304);
    expect((await h.post(`/projects/${projectId}/labels/bug/unsubscribe`, undefined, { token: guest.token })).body.subscribed).toBe(false);
    expect((await h.post(`/projects/${projectId}/labels/bug/unsubscribe`, undefined, { token: guest.token })).status).toBe(304);
  });
});

describe('milestones', () => {
  it('creates, lists with filters and pages, closes, reopens and deletes', async () => {
    const past = await h.post(`/projects/${projectId}/milestones`, { title: 'v1.0', start_date: '2026-01-01', due_date: '2026-02-01' });
    expect(past.status, past.text).toBe(201);
    expect(past.body).toMatchObject({ iid: 1, project_id: projectId, title: 'v1.0', state: 'active', expired: true });
    expect(past.body.web_url).toMatch(/\/-\/milestones\/1$/);
    const next = await h.post(`/projects/${projectId}/milestones`, { title: 'v2.0', due_date: '2026-04-01' });
    expect(next.body).toMatchObject({ iid: 2, expired: false });
    expect((await h.post(`/projects/${projectId}/milestones`, { title: 'v2.0' })).status).toBe(400);
    expect((await h.post(`/projects/${projectId}/milestones`, { title: 'bad', start_date: '2026-05-01', due_date: '2026-04-01' })).body.message.due_date).toBeTruthy();
    expect((await h.post(`/projects/${projectId}/milestones`, { title: 'bad', due_date: '2026-02-30' })).body).toEqual({ error: 'due_date is invalid' });
    expect((await h.post(`/projects/${projectId}/milestones`, { title: 'r' }, { token: guest.token })).status).toBe(403);
    const group = await h.post(`/groups/${groupId}/milestones`, { title: 'Q2' });
    expect(group.body).toMatchObject({ group_id: groupId, iid: 1 });
    const paged = await h.get(`/projects/${projectId}/milestones?per_page=1`);
    expect(paged.body.map((m: any) => m.title)).toEqual(['v1.0']);
    expect(paged.headers.get('x-total')).toBe('2');
    expect(linkRels(paged.headers.get('link')).next).toBeTruthy();
    expect((await h.get(`/projects/${projectId}/milestones?include_ancestors=true`)).body).toHaveLength(3);
    expect((await h.get(`/projects/${projectId}/milestones?iids[]=2`)).body.map((m: any) => m.title)).toEqual(['v2.0']);
    const closed = await h.put(`/projects/${projectId}/milestones/${past.body.id}`, { state_event: 'close' });
    expect(closed.body.state).toBe('closed');
    expect((await h.get(`/projects/${projectId}/milestones?state=active`)).body.map((m: any) => m.title)).toEqual(['v2.0']);
    expect((await h.put(`/projects/${projectId}/milestones/${past.body.id}`, { state_event: 'activate' })).body.state).toBe('active');
    expect((await h.delete(`/projects/${projectId}/milestones/${group.body.id}`)).status).toBe(404);
    expect((await h.delete(`/groups/${groupId}/milestones/${group.body.id}`)).status).toBe(204);
  });

  it('lists the issues of a milestone', async () => {
    const milestone = (await h.get(`/projects/${projectId}/milestones?title=v2.0`)).body[0];
    const issue = await h.post(`/projects/${projectId}/issues`, { title: 'In v2', milestone_id: milestone.id });
    expect(issue.body.milestone).toMatchObject({ id: milestone.id, title: 'v2.0' });
    await h.post(`/projects/${projectId}/issues`, { title: 'Nowhere' });
    const issues = await h.get(`/projects/${projectId}/milestones/${milestone.id}/issues`);
    expect(issues.body.map((i: any) => i.title)).toEqual(['In v2']);
    expect((await h.get(`/projects/${projectId}/milestones/${milestone.id}/merge_requests`)).body).toEqual([]);
    clock = new Date(clock.getTime() + 60_000);
  });
});
