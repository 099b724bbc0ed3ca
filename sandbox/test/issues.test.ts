import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiGroup, apiProject, linkRels } from './core-fixtures.ts';

let clock = new Date('2026-03-11T09:00:00Z'); // a Wednesday
const tick = () => { clock = new Date(clock.getTime() + 60_000); };
const h = createHarness({ now: () => clock });
const owner = h.user();
const reporter = h.user();
const guest = h.user();
const outsider = h.user();
let groupId = 0;
let projectId = 0;
let otherId = 0;
let projectPath = '';

async function issue(body: Record<string, unknown>, token?: string) {
  tick();
  const answer = await h.post(`/projects/${projectId}/issues`, body, token ? { token } : undefined);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const titles = (answer: { body: any[] }) => answer.body.map((item) => item.title);

beforeAll(async () => {
  groupId = (await apiGroup(h, h.adminToken)).id;
  const project = await apiProject(h, h.adminToken, { namespace_id: groupId });
  projectId = project.id;
  projectPath = project.path_with_namespace;
  otherId = (await apiProject(h, h.adminToken, { namespace_id: groupId })).id;
  for (const [user, level] of [[owner, 50], [reporter, 20], [guest, 10]] as const) {
    expect((await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
  expect((await h.post(`/projects/${otherId}/members`, { user_id: reporter.id, access_level: 20 })).status).toBe(201);
  await h.post(`/projects/${projectId}/labels`, { name: 'bug', color: '#ff0000', priority: 1 });
  await h.post(`/projects/${projectId}/labels`, { name: 'feature', color: '#00ff00', priority: 5 });
  await h.post(`/projects/${otherId}/labels`, { name: 'bug', color: '#ff0000' });
  await h.post(`/projects/${projectId}/milestones`, { title: 'Past', start_date: '2026-01-01', due_date: '2026-02-01' });
  await h.post(`/projects/${projectId}/milestones`, { title: 'Soon', start_date: '2026-03-01', due_date: '2026-03-20' });
  await h.post(`/projects/${projectId}/milestones`, { title: 'Later', due_date: '2026-06-01' });
  await h.post(`/projects/${otherId}/milestones`, { title: 'Soon' });
});

describe('issue create and get', () => {
  it('creates with labels, assignees, milestone; computes references, tasks and links', async () => {
    const milestones = (await h.get(`/projects/${projectId}/milestones`)).body;
    const soon = milestones.find((m: any) => m.title === 'Soon');
    const created = await issue({
      title: 'First', description: '- [x] one\n- [ ] two\n```\n- [ ] not a task\n```', labels: 'bug,new-one', assignee_ids: [reporter.id, outsider.id],
      milestone_id: soon.id, due_date: '2026-03-11',
    });
    expect(created).toMatchObject({
      iid: 1, project_id: projectId, state: 'opened', type: 'ISSUE', issue_type: 'issue', labels: ['bug', 'new-one'], confidential: false,
      references: { short: '#1', relative: '#1', full: `${projectPath}#1` }, has_tasks: true, task_status: '1 of 2 checklist items completed',
      task_completion_status: { count: 2, completed_count: 1 }, upvotes: 0, downvotes: 0, user_notes_count: 0, subscribed: true, moved_to_id: null,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      due_date: '2026-03-11', closed_by: null,
    });
    // the outsider cannot read the private project: dropped
    expect(created.assignees.map((user: any) => user.id)).toEqual([reporter.id]);
    expect(created.assignee.id).toBe(reporter.id);
    expect(created.milestone).toMatchObject({ id: soon.id, title: 'Soon' });
    expect(created._links.self).toMatch(new RegExp(`/api/v4/projects/${projectId}/issues/1$`));
    expect((await h.get(`/projects/${projectId}/labels/new-one`)).status).toBe(200);
    expect((await h.get(`/projects/${projectId}`)).body.open_issues_count).toBe(1);
    const read = await h.get(`/projects/${projectId}/issues/1`, { token: guest.token });
    expect(read.body).toMatchObject({ title: 'First', subscribed: false });
  });

  it('refuses bad input with 4xx and keeps a guest from setting labels', async () => {
    expect((await h.post(`/projects/${projectId}/issues`, {})).body).toEqual({ error: 'title is missing' });
    expect((await h.post(`/projects/${projectId}/issues`, { title: 'x', due_date: 'tomorrow' })).body).toEqual({ error: 'due_date is invalid' });
    expect((await h.post(`/projects/${projectId}/issues`, { title: 'x', issue_type: 'epic' })).status).toBe(400);
    expect((await h.post(`/projects/${projectId}/issues`, { title: 'x'.repeat(256) })).body.message.title).toBeTruthy();
    expect((await h.post(`/projects/${projectId}/issues`, { title: 'x', created_at: '2020-01-01' }, { token: reporter.token })).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/issues`, { token: outsider.token })).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/issues/999`)).status).toBe(404);
    const mine = await issue({ title: 'By guest', labels: 'bug' }, guest.token);
    expect(mine.labels).toEqual([]);
  });

  it('hides confidential issues from guests who are not involved', async () => {
    const secret = await issue({ title: 'Secret', confidential: true });
    expect((await h.get(`/projects/${projectId}/issues/${secret.iid}`, { token: guest.token })).status).toBe(404);
    expect(titles(await h.get(`/projects/${projectId}/issues?search=Secret`, { token: guest.token }))).toEqual([]);
    expect(titles(await h.get(`/projects/${projectId}/issues?search=Secret`, { token: reporter.token }))).toEqual(['Secret']);
    const theirs = await issue({ title: 'Guest secret', confidential: true }, guest.token);
    expect((await h.get(`/projects/${projectId}/issues/${theirs.iid}`, { token: guest.token })).status).toBe(200);
  });
});

describe('issue edit', () => {
  it('edits labels (add/remove creating missing), assignees, state with closed_by, and records events', async () => {
    const created = await issue({ title: 'Edit me', labels: 'bug' });
    tick();
    const url = `/projects/${projectId}/issues/${created.iid}`;
    const edited = await h.put(url, { add_labels: 'feature,brand-new', remove_labels: 'bug', assignee_ids: [reporter.id], title: 'Edited', due_date: '2026-04-01' });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Edited', labels: ['brand-new', 'feature'], due_date: '2026-04-01' });
    expect(edited.body.assignees.map((u: any) => u.id)).toEqual([reporter.id]);
    expect(edited.body.updated_at).toBe(clock.toISOString());
    expect((await h.put(url, { assignee_ids: [] })).body.assignees).toEqual([]);
    const closed = await h.put(url, { state_event: 'close' }, { token: reporter.token });
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: clock.toISOString(), closed_by: { id: reporter.id } });
    const reopened = await h.put(url, { state_event: 'reopen' });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
    const labelEvents = (await h.get(`${url}/resource_label_events`)).body;
    expect(labelEvents.map((e: any) => `${e.action} ${e.label.name}`).sort()).toEqual(['add brand-new', 'add bug', 'add feature', 'remove bug']);
    expect(labelEvents[0]).toMatchObject({ resource_type: 'Issue', resource_id: created.id });
    const stateEvents = (await h.get(`${url}/resource_state_events`)).body;
    expect(stateEvents.map((e: any) => e.state)).toEqual(['closed', 'reopened']);
    expect((await h.get(`${url}/resource_state_events/${stateEvents[0].id}`)).body.state).toBe('closed');
    const notes = (await h.get(`${url}/notes?sort=asc`)).body.map((n: any) => n.body);
    expect(notes).toEqual(expect.arrayContaining([
      `assigned to @${reporter.username}`, 'changed title from **{-Edit me-}** to **{+Edited+}**', 'changed due date to April 1, 2026', `unassigned @${reporter.username}`,
    ]));
  });

  it('needs one attribute, owners for updated_at, and rights', async () => {
    const created = await issue({ title: 'Strict' });
    const url = `/projects/${projectId}/issues/${created.iid}`;
    expect((await h.put(url, {})).body.error).toMatch(/at least one parameter must be provided/);
    expect((await h.put(url, { updated_at: '' })).status).toBe(400);
    expect((await h.put(url, { updated_at: '2026-01-01T00:00:00Z' }, { token: reporter.token })).status).toBe(403);
    expect((await h.put(url, { updated_at: '2026-01-01T00:00:00Z', title: 'Back' }, { token: owner.token })).body.updated_at).toBe('2026-01-01T00:00:00.000Z');
    expect((await h.put(url, { title: 'Guest' }, { token: guest.token })).status).toBe(403);
    expect((await h.put(url, { milestone_id: 'abc' })).status).toBe(400);
    expect((await h.put(url, { state_event: 'merge' })).status).toBe(400);
  });

  it('deletes for owners and administrators only', async () => {
    const created = await issue({ title: 'Doomed' });
    const url = `/projects/${projectId}/issues/${created.iid}`;
    expect((await h.delete(url, { token: reporter.token })).status).toBe(403);
    expect((await h.delete(url, { token: owner.token })).status).toBe(204);
    expect((await h.get(url)).status).toBe(404);
    // iids are never reused
    expect((await issue({ title: 'After' })).iid).toBe(created.iid + 1);
  });
});

