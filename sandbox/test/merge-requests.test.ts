import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { deliveryQueue } from '../model/system-hooks.ts';

let clock = new Date('2024-05-01T09:00:00Z');
const tick = (minutes = 1) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};

const h: Harness = createHarness({ now: () => clock });
const queue = deliveryQueue(h.sandbox);
const developer = h.user();
const reporter = h.user();
const guest = h.user();
const outsider = h.user();
const owner = h.user();
let projectId = 0;
let projectPath = '';

interface Delivery {
  path: string;
  body: Record<string, any>;
}
const received: Delivery[] = [];
let server: http.Server;
let receiverBase = '';

async function commit(branch: string, actions: Array<Record<string, unknown>>, message = 'change', extra: Record<string, unknown> = {}) {
  tick();
  const answer = await h.post(`/projects/${projectId}/repository/commits`, { branch, commit_message: message, actions, ...extra });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

async function branchFrom(name: string, ref = 'main') {
  const answer = await h.post(`/projects/${projectId}/repository/branches?branch=${encodeURIComponent(name)}&ref=${ref}`);
  expect(answer.status, answer.text).toBe(201);
}

async function headOf(branch: string): Promise<string> {
  return (await h.get(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`)).body.commit.id;
}

async function addMember(userId: number, level: number) {
  const answer = await h.post(`/projects/${projectId}/members`, { user_id: userId, access_level: level });
  expect(answer.status, answer.text).toBe(201);
}

/** A fresh source branch with one commit adding `file`, and an open request from it into main. */
async function openRequest(branch: string, body: Record<string, unknown> = {}, token?: string) {
  await branchFrom(branch);
  await commit(branch, [{ action: 'create', file_path: `${branch.replace(/\W/g, '-')}.txt`, content: `${branch}\n` }], `Add ${branch}`);
  tick();
  const answer = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Work on ${branch}`, ...body }, token ? { token } : undefined);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const project = await h.post('/projects', { name: 'Review Project', visibility: 'private' });
  expect(project.status).toBe(201);
  projectId = project.body.id;
  projectPath = project.body.path_with_namespace;
  await addMember(developer.id, 30);
  await addMember(reporter.id, 20);
  await addMember(guest.id, 10);
  await addMember(owner.id, 50);
  await commit('main', [
    { action: 'create', file_path: 'README.md', content: 'hello\n' },
    { action: 'create', file_path: 'shared.txt', content: 'one\ntwo\nthree\n' },
  ], 'Initial commit');
});

afterAll(async () => {
  await queue.idle();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  h.close();
});

