import { beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiProject } from './core-fixtures.ts';

let clock = new Date('2026-03-11T09:00:00.000Z');
const tick = () => { clock = new Date(clock.getTime() + 1000); };
const h = createHarness({ now: () => clock });
const reporter = h.user();
const guest = h.user();
let projectId = 0;
let issueUrl = '';

beforeAll(async () => {
  projectId = (await apiProject(h, h.adminToken)).id;
  for (const [user, level] of [[reporter, 20], [guest, 10]] as const) {
    expect((await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
  const issue = await h.post(`/projects/${projectId}/issues`, { title: 'Discussed' });
  issueUrl = `/projects/${projectId}/issues/${issue.body.iid}`;
});

describe('notes on issues', () => {
  it('creates, lists with sort and order, gets, modifies and deletes', async () => {
    tick();
    const first = await h.post(`${issueUrl}/notes`, { body: 'First **note**' }, { token: guest.token });
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ body: 'First **note**', system: false, internal: false, confidential: false, noteable_type: 'Issue', noteable_iid: 1, project_id: projectId });
    expect(first.body.author.id).toBe(guest.id);
    tick();
    const second = await h.post(`${issueUrl}/notes`, { body: 'Second' });
    tick();
    expect((await h.put(`${issueUrl}/notes/${first.body.id}`, { body: 'First, edited' }, { token: guest.token })).body).toMatchObject({ body: 'First, edited', updated_at: clock.toISOString() });
    expect((await h.get(`${issueUrl}/notes`)).body.map((n: any) => n.id)).toEqual([second.body.id, first.body.id]);
    expect((await h.get(`${issueUrl}/notes?sort=asc`)).body.map((n: any) => n.id)).toEqual([first.body.id, second.body.id]);
    expect((await h.get(`${issueUrl}/notes?order_by=updated_at`)).body.map((n: any) => n.id)).toEqual([first.body.id, second.body.id]);
    expect((await h.get(`${issueUrl}/notes/${second.body.id}`)).body.body).toBe('Second');
    expect((await h.get(`${issueUrl}/notes?sort=sideways`)).status).toBe(400);
    expect((await h.put(`${issueUrl}/notes/${second.body.id}`, { body: 'mine now' }, { token: guest.token })).status).toBe(403);
    expect((await h.delete(`${issueUrl}/notes/${second.body.id}`, { token: guest.token })).status).toBe(403);
    expect((await h.delete(`${issueUrl}/notes/${second.body.id}`)).status).toBe(204);
    expect((await h.get(`${issueUrl}/notes/${second.body.id}`)).status).toBe(404);
    expect((await h.get(issueUrl)).body.user_notes_count).toBe(1);
  });

  it('refuses empty and oversized bodies, and keeps internal notes to Reporter and up', async () => {
    expect((await h.post(`${issueUrl}/notes`, {})).body).toEqual({ error: 'body is missing' });
    const huge = await h.post(`${issueUrl}/notes`, { body: 'x'.repeat(1_000_001) });
    expect(huge.status).toBe(400);
    expect(huge.body.message.note[0]).toMatch(/too long/);
    expect((await h.post(`${issueUrl}/notes`, { body: 'x'.repeat(1_000_000) })).status).toBe(201);
    expect((await h.post(`${issueUrl}/notes`, { body: 'secret', internal: true }, { token: guest.token })).status).toBe(403);
    const internal = await h.post(`${issueUrl}/notes`, { body: 'secret', confidential: false, internal: true }, { token: reporter.token });
    expect(internal.body).toMatchObject({ internal: true, confidential: true });
    expect((await h.get(`${issueUrl}/notes/${internal.body.id}`, { token: guest.token })).status).toBe(404);
    expect((await h.get(`${issueUrl}/notes`, { token: guest.token })).body.some((n: any) => n.body === 'secret')).toBe(false);
    expect((await h.get(`${issueUrl}/notes`, { token: reporter.token })).body.some((n: any) => n.body === 'secret')).toBe(true);
    expect((await h.post(`${issueUrl}/notes`, { body: 'old', created_at: '2020-01-01T00:00:00Z' }, { token: reporter.token })).status).toBe(403);
    expect((await h.post(`${issueUrl}/notes`, { body: 'old', created_at: '2020-01-01T00:00:00Z' })).body.created_at).toBe('2020-01-01T00:00:00.000Z');
  });

  it('turns an emoji-only body into an award, and upvotes follow awards', async () => {
    const award = await h.post(`${issueUrl}/notes`, { body: ':+1:' }, { token: guest.token });
    expect(award.status).toBe(201);
    expect(award.body).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue', user: { id: guest.id } });
    expect(award.body.body).toBeUndefined();
    expect((await h.post(`${issueUrl}/award_emoji`, { name: 'thumbsdown' })).status).toBe(201);
    expect((await h.post(`${issueUrl}/award_emoji`, { name: 'thumbsdown' })).status).toBe(400);
    expect((await h.post(`${issueUrl}/award_emoji`, { name: 'not_an_emoji' })).status).toBe(400);
    expect((await h.get(issueUrl)).body).toMatchObject({ upvotes: 1, downvotes: 1 });
    const awards = (await h.get(`${issueUrl}/award_emoji`)).body;
    expect(awards.map((a: any) => a.name)).toEqual(['thumbsup', 'thumbsdown']);
    expect((await h.get(`${issueUrl}/award_emoji/${awards[0].id}`)).body.name).toBe('thumbsup');
    expect((await h.delete(`${issueUrl}/award_emoji/${awards[0].id}`, { token: reporter.token })).status).toBe(403);
    expect((await h.delete(`${issueUrl}/award_emoji/${awards[0].id}`, { token: guest.token })).status).toBe(204);
    expect((await h.get(issueUrl)).body.upvotes).toBe(0);
    const note = await h.post(`${issueUrl}/notes`, { body: 'react to me' });
    const onNote = await h.post(`${issueUrl}/notes/${note.body.id}/award_emoji`, { name: 'rocket' }, { token: guest.token });
    expect(onNote.body).toMatchObject({ name: 'rocket', awardable_type: 'Note', awardable_id: note.body.id });
    expect((await h.get(`${issueUrl}/notes/${note.body.id}/award_emoji`)).body).toHaveLength(1);
  });

  it('keeps a locked discussion to Reporter and up', async () => {
    await h.put(issueUrl, { discussion_locked: true });
    expect((await h.get(issueUrl)).body.discussion_locked).toBe(true);
    expect((await h.post(`${issueUrl}/notes`, { body: 'let me in' }, { token: guest.token })).status).toBe(403);
    expect((await h.post(`${issueUrl}/notes`, { body: 'still talking' }, { token: reporter.token })).status).toBe(201);
    const system = (await h.get(`${issueUrl}/notes?activity_filter=only_activity`)).body.map((n: any) => n.body);
    expect(system).toContain('locked the discussion in this issue');
    await h.put(issueUrl, { discussion_locked: false });
  });

  it('limits note creation per user and minute with 429 and Retry-After', async () => {
    h.sandbox.db.prepare("INSERT INTO settings (key, value) VALUES ('notes_create_limit', '2') ON CONFLICT DO UPDATE SET value = excluded.value").run();
    clock = new Date('2026-03-11T10:00:15.000Z');
    expect((await h.post(`${issueUrl}/notes`, { body: 'one' }, { token: reporter.token })).status).toBe(201);
    expect((await h.post(`${issueUrl}/notes`, { body: 'two' }, { token: reporter.token })).status).toBe(201);
    const third = await h.post(`${issueUrl}/notes`, { body: 'three' }, { token: reporter.token });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('45');
    expect(third.body.message).toMatch(/too many times/);
    // another user has a budget of their own, and the next minute starts afresh
    expect((await h.post(`${issueUrl}/notes`, { body: 'other' }, { token: guest.token })).status).toBe(201);
    clock = new Date('2026-03-11T10:01:00.000Z');
    expect((await h.post(`${issueUrl}/notes`, { body: 'four' }, { token: reporter.token })).status).toBe(201);
    h.sandbox.db.prepare("DELETE FROM settings WHERE key = 'notes_create_limit'").run();
  });
});

describe('project snippets and their notes', () => {
  it('creates a snippet, notes on it, and deletes it', async () => {
    const snippet = await h.post(`/projects/${projectId}/snippets`, { title: 'Script', file_name: 'run.sh', content: 'echo hi\n', visibility: 'private' }, { token: reporter.token });
    expect(snippet.status, snippet.text).toBe(201);
    expect(snippet.body).toMatchObject({ title: 'Script', file_name: 'run.sh', project_id: projectId, visibility: 'private' });
    expect((await h.post(`/projects/${projectId}/snippets`, { title: 'No' }, { token: guest.token })).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/snippets/${snippet.body.id}/raw`)).text).toBe('echo hi\n');
    const url = `/projects/${projectId}/snippets/${snippet.body.id}/notes`;
    const note = await h.post(url, { body: 'Nice script' }, { token: guest.token });
    expect(note.status, note.text).toBe(201);
    expect(note.body).toMatchObject({ noteable_type: 'Snippet', noteable_id: snippet.body.id, noteable_iid: null });
    expect((await h.get(url)).body.map((n: any) => n.body)).toEqual(['Nice script']);
    expect((await h.get(`${url}/${note.body.id}`)).body.body).toBe('Nice script');
    expect((await h.get(`/projects/${projectId}/snippets/999/notes`)).status).toBe(404);
    expect((await h.delete(`/projects/${projectId}/snippets/${snippet.body.id}`, { token: guest.token })).status).toBe(403);
    expect((await h.delete(`/projects/${projectId}/snippets/${snippet.body.id}`, { token: reporter.token })).status).toBe(204);
    expect((await h.get(url)).status).toBe(404);
  });
});
