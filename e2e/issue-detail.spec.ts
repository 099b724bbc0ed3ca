import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { expectNoScriptRan, XSS_CORPUS } from './xss.ts';
import { ConnectPage } from './pages/connect.ts';
import { Shell } from './pages/shell.ts';
import { blockSiteData } from './browser.ts';

interface IssueAnswer {
  iid: number;
  state: string;
  project_id: number;
  title: string;
  description: string | null;
  labels: string[];
  assignees: Array<{ id: number; username: string }>;
  milestone: { id: number; title: string } | null;
}

interface NoteAnswer {
  id: number;
  body: string;
  system: boolean;
}

const unique = () => randomBytes(4).toString('hex');

/** A project of the administrator's own, with one issue: what a test changes is its alone. */
async function newIssue(api: Api, values: Record<string, unknown> = {}) {
  const project = await api.post<{ id: number; path_with_namespace: string }>('/projects', { name: `issue-detail-${unique()}` });
  api.deleteAfter(`/projects/${project.id}`);
  const issue = await api.post<IssueAnswer>(`/projects/${project.id}/issues`, { title: `Detail ${unique()}`, ...values });
  return { project, issue, path: `/projects/${project.id}/issues/${issue.iid}` };
}

const issueOf = (api: Api, projectId: number, iid: number) => api.get<IssueAnswer>(`/projects/${projectId}/issues/${iid}`);
const notesOf = (api: Api, projectId: number, iid: number) => api.get<NoteAnswer[]>(`/projects/${projectId}/issues/${iid}/notes?per_page=100&sort=asc`);

/** The comment form: its text area is the one labelled "Comment". */
const commentForm = (page: Page) => page.getByRole('form', { name: 'Add a comment' });

test.describe.configure({ mode: 'parallel' });