describe('creating merge requests', () => {
  it('answers 201 with the full entity, the source head from git and the references', async () => {
    await branchFrom('feature/login');
    const sha = await commit('feature/login', [{ action: 'create', file_path: 'login.ts', content: 'export {};\n' }], 'Add login');
    tick();
    const answer = await h.post(`/projects/${projectId}/merge_requests`, {
      source_branch: 'feature/login', target_branch: 'main', title: 'Add the login page', description: 'Closes nothing',
      assignee_ids: [developer.id], reviewer_ids: [reporter.id, outsider.id], labels: 'ui, backend,ui', remove_source_branch: true, squash: false,
    }, { token: developer.token });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      iid: 1, project_id: projectId, title: 'Add the login page', description: 'Closes nothing', state: 'opened',
      source_branch: 'feature/login', target_branch: 'main', source_project_id: projectId, target_project_id: projectId,
      author: { id: developer.id, username: developer.username }, assignee: { id: developer.id }, assignees: [{ id: developer.id }],
      // the outsider cannot read the project's merge requests and is dropped
      reviewers: [{ id: reporter.id }], labels: ['backend', 'ui'], draft: false, work_in_progress: false,
      merge_status: 'can_be_merged', detailed_merge_status: 'mergeable', has_conflicts: false, sha, merge_commit_sha: null, squash_commit_sha: null,
      merged_at: null, merged_by: null, merge_user: null, closed_at: null, closed_by: null, force_remove_source_branch: true, should_remove_source_branch: null,
      squash: false, user_notes_count: 0, upvotes: 0, downvotes: 0, milestone: null, merge_when_pipeline_succeeds: false,
      reference: '!1', references: { short: '!1', relative: '!1', full: `${projectPath}!1` },
      web_url: `http://localhost/${projectPath}/-/merge_requests/1`, changes_count: '1', subscribed: true,
      diff_refs: { head_sha: sha, start_sha: await headOf('main') }, user: { can_merge: false },
      time_stats: { time_estimate: 0, total_time_spent: 0 }, created_at: '2024-05-01T09:03:00.000Z',
    });
    expect(answer.body.id).toEqual(expect.any(Number));
  });

  it('answers 409 for a second open request of the same branches', async () => {
    const answer = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature/login', target_branch: 'main', title: 'Again' });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ message: ['Another open merge request already exists for this source branch: !1'] });
  });

  it('names the missing parameters, missing branches and the same-branch conflict', async () => {
    const missing = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature/login' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing, target_branch is missing' });
    const blank = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'main', target_branch: 'feature/login', title: ' ' });
    expect(blank.body).toEqual({ message: { title: ["can't be blank"] } });
    const noSource = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'nope', target_branch: 'main', title: 'x' });
    expect(noSource.status).toBe(400);
    expect(noSource.body).toEqual({ message: { source_branch: ['does not exist'] } });
    const noTarget = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature/login', target_branch: 'gone', title: 'x' });
    expect(noTarget.body).toEqual({ message: { target_branch: ['does not exist'] } });
    const invalid = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'bad..name', target_branch: 'main', title: 'x' });
    expect(invalid.body).toEqual({ message: { source_branch: ['is invalid'] } });
    const same = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'main', target_branch: 'main', title: 'x' });
    expect(same.status).toBe(422);
    expect(same.body).toEqual({ message: ["You can't use same project/branch for source and target"] });
    const typed = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'feature/login', target_branch: 'main', title: 'x', squash: 'maybe' });
    expect(typed.body).toEqual({ error: 'squash is invalid' });
  });

  it('refuses Guests and Reporters (403), hides a private project from outsiders (404), and takes no other target project', async () => {
    const body = { source_branch: 'feature/login', target_branch: 'main', title: 'x' };
    expect((await h.post(`/projects/${projectId}/merge_requests`, body, { token: guest.token })).status).toBe(403);
    const byReporter = await h.post(`/projects/${projectId}/merge_requests`, body, { token: reporter.token });
    expect(byReporter.status).toBe(403);
    expect(byReporter.body).toEqual({ message: '403 Forbidden' });
    const hidden = await h.post(`/projects/${projectId}/merge_requests`, body, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect((await h.post(`/projects/${projectId}/merge_requests`, body, { token: null })).status).toBe(401);
    const other = await h.post('/projects', { name: 'Other Project' });
    const elsewhere = await h.post(`/projects/${projectId}/merge_requests`, { ...body, target_project_id: other.body.id });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({ message: ['Source project is not a fork of the target project'] });
    expect((await h.post(`/projects/${projectId}/merge_requests`, { ...body, target_project_id: 999999 })).status).toBe(404);
  });

  it('marks a "Draft:" title as a draft and finds conflicts with git', async () => {
    const draft = await openRequest('draft-work', { title: 'Draft: not yet' });
    expect(draft).toMatchObject({ draft: true, work_in_progress: true, detailed_merge_status: 'draft_status' });
    await branchFrom('clash');
    await commit('clash', [{ action: 'update', file_path: 'shared.txt', content: 'one\nTWO from clash\nthree\n' }]);
    await commit('main', [{ action: 'update', file_path: 'shared.txt', content: 'one\nTWO from main\nthree\n' }]);
    const clash = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'clash', target_branch: 'main', title: 'Clashing' });
    expect(clash.status).toBe(201);
    expect(clash.body).toMatchObject({ has_conflicts: true, merge_status: 'cannot_be_merged', detailed_merge_status: 'conflict' });
  });
});

