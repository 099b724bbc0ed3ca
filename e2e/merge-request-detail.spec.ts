import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { expectNoScriptRan, XSS_CORPUS } from './xss.ts';

const unique = () => randomBytes(4).toString('hex');

interface DiscussionAnswer {
  id: string;
  individual_note: boolean;
  notes: Array<{ id: number; body: string; system: boolean; resolvable: boolean; resolved: boolean }>;
}

interface RequestAnswer {
  iid: number;
  title: string;
  state: string;
  draft: boolean;
}

/**
 * A project of its own (with a README, so `main` exists), a branch with `commits` commits, and a
 * merge request from it: what a test changes is its alone.
 */
async function newMergeRequest(
  api: Api,
  values: { title?: string; description?: string; branch?: string; commits?: string[]; reviewer_ids?: number[]; labels?: string; developers?: number[] } = {},
) {
  const project = await api.post<{ id: number }>('/projects', { name: `mr-detail-${unique()}`, initialize_with_readme: true });
  api.deleteAfter(`/projects/${project.id}`);
  // members first: only they can be asked for a review
  for (const id of values.developers ?? []) await api.post(`/projects/${project.id}/members`, { user_id: id, access_level: 30 });
  const branch = values.branch ?? `topic-${unique()}`;
  await api.post(`/projects/${project.id}/repository/branches`, { branch, ref: 'main' });
  const commits = values.commits ?? ['Add the work'];
  for (const [index, message] of commits.entries()) {
    await api.post(`/projects/${project.id}/repository/commits`, { branch, commit_message: message, actions: [{ action: 'create', file_path: `work-${index}.txt`, content: `${index}\n` }] });
  }
  const request = await api.post<RequestAnswer>(`/projects/${project.id}/merge_requests`, {
    source_branch: branch,
    target_branch: 'main',
    title: values.title ?? `Detail ${unique()}`,
    description: values.description,
    reviewer_ids: values.reviewer_ids,
    labels: values.labels,
  });
  const base = `/projects/${project.id}/merge_requests/${request.iid}`;
  return { project, request, base, path: `/projects/${project.id}/merge-requests/${request.iid}` };
}

const discussionsOf = (api: Api, base: string) => api.get<DiscussionAnswer[]>(`${base}/discussions?per_page=100`);
const requestOf = (api: Api, base: string) => api.get<RequestAnswer>(base);

/** The new comment form at the end of the activity: its text area is the one labelled "Comment". */
const commentForm = (page: Page) => page.getByRole('form', { name: 'Add a comment' });
const activity = (page: Page) => page.getByRole('region', { name: 'Activity' });

test.describe.configure({ mode: 'parallel', timeout: 90_000 });

