import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { DEMO_MERGE_REQUESTS } from '../sandbox/seed/demo.ts';

/**
 * The approval and merge panels of a merge request's Overview. Every test makes its own project,
 * people and request through the API, so the tests run in any order and side by side.
 */

const unique = () => randomBytes(4).toString('hex');

interface Person {
  id: number;
  username: string;
  name: string;
  token: string;
}

interface Approvals {
  approved_by: Array<{ user: { id: number } }>;
  approvals_left: number;
}

/** A user with a password of our choosing (for re-authentication) and an api token. */
async function userWithPassword(api: Api, password: string): Promise<Person> {
  const username = `e2e-${unique()}`;
  const name = `Reviewer ${username.slice(4)}`;
  const user = await api.post<{ id: number }>('/users', { username, name, email: `${username}@example.com`, password, skip_confirmation: true });
  const token = await api.post<{ token: string }>(`/users/${user.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] });
  return { id: user.id, username, name, token: token.token };
}

async function commit(api: Api, projectId: number, branch: string, file: string, token?: string) {
  return api.post<{ id: string }>(
    `/projects/${projectId}/repository/commits`,
    { branch, commit_message: `Change ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] },
    { token },
  );
}

/**
 * A project with a README, a branch `feature` with one commit by the author (a Developer), and a
 * merge request from it opened by the author; the reviewers are Developers too.
 */
async function reviewSetup(api: Api, options: { reviewers?: number; rule?: number; settings?: Record<string, boolean> } = {}) {
  const tag = unique();
  const project = await api.post<{ id: number; path_with_namespace: string }>('/projects', { name: `mr-approvals-${tag}`, initialize_with_readme: true });
  api.deleteAfter(`/projects/${project.id}`);
  const author = await api.createUser({ name: `Author ${tag}` });
  const reviewers: Person[] = [];
  for (let index = 0; index < (options.reviewers ?? 1); index++) reviewers.push(await api.createUser({ name: `Reviewer ${index + 1} ${tag}` }));
  for (const person of [author, ...reviewers]) await api.post(`/projects/${project.id}/members`, { user_id: person.id, access_level: 30 });
  if (options.settings) await api.post(`/projects/${project.id}/approvals`, options.settings);
  if (options.rule)
    await api.post(`/projects/${project.id}/approval_rules`, { name: 'Reviewers', approvals_required: options.rule, user_ids: reviewers.map((person) => person.id) });
  await api.post(`/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' });
  await commit(api, project.id, 'feature', 'first.txt', author.token);
  const request = await api.post<{ iid: number; title: string }>(
    `/projects/${project.id}/merge_requests`,
    { source_branch: 'feature', target_branch: 'main', title: `Review me ${tag}` },
    { token: author.token },
  );
  return { project, author, reviewers, iid: request.iid, path: `/projects/${project.id}/merge-requests/${request.iid}` };
}

const approvalsPanel = (page: Page) => page.getByRole('region', { name: 'Approvals' });
const mergePanel = (page: Page) => page.getByRole('region', { name: 'Merge', exact: true });

test.describe.configure({ mode: 'parallel', timeout: 90_000 });

test('a reviewer approves: the rule, who approved and what is missing follow, and the approval can be revoked', async ({ page, api, connectAs }) => {
  const { project, reviewers, iid, path } = await reviewSetup(api, { rule: 1 });
  const [reviewer] = reviewers;
  await connectAs(page, reviewer!.token);
  await page.goto(path);
  const panel = approvalsPanel(page);
  await expect(panel.getByText('1 more approval required (from Reviewers).')).toBeVisible();
  await expect(panel.getByText('No approvals yet.')).toBeVisible();
  const rule = panel.getByRole('row', { name: /Reviewers/ });
  await expect(rule).toContainText('0 of 1');
  await expect(rule).toContainText(reviewer!.name);
  await expect(panel.getByText('You can approve this merge request.')).toBeVisible();
  await expect(mergePanel(page).getByText('1 approval is still missing.')).toBeVisible();
  expect(await axeViolations(page, 'approval and merge panels')).toEqual([]);

  const bodies: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/merge_requests/${iid}/approve`)) bodies.push(request.postDataJSON());
  });
  const head = (await api.get<{ sha: string }>(`/projects/${project.id}/merge_requests/${iid}`)).sha;
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText('Approved by you.')).toBeVisible();
  await expect(panel.getByText('Approved: every rule has the approvals it requires.')).toBeVisible();
  await expect(rule).toContainText('1 of 1');
  await expect(panel.getByText('You approved this merge request.')).toBeVisible();
  // people are not offered the bots' reset
  await expect(panel.getByRole('button', { name: 'Reset approvals' })).toHaveCount(0);
  expect(bodies).toEqual([{ sha: head }]);
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approved_by.map((entry) => entry.user.id)).toEqual([reviewer!.id]);
  // the merge panel follows: nothing blocks it now, but a Developer may not merge into the protected main
  await expect(mergePanel(page).getByText('Ready to merge: nothing blocks this merge request.')).toBeVisible();
  await expect(mergePanel(page).getByText("You cannot merge: you are not allowed to merge into 'main'.")).toBeVisible();
  await expect(mergePanel(page).getByRole('button', { name: 'Merge', exact: true })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Revoke approval' }).click();
  await expect(panel.getByText('No approvals yet.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approved_by).toEqual([]);
  // a change of mind, and back: the same head approved again is a new approval, not a repeat to drop
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText('Approved by you.')).toBeVisible();
  expect(bodies).toEqual([{ sha: head }, { sha: head }]);
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approved_by.map((entry) => entry.user.id)).toEqual([reviewer!.id]);
});