describe('reading merge requests', () => {
  it('gets one by iid and answers the platform 404 and 400', async () => {
    const one = await h.get(`/projects/${projectId}/merge_requests/1`, { token: reporter.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ iid: 1, title: 'Add the login page', subscribed: false, user: { can_merge: false } });
    expect((await h.get(`/projects/${projectId}/merge_requests/999`)).body).toEqual({ message: '404 Merge Request Not Found' });
    expect((await h.get(`/projects/${projectId}/merge_requests/abc`)).body).toEqual({ error: 'merge_request_iid is invalid' });
    // Guests of a private project do not see its merge requests
    expect((await h.get(`/projects/${projectId}/merge_requests/1`, { token: guest.token })).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/merge_requests/1`, { token: outsider.token })).status).toBe(404);
  });

  it('lists with filters, order and pagination headers', async () => {
    const all = await h.get(`/projects/${projectId}/merge_requests?per_page=2`);
    expect(all.status).toBe(200);
    expect(all.body.map((mr: any) => mr.iid)).toEqual([3, 2]);
    expect(all.headers.get('x-total')).toBe('3');
    expect(all.headers.get('x-total-pages')).toBe('2');
    expect(all.headers.get('x-next-page')).toBe('2');
    expect(all.headers.get('link')).toContain('rel="next"');
    const iids = async (query: string) => (await h.get(`/projects/${projectId}/merge_requests?${query}`)).body.map((mr: any) => mr.iid);
    expect(await iids('sort=asc')).toEqual([1, 2, 3]);
    expect(await iids('order_by=title&sort=asc')).toEqual([1, 3, 2]);
    expect(await iids(`author_id=${developer.id}`)).toEqual([1]);
    expect(await iids(`author_username=${developer.username}`)).toEqual([1]);
    expect(await iids(`not[author_id]=${developer.id}`)).toEqual([3, 2]);
    expect(await iids('assignee_id=None')).toEqual([3, 2]);
    expect(await iids('assignee_id=Any')).toEqual([1]);
    expect(await iids(`reviewer_username=${reporter.username}`)).toEqual([1]);
    expect(await iids(`reviewer_id=${reporter.id}`)).toEqual([1]);
    expect(await iids('labels=ui')).toEqual([1]);
    expect(await iids('labels=ui,missing')).toEqual([]);
    expect(await iids('labels=None')).toEqual([3, 2]);
    expect(await iids('not[labels]=backend')).toEqual([3, 2]);
    expect(await iids('search=LOGIN')).toEqual([1]);
    expect(await iids('search=closes&in=title')).toEqual([]);
    expect(await iids('search=closes&in=description')).toEqual([1]);
    expect(await iids('source_branch=clash')).toEqual([3]);
    expect(await iids('target_branch=main&state=opened')).toEqual([3, 2, 1]);
    expect(await iids('state=merged')).toEqual([]);
    expect(await iids('iids[]=1&iids[]=3')).toEqual([3, 1]);
    expect(await iids('wip=yes')).toEqual([2]);
    expect(await iids('wip=no')).toEqual([3, 1]);
    expect(await iids('created_after=2024-05-01T09:05:00Z')).toEqual([3, 2]);
    expect(await iids('created_before=2024-05-01T09:04:00Z')).toEqual([1]);
    const simple = await h.get(`/projects/${projectId}/merge_requests?view=simple&iids[]=1`);
    expect(Object.keys(simple.body[0]).sort()).toEqual(['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url']);
    expect((await h.get(`/projects/${projectId}/merge_requests?state=open`)).body).toEqual({ error: 'state does not have a valid value' });
    expect((await h.get(`/projects/${projectId}/merge_requests?assignee_id=someone`)).body).toEqual({ error: 'assignee_id should be an integer, none or any' });
    expect((await h.get(`/projects/${projectId}/merge_requests?author_id=1&author_username=x`)).body).toEqual({ error: 'author_id, author_username are mutually exclusive' });
  });

  it('filters by the caller\'s reaction (my_reaction_emoji and not[my_reaction_emoji]) and by approver usernames', async () => {
    const award = await h.post(`/projects/${projectId}/merge_requests/2/award_emoji`, { name: 'thumbsup' }, { token: developer.token });
    expect(award.status, award.text).toBe(201);
    const iids = async (query: string, token?: string) => (await h.get(`/projects/${projectId}/merge_requests?${query}`, token ? { token } : undefined)).body.map((mr: any) => mr.iid);
    expect(await iids('my_reaction_emoji=thumbsup', developer.token)).toEqual([2]);
    expect(await iids('my_reaction_emoji=Any', developer.token)).toEqual([2]);
    expect(await iids('my_reaction_emoji=None', developer.token)).toEqual([3, 1]);
    expect(await iids('not[my_reaction_emoji]=thumbsup', developer.token)).toEqual([3, 1]);
    // another user's reaction is not the caller's
    expect(await iids('my_reaction_emoji=thumbsup')).toEqual([]);
    expect(await iids('not[my_reaction_emoji]=thumbsup')).toEqual([3, 2, 1]);
    await h.delete(`/projects/${projectId}/merge_requests/2/award_emoji/${award.body.id}`, { token: developer.token });
    expect(await iids(`approved_by_usernames[]=${developer.username}`)).toEqual([]);
  });

  it('lists across the instance: created by me by default, everything readable with scope=all', async () => {
    const mine = await h.get('/merge_requests', { token: developer.token });
    expect(mine.body.map((mr: any) => mr.iid)).toEqual([1]);
    expect(mine.body[0].references.relative).toBe(`${projectPath}!1`);
    expect((await h.get('/merge_requests?scope=assigned_to_me', { token: developer.token })).body.map((mr: any) => mr.iid)).toEqual([1]);
    expect((await h.get('/merge_requests?scope=reviews_for_me', { token: reporter.token })).body.map((mr: any) => mr.iid)).toEqual([1]);
    expect((await h.get('/merge_requests?scope=all')).body).toHaveLength(3);
    expect((await h.get('/merge_requests?scope=all', { token: outsider.token })).body).toEqual([]);
    expect((await h.get('/merge_requests?scope=all', { token: guest.token })).body).toEqual([]);
    expect((await h.get('/merge_requests', { token: null })).status).toBe(401);
    expect((await h.get('/merge_requests?scope=all', { token: null })).body).toEqual([]);
  });
});

describe('reviewers, participants, changes and the group list', () => {
  it('lists the reviewers with their review state and when they were asked', async () => {
    const answer = await h.get(`/projects/${projectId}/merge_requests/1/reviewers`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual([{ user: expect.objectContaining({ id: reporter.id, username: reporter.username }), state: 'unreviewed', created_at: '2024-05-01T09:03:00.000Z' }]);
    expect((await h.get(`/projects/${projectId}/merge_requests/999/reviewers`)).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/merge_requests/1/reviewers`, { token: outsider.token })).status).toBe(404);
  });

  it('lists participants once each: author, assignees, reviewers', async () => {
    const answer = await h.get(`/projects/${projectId}/merge_requests/1/participants`);
    expect(answer.body.map((user: any) => user.id)).toEqual([developer.id, reporter.id]);
  });

  it('serves the request with its changes in one answer', async () => {
    const answer = await h.get(`/projects/${projectId}/merge_requests/1/changes`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ iid: 1, overflow: false, changes: [{ new_path: 'login.ts', new_file: true }] });
    expect((await h.get(`/projects/${projectId}/merge_requests/1/changes?unidiff=maybe`)).body).toEqual({ error: 'unidiff is invalid' });
  });

  it('filters reviewers None and Any, also negated', async () => {
    const iids = async (query: string) => (await h.get(`/projects/${projectId}/merge_requests?${query}`)).body.map((mr: any) => mr.iid);
    expect(await iids('reviewer_username=Any')).toEqual([1]);
    expect(await iids('reviewer_username=None')).toEqual([3, 2]);
    expect(await iids('reviewer_id=None')).toEqual([3, 2]);
    expect(await iids('not[reviewer_id]=None')).toEqual([1]);
    expect(await iids(`not[reviewer_username]=${reporter.username}`)).toEqual([3, 2]);
    expect(await iids('approved_by_ids=None')).toEqual([3, 2, 1]);
    expect(await iids('approved_by_ids=Any')).toEqual([]);
    expect((await h.get(`/projects/${projectId}/merge_requests?approved_by_ids[]=1&approved_by_ids[]=2&approved_by_ids[]=3&approved_by_ids[]=4&approved_by_ids[]=5&approved_by_ids[]=6`)).status).toBe(400);
    expect((await h.get(`/projects/${projectId}/merge_requests?approver_ids=x`)).body).toEqual({ error: 'approver_ids is invalid' });
  });

  it('lists a group\'s requests across its projects and subgroups, readable ones only', async () => {
    const group = await h.post('/groups', { name: 'MR Group', path: 'mr-group' });
    expect(group.status, group.text).toBe(201);
    const sub = await h.post('/groups', { name: 'Sub', path: 'sub', parent_id: group.body.id });
    expect(sub.status, sub.text).toBe(201);
    const requests: number[] = [];
    for (const namespace of [group.body.id, sub.body.id]) {
      const project = await h.post('/projects', { name: `In ${namespace}`, namespace_id: namespace, initialize_with_readme: true });
      expect(project.status, project.text).toBe(201);
      const branch = await h.post(`/projects/${project.body.id}/repository/branches?branch=topic&ref=main`);
      expect(branch.status, branch.text).toBe(201);
      const change = await h.post(`/projects/${project.body.id}/repository/commits`, { branch: 'topic', commit_message: 'topic', actions: [{ action: 'create', file_path: 't.txt', content: 't' }] });
      expect(change.status, change.text).toBe(201);
      const mr = await h.post(`/projects/${project.body.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: `Topic ${namespace}` });
      expect(mr.status, mr.text).toBe(201);
      requests.push(mr.body.id);
    }
    const all = await h.get(`/groups/${group.body.id}/merge_requests?sort=asc`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.map((mr: any) => mr.id)).toEqual(requests);
    expect(all.body[0].references.relative).toContain('mr-group/');
    expect((await h.get(`/groups/${sub.body.id}/merge_requests`)).body.map((mr: any) => mr.id)).toEqual([requests[1]]);
    expect((await h.get(`/groups/mr-group%2Fsub/merge_requests?search=Topic`)).body).toHaveLength(1);
    expect((await h.get(`/groups/${group.body.id}/merge_requests`, { token: outsider.token })).status).toBe(404);
    expect((await h.get('/groups/999999/merge_requests')).status).toBe(404);
    expect((await h.get(`/groups/${group.body.id}/merge_requests?state=nope`)).status).toBe(400);
  });
});

describe('milestones and the merge status recheck', () => {
  it('sets, filters (negated too) and clears a milestone', async () => {
    const milestone = await h.post(`/projects/${projectId}/milestones`, { title: 'Sprint 9' });
    expect(milestone.status, milestone.text).toBe(201);
    const created = await openRequest('milestone/one', { milestone_id: milestone.body.id });
    expect(created.milestone).toMatchObject({ id: milestone.body.id, title: 'Sprint 9' });
    const iids = async (query: string) => (await h.get(`/projects/${projectId}/merge_requests?state=opened&${query}`)).body.map((mr: any) => mr.iid);
    expect(await iids('milestone=Sprint%209')).toEqual([created.iid]);
    expect(await iids('milestone=Any')).toEqual([created.iid]);
    expect(await iids('milestone=None')).not.toContain(created.iid);
    expect(await iids('not[milestone]=Sprint%209')).not.toContain(created.iid);
    const cleared = await h.put(`/projects/${projectId}/merge_requests/${created.iid}`, { milestone_id: 0 });
    expect(cleared.body.milestone).toBeNull();
    // a milestone of nothing this project sees is dropped
    expect((await h.put(`/projects/${projectId}/merge_requests/${created.iid}`, { milestone_id: 999999 })).body.milestone).toBeNull();
    expect((await h.put(`/projects/${projectId}/merge_requests/${created.iid}`, { milestone_id: 'x' })).body).toEqual({ error: 'milestone_id is invalid' });
  });

  it('rechecks mergeability of a page only when asked', async () => {
    const created = await openRequest('recheck/one');
    await commit('main', [{ action: 'create', file_path: 'recheck-one.txt', content: 'main side\n' }]);
    const status = async (query: string) => (await h.get(`/projects/${projectId}/merge_requests?iids[]=${created.iid}${query}`)).body[0].merge_status;
    expect(await status('')).toBe('can_be_merged');
    expect(await status('&with_merge_status_recheck=true')).toBe('cannot_be_merged');
    expect((await h.get(`/projects/${projectId}/merge_requests?iids[]=${created.iid}`)).body[0].has_conflicts).toBe(true);
  });
});

describe('updating merge requests', () => {
  it('needs one attribute, with the platform message', async () => {
    const answer = await h.put(`/projects/${projectId}/merge_requests/1`, {});
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(
      'assignee_id, assignee_ids, reviewer_ids, description, labels, add_labels, remove_labels, milestone_id, remove_source_branch, allow_collaboration, allow_maintainer_to_push, squash, target_branch, title, state_event, discussion_locked, merge_after are missing, at least one parameter must be provided',
    );
    expect((await h.put(`/projects/${projectId}/merge_requests/1`, { state_event: 'merge' })).body).toEqual({ error: 'state_event does not have a valid value' });
  });

  it('edits attributes and labels, and refuses Reporters who are not the author', async () => {
    tick();
    const answer = await h.put(`/projects/${projectId}/merge_requests/1`, { title: 'Add the login page (v2)', add_labels: 'security', remove_labels: 'ui', assignee_ids: '0' }, { token: developer.token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ title: 'Add the login page (v2)', labels: ['backend', 'security'], assignees: [], assignee: null, updated_at: clock.toISOString() });
    expect((await h.put(`/projects/${projectId}/merge_requests/1`, { title: 'x' }, { token: reporter.token })).status).toBe(403);
    expect((await h.put(`/projects/${projectId}/merge_requests/1`, { target_branch: 'nowhere' })).body).toEqual({ message: { target_branch: ['does not exist'] } });
  });

  it('closes and reopens', async () => {
    tick();
    const closed = await h.put(`/projects/${projectId}/merge_requests/3`, { state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: clock.toISOString(), closed_by: { id: 1 }, detailed_merge_status: 'not_open' });
    expect((await h.get(`/projects/${projectId}/merge_requests?state=closed`)).body.map((mr: any) => mr.iid)).toEqual([3]);
    tick();
    const reopened = await h.put(`/projects/${projectId}/merge_requests/3`, { state_event: 'reopen' });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null });
  });

  it('does not reopen beside another open request of the same branches (409)', async () => {
    await h.put(`/projects/${projectId}/merge_requests/3`, { state_event: 'close' });
    const other = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'clash', target_branch: 'main', title: 'Clashing again' });
    expect(other.status).toBe(201);
    const reopen = await h.put(`/projects/${projectId}/merge_requests/3`, { state_event: 'reopen' });
    expect(reopen.status).toBe(409);
    expect(reopen.body).toEqual({ message: [`Another open merge request already exists for this source branch: !${other.body.iid}`] });
    await h.put(`/projects/${projectId}/merge_requests/${other.body.iid}`, { state_event: 'close' });
    expect((await h.put(`/projects/${projectId}/merge_requests/3`, { state_event: 'reopen' })).body.state).toBe('opened');
  });
});

describe('merging', () => {
  it('refuses a closed request (405), a stale sha (409), conflicts (422) and callers who may not merge (401)', async () => {
    const request = await openRequest('to-merge');
    expect((await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {}, { token: developer.token })).status).toBe(401);
    expect((await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {}, { token: reporter.token })).body).toEqual({ message: '401 Unauthorized' });
    const stale = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, { sha: 'a'.repeat(40) });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: `SHA does not match HEAD of source branch: ${request.sha}` });
    const conflicting = await h.put(`/projects/${projectId}/merge_requests/3/merge`, {});
    expect(conflicting.status).toBe(422);
    expect(conflicting.body).toEqual({ message: 'Branch cannot be merged' });
    const draft = await h.put(`/projects/${projectId}/merge_requests/2/merge`, {});
    expect(draft.status).toBe(405);
    // no pipeline ever runs in the sandbox, so waiting for one is refused
    expect((await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, { merge_when_pipeline_succeeds: true })).status).toBe(405);
    await h.put(`/projects/${projectId}/merge_requests/${request.iid}`, { state_event: 'close' });
    const closed = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {});
    expect(closed.status).toBe(405);
    expect(closed.body).toEqual({ message: '405 Method Not Allowed' });
  });

  it('merges with a real merge commit on the target branch and removes the source branch', async () => {
    const request = await openRequest('merge-me', { remove_source_branch: true });
    const mainBefore = await headOf('main');
    tick();
    const answer = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, { sha: request.sha });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      state: 'merged', merged_at: clock.toISOString(), merge_user: { id: 1 }, merged_by: { id: 1 }, sha: request.sha,
      should_remove_source_branch: null, force_remove_source_branch: true, detailed_merge_status: 'not_open',
    });
    const mergeSha = answer.body.merge_commit_sha;
    expect(mergeSha).toMatch(/^[0-9a-f]{40}$/);
    expect(await headOf('main')).toBe(mergeSha);
    const commits = await h.get(`/projects/${projectId}/repository/commits?ref_name=main&per_page=3`);
    expect(commits.body[0]).toMatchObject({
      id: mergeSha, parent_ids: [mainBefore, request.sha],
      message: `Merge branch 'merge-me' into 'main'\n\nWork on merge-me\n\nSee merge request ${projectPath}!${request.iid}`,
    });
    expect(commits.body.map((commit: any) => commit.id)).toContain(request.sha);
    expect((await h.get(`/projects/${projectId}/repository/branches/merge-me`)).status).toBe(404);
    const files = await h.get(`/projects/${projectId}/repository/files/merge-me.txt/raw?ref=main`);
    expect(files.text).toBe('merge-me\n');
    // a merged request cannot be merged again, and its commits stay listed
    expect((await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {})).status).toBe(405);
    const mrCommits = await h.get(`/projects/${projectId}/merge_requests/${request.iid}/commits`);
    expect(mrCommits.body.map((commit: any) => commit.id)).toEqual([request.sha]);
    expect(mrCommits.headers.get('x-total')).toBe('1');
  });

  it('squashes with a custom message when asked', async () => {
    const request = await openRequest('squash-me');
    await commit('squash-me', [{ action: 'create', file_path: 'second.txt', content: '2\n' }], 'Second commit');
    const listed = await h.get(`/projects/${projectId}/merge_requests/${request.iid}/commits`);
    expect(listed.body.map((commit: any) => commit.title)).toEqual(['Second commit', 'Add squash-me']);
    const answer = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, { squash: true, merge_commit_message: 'Merged it', should_remove_source_branch: false });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ state: 'merged', squash: true, should_remove_source_branch: false });
    const squashSha = answer.body.squash_commit_sha;
    const merge = (await h.get(`/projects/${projectId}/repository/commits/${answer.body.merge_commit_sha}`)).body;
    expect(merge).toMatchObject({ message: 'Merged it' });
    expect(merge.parent_ids[1]).toBe(squashSha);
    const squashed = (await h.get(`/projects/${projectId}/repository/commits/${squashSha}`)).body;
    expect(squashed).toMatchObject({ title: 'Work on squash-me', parent_ids: [expect.any(String)] });
    expect((await h.get(`/projects/${projectId}/repository/branches/squash-me`)).status).toBe(200);
  });
});

describe("the project's squash option", () => {
  it('squashes always or never whatever the merge asks', async () => {
    const merged: Record<string, string | null> = {};
    for (const [option, asked] of [['always', false], ['never', true]] as const) {
      const project = await h.post('/projects', { name: `squash-${option}`, initialize_with_readme: true, squash_option: option });
      expect(project.status, project.text).toBe(201);
      const id = project.body.id;
      await h.post(`/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
      for (const file of ['one.txt', 'two.txt']) {
        await h.post(`/projects/${id}/repository/commits`, { branch: 'topic', commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] });
      }
      const request = await h.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: `Squash ${option}` });
      const answer = await h.put(`/projects/${id}/merge_requests/${request.body.iid}/merge`, { squash: asked });
      expect(answer.status, answer.text).toBe(200);
      merged[option] = answer.body.squash_commit_sha;
    }
    expect(merged.always).toMatch(/^[0-9a-f]{40}$/);
    expect(merged.never).toBeNull();
  });
});

