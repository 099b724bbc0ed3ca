import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';

/** Notes, threads and award emoji on merge requests, and what unresolved threads and a stale base do to merging. */

let clock = new Date('2024-07-01T09:00:00Z');
const h = createHarness({ now: () => clock });
const tick = () => {
  clock = new Date(clock.getTime() + 60_000);
};

let author: ApiUser;
let developer: ApiUser;
let reporter: ApiUser;
let outsider: ApiUser;
let projectId = 0;
let counter = 0;

async function commit(branch: string, path: string, content: string) {
  tick();
  const answer = await h.post(`/projects/${projectId}/repository/commits`, { branch, commit_message: `Change ${path}`, actions: [{ action: 'create', file_path: path, content }] });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

async function openRequest() {
  const branch = `thread-${++counter}`;
  expect((await h.post(`/projects/${projectId}/repository/branches?branch=${branch}&ref=main`)).status).toBe(201);
  await commit(branch, `${branch}.txt`, 'one\ntwo\n');
  const answer = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: branch, target_branch: 'main', title: `Thread ${branch}` }, { token: author.token });
  expect(answer.status, answer.text).toBe(201);
  return { iid: answer.body.iid as number, branch, refs: answer.body.diff_refs as { base_sha: string; head_sha: string; start_sha: string } };
}

const path = (iid: number, rest: string) => `/projects/${projectId}/merge_requests/${iid}/${rest}`;