test('a second approval after a new commit is refused with 409: Reload shows the new head, and approving again succeeds', async ({ page, api, connectAs }) => {
  // approvals stay on push here, so the first reviewer's counts with the second's
  const { project, author, reviewers, iid, path } = await reviewSetup(api, { reviewers: 2, rule: 2, settings: { reset_approvals_on_push: false } });
  const [first, second] = reviewers;
  await api.post(`/projects/${project.id}/merge_requests/${iid}/approve`, {}, { token: first!.token });
  await connectAs(page, second!.token);
  await page.goto(path);
  const panel = approvalsPanel(page);
  await expect(panel.getByText(`Approved by ${first!.name}.`)).toBeVisible();
  const seen = (await api.get<{ sha: string }>(`/projects/${project.id}/merge_requests/${iid}`)).sha;

  // the author pushes while the reviewer reads
  const pushed = await commit(api, project.id, 'feature', 'second.txt', author.token);
  const bodies: unknown[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith(`/merge_requests/${iid}/approve`)) bodies.push(request.postDataJSON());
  });
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  const alert = panel.getByRole('alert');
  await expect(alert).toContainText('New commits were pushed to this merge request since you loaded it');
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approved_by).toHaveLength(1);

  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(panel.getByRole('alert')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText(`Approved by you and ${first!.name}.`)).toBeVisible();
  expect(bodies).toEqual([{ sha: seen }, { sha: pushed.id }]);
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approvals_left).toBe(0);
});