describe('deleting merge requests', () => {
  it('is for owners and administrators', async () => {
    const request = await openRequest('to-delete');
    expect((await h.delete(`/projects/${projectId}/merge_requests/${request.iid}`, { token: developer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${projectId}/merge_requests/${request.iid}`, { token: owner.token })).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/merge_requests/${request.iid}`)).status).toBe(404);
    expect((await h.delete(`/projects/${projectId}/merge_requests/${request.iid}`)).status).toBe(404);
    // iids are never given twice
    const next = await openRequest('after-delete');
    expect(next.iid).toBe(request.iid + 1);
  });
});

describe('public projects', () => {
  it('show their merge requests to anyone', async () => {
    const open = await h.post('/projects', { name: 'Open Reviews', visibility: 'public' });
    const id = open.body.id;
    await h.post(`/projects/${id}/repository/commits`, { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'a.txt', content: 'a\n' }] });
    await h.post(`/projects/${id}/repository/commits`, { branch: 'topic', start_branch: 'main', commit_message: 'Topic', actions: [{ action: 'create', file_path: 'b.txt', content: 'b\n' }] });
    const created = await h.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Public work' });
    expect(created.status, created.text).toBe(201);
    const anonymous = await h.get(`/projects/${id}/merge_requests`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.map((mr: any) => mr.title)).toEqual(['Public work']);
    expect((await h.get(`/projects/${id}/merge_requests/1`, { token: outsider.token })).body.user).toEqual({ can_merge: false });
    // a non-member may not open one there
    expect((await h.post(`/projects/${id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'x' }, { token: outsider.token })).status).toBe(403);
  });
});

describe('deleted users', () => {
  it('hands a deleted author\'s requests to the Ghost User, and a hard delete removes them', async () => {
    const leaving = h.user();
    const staying = h.user();
    await addMember(leaving.id, 30);
    await addMember(staying.id, 30);
    const kept = await openRequest('by-leaving', {}, leaving.token);
    const removed = await openRequest('by-staying', {}, staying.token);
    expect((await h.delete(`/users/${leaving.id}`)).status).toBe(204);
    const ghosted = await h.get(`/projects/${projectId}/merge_requests/${kept.iid}`);
    expect(ghosted.body.author.username).toMatch(/^ghost/);
    expect((await h.delete(`/users/${staying.id}?hard_delete=true`)).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/merge_requests/${removed.iid}`)).status).toBe(404);
  });
});