describe('issue lists', () => {
  let ids: Record<string, any> = {};
  beforeAll(async () => {
    const milestones = (await h.get(`/projects/${projectId}/milestones`)).body;
    const m = (title: string) => milestones.find((x: any) => x.title === title).id;
    ids = {
      a: await issue({ title: 'List A bug past', labels: 'bug', milestone_id: m('Past'), due_date: '2026-03-10', assignee_ids: [reporter.id] }),
      b: await issue({ title: 'List B feature soon', labels: 'feature', milestone_id: m('Soon'), due_date: '2026-03-12', description: 'needle here' }),
      c: await issue({ title: 'List C both later', labels: 'bug,feature', milestone_id: m('Later'), due_date: '2026-04-20' }),
      d: await issue({ title: 'List D bare' }, reporter.token),
    };
    await h.put(`/projects/${projectId}/issues/${ids.d.iid}`, { state_event: 'close' });
  });
  const list = async (query: string, token?: string) => titles(await h.get(`/projects/${projectId}/issues?search=List&${query}`, token ? { token } : undefined));

  it('filters by state, labels (None/Any/negated), milestones (Upcoming/Started/None/Any) and assignees', async () => {
    expect(await list('state=closed')).toEqual(['List D bare']);
    expect(await list('labels=bug&order_by=title&sort=asc')).toEqual(['List A bug past', 'List C both later']);
    expect(await list('labels=bug,feature')).toEqual(['List C both later']);
    expect(await list('labels=None')).toEqual(['List D bare']);
    expect(await list('labels=Any&not[labels]=feature')).toEqual(['List A bug past']);
    expect(await list('milestone_id=Upcoming')).toEqual(['List B feature soon']);
    expect(await list('milestone_id=Started&order_by=title&sort=asc')).toEqual(['List A bug past', 'List B feature soon']);
    expect(await list('milestone=None')).toEqual(['List D bare']);
    expect(await list('milestone=Later')).toEqual(['List C both later']);
    expect(await list('not[milestone]=Later&milestone=Any&order_by=title&sort=asc')).toEqual(['List A bug past', 'List B feature soon']);
    expect(await list(`assignee_id=${reporter.id}`)).toEqual(['List A bug past']);
    expect(await list(`assignee_username[]=${reporter.username}`)).toEqual(['List A bug past']);
    expect(await list('assignee_id=Any')).toEqual(['List A bug past']);
    expect(await list(`author_id=${reporter.id}`)).toEqual(['List D bare']);
    expect(await list(`not[author_id]=${reporter.id}&state=closed`)).toEqual([]);
    expect(await list(`iids[]=${ids.a.iid}&iids[]=${ids.b.iid}&order_by=title&sort=asc`)).toEqual(['List A bug past', 'List B feature soon']);
    expect(await list(`not[iids][]=${ids.a.iid}&state=opened&order_by=title&sort=asc`)).toEqual(['List B feature soon', 'List C both later']);
    expect(titles(await h.get(`/projects/${projectId}/issues?search=needle&in=title`))).toEqual([]);
    expect(titles(await h.get(`/projects/${projectId}/issues?search=needle&in=description`))).toEqual(['List B feature soon']);
    expect((await h.get(`/projects/${projectId}/issues?assignee_id=1&assignee_username[]=x`)).status).toBe(400);
    expect((await h.get(`/projects/${projectId}/issues?milestone_id=12`)).status).toBe(400);
    expect((await h.get(`/projects/${projectId}/issues?order_by=nonsense`)).status).toBe(400);
  });

  it('filters by due date values', async () => {
    expect(await list('due_date=overdue')).toEqual(['List A bug past']);
    expect(await list('due_date=tomorrow')).toEqual(['List B feature soon']);
    expect(await list('due_date=week&order_by=title&sort=asc')).toEqual(['List A bug past', 'List B feature soon']);
    expect(await list('due_date=month&order_by=title&sort=asc')).toEqual(['List A bug past', 'List B feature soon']);
    expect(await list('due_date=next_month_and_previous_two_weeks&order_by=title&sort=asc')).toEqual(['List A bug past', 'List B feature soon', 'List C both later']);
    expect(await list('due_date=0')).toEqual(['List D bare']);
    expect((await h.get(`/projects/${projectId}/issues?due_date=someday`)).status).toBe(400);
  });

  it('orders by due date, label priority, milestone due, popularity and relative position', async () => {
    expect(await list('order_by=due_date&sort=asc')).toEqual(['List A bug past', 'List B feature soon', 'List C both later', 'List D bare']);
    expect(await list('order_by=label_priority')).toEqual(['List C both later', 'List A bug past', 'List B feature soon', 'List D bare']);
    expect(await list('order_by=milestone_due')).toEqual(['List A bug past', 'List B feature soon', 'List C both later', 'List D bare']);
    await h.post(`/projects/${projectId}/issues/${ids.c.iid}/award_emoji`, { name: 'thumbsup' });
    expect((await list('order_by=popularity'))[0]).toBe('List C both later');
    expect(await list('order_by=relative_position&sort=asc')).toEqual(['List A bug past', 'List B feature soon', 'List C both later', 'List D bare']);
    const moved = await h.put(`/projects/${projectId}/issues/${ids.c.iid}/reorder`, { move_before_id: ids.a.id, move_after_id: ids.b.id });
    expect(moved.status, moved.text).toBe(200);
    expect(await list('order_by=relative_position&sort=asc')).toEqual(['List A bug past', 'List C both later', 'List B feature soon', 'List D bare']);
    await h.put(`/projects/${projectId}/issues/${ids.d.iid}/reorder`, { move_after_id: ids.a.id });
    expect((await list('order_by=relative_position&sort=asc'))[0]).toBe('List D bare');
    expect((await h.put(`/projects/${projectId}/issues/${ids.d.iid}/reorder`, {})).status).toBe(400);
  });

  it('with_labels_details, statistics, scope on /issues, the group list and pages', async () => {
    const detailed = (await h.get(`/projects/${projectId}/issues?search=List A&with_labels_details=true`)).body[0];
    expect(detailed.labels[0]).toMatchObject({ name: 'bug', color: '#ff0000', text_color: '#FFFFFF', description_html: '' });
    const stats = await h.get(`/projects/${projectId}/issues_statistics?search=List`);
    expect(stats.body).toEqual({ statistics: { counts: { all: 4, closed: 1, opened: 3 } } });
    expect((await h.get(`/issues_statistics?search=List`, { token: reporter.token })).body.statistics.counts.all).toBe(1);
    expect(titles(await h.get('/issues?search=List', { token: reporter.token }))).toEqual(['List D bare']);
    expect(titles(await h.get('/issues?search=List&scope=assigned_to_me', { token: reporter.token }))).toEqual(['List A bug past']);
    expect((await h.get(`/groups/${groupId}/issues?search=List`)).body).toHaveLength(4);
    const group = (await h.get(`/groups/${groupId}/issues?search=List A`)).body[0];
    expect(group.references.relative).toBe(`${projectPath}#${ids.a.iid}`);
    const page = await h.get(`/projects/${projectId}/issues?search=List&per_page=3`);
    expect(page.body).toHaveLength(3);
    expect(page.headers.get('x-total')).toBe('4');
    const keyset = await h.get(`/projects/${projectId}/issues?search=List&pagination=keyset&order_by=created_at&sort=asc&per_page=3`);
    expect(titles(keyset)).toEqual(['List A bug past', 'List B feature soon', 'List C both later']);
    const next = linkRels(keyset.headers.get('link')).next;
    expect(titles(await h.get(next.replace('http://localhost/api/v4', '')))).toEqual(['List D bare']);
    expect((await h.get(`/projects/${projectId}/issues?pagination=keyset&order_by=title`)).status).toBe(405);
  });
});

