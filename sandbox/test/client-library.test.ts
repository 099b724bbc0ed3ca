import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gitlab } from '@gitbeaker/rest';
import { generateKeyPairSync } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../server.ts';
import { DEMO_MERGE_REQUESTS, DEMO_PATHS, DEMO_PIPELINES, DEMO_TOKENS } from '../seed/demo.ts';
import { registryWorker } from '../areas/registry-worker.ts';

/**
 * A client library written for the real platform (gitbeaker, the most used one for JavaScript),
 * unchanged, against the sandbox over HTTP: what it sends and how it reads pages, errors and
 * bodies must just work.
 */
let sandbox: RunningSandbox;
let api: InstanceType<typeof Gitlab>;
const WEB_APP = 'acme-engineering/frontend/web-app';

/** An OpenSSH public key line, from a key made for the test. */
function sshPublicKey(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const part = (buffer: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, buffer.length]), buffer]);
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64')} gitbeaker@test`;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'demo' });
  api = new Gitlab({ host: sandbox.url, token: sandbox.adminToken });
}, 60_000);
afterAll(() => sandbox.close());

describe('gitbeaker against the sandbox', () => {
  it('reads the current user, a project and a group by path', async () => {
    const me = await api.Users.showCurrentUser();
    expect(me).toMatchObject({ id: 1, username: 'root', is_admin: true });
    const project = await api.Projects.show(WEB_APP);
    expect(project.path_with_namespace).toBe(WEB_APP);
    const group = await api.Groups.show(DEMO_PATHS.bigGroup);
    expect(group.full_path).toBe(DEMO_PATHS.bigGroup);
  });

  it('follows offset pages to the end and reads their pagination', async () => {
    const group = await api.Groups.show(DEMO_PATHS.bigGroup);
    const { data, paginationInfo } = await api.GroupMembers.all(group.id, { perPage: 20, maxPages: 1, showExpanded: true });
    expect(data).toHaveLength(20);
    expect(paginationInfo).toMatchObject({ current: 1, perPage: 20, next: 2 });
    const everyone = await api.GroupMembers.all(group.id, { perPage: 20 });
    expect(everyone.length).toBe(paginationInfo.total);
  });

  it('lists commits on a branch, commits through actions, edits a file and cherry-picks with a dry run', async () => {
    const project = await api.Projects.show(WEB_APP);
    const history = await api.Commits.all(project.id, { refName: 'main', perPage: 5, maxPages: 2 });
    expect(history).toHaveLength(10);
    await api.Branches.create(project.id, 'gitbeaker/work', 'main');
    const commit = await api.Commits.create(project.id, 'gitbeaker/work', 'Add notes from gitbeaker', [{ action: 'create', filePath: 'notes/from gitbeaker.md', content: '# Notes\n' }]);
    expect(commit.title).toBe('Add notes from gitbeaker');
    const file = await api.RepositoryFiles.show(project.id, 'notes/from gitbeaker.md', 'gitbeaker/work');
    expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe('# Notes\n');
    await api.RepositoryFiles.edit(project.id, 'notes/from gitbeaker.md', 'gitbeaker/work', '# Notes\n\nMore.\n', 'Edit notes', { lastCommitId: String(file.last_commit_id) });
    const raw = await api.RepositoryFiles.showRaw(project.id, 'notes/from gitbeaker.md', 'gitbeaker/work');
    expect(typeof raw === 'string' ? raw : await (raw as Blob).text()).toBe('# Notes\n\nMore.\n');
    const blame = await api.RepositoryFiles.allFileBlames(project.id, 'notes/from gitbeaker.md', 'gitbeaker/work');
    expect(blame.flatMap((range) => range.lines as string[])).toEqual(['# Notes', '', 'More.']);
    await expect(api.Commits.cherryPick(project.id, commit.id, 'main', { dryRun: true })).resolves.toMatchObject({ dry_run: 'success' });
    const branches = await api.Branches.all(project.id, { search: '^gitbeaker' });
    expect(branches.map((branch) => branch.name)).toEqual(['gitbeaker/work']);
    await api.Branches.remove(project.id, 'gitbeaker/work');
  });

  it('turns the platform\'s error bodies into its errors', async () => {
    const project = await api.Projects.show(WEB_APP);
    type LibraryError = Error & { cause?: { description?: string; response?: Response } };
    const refused = (await api.Branches.create(project.id, 'main', 'main').catch((error: unknown) => error)) as LibraryError;
    expect(refused).toBeInstanceOf(Error);
    expect(refused.cause?.response?.status).toBe(400);
    expect(refused.cause?.description).toBe('Branch already exists');
    const missing = (await api.Projects.show('no/such/project').catch((error: unknown) => error)) as LibraryError;
    expect(missing.cause?.description).toBe('404 Project Not Found');
  });

  it('protects a branch, adds a deploy key, and opens and merges a merge request', async () => {
    const project = await api.Projects.show(WEB_APP);
    await api.Branches.create(project.id, 'gitbeaker/feature', 'main');
    await api.Commits.create(project.id, 'gitbeaker/feature', 'Feature work', [{ action: 'create', filePath: 'feature.txt', content: 'feature\n' }]);
    const protection = await api.ProtectedBranches.create(project.id, 'gitbeaker/*', { pushAccessLevel: 40, mergeAccessLevel: 30 });
    expect(protection.push_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    await api.ProtectedBranches.remove(project.id, 'gitbeaker/*');

    const key = await api.DeployKeys.create(project.id, 'gitbeaker key', sshPublicKey(), { canPush: false });
    expect(key.fingerprint_sha256).toMatch(/^SHA256:/);
    await api.DeployKeys.remove(project.id, key.id);

    const request = await api.MergeRequests.create(project.id, 'gitbeaker/feature', 'main', 'Feature from gitbeaker', { removeSourceBranch: true });
    expect(request).toMatchObject({ state: 'opened', source_branch: 'gitbeaker/feature', target_branch: 'main' });
    const diffs = await api.MergeRequests.allDiffs(project.id, request.iid);
    expect(diffs.map((diff) => [diff.new_path, diff.new_file])).toEqual([['feature.txt', true]]);
    expect((await api.MergeRequests.allCommits(project.id, request.iid)).map((commit) => commit.title)).toEqual(['Feature work']);
    const merged = await api.MergeRequests.accept(project.id, request.iid);
    expect(merged.state).toBe('merged');
    const head = await api.Branches.show(project.id, 'main');
    expect(head.commit.id).toBe(merged.merge_commit_sha);
  });

  it('follows keyset pages of projects, and filters the runner fleet', async () => {
    const keyset = await api.Projects.all({ pagination: 'keyset', orderBy: 'id', sort: 'asc', perPage: 5, maxPages: 3 });
    expect(keyset).toHaveLength(15);
    const ids = keyset.map((project) => project.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(15);
    const { data, paginationInfo } = await api.Runners.all({ type: 'instance_type', status: 'online', perPage: 10, maxPages: 1, showExpanded: true });
    expect(data.every((runner) => runner.runner_type === 'instance_type' && runner.status === 'online')).toBe(true);
    expect(paginationInfo.total).toBeGreaterThan(10);
  });

  it('creates, rotates and revokes a group access token', async () => {
    const group = await api.Groups.show(DEMO_PATHS.bigGroup);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const token = await api.GroupAccessTokens.create(group.id, 'gitbeaker token', ['read_api'], expiresAt, { accessLevel: 30 });
    expect(token.token).toMatch(/^glpat-/);
    const rotated = await api.GroupAccessTokens.rotate(group.id, token.id);
    expect(rotated.token).not.toBe(token.token);
    await api.GroupAccessTokens.revoke(group.id, rotated.id);
    expect((await api.GroupAccessTokens.show(group.id, rotated.id)).revoked).toBe(true);
  });

  it('works the issue tracker: labels, milestones, issues with filters, edits, move, clone, time and statistics', async () => {
    const tracker = await api.Projects.show(DEMO_PATHS.issueTracker);
    const label = await api.ProjectLabels.create(tracker.id, 'gitbeaker', '#336699', { description: 'made by the client' });
    expect(label).toMatchObject({ name: 'gitbeaker', text_color: '#FFFFFF' });
    expect((await api.ProjectLabels.subscribe(tracker.id, label.id)).subscribed).toBe(true);
    const milestone = await api.ProjectMilestones.create(tracker.id, 'Gitbeaker release', { dueDate: '2099-01-01' });
    const issue = await api.Issues.create(tracker.id, 'Filed by gitbeaker', { labels: 'gitbeaker,priority::2', milestoneId: milestone.id, description: '- [ ] a task' });
    expect(issue).toMatchObject({ labels: ['gitbeaker', 'priority::2'], has_tasks: true });
    const found = await api.Issues.all({ projectId: tracker.id, labels: 'gitbeaker', not: { labels: 'bug' }, state: 'opened', withLabelsDetails: true });
    expect(found.map((each) => each.iid)).toEqual([issue.iid]);
    expect((found[0].labels as Array<{ name: string }>).map((each) => each.name)).toEqual(['gitbeaker', 'priority::2']);
    const page = await api.Issues.all({ projectId: tracker.id, perPage: 50, maxPages: 2, orderBy: 'label_priority' });
    expect(page).toHaveLength(100);
    expect((await api.ProjectMilestones.allAssignedIssues(tracker.id, milestone.id)).map((each) => each.iid)).toEqual([issue.iid]);
    const edited = await api.Issues.edit(tracker.id, issue.iid, { addLabels: 'workflow::ready', removeLabels: 'gitbeaker', stateEvent: 'close' });
    expect(edited).toMatchObject({ state: 'closed', labels: ['priority::2', 'workflow::ready'] });
    const events = await api.IssueLabelEvents.all(tracker.id, issue.iid);
    expect(events.some((event) => event.action === 'remove')).toBe(true);
    expect((await api.Issues.addTimeEstimate(tracker.id, issue.iid, '2h')).human_time_estimate).toBe('2h');
    expect((await api.Issues.addSpentTime(tracker.id, issue.iid, '30m')).total_time_spent).toBe(1800);
    const other = await api.Projects.show(DEMO_PATHS.inheritedProject);
    const cloned = await api.Issues.clone(tracker.id, issue.iid, other.id, { withNotes: true });
    expect(cloned).toMatchObject({ project_id: other.id, title: 'Filed by gitbeaker' });
    const moved = await api.Issues.move(other.id, cloned.iid, tracker.id);
    expect(moved.project_id).toBe(tracker.id);
    await api.Issues.reorder(tracker.id, moved.iid, { moveAfterId: issue.id });
    const positions = await api.Issues.all({ projectId: tracker.id, iids: [issue.iid, moved.iid], orderBy: 'relative_position', sort: 'asc' });
    expect(positions.map((each) => each.iid)).toEqual([moved.iid, issue.iid]);
    const stats = await api.IssuesStatistics.all({ projectId: tracker.id });
    expect(stats.statistics.counts.all).toBeGreaterThan(3000);
  });

  it('discusses an issue: notes, award emoji, and a board whose lists move', async () => {
    const tracker = await api.Projects.show(DEMO_PATHS.issueTracker);
    const issue = await api.Issues.create(tracker.id, 'Talk about it');
    const note = await api.IssueNotes.create(tracker.id, issue.iid, 'A **comment**');
    expect(note).toMatchObject({ body: 'A **comment**', system: false, noteable_iid: issue.iid });
    await api.IssueNotes.edit(tracker.id, issue.iid, note.id, { body: 'An edited comment' });
    const notes = await api.IssueNotes.all(tracker.id, issue.iid, { sort: 'asc' });
    expect(notes.map((each) => each.body)).toEqual(['An edited comment']);
    await api.IssueAwardEmojis.award(tracker.id, issue.iid, 'thumbsup');
    expect((await api.Issues.show(issue.iid, { projectId: tracker.id })).upvotes).toBe(1);
    await api.IssueNoteAwardEmojis.award(tracker.id, issue.iid, note.id, 'rocket');
    expect((await api.IssueNoteAwardEmojis.all(tracker.id, issue.iid, note.id)).map((each) => each.name)).toEqual(['rocket']);
    await api.IssueNotes.remove(tracker.id, issue.iid, note.id);
    const board = await api.ProjectIssueBoards.create(tracker.id, 'Gitbeaker board');
    const labels = await api.ProjectLabels.all(tracker.id, { search: 'workflow::' });
    const first = await api.ProjectIssueBoards.createList(tracker.id, board.id, { labelId: labels[0].id });
    const second = await api.ProjectIssueBoards.createList(tracker.id, board.id, { labelId: labels[1].id });
    expect((await api.ProjectIssueBoards.editList(tracker.id, board.id, second.id, 0)).position).toBe(0);
    expect((await api.ProjectIssueBoards.allLists(tracker.id, board.id)).map((list) => list.id)).toEqual([second.id, first.id]);
    await api.ProjectIssueBoards.removeList(tracker.id, board.id, first.id);
    const group = await api.Groups.show(DEMO_PATHS.bigGroup);
    expect((await api.GroupIssueBoards.all(group.id)).map((each) => each.name)).toContain('Engineering workflow');
  });

  it('reviews a merge request: lists, reviewers, threads, approval rules, approvals and the merge', async () => {
    const project = await api.Projects.show(DEMO_PATHS.mergeRequests);
    const reviewer = new Gitlab({ host: sandbox.url, token: DEMO_TOKENS.developer.secret });
    const me = await reviewer.Users.showCurrentUser();
    const queue = await reviewer.MergeRequests.all({ reviewerId: me.id, scope: 'all', state: 'opened' });
    expect(queue.map((each) => each.iid)).toContain(DEMO_MERGE_REQUESTS.awaitingReview);
    const group = await api.Groups.show('acme-engineering/frontend');
    const drafts = await api.MergeRequests.all({ groupId: group.id, wip: 'yes', state: 'opened' });
    expect(drafts.map((each) => each.iid)).toEqual([DEMO_MERGE_REQUESTS.draft]);
    const partly = await api.MergeRequestApprovals.showApprovalState(project.id, DEMO_MERGE_REQUESTS.partlyApproved);
    expect(partly.rules).toEqual([expect.objectContaining({ name: 'Frontend approvals', approvals_required: 2, approved: false })]);

    await api.Branches.create(project.id, 'gitbeaker/review', 'main');
    const commit = await api.Commits.create(project.id, 'gitbeaker/review', 'Reviewed work', [{ action: 'create', filePath: 'reviewed.txt', content: 'one\ntwo\n' }]);
    const request = await api.MergeRequests.create(project.id, 'gitbeaker/review', 'main', 'Reviewed with gitbeaker', { reviewerIds: [me.id] });
    expect(request.reviewers).toEqual([expect.objectContaining({ id: me.id })]);
    const refs = request.diff_refs as { base_sha: string; start_sha: string };
    const rule = await api.MergeRequestApprovals.createApprovalRule(project.id, 'One reviewer', 1, { mergerequestIId: request.iid, ruleType: 'any_approver' });
    expect(rule).toMatchObject({ name: 'One reviewer', approvals_required: 1 });
    expect((await api.MergeRequests.show(project.id, request.iid)).detailed_merge_status).toBe('not_approved');
    const refused = (await api.MergeRequests.accept(project.id, request.iid).catch((error: unknown) => error)) as Error & { cause?: { response?: Response } };
    expect(refused.cause?.response?.status).toBe(405);

    const thread = await reviewer.MergeRequestDiscussions.create(project.id, request.iid, 'Please double-check line 2', {
      position: { baseSha: refs.base_sha, startSha: refs.start_sha, headSha: commit.id, positionType: 'text', newPath: 'reviewed.txt', newLine: '2' },
    });
    expect(thread.notes?.[0]).toMatchObject({ type: 'DiffNote', resolvable: true, resolved: false });
    await api.MergeRequestDiscussions.addNote(project.id, request.iid, thread.id, 'Checked.');
    const resolved = await api.MergeRequestDiscussions.resolve(project.id, request.iid, thread.id, true);
    expect((resolved.notes as Array<{ resolved?: boolean }>).every((note) => note.resolved)).toBe(true);
    await reviewer.MergeRequestNotes.create(project.id, request.iid, 'LGTM');
    await reviewer.MergeRequestAwardEmojis.award(project.id, request.iid, 'thumbsup');

    const stale = (await reviewer.MergeRequestApprovals.approve(project.id, request.iid, { sha: '0'.repeat(40) }).catch((error: unknown) => error)) as Error & { cause?: { response?: Response } };
    expect(stale.cause?.response?.status).toBe(409);
    const approved = await reviewer.MergeRequestApprovals.approve(project.id, request.iid, { sha: commit.id });
    expect(approved).toMatchObject({ approvals_left: 0, approved_by: [expect.objectContaining({ user: expect.objectContaining({ username: DEMO_TOKENS.developer.username }) })] });
    await reviewer.MergeRequestApprovals.unapprove(project.id, request.iid);
    await reviewer.MergeRequestApprovals.approve(project.id, request.iid);
    const detail = await api.MergeRequests.show(project.id, request.iid);
    expect(detail).toMatchObject({ detailed_merge_status: 'mergeable', upvotes: 1, user_notes_count: 3, blocking_discussions_resolved: true });
    expect((await api.MergeRequests.accept(project.id, request.iid)).state).toBe('merged');

    const settings = await api.MergeRequestApprovals.showConfiguration(project.id);
    expect(settings).toMatchObject({ reset_approvals_on_push: true, merge_requests_author_approval: false });
    const projectRule = await api.MergeRequestApprovals.createApprovalRule(project.id, 'Gitbeaker rule', 1, { userIds: [1], protectedBranchIds: [] });
    expect((await api.MergeRequestApprovals.allApprovalRules(project.id)).map((each) => each.name)).toContain('Gitbeaker rule');
    await api.MergeRequestApprovals.editApprovalRule(project.id, projectRule.id, 'Gitbeaker rule', 0);
    expect((await api.MergeRequestApprovals.showApprovalRule(project.id, projectRule.id)).approvals_required).toBe(0);
    await api.MergeRequestApprovals.removeApprovalRule(project.id, projectRule.id);
  });

  it('adds, tests and removes a system hook', async () => {
    const hook = await api.SystemHooks.add('http://127.0.0.1:9/hook', { pushEvents: true, mergeRequestsEvents: true });
    expect(hook).toMatchObject({ url: 'http://127.0.0.1:9/hook', push_events: true, merge_requests_events: true });
    expect((await api.SystemHooks.all()).map((each) => each.id)).toContain(hook.id);
    await api.SystemHooks.remove(hook.id);
  });

  it('runs pipelines and jobs: lists with filters, create with variables, jobs, log, retry, play, test reports, delete', async () => {
    const gateway = await api.Projects.show(DEMO_PIPELINES.project);
    const { data: failed, paginationInfo } = await api.Pipelines.all(gateway.id, { status: 'failed', perPage: 5, maxPages: 1, showExpanded: true });
    expect(failed).toHaveLength(5);
    expect(failed.every((pipeline) => pipeline.status === 'failed')).toBe(true);
    expect(paginationInfo.next).toBe(2);
    const summary = await api.Pipelines.showTestReportSummary(gateway.id, DEMO_PIPELINES.bigLogId);
    expect(summary.total.count).toBe(DEMO_PIPELINES.bigReportCases);
    const report = await api.Pipelines.showTestReport(gateway.id, DEMO_PIPELINES.bigLogId);
    expect(report.total_count).toBe(DEMO_PIPELINES.bigReportCases);

    const project = await api.Projects.create({ name: 'gitbeaker ci' });
    const ci = 'stages: [test, deploy]\ntest:\n  stage: test\n  script: [echo "hello $WHO"]\nflaky:\n  stage: test\n  allow_failure: true\n  script: [exit 1]\ndeploy:\n  stage: deploy\n  when: manual\n  script: [echo "deploy to $TARGET"]\n';
    await api.Commits.create(project.id, 'main', 'Add CI [skip ci]', [{ action: 'create', filePath: '.gitlab-ci.yml', content: ci }]);
    const created = await api.Pipelines.create(project.id, 'main', { variables: [{ key: 'WHO', value: 'gitbeaker', variable_type: 'env_var' }] });
    expect(created).toMatchObject({ ref: 'main', source: 'api' });
    let pipeline = await api.Pipelines.show(project.id, created.id);
    for (let i = 0; i < 200 && !['success', 'failed'].includes(pipeline.status); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      pipeline = await api.Pipelines.show(project.id, created.id);
    }
    expect(pipeline.status).toBe('success');
    expect(pipeline.detailed_status).toMatchObject({ group: 'success-with-warnings' });
    expect(await api.Pipelines.allVariables(project.id, created.id)).toEqual([{ variable_type: 'env_var', key: 'WHO', value: 'gitbeaker' }]);
    const jobs = await api.Jobs.all(project.id, { pipelineId: created.id });
    expect(jobs.map((job) => [job.name, job.status])).toEqual([['test', 'success'], ['flaky', 'failed'], ['deploy', 'manual']]);
    const log = await api.Jobs.showLog(project.id, jobs[0].id);
    expect(typeof log === 'string' ? log : await (log as Blob).text()).toContain('hello gitbeaker');
    const retried = await api.Jobs.retry(project.id, jobs[1].id);
    expect(retried.name).toBe('flaky');
    const played = await api.Jobs.play(project.id, jobs[2].id, { jobVariablesAttributes: [{ key: 'TARGET', value: 'staging' }] });
    expect(played.status).toBe('pending');
    const manual = await api.Jobs.all(project.id, { scope: ['manual'] as never });
    expect(manual).toHaveLength(0);
    const latest = await api.Pipelines.showLatest(project.id, { ref: 'main' });
    expect(latest.id).toBe(created.id);
    await api.Pipelines.remove(project.id, created.id);
    await expect(api.Pipelines.show(project.id, created.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
  });

  it('browses and cleans the container registry with ContainerRegistry', async () => {
    registryWorker(sandbox.sandbox).timeScale = 0;
    const project = await api.Projects.create({ name: 'gitbeaker registry' });
    const day = 86_400_000;
    const tags = [
      { name: 'latest', created_at: new Date(Date.now() - day).toISOString() },
      { name: 'main-1', created_at: new Date(Date.now() - 9 * day).toISOString() },
      { name: 'main-2', created_at: new Date(Date.now() - 8 * day).toISOString() },
      { name: 'main-3', created_at: new Date(Date.now() - 7 * day).toISOString() },
      { name: 'v1.0.0', created_at: new Date(Date.now() - 6 * day).toISOString(), size: 4096 },
    ];
    const pushed = await fetch(`${sandbox.url}/-/sandbox/registry/${project.id}/tags`, { method: 'POST', headers: { 'PRIVATE-TOKEN': sandbox.adminToken, 'Content-Type': 'application/json' }, body: JSON.stringify(tags) });
    expect(pushed.status).toBe(201);
    const [repository] = await api.ContainerRegistry.allRepositories({ projectId: project.id, tagsCount: true });
    expect(repository).toMatchObject({ name: '', path: project.path_with_namespace, tags_count: 5 });
    const shown = await api.ContainerRegistry.showRepository(repository.id, { tags: true, size: true });
    expect((shown.tags as Array<{ name: string }> | undefined)?.map((tag) => tag.name)).toEqual(['latest', 'main-1', 'main-2', 'main-3', 'v1.0.0']);
    const group = await api.ContainerRegistry.allRepositories({ groupId: DEMO_PATHS.bigGroup });
    expect(group.length).toBeGreaterThan(0);
    const offset = await api.ContainerRegistry.allTags(project.id, repository.id, { perPage: 2 });
    expect(offset.map((tag) => tag.name)).toEqual(['latest', 'main-1', 'main-2', 'main-3', 'v1.0.0']);
    const keyset = await api.ContainerRegistry.allTags(project.id, repository.id, { pagination: 'keyset', perPage: 2 } as never);
    expect(keyset.map((tag) => tag.name)).toEqual(['latest', 'main-1', 'main-2', 'main-3', 'v1.0.0']);
    const tag = await api.ContainerRegistry.showTag(project.id, repository.id, 'v1.0.0');
    expect(tag).toMatchObject({ name: 'v1.0.0', total_size: 4096, digest: expect.stringMatching(/^sha256:/) });
    await api.ContainerRegistry.removeTag(project.id, repository.id, 'v1.0.0');
    await expect(api.ContainerRegistry.showTag(project.id, repository.id, 'v1.0.0')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    await api.ContainerRegistry.removeTags(project.id, repository.id, 'main-.*', { keepN: '1' });
    await registryWorker(sandbox.sandbox).idle();
    expect((await api.ContainerRegistry.allTags(project.id, repository.id)).map((left) => left.name)).toEqual(['latest', 'main-3']);
    await expect(api.ContainerRegistry.removeTags(project.id, repository.id, '.*')).rejects.toMatchObject({ cause: { response: { status: 400 } } });
    await api.ContainerRegistry.removeRepository(project.id, repository.id);
    await registryWorker(sandbox.sandbox).idle();
    expect(await api.ContainerRegistry.allRepositories({ projectId: project.id })).toEqual([]);
  });
});
