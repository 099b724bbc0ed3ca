import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as z from 'zod/mini';
import { request, type Connection } from './http.ts';
import { loose } from './schema.ts';
import { encodeQuery } from './params.ts';
import {
  createDiscussion, createMergeRequest, mergeMergeRequest, mergeRequestListQuery, mergeRequestsQueries, replyToDiscussion, resolveDiscussion, updateMergeRequest,
} from './merge-requests.ts';
import {
  approvalsQueries, approveMergeRequest, createApprovalRule, deleteApprovalRule, unapproveMergeRequest, updateApprovalRule, updateApprovalSettings,
} from './approvals.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEMO_MERGE_REQUESTS, DEMO_PATHS, DEMO_TOKENS } from '../../sandbox/seed/demo.ts';

const run = <T>(options: { queryFn?: unknown }) => (options.queryFn as (context: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

describe('the merge request list query', () => {
  it('sends labels comma-joined, id lists as arrays, None/Any as words and negations under not[]', () => {
    const query = mergeRequestListQuery({
      state: 'opened', labels: ['bug', 'ui'], approved_by_ids: [3, 4], approver_ids: 'Any', reviewer_username: 'None', not: { labels: ['wip'], reviewer_id: 7 }, search: '', page: 1, per_page: 20,
    });
    expect(encodeQuery(query)).toBe('state=opened&reviewer_username=None&page=1&per_page=20&labels=bug%2Cui&approved_by_ids[]=3&approved_by_ids[]=4&approver_ids=Any&not[labels]=wip&not[reviewer_id]=7');
  });
});

describe('merge requests and approvals against the sandbox', () => {
  let sandbox: RunningSandbox;
  let admin: Connection;
  let reviewer: Connection;
  let projectId: number;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'demo' });
    admin = { instanceUrl: sandbox.url, token: sandbox.adminToken };
    reviewer = { instanceUrl: sandbox.url, token: DEMO_TOKENS.developer.secret };
    projectId = (await request(admin, `/projects/${encodeURIComponent(DEMO_PATHS.mergeRequests)}`, loose({ id: z.number() }))).id;
  }, 60_000);
  afterAll(() => sandbox.close());

  it('lists the review queue and reads a request, its changes, reviewers, threads and approvals', async () => {
    const queue = await run<{ items: Array<{ iid: number }> }>(mergeRequestsQueries.list(reviewer, 'instance', { scope: 'reviews_for_me', state: 'opened', page: 1, per_page: 20 }));
    expect(queue.items.map((item) => item.iid)).toContain(DEMO_MERGE_REQUESTS.awaitingReview);
    const detail = await run<{ detailed_merge_status: string; diff_refs: unknown }>(mergeRequestsQueries.detail(reviewer, projectId, DEMO_MERGE_REQUESTS.conflict));
    expect(detail).toMatchObject({ detailed_merge_status: 'conflict', has_conflicts: true });
    const diffs = await run<{ items: unknown[]; total?: number | null }>(mergeRequestsQueries.diffs(reviewer, projectId, DEMO_MERGE_REQUESTS.big, 1, 20));
    expect(diffs.items).toHaveLength(20);
    const reviewers = await run<Array<{ user: { username: string } }>>(mergeRequestsQueries.reviewers(reviewer, projectId, DEMO_MERGE_REQUESTS.awaitingReview));
    expect(reviewers.map((each) => each.user.username)).toContain(DEMO_TOKENS.developer.username);
    const threads = await run<{ items: Array<{ notes: Array<{ resolved: boolean }> }> }>(mergeRequestsQueries.discussions(reviewer, projectId, DEMO_MERGE_REQUESTS.unresolvedThreads));
    expect(threads.items.map((thread) => thread.notes[0].resolved)).toEqual([false, false, true]);
    const approvals = await run(approvalsQueries.approvals(reviewer, projectId, DEMO_MERGE_REQUESTS.partlyApproved));
    expect(approvals).toMatchObject({ approvals_required: 2, approvals_left: 1, user_can_approve: true });
  });

  it('asks for approvers by username as approver_ids, and finds nothing for a name no one has', async () => {
    const [approver] = await request(admin, `/users?username=${DEMO_TOKENS.developer.username}`, z.array(loose({ id: z.number(), username: z.string() })));
    const rule = await createApprovalRule(admin, { owner: { projectId }, values: { name: 'Named approver', approvals_required: 0, user_ids: [approver!.id] } });
    onTestFinished(() => deleteApprovalRule(admin, { owner: { projectId }, ruleId: rule.id }));
    const iids = async (params: Record<string, unknown>) =>
      (await run<{ items: Array<{ iid: number }> }>(mergeRequestsQueries.list(admin, { project: projectId }, { state: 'all', page: 1, per_page: 100, ...params }))).items.map((item) => item.iid);
    const byId = await iids({ approver_ids: [approver!.id] });
    expect(byId.length).toBeGreaterThan(0);
    expect(await iids({ approver_usernames: [approver!.username.toUpperCase()] })).toEqual(byId);
    expect(await iids({ approver_usernames: ['no-such-person-at-all'] })).toEqual([]);
  });

  it('opens a request, discusses it, approves the head seen (409 for an older one), and merges', async () => {
    await request(admin, `/projects/${projectId}/repository/branches`, loose({}), { method: 'POST', body: { branch: 'client/review', ref: 'main' } });
    const first = await request(admin, `/projects/${projectId}/repository/commits`, loose({ id: z.string() }), {
      method: 'POST', body: { branch: 'client/review', commit_message: 'First', actions: [{ action: 'create', file_path: 'client.txt', content: 'a\nb\n' }] },
    });
    const created = await createMergeRequest(admin, { projectId, values: { source_branch: 'client/review', target_branch: 'main', title: 'From the client', labels: ['api', 'client'] } });
    expect(created).toMatchObject({ labels: ['api', 'client'], sha: first.id, detailed_merge_status: 'mergeable' });
    const owner = { projectId, iid: created.iid };
    const rule = await createApprovalRule(admin, { owner, values: { name: 'One', approvals_required: 1, rule_type: 'any_approver' } });
    expect((await updateApprovalRule(admin, { owner, ruleId: rule.id, values: { approvals_required: 1 } })).approvals_required).toBe(1);

    const thread = await createDiscussion(reviewer, {
      projectId, iid: created.iid, body: 'Line b?',
      position: { base_sha: created.diff_refs!.base_sha!, start_sha: created.diff_refs!.start_sha!, head_sha: first.id, new_path: 'client.txt', new_line: 2 },
    });
    expect(thread.notes[0]).toMatchObject({ type: 'DiffNote', resolvable: true, position: { new_line: 2 } });
    await replyToDiscussion(admin, { projectId, iid: created.iid, discussionId: thread.id, body: 'Intended.' });
    expect((await resolveDiscussion(admin, { projectId, iid: created.iid, discussionId: thread.id, resolved: true })).notes.every((note) => note.resolved)).toBe(true);

    const second = await request(admin, `/projects/${projectId}/repository/commits`, loose({ id: z.string() }), {
      method: 'POST', body: { branch: 'client/review', commit_message: 'Second', actions: [{ action: 'create', file_path: 'more.txt', content: 'c\n' }] },
    });
    await expect(approveMergeRequest(reviewer, { projectId, iid: created.iid, sha: first.id })).rejects.toMatchObject({ status: 409 });
    const approved = await approveMergeRequest(reviewer, { projectId, iid: created.iid, sha: second.id });
    expect(approved).toMatchObject({ approved: true, approvals_left: 0, user_has_approved: true });
    expect((await unapproveMergeRequest(reviewer, { projectId, iid: created.iid })).approvals_left).toBe(1);
    await expect(mergeMergeRequest(admin, { projectId, iid: created.iid, options: { sha: second.id } })).rejects.toMatchObject({ status: 405 });
    await approveMergeRequest(reviewer, { projectId, iid: created.iid, sha: second.id });
    const state = await run<{ rules: Array<{ approved: boolean; approved_by: Array<{ username: string }> }> }>(approvalsQueries.state(admin, projectId, created.iid));
    expect(state.rules[0]).toMatchObject({ approved: true, approved_by: [{ username: DEMO_TOKENS.developer.username }] });
    await expect(mergeMergeRequest(admin, { projectId, iid: created.iid, options: { sha: first.id } })).rejects.toMatchObject({ status: 409 });
    const merged = await mergeMergeRequest(admin, { projectId, iid: created.iid, options: { sha: second.id, should_remove_source_branch: true } });
    expect(merged).toMatchObject({ state: 'merged' });
    expect(merged.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    // a merged request's rules are settled
    await expect(deleteApprovalRule(admin, { owner, ruleId: rule.id })).rejects.toMatchObject({ status: 403 });
    const edited = await updateMergeRequest(admin, { projectId, iid: DEMO_MERGE_REQUESTS.draft, changes: { title: 'Draft: still dark', add_labels: ['theme'] } });
    expect(edited).toMatchObject({ title: 'Draft: still dark', draft: true });
    expect(edited.labels).toContain('theme');
  });

  it('merges with false options sent: the source branch is kept though the request asked to delete it', async () => {
    await request(admin, `/projects/${projectId}/repository/branches`, loose({}), { method: 'POST', body: { branch: 'client/keep', ref: 'main' } });
    const pushed = await request(admin, `/projects/${projectId}/repository/commits`, loose({ id: z.string() }), {
      method: 'POST', body: { branch: 'client/keep', commit_message: 'Keep', actions: [{ action: 'create', file_path: 'keep.txt', content: 'kept\n' }] },
    });
    const created = await createMergeRequest(admin, { projectId, values: { source_branch: 'client/keep', target_branch: 'main', title: 'Keep the branch', remove_source_branch: true } });
    expect(created.force_remove_source_branch).toBe(true);
    const merged = await mergeMergeRequest(admin, { projectId, iid: created.iid, options: { sha: pushed.id, should_remove_source_branch: false, squash: false } });
    expect(merged).toMatchObject({ state: 'merged', squash_commit_sha: null });
    expect(await request(admin, `/projects/${projectId}/repository/branches/${encodeURIComponent('client/keep')}`, loose({ name: z.string() }))).toMatchObject({ name: 'client/keep' });
    // who approves: the caller's addresses, to tell a committer
    expect(await run(approvalsQueries.caller(reviewer))).toMatchObject({ username: DEMO_TOKENS.developer.username, email: expect.stringContaining('@') });
  });

  it('reads and changes the project configuration, with the platform validation, and manages project rules', async () => {
    const settings = await run(approvalsQueries.settings(admin, projectId));
    expect(settings).toMatchObject({ reset_approvals_on_push: true, selective_code_owner_removals: false });
    await expect(updateApprovalSettings(admin, { projectId, changes: { selective_code_owner_removals: true } })).rejects.toMatchObject({ status: 400 });
    expect(await updateApprovalSettings(admin, { projectId, changes: { merge_requests_author_approval: true } })).toMatchObject({ merge_requests_author_approval: true });
    // a switch turned off is sent as false, not left out
    expect(await updateApprovalSettings(admin, { projectId, changes: { merge_requests_author_approval: false } })).toMatchObject({ merge_requests_author_approval: false });
    const rule = await createApprovalRule(admin, { owner: { projectId }, values: { name: 'Client rule', approvals_required: 0, user_ids: [1] } });
    expect(rule.users.map((user) => user.id)).toEqual([1]);
    const rules = await run<{ items: Array<{ name: string }> }>(approvalsQueries.rules(admin, { projectId }));
    expect(rules.items.map((each) => each.name)).toContain('Client rule');
    await deleteApprovalRule(admin, { owner: { projectId }, ruleId: rule.id });
    await expect(deleteApprovalRule(admin, { owner: { projectId }, ruleId: rule.id })).rejects.toMatchObject({ status: 404 });
  });
});