test.describe('as the administrator', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a merge request reference in the text opens that merge request', async ({ page, api }) => {
    const project = await api.post<{ id: number }>('/projects', { name: `issue-detail-${unique()}`, initialize_with_readme: true });
    api.deleteAfter(`/projects/${project.id}`);
    await api.post(`/projects/${project.id}/repository/branches`, { branch: 'fix-login', ref: 'main' });
    const request = await api.post<{ iid: number; title: string }>(`/projects/${project.id}/merge_requests`, { source_branch: 'fix-login', target_branch: 'main', title: `Fix the login ${unique()}` });
    const issue = await api.post<IssueAnswer>(`/projects/${project.id}/issues`, { title: `Detail ${unique()}`, description: `Fixed by !${request.iid}.` });
    await page.goto(`/projects/${project.id}/issues/${issue.iid}`);
    await page.getByRole('region', { name: 'Description' }).getByRole('link', { name: `!${request.iid}` }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/merge-requests/${request.iid}$`));
    await expect(page.getByRole('heading', { level: 1, name: request.title })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  });

  test('closed and reopened by keyboard, the button keeps the focus though it is disabled while the write is sent', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    await page.getByRole('button', { name: 'Close issue', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Reopen issue', exact: true })).toBeFocused();
    expect((await issueOf(api, project.id, issue.iid)).state).toBe('closed');
    // so Enter again reopens it, with no Tab back to where it was
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Close issue', exact: true })).toBeFocused();
    expect((await issueOf(api, project.id, issue.iid)).state).toBe('opened');
  });

  test('a comment with a table, a task and code is previewed, posted, edited, then deleted', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: issue.title })).toBeVisible();
    const form = commentForm(page);
    const body = ['| Fruit | Count |', '| --- | --- |', '| apple | 3 |', '', '- [ ] peel the apple', '', '```ts', 'const answer = 42;', '```'].join('\n');
    await form.getByLabel('Comment', { exact: true }).fill(body);
    await form.getByRole('tab', { name: 'Preview' }).click();
    await expect(form.getByRole('table')).toContainText('apple');
    await form.getByRole('tab', { name: 'Write' }).click();
    await form.getByRole('button', { name: 'Comment', exact: true }).click();

    const comment = page.getByRole('article', { name: /^Comment by / });
    await expect(comment.getByRole('table')).toContainText('apple');
    await expect(comment.getByRole('checkbox', { name: 'peel the apple' })).toBeVisible();
    await expect(comment.getByText('const answer = 42;')).toBeVisible();
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('');
    await expect.poll(async () => (await notesOf(api, project.id, issue.iid)).filter((note) => !note.system).map((note) => note.body)).toEqual([body]);

    await comment.getByRole('button', { name: 'Edit comment' }).click();
    const editForm = comment.getByRole('form', { name: 'Edit comment' });
    await editForm.getByLabel('Edited comment', { exact: true }).fill('Now **bold** instead');
    await editForm.getByRole('button', { name: 'Save comment' }).click();
    await expect(comment.getByText('bold', { exact: true })).toBeVisible();
    await expect.poll(async () => (await notesOf(api, project.id, issue.iid)).filter((note) => !note.system).map((note) => note.body)).toEqual(['Now **bold** instead']);

    await comment.getByRole('button', { name: 'Delete comment' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this comment?' });
    await confirm.getByRole('button', { name: 'Delete comment' }).click();
    await expect(page.getByRole('article', { name: /^Comment by / })).toHaveCount(0);
    await expect.poll(async () => (await notesOf(api, project.id, issue.iid)).filter((note) => !note.system)).toEqual([]);
  });

  test('a task checkbox ticks and the description changes through the API', async ({ page, api }) => {
    const description = 'Steps:\n\n- [ ] write the test\n- [ ] ship it\n\n`- [ ] not a task`';
    const { project, issue, path } = await newIssue(api, { description });
    await page.goto(path);
    const task = page.getByRole('region', { name: 'Description' }).getByRole('checkbox', { name: 'ship it' });
    await expect(task).not.toBeChecked();
    await task.check();
    await expect(task).toBeChecked();
    await expect.poll(async () => (await issueOf(api, project.id, issue.iid)).description).toBe('Steps:\n\n- [ ] write the test\n- [x] ship it\n\n`- [ ] not a task`');
    await expect(page.getByText('1 of 2 tasks completed')).toBeVisible();
  });

  test('tasks tick by keyboard, and the box keeps the focus', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api, { description: '- [ ] first\n- [ ] second' });
    await page.goto(path);
    const description = page.getByRole('region', { name: 'Description' });
    await description.getByRole('checkbox', { name: 'first' }).focus();
    await page.keyboard.press('Space');
    await expect(description.getByRole('checkbox', { name: 'first' })).toBeChecked();
    await expect(page.getByText('1 of 2 tasks completed')).toBeVisible();
    await expect(description.getByRole('checkbox', { name: 'first' })).toBeFocused();
    // while the tick is saved the boxes say they take no change, as the platform's do
    await expect(description.getByRole('checkbox', { name: 'second' })).toBeEnabled();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(page.getByText('2 of 2 tasks completed')).toBeVisible();
    await expect(description.getByRole('checkbox', { name: 'second' })).toBeFocused();
    expect((await issueOf(api, project.id, issue.iid)).description).toBe('- [x] first\n- [x] second');
  });

  test('a double click on a task is one tick, and the box shows what was written', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api, { description: '- [ ] only task' });
    await page.goto(path);
    const task = page.getByRole('region', { name: 'Description' }).getByRole('checkbox', { name: 'only task' });
    const mark = await api.requestMark();
    // a person's double click: the second click some 250 ms after the first, whatever came back between
    await task.evaluate(async (box: HTMLInputElement) => {
      box.click();
      await new Promise((resolve) => setTimeout(resolve, 250));
      (document.querySelector(`input[data-task="${box.dataset.task}"]`) as HTMLInputElement).click();
    });
    await expect(page.getByText('1 of 1 task completed')).toBeVisible();
    await expect(task).toBeChecked();
    await expect(task).toBeEnabled();
    expect(await api.requestsSince(mark, { method: 'PUT', path: `/api/v4/projects/${project.id}/issues/${issue.iid}` })).toHaveLength(1);
    expect((await issueOf(api, project.id, issue.iid)).description).toBe('- [x] only task');
  });

  test('a comment being typed survives a failed send and a reload, and is cleared once sent', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    const text = `Draft ${unique()}`;
    await page.route(`**/api/v4/projects/${project.id}/issues/${issue.iid}/notes`, (route) =>
      route.request().method() === 'POST' ? route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ message: 'Note could not be saved' }) }) : route.fallback(),
    );
    await page.goto(path);
    const form = commentForm(page);
    await form.getByLabel('Comment', { exact: true }).fill(text);
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(form.getByRole('alert')).toContainText('Note could not be saved');
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue(text);

    await page.reload();
    await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue(text);
    // away and back
    await page.goto('/users');
    await page.goBack();
    await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue(text);

    await page.unroute(`**/api/v4/projects/${project.id}/issues/${issue.iid}/notes`);
    await commentForm(page).getByRole('button', { name: 'Comment', exact: true }).click();
    await expect(page.getByRole('article', { name: /^Comment by / })).toContainText(text);
    await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue('');
    await page.reload();
    await expect(page.getByRole('article', { name: /^Comment by / })).toContainText(text);
    await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue('');
  });

  test('sidebar edits of labels, assignee and milestone reach the API and the timeline', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    const labelName = `triage-${unique()}`;
    await api.post(`/projects/${project.id}/labels`, { name: labelName, color: '#d9534f' });
    const milestone = await api.post<{ id: number; title: string }>(`/projects/${project.id}/milestones`, { title: `Sprint ${unique()}` });
    const member = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: member.id, access_level: 30 });

    await page.goto(path);
    const sidebar = page.getByRole('complementary', { name: 'Issue details' });
    await sidebar.getByLabel('Find a label to add').fill(labelName);
    await sidebar.getByRole('button', { name: `Add label ${labelName}` }).click();
    await expect(sidebar.getByRole('list', { name: 'Labels', exact: true })).toContainText(labelName);
    await expect.poll(async () => (await issueOf(api, project.id, issue.iid)).labels).toEqual([labelName]);

    await sidebar.getByLabel('Find a project member to assign').fill(member.username);
    await sidebar.getByRole('button', { name: new RegExp(`^Assign .*@${member.username}`) }).click();
    await expect(sidebar.getByRole('list', { name: 'Assignees' })).toContainText(member.username);
    await expect.poll(async () => (await issueOf(api, project.id, issue.iid)).assignees.map((user) => user.id)).toEqual([member.id]);

    await sidebar.getByLabel('Milestone', { exact: true }).selectOption({ label: milestone.title });
    await expect.poll(async () => (await issueOf(api, project.id, issue.iid)).milestone?.id).toBe(milestone.id);

    const activity = page.getByRole('list', { name: 'Activity entries' });
    await expect(activity).toContainText(`added label ${labelName}`);
    await expect(activity).toContainText(`assigned to @${member.username}`);
    await expect(activity).toContainText(`set milestone ${milestone.title}`);

    await sidebar.getByRole('button', { name: `Remove label ${labelName}` }).click();
    await expect.poll(async () => (await issueOf(api, project.id, issue.iid)).labels).toEqual([]);
    await expect(activity).toContainText(`removed label ${labelName}`);
  });

  test('an XSS corpus in the title, description, comments and label names executes nothing', async ({ page, api }) => {
    const corpus = XSS_CORPUS;
    const { project, issue, path } = await newIssue(api, { title: `<img src=x onerror="window.__xss = true"> ${unique()}`, description: corpus.join('\n\n') });
    for (const body of corpus) await api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body });
    const labelName = `<img src=x onerror=window.__xss=true>${unique()}`;
    await api.post(`/projects/${project.id}/labels`, { name: labelName, color: '#336699' });
    await api.put(`/projects/${project.id}/issues/${issue.iid}`, { add_labels: labelName });

    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('<img src=x onerror=');
    await expect(page.getByRole('complementary', { name: 'Issue details' }).getByRole('list', { name: 'Labels', exact: true })).toContainText(labelName);
    await expect(page.getByRole('article', { name: /^Comment by / })).toHaveCount(corpus.length);
    await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText(`added label ${labelName}`);
    await expectNoScriptRan(page);
  });

  test('the issue detail page has no accessibility violations', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api, { description: '- [ ] a task\n\n| a | b |\n| - | - |\n| 1 | 2 |' });
    await api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { body: 'A comment with `code`.' });
    await api.put(`/projects/${project.id}/issues/${issue.iid}`, { add_labels: 'bug' });
    await page.goto(path);
    await expect(page.getByRole('article', { name: /^Comment by / })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText('added label bug');
    expect(await axeViolations(page, 'issue detail')).toEqual([]);
  });

  test('a tick on a description someone changed meanwhile writes nothing and shows the latest', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api, { description: '- [ ] first\n- [ ] second' });
    await page.goto(path);
    const description = page.getByRole('region', { name: 'Description' });
    await expect(description.getByRole('checkbox', { name: 'second' })).toBeVisible();
    await api.put(`/projects/${project.id}/issues/${issue.iid}`, { description: '- [ ] first\n- [ ] second\n- [ ] third, added elsewhere' });
    // one click: check() would click again when the box it sees is unticked, and that tick is on the latest text
    await description.getByRole('checkbox', { name: 'second' }).click();
    await expect(description.getByRole('alert')).toContainText('Someone changed the description');
    await expect(description.getByRole('checkbox', { name: 'third, added elsewhere' })).toBeVisible();
    await expect(description.getByRole('checkbox', { name: 'second' })).not.toBeChecked();
    expect((await issueOf(api, project.id, issue.iid)).description).toBe('- [ ] first\n- [ ] second\n- [ ] third, added elsewhere');
  });

  test('a tick the server refuses is taken back, with the server’s reason', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api, { description: '- [ ] only task' });
    await page.route(`**/api/v4/projects/${project.id}/issues/${issue.iid}`, (route) =>
      route.request().method() === 'PUT' ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: '403 Forbidden' }) }) : route.fallback(),
    );
    await page.goto(path);
    const description = page.getByRole('region', { name: 'Description' });
    await description.getByRole('checkbox', { name: 'only task' }).click();
    await expect(description.getByRole('alert')).toContainText('403 Forbidden');
    await expect(description.getByRole('checkbox', { name: 'only task' })).not.toBeChecked();
    expect((await issueOf(api, project.id, issue.iid)).description).toBe('- [ ] only task');
  });

  test('time tracking, confidentiality, lock and subscription change through the sidebar', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    const sidebar = page.getByRole('complementary', { name: 'Issue details' });
    await sidebar.getByLabel('Estimate', { exact: true }).fill('3h 30m');
    await sidebar.getByRole('button', { name: 'Set estimate', exact: true }).click();
    await expect(sidebar.getByRole('definition').filter({ hasText: '3h 30m' })).toBeVisible();
    await sidebar.getByLabel('Time spent', { exact: true }).fill('1h');
    await sidebar.getByRole('button', { name: 'Add time spent', exact: true }).click();
    await expect(sidebar.getByRole('definition').filter({ hasText: /^1h$/ })).toBeVisible();
    await sidebar.getByLabel('Time spent', { exact: true }).fill('not a duration');
    await sidebar.getByRole('button', { name: 'Add time spent', exact: true }).click();
    await expect(sidebar.getByRole('alert')).toContainText('Invalid time duration');
    // the refused input stays for correcting
    await expect(sidebar.getByLabel('Time spent', { exact: true })).toHaveValue('not a duration');
    await sidebar.getByRole('checkbox', { name: 'Confidential' }).check();
    await sidebar.getByRole('checkbox', { name: 'Discussion locked' }).check();
    await sidebar.getByRole('checkbox', { name: 'Notify me about this issue' }).check();
    await expect(sidebar.getByText('You are subscribed.')).toBeVisible();
    await expect.poll(async () => {
      const answer = await api.get<IssueAnswer & { confidential: boolean; discussion_locked: boolean; subscribed: boolean; time_stats: { human_time_estimate: string; human_total_time_spent: string } }>(`/projects/${project.id}/issues/${issue.iid}`);
      return [answer.confidential, answer.discussion_locked, answer.subscribed, answer.time_stats.human_time_estimate, answer.time_stats.human_total_time_spent];
    }).toEqual([true, true, true, '3h 30m', '1h']);
    await expect(page.getByRole('list', { name: 'Activity entries' })).toContainText('made the issue confidential');
    await sidebar.getByRole('button', { name: 'Reset time spent', exact: true }).click();
    await expect.poll(async () => (await api.get<{ time_stats: { total_time_spent: number } }>(`/projects/${project.id}/issues/${issue.iid}`)).time_stats.total_time_spent).toBe(0);
  });

  test('time typed while the last entry is on its way stays when that entry is saved', async ({ page, api }) => {
    const { path } = await newIssue(api);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/add_spent_time', async (route) => (await held, route.fallback()));
    await page.goto(path);
    const sidebar = page.getByRole('complementary', { name: 'Issue details' });
    const spent = sidebar.getByLabel('Time spent', { exact: true });
    await spent.fill('1h');
    await sidebar.getByRole('button', { name: 'Add time spent', exact: true }).click();
    await expect(sidebar.getByRole('button', { name: 'Add time spent', exact: true })).toBeDisabled();
    await spent.fill('30m');
    release();
    await expect(sidebar.getByRole('definition').filter({ hasText: /^1h$/ })).toBeVisible();
    await expect(sidebar.getByRole('button', { name: 'Add time spent', exact: true })).toBeEnabled();
    await expect(spent).toHaveValue('30m');
  });

  test('an internal comment, a reaction on a comment, and a clone with its comments', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    const target = await api.post<{ id: number; name: string }>('/projects', { name: `clone-target-${unique()}` });
    api.deleteAfter(`/projects/${target.id}`);
    await page.goto(path);
    const form = commentForm(page);
    await form.getByLabel('Comment', { exact: true }).fill('Only for the team');
    await form.getByRole('checkbox', { name: /^Internal note/ }).check();
    await form.getByRole('button', { name: 'Comment', exact: true }).click();
    const comment = page.getByRole('article', { name: /^Comment by / });
    await expect(comment.getByText('Internal', { exact: true })).toBeVisible();
    await comment.getByRole('button', { name: 'Add reaction' }).click();
    await comment.getByRole('button', { name: 'React with rocket' }).click();
    await expect(comment.getByRole('button', { name: /^rocket: 1 reaction, yours/ })).toBeVisible();
    const [note] = (await notesOf(api, project.id, issue.iid)).filter((entry) => !entry.system) as Array<NoteAnswer & { internal: boolean }>;
    expect(note?.internal).toBe(true);
    expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/issues/${issue.iid}/notes/${note!.id}/award_emoji`)).map((award) => award.name)).toEqual(['rocket']);

    await page.getByRole('button', { name: 'Clone…' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Clone issue #${issue.iid}` });
    const confirm = dialog.getByRole('button', { name: 'Clone issue' });
    await expect(dialog.getByRole('radio').nth(1)).toBeVisible();
    const before = await confirm.boundingBox();
    await dialog.getByLabel('Search projects').fill(target.name);
    await expect(dialog.getByRole('radio')).toHaveCount(1);
    // the list shrank to one project, and the button did not move under the pointer
    expect(await confirm.boundingBox()).toEqual(before);
    await dialog.getByRole('radio', { name: new RegExp(target.name) }).check();
    await dialog.getByRole('checkbox', { name: 'Copy the comments too' }).check();
    await expect(dialog).toContainText(`is created in`);
    await expect(dialog).toContainText('with its comments');
    await confirm.click();
    await expect(page).toHaveURL(new RegExp(`/projects/${target.id}/issues/\\d+$`));
    await expect(page.getByRole('heading', { level: 1, name: issue.title })).toBeVisible();
    await expect(page.getByRole('article', { name: /^Comment by / })).toContainText('Only for the team');
  });

  test('delete says what happens, then the issue is gone', async ({ page, api }) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete issue #${issue.iid}?` });
    await expect(dialog).toContainText('is deleted for good, with its comments');
    await dialog.getByRole('button', { name: 'Delete issue' }).click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/issues$`));
    expect((await api.call('GET', `/projects/${project.id}/issues/${issue.iid}`)).status).toBe(404);
  });
});

test('a Developer may not delete the issue and is told why; a comment is still his to write', async ({ page, api, connectAs }) => {
  const { project, path } = await newIssue(api);
  const developer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  await connectAs(page, developer.token);
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Delete…' })).toBeDisabled();
  await expect(page.getByText('Only Owners of this project and administrators can delete an issue.')).toBeVisible();
  // Developers edit the fields and may write internal notes (Reporter and up)
  await expect(commentForm(page).getByRole('checkbox', { name: /^Internal note/ })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Issue details' }).getByLabel('Find a label to add')).toBeVisible();
  // the platform says the same
  expect((await api.call('DELETE', path, { token: developer.token })).status).toBe(403);
});

test('where the browser blocks site data, the draft is kept in the page’s memory across a failed send and navigating away and back', async ({ page, api, consoleServer }) => {
  await blockSiteData(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const { project, issue, path } = await newIssue(api);
  // signed out, the deep link leads to connect and back (the token in memory only: no reload from here on)
  await page.goto(path);
  const connect = new ConnectPage(page);
  await connect.accessToken.fill(consoleServer.adminToken);
  await connect.submit.click();
  await expect(page).toHaveURL(`${consoleServer.baseURL}${path}`);
  const text = `Kept in memory ${unique()}`;
  await page.route(`**/api/v4/projects/${project.id}/issues/${issue.iid}/notes`, (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ message: 'Note could not be saved' }) }) : route.fallback(),
  );
  await commentForm(page).getByLabel('Comment', { exact: true }).fill(text);
  await commentForm(page).getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(commentForm(page).getByRole('alert')).toContainText('Note could not be saved');
  await new Shell(page).areas.getByRole('link', { name: 'People' }).click();
  await expect(page).toHaveURL(/\/users$/);
  await page.goBack();
  await expect(commentForm(page).getByLabel('Comment', { exact: true })).toHaveValue(text);
  expect(errors).toEqual([]);
});
