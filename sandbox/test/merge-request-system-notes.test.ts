import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';

/** What an edit of a merge request records in its activity: system notes, as the platform writes them. */

const h = createHarness();
let developer: ApiUser;
let reviewer: ApiUser;
let projectId = 0;

beforeAll(async () => {
  developer = await apiUser(h);
  reviewer = await apiUser(h);
  const project = await h.post('/projects', { name: 'System notes', initialize_with_readme: true });
  expect(project.status, project.text).toBe(201);
  projectId = project.body.id;
  for (const user of [developer, reviewer]) expect((await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: 30 })).status).toBe(201);
  expect((await h.post(`/projects/${projectId}/repository/branches?branch=topic&ref=main`)).status).toBe(201);
  const commit = await h.post(`/projects/${projectId}/repository/commits`, { branch: 'topic', commit_message: 'Work', actions: [{ action: 'create', file_path: 'work.txt', content: 'work\n' }] });
  expect(commit.status, commit.text).toBe(201);
});

afterAll(() => h.close());

const systemNotes = async (iid: number) =>
  ((await h.get(`/projects/${projectId}/merge_requests/${iid}/discussions`)).body as Array<{ individual_note: boolean; notes: Array<{ body: string; system: boolean; author: { id: number } }> }>)
    .filter((thread) => thread.notes[0]?.system)
    .map((thread) => [thread.individual_note, thread.notes[0]!.body, thread.notes[0]!.author.id]);

describe('system notes of merge request edits', () => {
  it('records draft and ready, a title change, the description, reviewers, assignees and the lock; nothing for a state change', async () => {
    const created = await h.post(`/projects/${projectId}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: 'Parser', description: 'first' }, { token: developer.token });
    expect(created.status, created.text).toBe(201);
    const iid = created.body.iid as number;
    const edit = async (changes: Record<string, unknown>) => {
      const answer = await h.put(`/projects/${projectId}/merge_requests/${iid}`, changes, { token: developer.token });
      expect(answer.status, answer.text).toBe(200);
    };
    await edit({ title: 'Draft: Parser' });
    await edit({ title: 'Parser' });
    await edit({ title: 'Draft: Parser v2' });
    await edit({ description: 'second' });
    await edit({ reviewer_ids: [reviewer.id] });
    await edit({ reviewer_ids: [0], assignee_ids: [developer.id] });
    await edit({ discussion_locked: true });
    await edit({ state_event: 'close' });
    await edit({ state_event: 'reopen' });
    const d = developer.id;
    expect(await systemNotes(iid)).toEqual([
      [true, 'marked this merge request as **draft**', d],
      [true, 'marked this merge request as **ready**', d],
      [true, 'marked this merge request as **draft**', d],
      [true, 'changed title from **{-Parser-}** to **{+Draft: Parser v2+}**', d],
      [true, 'changed the description', d],
      [true, `requested review from @${reviewer.username}`, d],
      [true, `assigned to @${developer.username}`, d],
      [true, `removed review request for @${reviewer.username}`, d],
      [true, 'locked the discussion in this merge request', d],
    ]);
    // comments are what the request counts, not its system notes
    expect((await h.get(`/projects/${projectId}/merge_requests/${iid}`)).body.user_notes_count).toBe(0);
  });
});