test('the author cannot approve and is told why; the project settings changed through the API show in the panel', async ({ page, api, connectAs }) => {
  const { project, author, path } = await reviewSetup(api, { rule: 1 });
  await connectAs(page, author.token);
  await page.goto(path);
  const panel = approvalsPanel(page);
  await expect(panel.getByText('You cannot approve: you opened this merge request, and the project does not let authors approve their own merge requests.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

  // authors may approve, but not those who committed: the author committed
  await api.post(`/projects/${project.id}/approvals`, { merge_requests_author_approval: true, merge_requests_disable_committers_approval: true });
  await page.reload();
  await expect(panel.getByText('You cannot approve: you added commits to this merge request, and the project does not let committers approve.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

  await api.post(`/projects/${project.id}/approvals`, { merge_requests_disable_committers_approval: false });
  await page.reload();
  await expect(panel.getByText('You can approve this merge request.')).toBeVisible();
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText('Approved by you.')).toBeVisible();
});

test('a read-only token is told it cannot approve, and why', async ({ page, api, connectAs }) => {
  const { project, path } = await reviewSetup(api, { rule: 1, reviewers: 0 });
  const reader = await api.createUser({ scopes: ['read_api'] });
  await api.post(`/projects/${project.id}/members`, { user_id: reader.id, access_level: 30 });
  await connectAs(page, reader.token);
  await page.goto(path);
  const panel = approvalsPanel(page);
  await expect(panel.getByText('You are eligible to approve, but this access token is read-only (read_api): connect with an api token to approve.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
});

test('re-authentication: Approve asks for the password; a wrong one is refused with the dialog kept open', async ({ page, api, connectAs }) => {
  const password = `pw-${unique()}-correct`;
  const { project, iid, path } = await reviewSetup(api, { rule: 1, reviewers: 0 });
  const reviewer = await userWithPassword(api, password);
  await api.post(`/projects/${project.id}/members`, { user_id: reviewer.id, access_level: 30 });
  await api.post(`/projects/${project.id}/approvals`, { require_reauthentication_to_approve: true });
  await connectAs(page, reviewer.token);
  await page.goto(path);
  const panel = approvalsPanel(page);
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve with your password' });
  const field = dialog.getByRole('textbox', { name: 'Password' });
  await expect(field).toBeFocused();
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByText('Enter your password.')).toBeVisible();

  await field.fill('not-the-password');
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(dialog.getByText('The password is not correct.', { exact: false })).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveValue('not-the-password');
  expect(await axeViolations(page, 'approval password dialog')).toEqual([]);
  // a refused password does not end the session
  await expect(page).toHaveURL(new RegExp(`${path}$`));

  // closing forgets it: the dialog opens empty
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(field).toHaveValue('');
  await field.fill(password);
  await field.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByText('Approved by you.')).toBeVisible();
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${iid}/approvals`)).approved_by.map((entry) => entry.user.id)).toEqual([reviewer.id]);
});

test.describe('as the administrator', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('merge when ready: squash, delete the source branch and an edited message; the result links to the merge commit', async ({ page, api }) => {
    const { project, iid, path } = await reviewSetup(api, { reviewers: 0 });
    await commit(api, project.id, 'feature', 'second.txt');
    await page.goto(path);
    const panel = mergePanel(page);
    await expect(panel.getByText('Ready to merge: nothing blocks this merge request.')).toBeVisible();
    const form = panel.getByRole('form', { name: 'Merge options' });
    await form.getByRole('checkbox', { name: 'Squash commits into one' }).check();
    await form.getByRole('checkbox', { name: /Delete source branch/ }).check();
    await form.getByRole('checkbox', { name: 'Edit the merge commit message' }).check();
    const message = form.getByRole('textbox', { name: 'Merge commit message' });
    await expect(message).toHaveValue(new RegExp(`^Merge branch 'feature' into 'main'`));
    await message.fill('Ship the feature\n\nReviewed in the console');
    expect(await axeViolations(page, 'merge panel')).toEqual([]);
    await form.getByRole('button', { name: 'Merge', exact: true }).click();

    const confirm = page.getByRole('alertdialog', { name: `Merge !${iid}?` });
    await expect(confirm).toContainText('squashed into one commit, and the branch feature is deleted');
    expect(await axeViolations(page, 'merge confirmation')).toEqual([]);
    await confirm.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(confirm).toHaveCount(0);
    await expect(panel.getByText('Merged', { exact: true })).toBeVisible();

    const merged = await api.get<{ state: string; merge_commit_sha: string; squash_commit_sha: string | null }>(`/projects/${project.id}/merge_requests/${iid}`);
    expect(merged.state).toBe('merged');
    expect(merged.squash_commit_sha).toBeTruthy();
    const mergeCommit = await api.get<{ message: string }>(`/projects/${project.id}/repository/commits/${merged.merge_commit_sha}`);
    expect(mergeCommit.message.trim()).toBe('Ship the feature\n\nReviewed in the console');
    expect((await api.call('GET', `/projects/${project.id}/repository/branches/feature`)).status).toBe(404);

    await panel.getByRole('link', { name: `Merge commit ${merged.merge_commit_sha}` }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/commit/${merged.merge_commit_sha}$`));
  });

  test("the project's squash option holds the squash choice, says why, and the merge follows it", async ({ page, api }) => {
    const { project, iid, path } = await reviewSetup(api, { reviewers: 0 });
    await api.put(`/projects/${project.id}`, { squash_option: 'always' });
    await page.goto(path);
    const form = mergePanel(page).getByRole('form', { name: 'Merge options' });
    const squash = form.getByRole('checkbox', { name: 'Squash commits into one' });
    await expect(squash).toBeChecked();
    await expect(squash).toBeDisabled();
    await expect(squash).toHaveAccessibleDescription('The project always squashes commits.');
    await form.getByRole('button', { name: 'Merge', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: `Merge !${iid}?` })
      .getByRole('button', { name: 'Merge', exact: true })
      .click();
    await expect(mergePanel(page).getByText('Merged', { exact: true })).toBeVisible();
    expect((await api.get<{ squash_commit_sha: string | null }>(`/projects/${project.id}/merge_requests/${iid}`)).squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  test('a merge refused because the source moved on (409) offers Reload, and merges the new head after it', async ({ page, api }) => {
    const { project, iid, path } = await reviewSetup(api, { reviewers: 0 });
    await page.goto(path);
    const panel = mergePanel(page);
    await expect(panel.getByText('Ready to merge: nothing blocks this merge request.')).toBeVisible();
    const pushed = await commit(api, project.id, 'feature', 'late.txt');
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: `Merge !${iid}?` });
    await confirm.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(confirm.getByRole('alert')).toContainText('new commits were pushed to the source branch since you loaded it');
    expect((await api.get<{ state: string }>(`/projects/${project.id}/merge_requests/${iid}`)).state).toBe('opened');
    await confirm.getByRole('button', { name: 'Reload' }).click();
    await expect(confirm).toHaveCount(0);
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    await confirm.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(panel.getByText('Merged', { exact: true })).toBeVisible();
    const merged = await api.get<{ sha: string; state: string }>(`/projects/${project.id}/merge_requests/${iid}`);
    expect(merged).toMatchObject({ state: 'merged', sha: pushed.id });
  });

  test('a merge the server refuses is explained: 405 once it became a draft (with Reload), 422 once the branches conflict', async ({ page, api }) => {
    const { project, iid, path } = await reviewSetup(api, { reviewers: 0 });
    const requestPath = `/projects/${project.id}/merge_requests/${iid}`;
    const { title } = await api.get<{ title: string }>(requestPath);
    await page.goto(path);
    const panel = mergePanel(page);
    const confirm = page.getByRole('alertdialog', { name: `Merge !${iid}?` });
    await expect(panel.getByText('Ready to merge: nothing blocks this merge request.')).toBeVisible();
    await api.put(requestPath, { title: `Draft: ${title}` });
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    await confirm.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(confirm.getByRole('alert')).toContainText('The merge request cannot be merged now');
    await confirm.getByRole('button', { name: 'Reload' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(panel.getByText('Mark it as ready: remove "Draft:" from the title.', { exact: false })).toBeVisible();

    await api.put(requestPath, { title });
    await page.reload();
    await expect(panel.getByText('Ready to merge: nothing blocks this merge request.')).toBeVisible();
    // main gets a first.txt of its own: the branches now conflict
    await api.post(`/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Another first.txt',
      actions: [{ action: 'create', file_path: 'first.txt', content: 'something else\n' }],
    });
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    await confirm.getByRole('button', { name: 'Merge', exact: true }).click();
    await expect(confirm.getByRole('alert')).toContainText('The branches conflict: resolve the conflicts locally and push.');
    expect((await api.get<{ state: string }>(requestPath)).state).toBe('opened');
  });

  test('the demo requests explain what blocks them, in words', async ({ page, api }) => {
    const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
    const cases: Array<[number, string]> = [
      [DEMO_MERGE_REQUESTS.draft, 'Mark it as ready: remove "Draft:" from the title.'],
      [DEMO_MERGE_REQUESTS.conflict, 'Resolve the conflicts locally'],
      [DEMO_MERGE_REQUESTS.closed, 'This merge request is not open, so it cannot be merged.'],
    ];
    for (const [iid, words] of cases) {
      await page.goto(`/projects/${webApp}/merge-requests/${iid}`);
      await expect(mergePanel(page).getByText(words, { exact: false })).toBeVisible();
      await expect(mergePanel(page).getByRole('button', { name: 'Merge', exact: true })).toHaveCount(0);
    }
    await page.goto(`/projects/${webApp}/merge-requests/${DEMO_MERGE_REQUESTS.merged}`);
    await expect(mergePanel(page).getByRole('link', { name: /^Merge commit [0-9a-f]{40}$/ })).toBeVisible();
  });
});

test('a group access token bot resets the approvals after a confirmation', async ({ page, api, connectAs }) => {
  const tag = unique();
  const group = await api.post<{ id: number }>('/groups', { name: `Bots ${tag}`, path: `bots-${tag}` });
  api.deleteAfter(`/groups/${group.id}`);
  const project = await api.post<{ id: number }>('/projects', { name: `bot-${tag}`, namespace_id: group.id, initialize_with_readme: true });
  await api.post(`/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' });
  await commit(api, project.id, 'feature', 'bot.txt');
  const request = await api.post<{ iid: number }>(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: `Bot ${tag}` });
  const reviewer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: reviewer.id, access_level: 30 });
  await api.post(`/projects/${project.id}/merge_requests/${request.iid}/approve`, {}, { token: reviewer.token });
  const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
  const bot = await api.post<{ token: string }>(`/groups/${group.id}/access_tokens`, { name: `bot ${tag}`, scopes: ['api'], access_level: 40, expires_at: expiresAt });

  await connectAs(page, bot.token);
  await page.goto(`/projects/${project.id}/merge-requests/${request.iid}`);
  const panel = approvalsPanel(page);
  await expect(panel.getByText(`Approved by ${reviewer.name}.`)).toBeVisible();
  // the bot approves too, then resets: its own approval goes with the others
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText(`Approved by you and ${reviewer.name}.`)).toBeVisible();
  await panel.getByRole('button', { name: 'Reset approvals' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Reset every approval?' });
  await expect(confirm).toContainText('Every approval given to this merge request is removed');
  await confirm.getByRole('button', { name: 'Reset approvals' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(panel.getByText('No approvals yet.')).toBeVisible();
  expect((await api.get<Approvals>(`/projects/${project.id}/merge_requests/${request.iid}/approvals`)).approved_by).toEqual([]);
  // approving the same head again after the reset is a new approval
  await expect(async () => {
    await panel.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(panel.getByText('Approved by you.')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 10_000 });
});

test('a whole review: the settings saved on their screen, then the reviewer finds the request in Review requested, reads the diff, resolves a thread and approves with the password the settings now ask for', async ({ page, browser, api, adminSession, connectAs, consoleServer }) => {
  const password = `pw-${unique()}-review`;
  const { project, author, iid } = await reviewSetup(api, { rule: 1, reviewers: 0 });
  const reviewer = await userWithPassword(api, password);
  await api.post(`/projects/${project.id}/members`, { user_id: reviewer.id, access_level: 30 });
  const base = `/projects/${project.id}/merge_requests/${iid}`;
  const request = await api.put<{ title: string }>(base, { reviewer_ids: [reviewer.id] }, { token: author.token });
  await api.post(`${base}/discussions`, { body: 'Is `first.txt` the right name?' }, { token: author.token });

  // a Maintainer (the administrator) requires re-authentication on the approval settings screen
  const adminContext = await browser.newContext({ baseURL: consoleServer.baseURL });
  try {
    await applyAdminSession(adminContext, adminSession);
    const settings = await adminContext.newPage();
    await settings.goto(`/projects/${project.id}/approval-settings`);
    const form = settings.getByRole('form', { name: 'Approval settings' });
    await form.getByRole('checkbox', { name: 'Require user re-authentication to approve' }).check();
    await form.getByRole('button', { name: 'Save approval settings' }).click();
    await expect.poll(async () => (await api.get<{ require_reauthentication_to_approve: boolean }>(`/projects/${project.id}/approvals`)).require_reauthentication_to_approve).toBe(true);
  } finally {
    await adminContext.close();
  }

  await connectAs(page, reviewer.token);
  await page.goto('/merge-requests');
  await page.getByRole('table', { name: 'Open merge requests' }).getByRole('link', { name: request.title }).click();
  await expect(page.getByRole('heading', { level: 1, name: request.title })).toBeVisible();

  // the diff: the author's one new file
  await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: /^Changes/ }).click();
  const file = page.getByRole('group', { name: 'first.txt', exact: true });
  await expect(file.getByRole('table', { name: 'Lines of first.txt' })).toContainText('first.txt');

  // the thread, resolved
  await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' }).click();
  const thread = page.getByRole('article', { name: `Thread by ${author.name}` });
  await thread.getByRole('button', { name: 'Resolve thread' }).click();
  await expect(thread.getByText(`Resolved by ${reviewer.name}`)).toBeVisible();

  // the approval, with the password the saved settings ask for
  const panel = approvalsPanel(page);
  await panel.getByRole('button', { name: 'Approve', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve with your password' });
  await dialog.getByRole('textbox', { name: 'Password' }).fill(password);
  await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(panel.getByText('Approved by you.')).toBeVisible();
  expect((await api.get<Approvals>(`${base}/approvals`)).approved_by.map((entry) => entry.user.id)).toEqual([reviewer.id]);
});