beforeAll(async () => {
  author = await apiUser(h);
  developer = await apiUser(h);
  reporter = await apiUser(h);
  outsider = await apiUser(h);
  const project = await h.post('/projects', { name: 'Threads', visibility: 'private' });
  expect(project.status, project.text).toBe(201);
  projectId = project.body.id;
  for (const [user, level] of [[author, 30], [developer, 30], [reporter, 20]] as const) {
    expect((await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
  await commit('main', 'README.md', 'hello\n');
});

afterAll(() => h.close());

describe('notes on merge requests', () => {
  it('creates, lists, edits and deletes comments, counted on the request', async () => {
    const { iid } = await openRequest();
    const created = await h.post(path(iid, 'notes'), { body: 'Looks <b>good</b>' }, { token: reporter.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ body: 'Looks <b>good</b>', noteable_type: 'MergeRequest', noteable_iid: iid, type: null, resolvable: false, author: { id: reporter.id } });
    expect((await h.get(path(iid, 'notes'))).body.map((note: any) => note.id)).toEqual([created.body.id]);
    expect((await h.get(path(iid, `notes/${created.body.id}`))).body.id).toBe(created.body.id);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.user_notes_count).toBe(1);
    expect((await h.get(path(iid, 'participants'))).body.map((user: any) => user.id)).toEqual([author.id, reporter.id]);
    expect((await h.put(path(iid, `notes/${created.body.id}`), { body: 'edited' }, { token: developer.token })).status).toBe(403);
    expect((await h.put(path(iid, `notes/${created.body.id}`), { body: 'edited' }, { token: reporter.token })).body.body).toBe('edited');
    // the project's Owner edits another's comment (admin_note, Maintainer and up)
    expect((await h.put(path(iid, `notes/${created.body.id}`), { body: 'edited by the owner' })).body).toMatchObject({ body: 'edited by the owner', author: { id: reporter.id } });
    expect((await h.post(path(iid, 'notes'), { body: '   ' })).body).toEqual({ error: 'body is empty' });
    expect((await h.post(path(iid, 'notes'), {})).body).toEqual({ error: 'body is missing' });
    expect((await h.post(path(iid, 'notes'), { body: 'x' }, { token: outsider.token })).status).toBe(404);
    expect((await h.delete(path(iid, `notes/${created.body.id}`), { token: reporter.token })).status).toBe(204);
    expect((await h.get(path(iid, `notes/${created.body.id}`))).status).toBe(404);
    expect((await h.get(path(9999, 'notes'))).status).toBe(404);
  });

  it('awards emoji on the request and on its notes; thumbs count as votes', async () => {
    const { iid } = await openRequest();
    const up = await h.post(path(iid, 'award_emoji'), { name: 'thumbsup' }, { token: developer.token });
    expect(up.status, up.text).toBe(201);
    expect(up.body).toMatchObject({ name: 'thumbsup', awardable_type: 'MergeRequest', user: { id: developer.id } });
    await h.post(path(iid, 'award_emoji'), { name: 'thumbsdown' }, { token: reporter.token });
    // a comment that is only an emoji awards it
    expect((await h.post(path(iid, 'notes'), { body: ':+1:' }, { token: reporter.token })).body).toMatchObject({ name: 'thumbsup', awardable_type: 'MergeRequest' });
    expect((await h.post(path(iid, 'award_emoji'), { name: 'thumbsup' }, { token: developer.token })).status).toBe(400);
    expect((await h.post(path(iid, 'award_emoji'), { name: 'not-an-emoji' })).status).toBe(400);
    const mr = (await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body;
    expect(mr).toMatchObject({ upvotes: 2, downvotes: 1 });
    expect((await h.get(`/projects/${projectId}/merge_requests?iids[]=${iid}`)).body[0]).toMatchObject({ upvotes: 2, downvotes: 1 });
    const note = await h.post(path(iid, 'notes'), { body: 'hi' });
    const onNote = await h.post(path(iid, `notes/${note.body.id}/award_emoji`), { name: 'rocket' }, { token: author.token });
    expect(onNote.status, onNote.text).toBe(201);
    expect((await h.get(path(iid, `notes/${note.body.id}/award_emoji`))).body.map((award: any) => award.name)).toEqual(['rocket']);
    expect((await h.delete(path(iid, `award_emoji/${up.body.id}`), { token: reporter.token })).status).toBe(403);
    expect((await h.delete(path(iid, `award_emoji/${up.body.id}`), { token: developer.token })).status).toBe(204);
  });
});

describe('discussions on merge requests', () => {
  it('starts threads, replies, resolves and reopens them; blocking_discussions_resolved follows', async () => {
    const { iid } = await openRequest();
    const thread = await h.post(path(iid, 'discussions'), { body: 'Why this?' }, { token: reporter.token });
    expect(thread.status, thread.text).toBe(201);
    expect(thread.body).toMatchObject({ individual_note: false, notes: [{ body: 'Why this?', type: 'DiscussionNote', resolvable: true, resolved: false, resolved_by: null }] });
    expect(thread.body.id).toMatch(/^[0-9a-f]{40}$/);
    const id = thread.body.id;
    // where the project does not ask for threads resolved, an open one blocks nothing
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body).toMatchObject({ blocking_discussions_resolved: true, detailed_merge_status: 'mergeable' });
    expect((await h.put(`/projects/${projectId}`, { only_allow_merge_if_all_discussions_are_resolved: true })).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body).toMatchObject({ blocking_discussions_resolved: false, detailed_merge_status: 'discussions_not_resolved' });
    const reply = await h.post(path(iid, `discussions/${id}/notes`), { body: 'Because.' }, { token: author.token });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ type: 'DiscussionNote', resolvable: true });
    // Reporters who did not write the request may not resolve
    expect((await h.put(path(iid, `discussions/${id}`), { resolved: true }, { token: reporter.token })).status).toBe(403);
    const resolved = await h.put(path(iid, `discussions/${id}`), { resolved: true }, { token: author.token });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.notes.every((note: any) => note.resolved && note.resolved_by.id === author.id)).toBe(true);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.blocking_discussions_resolved).toBe(true);
    const reopened = await h.put(path(iid, `discussions/${id}`), { resolved: false }, { token: developer.token });
    expect(reopened.body.notes.every((note: any) => !note.resolved && note.resolved_at === null)).toBe(true);
    // one note at a time, too
    const one = await h.put(path(iid, `discussions/${id}/notes/${reply.body.id}`), { resolved: true }, { token: developer.token });
    expect(one.body).toMatchObject({ resolved: true, resolved_by: { id: developer.id } });
    expect((await h.get(path(iid, `discussions/${id}`))).body.notes.map((note: any) => note.resolved)).toEqual([false, true]);
    expect((await h.put(path(iid, `discussions/${id}`), {})).body).toEqual({ error: 'resolved is missing' });
    expect((await h.put(path(iid, `discussions/${id}/notes/${reply.body.id}`), {})).status).toBe(400);
    // a thread's note is edited by its author or a Maintainer and up, not by another Developer
    expect((await h.put(path(iid, `discussions/${id}/notes/${reply.body.id}`), { body: 'Because of X.' }, { token: developer.token })).status).toBe(403);
    expect((await h.put(path(iid, `discussions/${id}/notes/${reply.body.id}`), { body: 'Because of X.' })).body).toMatchObject({ body: 'Because of X.', author: { id: author.id } });
    expect((await h.get(path(iid, 'discussions/0123456789012345678901234567890123456789'))).status).toBe(404);
    const list = await h.get(path(iid, 'discussions'));
    expect(list.body.map((discussion: any) => discussion.id)).toEqual([id]);
    expect(list.headers.get('x-total')).toBe('1');
    expect((await h.put(`/projects/${projectId}`, { only_allow_merge_if_all_discussions_are_resolved: false })).status).toBe(200);
  });

  it('lists a lone comment as an individual note, and a reply turns it into a thread', async () => {
    const { iid } = await openRequest();
    const note = await h.post(path(iid, 'notes'), { body: 'Lone' });
    const [lone] = (await h.get(path(iid, 'discussions'))).body;
    expect(lone).toMatchObject({ individual_note: true, notes: [{ id: note.body.id, type: null }] });
    expect((await h.put(path(iid, `discussions/${lone.id}`), { resolved: true })).status).toBe(400);
    await h.post(path(iid, `discussions/${lone.id}/notes`), { body: 'Reply' });
    const [thread] = (await h.get(path(iid, 'discussions'))).body;
    expect(thread).toMatchObject({ id: lone.id, individual_note: false, notes: [{ type: 'DiscussionNote' }, { body: 'Reply' }] });
  });

  it('starts a thread on a line of the changes, checking the position', async () => {
    const { iid, branch, refs } = await openRequest();
    const position = { position_type: 'text', base_sha: refs.base_sha, start_sha: refs.start_sha, head_sha: refs.head_sha, new_path: `${branch}.txt`, new_line: 2 };
    const diff = await h.post(path(iid, 'discussions'), { body: 'On line 2', position });
    expect(diff.status, diff.text).toBe(201);
    expect(diff.body.notes[0]).toMatchObject({ type: 'DiffNote', position: { ...position, old_path: `${branch}.txt`, old_line: null } });
    expect((await h.post(path(iid, 'discussions'), { body: 'x', position: { ...position, head_sha: 'abc' } })).body).toEqual({ error: 'position[head_sha] is invalid' });
    expect((await h.post(path(iid, 'discussions'), { body: 'x', position: { position_type: 'text' } })).status).toBe(400);
    expect((await h.post(path(iid, 'discussions'), { body: 'x', position: { ...position, new_line: null } })).status).toBe(400);
    expect((await h.post(path(iid, 'discussions'), { body: 'x', position: 'line 2' })).body).toEqual({ error: 'position is invalid' });
  });

  it('moves a line thread to the new version of the changes while its file is unchanged; one on a changed file stays on its old version', async () => {
    const { iid, branch } = await openRequest();
    await commit(branch, 'other.txt', 'a\nb\n');
    const { diff_refs: before } = (await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body;
    const onLine = (file: string) => ({ position_type: 'text', base_sha: before.base_sha, start_sha: before.start_sha, head_sha: before.head_sha, new_path: file, new_line: 2 });
    const kept = await h.post(path(iid, 'discussions'), { body: 'On the file that stays', position: onLine(`${branch}.txt`) });
    const outdated = await h.post(path(iid, 'discussions'), { body: 'On the file that changes', position: onLine('other.txt') });
    expect([kept.status, outdated.status]).toEqual([201, 201]);
    tick();
    expect((await h.post(`/projects/${projectId}/repository/commits`, { branch, commit_message: 'Change other', actions: [{ action: 'update', file_path: 'other.txt', content: 'a\nc\n' }] })).status).toBe(201);
    // the push traced the threads: a write on one, the first call after the push, answers it moved
    const resolved = await h.put(path(iid, `discussions/${kept.body.id}`), { resolved: true });
    // and a client that reads only the threads sees them moved
    const positions = new Map((await h.get(path(iid, 'discussions'))).body.map((discussion: any) => [discussion.notes[0].body, discussion.notes[0].position]));
    const { diff_refs: after } = (await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body;
    expect(after.head_sha).not.toBe(before.head_sha);
    expect(resolved.body.notes[0].position).toMatchObject({ head_sha: after.head_sha, new_line: 2 });
    expect(positions.get('On the file that stays')).toMatchObject({ base_sha: after.base_sha, start_sha: after.start_sha, head_sha: after.head_sha, new_line: 2 });
    expect(positions.get('On the file that changes')).toMatchObject({ head_sha: before.head_sha, new_line: 2 });
  });

  it('blocks merging while threads are open where the project asks for them resolved', async () => {
    const { iid } = await openRequest();
    const thread = await h.post(path(iid, 'discussions'), { body: 'Blocker' }, { token: developer.token });
    // not required: an open thread does not block (the platform's mergeable_discussions_state)
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.blocking_discussions_resolved).toBe(true);
    expect((await h.put(`/projects/${projectId}`, { only_allow_merge_if_all_discussions_are_resolved: true })).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body).toMatchObject({ detailed_merge_status: 'discussions_not_resolved', blocking_discussions_resolved: false });
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/merge`, {})).status).toBe(405);
    await h.put(path(iid, `discussions/${thread.body.id}`), { resolved: true });
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body).toMatchObject({ detailed_merge_status: 'mergeable', blocking_discussions_resolved: true });
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/merge`, {})).status).toBe(200);
    expect((await h.put(`/projects/${projectId}`, { only_allow_merge_if_all_discussions_are_resolved: false })).status).toBe(200);
  });

  it('keeps locked discussions to the privileged', async () => {
    const { iid } = await openRequest();
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}`, { discussion_locked: true })).status).toBe(200);
    expect((await h.post(path(iid, 'discussions'), { body: 'x' }, { token: outsider.token })).status).toBe(404);
    expect((await h.post(path(iid, 'discussions'), { body: 'admin may' })).status).toBe(201);
  });
});

describe('need_rebase', () => {
  it('asks a fast-forward project for a rebase when the target moved, and refuses the merge', async () => {
    const { iid } = await openRequest();
    expect((await h.put(`/projects/${projectId}`, { merge_method: 'ff' })).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.detailed_merge_status).toBe('mergeable');
    await commit('main', `moved-${iid}.txt`, 'moved\n');
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.detailed_merge_status).toBe('need_rebase');
    expect((await h.put(`/projects/${projectId}/merge_requests/${iid}/merge`, {})).status).toBe(405);
    expect((await h.put(`/projects/${projectId}`, { merge_method: 'merge' })).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.detailed_merge_status).toBe('mergeable');
  });

  it('says need_rebase in the project and instance lists too, as the request itself does', async () => {
    const { iid } = await openRequest();
    const listed = async (path: string) => (await h.get(path)).body.find((request: any) => request.iid === iid && request.project_id === projectId)?.detailed_merge_status;
    const lists = [`/projects/${projectId}/merge_requests?state=opened`, '/merge_requests?scope=all&state=opened&per_page=100'];
    expect((await h.put(`/projects/${projectId}`, { merge_method: 'ff' })).status).toBe(200);
    for (const path of lists) expect(await listed(path), path).toBe('mergeable');
    await commit('main', `moved-list-${iid}.txt`, 'moved\n');
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.detailed_merge_status).toBe('need_rebase');
    for (const path of lists) expect(await listed(path), path).toBe('need_rebase');
    expect((await h.put(`/projects/${projectId}`, { merge_method: 'merge' })).status).toBe(200);
    for (const path of lists) expect(await listed(path), path).toBe('mergeable');
  });
});