test('a reviewer finds a merge request in Review requested from me, opens it, resolves a thread and replies', async ({ page, api, connectAs }) => {
  const diego = await api.userByUsername(DEMO_TOKENS.developer.username);
  const admin = await api.get<{ name: string }>('/user');
  const title = `Please review ${unique()}`;
  const { base } = await newMergeRequest(api, { title, description: 'Adds **the work**.', reviewer_ids: [diego.id], developers: [diego.id] });
  await api.post(`${base}/discussions`, { body: 'Should this be `const`?' });

  await connectAs(page, DEMO_TOKENS.developer.secret);
  await page.goto('/merge-requests');
  await expect(page.getByRole('navigation', { name: 'Whose merge requests' }).getByRole('link', { name: 'Review requested from me' })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('table', { name: 'Open merge requests' }).getByRole('link', { name: title }).click();

  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Description' }).getByText('the work')).toBeVisible();
  const sidebar = page.getByRole('complementary', { name: 'Merge request details' });
  await expect(sidebar.getByRole('list', { name: 'Reviewers' })).toContainText(`${diego.name} @diego.ramirez · Review requested`);
  await expect(activity(page).getByRole('status').filter({ hasText: 'unresolved' })).toHaveText('1 unresolved thread');

  const thread = page.getByRole('article', { name: `Thread by ${admin.name}` });
  await expect(thread.getByText('const', { exact: true })).toBeVisible();
  await thread.getByRole('button', { name: 'Reply…' }).click();
  const reply = thread.getByRole('form', { name: 'Reply to the thread' });
  // the reply box takes the focus, and gives it back to Reply… once the form closes
  await expect(reply.getByLabel('Reply', { exact: true })).toBeFocused();
  await reply.getByRole('button', { name: 'Cancel' }).click();
  await expect(thread.getByRole('button', { name: 'Reply…' })).toBeFocused();
  await thread.getByRole('button', { name: 'Reply…' }).click();
  await reply.getByLabel('Reply', { exact: true }).fill('Yes, it never changes.');
  await reply.getByRole('button', { name: 'Reply', exact: true }).click();
  await expect(thread.getByRole('list', { name: 'Notes of the thread' }).getByRole('listitem')).toHaveCount(2);
  await expect(thread).toContainText('Yes, it never changes.');
  await expect(reply).toHaveCount(0);
  await expect(thread.getByRole('button', { name: 'Reply…' })).toBeFocused();

  await thread.getByRole('button', { name: 'Resolve thread' }).click();
  await expect(thread.getByText(`Resolved by ${diego.name}`)).toBeVisible();
  await expect(activity(page).getByText('All threads resolved')).toBeVisible();
  // resolved, the thread folds as on the platform; the pressed button keeps the focus
  await expect(thread.getByRole('button', { name: 'Unresolve thread' })).toBeFocused();
  await expect(thread.getByRole('list', { name: 'Notes of the thread' })).toHaveCount(0);
  await expect(thread).toContainText(`2 notes, the last by ${diego.name}`);
  expect(await axeViolations(page, 'a folded resolved thread')).toEqual([]);
  const fold = thread.getByRole('button', { name: 'Show thread' });
  await expect(fold).toHaveAttribute('aria-expanded', 'false');
  await fold.click();
  await expect(thread.getByRole('button', { name: 'Hide thread' })).toHaveAttribute('aria-expanded', 'true');
  await expect(thread.getByRole('list', { name: 'Notes of the thread' }).getByRole('listitem')).toHaveCount(2);
  await thread.getByRole('button', { name: 'Hide thread' }).click();
  await expect(thread.getByRole('list', { name: 'Notes of the thread' })).toHaveCount(0);
  // unresolved, it opens again
  await thread.getByRole('button', { name: 'Unresolve thread' }).click();
  await expect(thread.getByRole('list', { name: 'Notes of the thread' }).getByRole('listitem')).toHaveCount(2);
  await expect(thread.getByRole('button', { name: 'Show thread' })).toHaveCount(0);
  await thread.getByRole('button', { name: 'Resolve thread' }).click();
  await expect(thread.getByRole('button', { name: 'Unresolve thread' })).toBeVisible();
  const [discussion] = (await discussionsOf(api, base)).filter((entry) => !entry.notes[0]?.system);
  expect(discussion?.notes.map((note) => [note.body, note.resolved])).toEqual([
    ['Should this be `const`?', true],
    ['Yes, it never changes.', true],
  ]);
});

test.describe('as the administrator', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a new thread and a comment are posted; the thread counts as unresolved, the comment does not', async ({ page, api }) => {
    const { base, path } = await newMergeRequest(api);
    const admin = await api.get<{ name: string }>('/user');
    await page.goto(path);
    const form = commentForm(page);
    await form.getByLabel('Comment', { exact: true }).fill('Is the **timeout** right?');
    await form.getByRole('tab', { name: 'Preview' }).click();
    await expect(form.getByText('timeout', { exact: true })).toBeVisible();
    await form.getByRole('tab', { name: 'Write' }).click();
    await form.getByRole('button', { name: 'Start a thread' }).click();
    const thread = page.getByRole('article', { name: `Thread by ${admin.name}` });
    await expect(thread.getByText('timeout', { exact: true })).toBeVisible();
    await expect(thread.getByRole('button', { name: 'Resolve thread' })).toBeVisible();
    await expect(activity(page).getByText('1 unresolved thread')).toBeVisible();
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('');

    await form.getByLabel('Comment', { exact: true }).fill('Looks good otherwise.');
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.getByRole('article', { name: `Comment by ${admin.name}` });
    await expect(comment).toContainText('Looks good otherwise.');
    await expect(comment.getByRole('button', { name: 'Resolve thread' })).toHaveCount(0);
    await expect(activity(page).getByText('1 unresolved thread')).toBeVisible();
    await expect.poll(async () => (await discussionsOf(api, base)).filter((entry) => !entry.notes[0]?.system).map((entry) => [entry.individual_note, entry.notes[0]?.resolvable, entry.notes[0]?.body])).toEqual([
      [false, true, 'Is the **timeout** right?'],
      [true, false, 'Looks good otherwise.'],
    ]);
  });

  test('a comment is edited in place and gives the focus back; another’s reply is deleted; a note gets a reaction', async ({ page, api }) => {
    const developer = await api.createUser();
    const { base, path } = await newMergeRequest(api, { developers: [developer.id] });
    const admin = await api.get<{ name: string }>('/user');
    const thread = await api.post<{ id: string }>(`${base}/discussions`, { body: 'First version' });
    expect((await api.call('POST', `${base}/discussions/${thread.id}/notes`, { body: { body: 'A reply to remove' }, token: developer.token })).status).toBe(201);
    await page.goto(path);
    const article = page.getByRole('article', { name: `Thread by ${admin.name}` });
    const notes = article.getByRole('list', { name: /^(Notes of the thread|Note)$/ }).getByRole('listitem');
    // the thread's notes in order: the administrator's, then the Developer's reply
    const first = notes.first();
    await expect(first).toContainText('First version');
    await first.getByRole('button', { name: 'Edit comment', exact: true }).click();
    const form = first.getByRole('form', { name: 'Edit comment' });
    await expect(form.getByLabel('Edited comment', { exact: true })).toBeFocused();
    await form.getByLabel('Edited comment', { exact: true }).fill('Second **version**');
    await form.getByRole('button', { name: 'Save comment', exact: true }).click();
    await expect(first.getByText('version', { exact: true })).toBeVisible();
    await expect(first.getByRole('button', { name: 'Edit comment', exact: true })).toBeFocused();
    await expect(first).toContainText('(edited)');

    // the administrator may delete a Developer's reply (the platform's admin_note)
    const reply = notes.last();
    await expect(reply).toContainText('A reply to remove');
    await reply.getByRole('button', { name: 'Delete comment', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment', exact: true }).click();
    await expect(notes).toHaveCount(1);
    // the focus goes to the note beside the deleted one, not to the page
    await expect(first.getByRole('button', { name: 'Edit comment', exact: true })).toBeFocused();
    await expect.poll(async () => (await discussionsOf(api, base)).filter((entry) => !entry.notes[0]?.system).map((entry) => entry.notes.map((note) => note.body))).toEqual([['Second **version**']]);

    await first.getByRole('button', { name: 'Add reaction', exact: true }).click();
    await first.getByRole('button', { name: 'React with rocket', exact: true }).click();
    await expect(first.getByRole('button', { name: 'rocket: 1 reaction, yours among them', exact: true })).toHaveAttribute('aria-pressed', 'true');
    const [{ notes: [note] }] = (await discussionsOf(api, base)).filter((entry) => !entry.notes[0]?.system);
    await expect.poll(async () => (await api.get<Array<{ name: string }>>(`${base}/notes/${note!.id}/award_emoji`)).map((award) => award.name)).toEqual(['rocket']);
  });

  test('a refused comment keeps its text and says why', async ({ page, api }) => {
    const { project, request, path } = await newMergeRequest(api);
    await page.route(`**/api/v4/projects/${project.id}/merge_requests/${request.iid}/discussions`, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Note is too long' }) }) : route.fallback(),
    );
    await page.goto(path);
    const form = commentForm(page);
    await form.getByLabel('Comment', { exact: true }).fill('Kept after a refusal');
    await form.getByRole('button', { name: 'Start a thread' }).click();
    await expect(form.getByRole('alert')).toContainText('Note is too long');
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('Kept after a refusal');
    // and after a reload, from the tab's draft
    await page.reload();
    await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue('Kept after a refusal');
  });

  test('close and reopen, mark as draft and ready', async ({ page, api }) => {
    const { request, base, path } = await newMergeRequest(api);
    await page.goto(path);
    await page.getByRole('button', { name: 'Close merge request' }).click();
    await expect(page.getByRole('button', { name: 'Reopen merge request' })).toBeVisible();
    await expect(page.getByText('Closed', { exact: true })).toBeVisible();
    expect((await requestOf(api, base)).state).toBe('closed');
    await page.getByRole('button', { name: 'Reopen merge request' }).click();
    await expect(page.getByRole('button', { name: 'Close merge request' })).toBeVisible();
    expect((await requestOf(api, base)).state).toBe('opened');

    await page.getByRole('button', { name: 'Mark as draft' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Draft: ${request.title}` })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark as ready' })).toBeVisible();
    expect(await requestOf(api, base)).toMatchObject({ draft: true, title: `Draft: ${request.title}` });
    await page.getByRole('button', { name: 'Mark as ready' }).click();
    await expect(page.getByRole('heading', { level: 1, name: request.title, exact: true })).toBeVisible();
    expect(await requestOf(api, base)).toMatchObject({ draft: false, title: request.title });
    // the changes are in the activity, one line each
    const entries = page.getByRole('list', { name: 'Activity entries' }).getByRole('listitem');
    await expect(entries.filter({ hasText: 'marked this merge request as draft' })).toHaveCount(1);
    await expect(entries.filter({ hasText: 'marked this merge request as ready' })).toHaveCount(1);
  });

  test('a review is requested from a project member, then taken back', async ({ page, api }) => {
    const member = await api.createUser();
    const { base, path } = await newMergeRequest(api, { developers: [member.id] });
    const reviewersOf = async () => (await api.get<{ reviewers: Array<{ id: number }> }>(base)).reviewers.map((user) => user.id);
    await page.goto(path);
    const sidebar = page.getByRole('complementary', { name: 'Merge request details' });
    await sidebar.getByLabel('Find a project member to ask for a review').fill(member.username);
    await sidebar.getByRole('button', { name: new RegExp(`^Request a review from .*@${member.username}`) }).click();
    await expect(sidebar.getByRole('list', { name: 'Reviewers' })).toContainText(`@${member.username} · Review requested`);
    await expect.poll(reviewersOf).toEqual([member.id]);
    await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText(`requested review from @${member.username}`);
    await sidebar.getByRole('button', { name: `Remove reviewer ${member.name}` }).click();
    await expect(sidebar.getByRole('list', { name: 'Reviewers' })).toHaveCount(0);
    await expect.poll(reviewersOf).toEqual([]);
  });

  test('a checklist in the description ticks by pointer and keyboard, and the platform holds it', async ({ page, api }) => {
    const { base, path } = await newMergeRequest(api, { description: 'Before merging:\n\n- [ ] tests pass\n- [ ] docs updated' });
    await page.goto(path);
    const description = page.getByRole('region', { name: 'Description' });
    await expect(description.getByText('0 of 2 tasks completed')).toBeVisible();
    await description.getByRole('checkbox', { name: 'tests pass' }).click();
    await expect(description.getByText('1 of 2 tasks completed')).toBeVisible();
    await expect(description.getByRole('checkbox', { name: 'docs updated' })).toBeEnabled();
    await description.getByRole('checkbox', { name: 'docs updated' }).focus();
    await page.keyboard.press('Space');
    await expect(description.getByText('2 of 2 tasks completed')).toBeVisible();
    await expect(description.getByRole('checkbox', { name: 'docs updated' })).toBeFocused();
    expect((await api.get<{ description: string }>(base)).description).toBe('Before merging:\n\n- [x] tests pass\n- [x] docs updated');
  });

  test('the commits tab lists the commits, each opening its commit', async ({ page, api }) => {
    const { project, base, path } = await newMergeRequest(api, { commits: ['Add the parser', 'Handle empty input'] });
    const commits = await api.get<Array<{ id: string; short_id: string; title: string }>>(`${base}/commits`);
    expect(commits).toHaveLength(2);
    await page.goto(path);
    // by the keyboard: the tab's link stays where it was, and keeps the focus
    const commitsTab = page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Commits' });
    await commitsTab.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${path}/commits$`));
    await expect(commitsTab).toHaveAttribute('aria-current', 'page');
    await expect(commitsTab).toBeFocused();
    const list = page.getByRole('list', { name: 'Commits of the merge request' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    for (const commit of commits) await expect(list.getByRole('listitem').filter({ hasText: commit.title })).toContainText(commit.short_id);
    expect(await axeViolations(page, 'merge request commits')).toEqual([]);
    // a commit's link leaves with the merge request's screen: the focus goes to the commit's screen
    await list.getByRole('link', { name: 'Handle empty input' }).focus();
    await page.keyboard.press('Enter');
    const handled = commits.find((commit) => commit.title === 'Handle empty input')!;
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/commit/${handled.id}$`));
    await expect(page.getByRole('main')).toBeFocused();
  });

  test('an XSS corpus in the title, description, notes, labels and branch name executes nothing', async ({ page, api }) => {
    const corpus = XSS_CORPUS;
    const label = `<img src=x onerror=window.__xss=true>${unique()}`;
    const branch = `xss-<img-src=x-onerror=window.__xss=true>-${unique()}`;
    const { project, base, path } = await newMergeRequest(api, { title: `<img src=x onerror="window.__xss = true"> ${unique()}`, description: corpus.join('\n\n'), branch });
    await api.post(`/projects/${project.id}/labels`, { name: label, color: '#336699' });
    await api.put(base, { add_labels: label });
    // a system note quotes the old and new titles
    await api.put(base, { title: `<svg onload="window.__xss = true"></svg> ${unique()}` });
    for (const body of corpus) await api.post(`${base}/discussions`, { body });
    await api.post(`${base}/notes`, { body: corpus[0] });

    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('<svg onload=');
    await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText('changed title from');
    const sidebar = page.getByRole('complementary', { name: 'Merge request details' });
    await expect(sidebar.getByRole('list', { name: 'Labels', exact: true })).toContainText(label);
    await expect(sidebar).toContainText(branch);
    await expect(page.getByRole('article', { name: /^(Thread|Comment) by / })).toHaveCount(corpus.length + 1);
    await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Commits' }).click();
    await expect(page.getByRole('list', { name: 'Commits of the merge request' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('article', { name: /^(Thread|Comment) by / })).toHaveCount(corpus.length + 1);
    await expectNoScriptRan(page);
  });

  test('a request with more threads than a page shows them all, a hundred at a time', async ({ page, api }) => {
    const { base, path } = await newMergeRequest(api);
    for (let index = 1; index <= 105; index++) await api.post(`${base}/discussions`, { body: `Question ${index}` });
    await page.goto(path);
    // every page was read: the count is of all 105
    await expect(activity(page).getByText('105 unresolved threads', { exact: true })).toBeVisible();
    const threads = page.getByRole('article', { name: /^Thread by / });
    await expect(threads).toHaveCount(100);
    await expect(threads.first()).toContainText('Question 1');
    await activity(page).getByRole('button', { name: 'Show 5 more' }).click();
    await expect(threads).toHaveCount(105);
    await expect(threads.last()).toContainText('Question 105');
  });

  test('the overview has no accessibility violations', async ({ page, api }) => {
    const { base, path } = await newMergeRequest(api, { description: '- [ ] a task\n\n| a | b |\n| - | - |\n| 1 | 2 |', labels: 'bug' });
    const thread = await api.post<DiscussionAnswer>(`${base}/discussions`, { body: 'A thread with `code`.' });
    const { diff_refs: refs } = await api.get<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(base);
    await api.post(`${base}/discussions`, { body: 'On a line.', position: { position_type: 'text', ...refs, old_path: 'work-0.txt', new_path: 'work-0.txt', new_line: 1 } });
    await api.post(`${base}/discussions/${thread.id}/notes`, { body: 'A reply.' });
    await api.post(`${base}/notes`, { body: 'A comment.' });
    await page.goto(path);
    await expect(page.getByRole('article', { name: /^Thread by / }).first()).toContainText('A reply.');
    await expect(page.getByRole('article', { name: /^Comment by / })).toBeVisible();
    // a thread on the changes says where it is
    await expect(page.getByRole('article', { name: /^Thread by / }).filter({ hasText: 'On a line.' })).toContainText('On work-0.txt, line 1');
    await expect(activity(page).getByText('2 unresolved threads')).toBeVisible();
    await page.getByRole('article', { name: /^Thread by / }).first().getByRole('button', { name: 'Reply…' }).click();
    expect(await axeViolations(page, 'merge request overview')).toEqual([]);
  });
});

test('a Reporter reads the threads but may not resolve them, close the request or tick its tasks, and is told why', async ({ page, api, connectAs }) => {
  const { project, base, path } = await newMergeRequest(api, { description: '- [ ] a task' });
  await api.post(`${base}/discussions`, { body: 'Unresolved for now' });
  const reporter = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
  await connectAs(page, reporter.token);
  await page.goto(path);
  await expect(page.getByRole('article', { name: /^Thread by / })).toContainText('Unresolved for now');
  await expect(page.getByText('Only the author and Developers, Maintainers and Owners of this project can change this merge request or resolve its threads.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resolve thread' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Close merge request' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Description' }).getByRole('checkbox', { name: 'a task' })).toBeDisabled();
  // a comment is still theirs to write, and theirs alone to change: the administrator's thread offers them no edit
  await expect(commentForm(page).getByRole('button', { name: 'Start a thread' })).toBeVisible();
  await expect(page.getByRole('article', { name: /^Thread by / }).getByRole('button', { name: 'Edit comment' })).toHaveCount(0);
  await commentForm(page).getByLabel('Comment', { exact: true }).fill('My own remark');
  await commentForm(page).getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByRole('article', { name: `Comment by ${reporter.name}` }).getByRole('button', { name: 'Edit comment', exact: true })).toBeVisible();
  // the platform says the same
  const [discussion] = await discussionsOf(api, base);
  expect((await api.call('PUT', `${base}/discussions/${discussion!.id}`, { body: { resolved: true }, token: reporter.token })).status).toBe(403);
});

test('what the page shows stays where it is: nothing that arrives later pushes a thread or the merge panel under the pointer', async ({ page, api, adminSession, context }) => {
  await applyAdminSession(context, adminSession);
  // the author: the reason they may not approve needs the project's approval settings
  const { project, base, path } = await newMergeRequest(api);
  await api.post(`${base}/discussions`, { body: 'Is this right?' });
  // the project's approval settings (the reason the author may not approve) answer after the approvals
  await api.injectFault({ path: `/api/v4/projects/${project.id}/approvals`, methods: ['GET'], latency_ms: 1_000 });
  // every layout shift of the page, with what moved, from where to where
  await page.addInitScript(() => {
    const moves: Array<{ what: string; from: number; to: number }> = [];
    (window as unknown as { moves: typeof moves }).moves = moves;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { sources: Array<{ node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> }>)
        for (const source of entry.sources) moves.push({ what: source.node?.textContent?.slice(0, 40) ?? '', from: source.previousRect.y, to: source.currentRect.y });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(path);
  await expect(page.getByRole('article', { name: /^Thread by / })).toBeVisible();
  await expect(page.getByText('You cannot approve: you opened this merge request', { exact: false })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // a frame for any last answer to be drawn
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => (window as unknown as { moves: unknown[] }).moves)).toEqual([]);
});