describe('move, clone, subscriptions and time tracking', () => {
  it('moves an issue: labels and milestones matched by name, the original closed with moved_to_id', async () => {
    const milestone = (await h.get(`/projects/${projectId}/milestones?title=Soon`)).body[0];
    const created = await issue({ title: 'Traveller', labels: 'bug,feature', milestone_id: milestone.id });
    const url = `/projects/${projectId}/issues/${created.iid}`;
    expect((await h.post(`${url}/move`, { to_project_id: projectId })).status).toBe(400);
    expect((await h.post(`${url}/move`, { to_project_id: otherId }, { token: guest.token })).status).toBe(400);
    expect((await h.post(`${url}/move`, {})).body).toEqual({ error: 'to_project_id is missing' });
    const moved = await h.post(`${url}/move`, { to_project_id: otherId }, { token: reporter.token });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body).toMatchObject({ project_id: otherId, title: 'Traveller', labels: ['bug'], milestone: { title: 'Soon', project_id: otherId } });
    const original = (await h.get(url)).body;
    expect(original).toMatchObject({ state: 'closed', moved_to_id: moved.body.id });
    const cloned = await h.post(`/projects/${otherId}/issues/${moved.body.iid}/clone`, { to_project_id: projectId, with_notes: true }, { token: reporter.token });
    expect(cloned.status, cloned.text).toBe(201);
    expect(cloned.body).toMatchObject({ project_id: projectId, labels: ['bug'], state: 'opened' });
    const notes = (await h.get(`/projects/${projectId}/issues/${cloned.body.iid}/notes?sort=asc`)).body.map((n: any) => n.body);
    expect(notes.at(-1)).toMatch(/^cloned from /);
    expect(notes.some((body: string) => body.startsWith('moved from'))).toBe(true);
  });

  it('subscribes and unsubscribes with 304 when unchanged', async () => {
    const created = await issue({ title: 'Watch' });
    const url = `/projects/${projectId}/issues/${created.iid}`;
    expect((await h.post(`${url}/unsubscribe`, undefined, { token: guest.token })).status).toBe(304);
    const on = await h.post(`${url}/subscribe`, undefined, { token: guest.token });
    expect(on.status).toBe(201);
    expect(on.body.subscribed).toBe(true);
    expect((await h.post(`${url}/subscribe`, undefined, { token: guest.token })).status).toBe(304);
    expect((await h.post(`${url}/unsubscribe`)).status).toBe(201);
  });

  it('tracks estimate and spent time with human strings', async () => {
    const created = await issue({ title: 'Timed' });
    const url = `/projects/${projectId}/issues/${created.iid}`;
    const estimate = await h.post(`${url}/time_estimate`, { duration: '1w 2d 3h 30m' });
    expect(estimate.status).toBe(200);
    expect(estimate.body).toEqual({ time_estimate: (5 * 8 + 2 * 8 + 3.5) * 3600, total_time_spent: 0, human_time_estimate: '1w 2d 3h 30m', human_total_time_spent: null });
    expect((await h.post(`${url}/add_spent_time`, { duration: '90m' })).status).toBe(201);
    expect((await h.post(`${url}/add_spent_time`, { duration: '-30m' })).body.human_total_time_spent).toBe('1h');
    expect((await h.post(`${url}/add_spent_time`, { duration: 'soon' })).status).toBe(400);
    expect((await h.post(`${url}/add_spent_time`, { duration: '-5h' })).status).toBe(400);
    expect((await h.get(`${url}/time_stats`)).body.total_time_spent).toBe(3600);
    expect((await h.post(`${url}/reset_spent_time`)).body.total_time_spent).toBe(0);
    expect((await h.post(`${url}/reset_time_estimate`)).body.human_time_estimate).toBeNull();
    expect((await h.post(`${url}/time_estimate`, { duration: '1h' }, { token: guest.token })).status).toBe(403);
    expect((await h.get(url)).body.time_stats).toEqual({ time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null });
  });
});