describe('GET /projects/:id/merge_requests/:iid/diffs', () => {
  it('lists what the source brings against the merge base, before and after the merge', async () => {
    const request = await openRequest('diffed');
    // the target moving on does not add its changes to the request's diff
    await commit('main', [{ action: 'create', file_path: 'unrelated.txt', content: 'x\n' }], 'Unrelated');
    const before = await h.get(`/projects/${projectId}/merge_requests/${request.iid}/diffs?unidiff=true`);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual([expect.objectContaining({ new_path: 'diffed.txt', old_path: 'diffed.txt', new_file: true, deleted_file: false, diff: expect.stringContaining('+diffed') })]);
    expect(before.body[0].diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/diffed\.txt\n@@ /);
    expect(before.headers.get('x-total')).toBe('1');
    const merged = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {});
    expect(merged.status, merged.text).toBe(200);
    const after = await h.get(`/projects/${projectId}/merge_requests/${request.iid}/diffs`);
    expect(after.body.map((diff: { new_path: string }) => diff.new_path)).toEqual(['diffed.txt']);
    expect((await h.get(`/projects/${projectId}/merge_requests/99999/diffs`)).status).toBe(404);
  });
});

describe('system hook merge request events', () => {
  beforeEach(async () => {
    await queue.idle();
    h.sandbox.db.prepare('DELETE FROM system_hooks').run();
    received.length = 0;
  });

  async function addHook(body: Record<string, unknown>) {
    const answer = await h.post('/hooks', { repository_update_events: false, ...body });
    expect(answer.status, answer.text).toBe(201);
  }

  it('posts open, update, close, reopen and merge only to hooks with merge_requests_events', async () => {
    await addHook({ url: `${receiverBase}/mrs`, merge_requests_events: true });
    await addHook({ url: `${receiverBase}/pushes`, push_events: true });
    const request = await openRequest('hooked', { labels: 'hooks' }, developer.token);
    await h.put(`/projects/${projectId}/merge_requests/${request.iid}`, { title: 'Hooked, renamed' });
    await h.put(`/projects/${projectId}/merge_requests/${request.iid}`, { state_event: 'close' });
    await h.put(`/projects/${projectId}/merge_requests/${request.iid}`, { state_event: 'reopen' });
    const merged = await h.put(`/projects/${projectId}/merge_requests/${request.iid}/merge`, {});
    expect(merged.status, merged.text).toBe(200);
    await queue.idle();
    const mrEvents = received.filter((delivery) => delivery.path === '/mrs');
    expect(mrEvents.map((delivery) => delivery.body.object_attributes.action)).toEqual(['open', 'update', 'close', 'reopen', 'merge']);
    expect(received.filter((delivery) => delivery.path === '/pushes' && delivery.body.object_kind === 'merge_request')).toEqual([]);
    const [open, update, close, , merge] = mrEvents.map((delivery) => delivery.body);
    expect(open).toMatchObject({
      object_kind: 'merge_request', event_type: 'merge_request',
      user: { id: developer.id, username: developer.username, name: developer.name },
      project: { id: projectId, path_with_namespace: projectPath, web_url: `http://localhost/${projectPath}` },
      repository: { name: 'Review Project' },
      object_attributes: {
        iid: request.iid, title: 'Work on hooked', state: 'opened', action: 'open', source_branch: 'hooked', target_branch: 'main',
        author_id: developer.id, url: request.web_url, last_commit: { id: request.sha, title: 'Add hooked' }, state_id: 1,
        labels: [{ title: 'hooks' }], created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/),
      },
      labels: [{ title: 'hooks' }],
    });
    expect(update.changes.title).toEqual({ previous: 'Work on hooked', current: 'Hooked, renamed' });
    expect(close.object_attributes).toMatchObject({ action: 'close', state: 'closed', state_id: 2 });
    expect(close.changes.state_id).toEqual({ previous: 1, current: 2 });
    expect(merge.object_attributes).toMatchObject({ action: 'merge', state: 'merged', merge_commit_sha: merged.body.merge_commit_sha });
    // the merge itself is a push to the target branch
    const pushes = received.filter((delivery) => delivery.path === '/pushes' && delivery.body.ref === 'refs/heads/main');
    expect(pushes.at(-1)!.body).toMatchObject({ object_kind: 'push', after: merged.body.merge_commit_sha });
  });

  it('posts an update with oldrev when the source branch of an open request is pushed, and nothing for other branches', async () => {
    const request = await openRequest('pushed-source');
    await addHook({ url: `${receiverBase}/mrs`, merge_requests_events: true });
    const pushed = await commit('pushed-source', [{ action: 'create', file_path: 'more.txt', content: 'more\n' }], 'More work');
    await commit('main', [{ action: 'create', file_path: 'elsewhere.txt', content: 'x\n' }], 'Elsewhere');
    await queue.idle();
    const events = received.filter((delivery) => delivery.path === '/mrs').map((delivery) => delivery.body);
    expect(events).toHaveLength(1);
    expect(events[0].object_attributes).toMatchObject({ iid: request.iid, action: 'update', oldrev: request.sha, last_commit: { id: pushed } });
  });

  it('posts nothing to a hook without the flag', async () => {
    await addHook({ url: `${receiverBase}/none` });
    await openRequest('unheard');
    await queue.idle();
    expect(received).toEqual([]);
  });
});

// last: a request of its own would change the lists the tests above count
describe('task lists', () => {
  it('counts the tasks of its description, and counts them again after an edit', async () => {
    const created = await openRequest('feature/checklist', { description: '- [x] tests\n- [ ] docs\n\n```\n- [ ] not a task\n```' });
    expect(created.task_completion_status).toEqual({ count: 2, completed_count: 1 });
    const edited = await h.put(`/projects/${projectId}/merge_requests/${created.iid}`, { description: '- [x] tests\n- [x] docs' });
    expect(edited.body.task_completion_status).toEqual({ count: 2, completed_count: 2 });
  });
});