describe('junk input', () => {
  it('answers every list and write of the issues area with a 2xx or a 4xx, never a 500', async () => {
    const created = await issue({ title: 'Fuzzed' });
    const base = `/projects/${projectId}`;
    const junk = ['', 'abc', '-1', '99999999999999999999', '%00', '[]', 'None', 'Any', '2026-13-45', 'x'.repeat(300)];
    const names = ['labels', 'milestone', 'milestone_id', 'assignee_id', 'assignee_username[]', 'author_id', 'author_username', 'iids[]', 'due_date', 'in', 'search', 'order_by',
      'sort', 'scope', 'state', 'weight', 'my_reaction_emoji', 'not[labels]', 'not[milestone_id]', 'not[assignee_id]', 'not', 'confidential', 'created_after', 'cursor',
      'health_status', 'epic_id', 'iteration_id', 'issue_type', 'with_labels_details', 'labels[x]', 'not[iids][]'];
    const statuses = new Set<number>();
    for (const name of names) {
      for (const value of junk) {
        const query = `${encodeURIComponent(name).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(value)}`;
        for (const url of [`${base}/issues?pagination=keyset&${query}`, `${base}/issues?${query}`, `/groups/${groupId}/issues_statistics?${query}`]) {
          const answer = await h.get(url);
          statuses.add(answer.status);
          expect(answer.status, `${url}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
    expect(statuses.has(400)).toBe(true);
    const writes: Array<[string, string, Record<string, unknown>]> = [
      ['PUT', `${base}/issues/${created.iid}`, { title: 'x' }],
      ['POST', `${base}/issues`, { title: 'x' }],
      ['PUT', `${base}/issues/${created.iid}/reorder`, { move_after_id: 1 }],
      ['POST', `${base}/issues/${created.iid}/move`, { to_project_id: otherId }],
      ['POST', `${base}/issues/${created.iid}/notes`, { body: 'x' }],
      ['POST', `${base}/issues/${created.iid}/time_estimate`, { duration: '1h' }],
      ['POST', `${base}/labels`, { name: 'x', color: '#000000' }],
      ['POST', `${base}/milestones`, { title: 'x' }],
      ['POST', `${base}/boards`, { name: 'x' }],
    ];
    const values: unknown[] = [null, '', 'abc', -1, 1.5, true, [], ['a', { b: 1 }], { a: 1 }, 'x'.repeat(2000)];
    for (const [method, url, body] of writes) {
      for (const key of [...Object.keys(body), 'labels', 'milestone_id', 'assignee_ids', 'due_date', 'state_event', 'updated_at', 'created_at', 'position', 'label_id', 'internal']) {
        for (const value of values) {
          const answer = await h.call(method, url, { json: { ...body, [key]: value } });
          expect(answer.status, `${method} ${url} ${key}=${JSON.stringify(value).slice(0, 40)}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
        }
      }
    }
  }, 120_000);
});
