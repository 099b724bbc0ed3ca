import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { DEMO_PATHS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { renderedLines } from './rendered-lines.ts';

interface IssueAnswer {
  id: number;
  iid: number;
  title: string;
  labels: string[];
  state: string;
  relative_position: number | null;
  references: { short: string; full: string };
}

/** How the board names a card: `#12` on a project's board, the full reference on a group's. */
type Card = Pick<IssueAnswer, 'iid' | 'title'> & { ref?: string };
const refOf = (issue: Card) => issue.ref ?? `#${issue.iid}`;

/**
 * A project of the test's own: labels To do, Doing and Review, a board with the lists To do and
 * Doing, three issues in To do (created in order, so placed in order) and one with no label.
 */
async function boardProject(api: Api) {
  const tag = randomBytes(4).toString('hex');
  const project = await api.post<{ id: number }>('/projects', { name: `e2e-board-${tag}` });
  const base = `/projects/${project.id}`;
  const label = (name: string, color: string) => api.post<{ id: number; name: string }>(`${base}/labels`, { name, color });
  const todo = await label('To do', '#1f75cb');
  const doing = await label('Doing', '#e9be74');
  await label('Review', '#8fbc8f');
  const issue = (title: string, labels?: string) => api.post<IssueAnswer>(`${base}/issues`, { title, ...(labels ? { labels } : {}) });
  const first = await issue('Alpha card', 'To do');
  const second = await issue('Bravo card', 'To do');
  const third = await issue('Charlie card', 'To do');
  const loose = await issue('Delta card');
  const board = await api.post<{ id: number }>(`${base}/boards`, { name: `Board ${tag}` });
  await api.post(`${base}/boards/${board.id}/lists`, { label_id: todo.id });
  await api.post(`${base}/boards/${board.id}/lists`, { label_id: doing.id });
  return { project, board, issues: { first, second, third, loose }, base };
}

/** The cards of a column, as its list names them: "<column> issues". */
const column = (page: Page, name: string): Locator => page.getByRole('list', { name: `${name} issues`, exact: true });
const columnHeadings = (page: Page) => page.getByRole('group', { name: /^Board / }).getByRole('heading', { level: 2 });
const handle = (scope: Page | Locator, issue: Card) => scope.getByRole('button', { name: `Move ${refOf(issue)} ${issue.title}` });

async function issueLabels(api: Api, base: string, iid: number) {
  return (await api.get<IssueAnswer>(`${base}/issues/${iid}`)).labels;
}

/** The column's issues in their board order, as the API keeps it. */
async function columnOrder(api: Api, base: string, label: string) {
  const issues = await api.get<IssueAnswer[]>(`${base}/issues?state=opened&labels=${encodeURIComponent(label)}&order_by=relative_position&sort=asc`);
  return issues.map((issue) => issue.title);
}

/**
 * Moves a card by keyboard as a screen reader user does: Space picks it up, the arrows move it,
 * Space drops it; each step waits for the announcement of the drag's live region.
 */
async function keyboardMove(page: Page, issue: Card, steps: Array<[key: string, over: string]>) {
  // the board at rest: every column loaded (a column that renders anew during a drag re-measures under it)
  await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
  await handle(page, issue).focus();
  await page.keyboard.press('Space');
  // picked up: the live region says the card is over its own place
  await expect(page.getByRole('status').filter({ hasText: `${refOf(issue)} is over ${refOf(issue)} in` })).toBeAttached();
  // and the card's copy that follows the drag is drawn (the arrows move from where it is)
  await expect(page.getByText(issue.title, { exact: true })).toHaveCount(2);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  for (const [key, over] of steps) {
    await page.keyboard.press(key);
    await expect(page.getByRole('status').filter({ hasText: `${refOf(issue)} is over ` }).filter({ hasText: `${over}.` })).toBeAttached();
  }
  await page.keyboard.press('Space');
}

/** Drags by the pointer in small steps, as a hand does (the sensor starts after a few pixels). */
async function dragTo(page: Page, from: Locator, to: Locator) {
  const start = (await from.boundingBox())!;
  const end = (await to.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 10, start.y + start.height / 2, { steps: 5 });
  await page.mouse.move(end.x + end.width / 2, end.y + 40, { steps: 20 });
  await page.mouse.up();
}

test.describe('issue board', () => {
  test.describe.configure({ mode: 'parallel' });
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('moves a card to another list by pointer and by keyboard; labels change in one edit', async ({ page, api }) => {
    const { project, board, issues, base } = await boardProject(api);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await expect(handle(column(page, 'To do'), issues.first)).toBeVisible();
    await expect(handle(column(page, 'Open'), issues.loose)).toBeVisible();
    await expect(page.getByRole('region', { name: 'To do' }).getByText('3 issues')).toBeVisible();
    const mark = await api.requestMark();

    // pointer: Alpha from To do to Doing
    await dragTo(page, handle(page, issues.first), column(page, 'Doing'));
    await expect(handle(column(page, 'Doing'), issues.first)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: `#${issues.first.iid} moved to Doing` })).toBeVisible();
    await expect.poll(() => issueLabels(api, base, issues.first.iid)).toEqual(['Doing']);
    const edits = await api.requestsSince(mark, { method: 'PUT', path: `/api/v4/projects/${project.id}/issues/*` });
    expect(edits.map((request) => request.path)).toEqual([`/api/v4/projects/${project.id}/issues/${issues.first.iid}`]);

    // keyboard: Bravo from To do to Doing (the list to its right)
    await keyboardMove(page, issues.second, [['ArrowRight', `#${issues.first.iid} in Doing`]]);
    await expect(handle(column(page, 'Doing'), issues.second)).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: `#${issues.second.iid} moved to Doing` })).toBeVisible();
    await expect.poll(() => issueLabels(api, base, issues.second.iid)).toEqual(['Doing']);

    // keyboard to Closed closes it and takes the board's label off
    await keyboardMove(page, issues.third, [['ArrowRight', 'in Doing'], ['ArrowRight', 'column Closed']]);
    await expect(handle(column(page, 'Closed'), issues.third)).toBeVisible();
    await expect.poll(async () => (await api.get<IssueAnswer>(`${base}/issues/${issues.third.iid}`)).state).toBe('closed');
    expect(await issueLabels(api, base, issues.third.iid)).toEqual([]);
    await expect(page.getByRole('status').filter({ hasText: `#${issues.third.iid} moved to Closed` })).toBeVisible();

    // and out of Closed into the emptied To do: reopened with the list's label, in one edit
    await keyboardMove(page, issues.third, [['ArrowLeft', 'in Doing'], ['ArrowLeft', 'column To do']]);
    await expect(handle(column(page, 'To do'), issues.third)).toBeVisible();
    await expect.poll(async () => (await api.get<IssueAnswer>(`${base}/issues/${issues.third.iid}`)).state).toBe('opened');
    expect(await issueLabels(api, base, issues.third.iid)).toEqual(['To do']);
  });

  test('reorders a card within its column by keyboard; the API keeps the new order', async ({ page, api }) => {
    const { project, board, issues, base } = await boardProject(api);
    expect(await columnOrder(api, base, 'To do')).toEqual(['Alpha card', 'Bravo card', 'Charlie card']);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    const todo = column(page, 'To do');
    await expect(handle(todo, issues.third)).toBeVisible();
    const mark = await api.requestMark();
    await keyboardMove(page, issues.third, [['ArrowUp', `#${issues.second.iid} in To do`], ['ArrowUp', `#${issues.first.iid} in To do`]]);
    await expect(page.getByRole('status').filter({ hasText: `#${issues.third.iid} moved within To do` })).toBeVisible();
    await expect.poll(() => columnOrder(api, base, 'To do')).toEqual(['Charlie card', 'Alpha card', 'Bravo card']);
    await expect(todo.getByRole('listitem').first()).toContainText('Charlie card');
    // a reorder and no edit: the labels did not change
    const puts = await api.requestsSince(mark, { method: 'PUT', path: `/api/v4/projects/${project.id}/issues/*` });
    expect(puts.map((request) => request.path)).toEqual([`/api/v4/projects/${project.id}/issues/${issues.third.iid}/reorder`]);

    // by pointer: Bravo to the top of To do
    await dragTo(page, handle(page, issues.second), handle(todo, issues.third));
    await expect.poll(() => columnOrder(api, base, 'To do')).toEqual(['Bravo card', 'Charlie card', 'Alpha card']);
  });

  test('a drop sends one edit: the card cannot be moved again until its move is answered; focus stays on it', async ({ page, api }) => {
    const { project, board, issues, base } = await boardProject(api);
    let release = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/v4/projects/${project.id}/issues/${issues.first.iid}`, async (route) => {
      if (route.request().method() === 'PUT') await answered;
      await route.fallback();
    });
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    const mark = await api.requestMark();
    await keyboardMove(page, issues.first, [['ArrowRight', 'column Doing']]);
    const moved = handle(column(page, 'Doing'), issues.first);
    // the drag handle is disabled while the edit is on its way, and the keyboard stays on the card
    await expect(moved).toHaveAttribute('aria-disabled', 'true');
    await expect(moved).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    release();
    await expect(page.getByRole('status').filter({ hasText: `#${issues.first.iid} moved to Doing` })).toBeVisible();
    await expect(moved).not.toHaveAttribute('aria-disabled', 'true');
    const edits = await api.requestsSince(mark, { method: 'PUT', path: `/api/v4/projects/${project.id}/issues/*` });
    expect(edits.map((request) => request.path)).toEqual([`/api/v4/projects/${project.id}/issues/${issues.first.iid}`]);
    expect(await issueLabels(api, base, issues.first.iid)).toEqual(['Doing']);
  });

  test('a refused move puts the card back and says why', async ({ page, api }) => {
    const { project, board, issues, base } = await boardProject(api);
    await page.route(`**/api/v4/projects/${project.id}/issues/${issues.first.iid}`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: '403 Forbidden' }) })
        : route.fallback(),
    );
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await keyboardMove(page, issues.first, [['ArrowRight', 'column Doing']]);
    await expect(page.getByRole('alert').filter({ hasText: `#${issues.first.iid} could not be moved to Doing` })).toContainText('403 Forbidden');
    await expect(handle(column(page, 'To do'), issues.first)).toBeVisible();
    await expect(handle(column(page, 'Doing'), issues.first)).toHaveCount(0);
    expect(await issueLabels(api, base, issues.first.iid)).toEqual(['To do']);
  });

  test('a group board shows the issues of its subgroups’ projects and moves them in their own project', async ({ page, api }) => {
    const tag = randomBytes(4).toString('hex');
    const group = await api.post<{ id: number }>('/groups', { name: `Board group ${tag}`, path: `board-group-${tag}` });
    const project = async (name: string) => {
      const subgroup = await api.post<{ id: number }>('/groups', { name, path: `${name}-${tag}`, parent_id: group.id });
      return api.post<{ id: number }>('/projects', { name: `${name}-app`, namespace_id: subgroup.id });
    };
    const web = await project('web');
    const api2 = await project('api');
    const doing = await api.post<{ id: number }>(`/groups/${group.id}/labels`, { name: 'Doing', color: '#e9be74' });
    // across projects the board names each card by its full reference
    const card = (issue: IssueAnswer): Card => ({ ...issue, ref: issue.references.full });
    const webIssue = card(await api.post<IssueAnswer>(`/projects/${web.id}/issues`, { title: 'Web card' }));
    const apiIssue = card(await api.post<IssueAnswer>(`/projects/${api2.id}/issues`, { title: 'API card', labels: 'Doing' }));
    const board = await api.post<{ id: number }>(`/groups/${group.id}/boards`, { name: 'Company' });
    await api.post(`/groups/${group.id}/boards/${board.id}/lists`, { label_id: doing.id });

    await page.goto(`/groups/${group.id}/boards`);
    await expect(columnHeadings(page)).toHaveText(['Open', 'Doing', 'Closed']);
    await expect(handle(column(page, 'Doing'), apiIssue)).toBeVisible();
    await keyboardMove(page, webIssue, [['ArrowRight', `${apiIssue.ref} in Doing`]]);
    await expect(handle(column(page, 'Doing'), webIssue)).toBeVisible();
    await expect.poll(() => issueLabels(api, `/projects/${web.id}`, webIssue.iid)).toEqual(['Doing']);
    await expect(page.getByRole('status').filter({ hasText: `${webIssue.ref} moved to Doing` })).toBeVisible();
  });

  test('a Guest sees the board and its cards, with nothing that would change them', async ({ page, api, connectAs }) => {
    const { project, board, issues } = await boardProject(api);
    const guest = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: guest.id, access_level: 10 });
    await connectAs(page, guest.token);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await expect(column(page, 'To do').getByText(issues.first.title)).toBeVisible();
    await expect(page.getByText('needs the Planner role or above')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Move #/ })).toHaveCount(0);
    for (const name of ['Create board', 'Delete board', 'Add list', 'Remove list To do']) await expect(page.getByRole('button', { name })).toHaveCount(0);
  });

  test('a scoped label’s list title breaks after its scope, not inside a word', async ({ page, api }) => {
    await page.goto(`/projects/${await api.projectId(DEMO_PATHS.issueTracker)}/boards`);
    for (const title of ['workflow::triage', 'workflow::in dev']) {
      const lines = await columnHeadings(page).filter({ hasText: title }).evaluate(renderedLines);
      expect(lines.join('')).toBe(title);
      // each line but the last ends after the scope or at a space: how wide the heading is (its
      // count, its Remove button) decides which, never a break inside a word
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/(::| )$/);
    }
  });

  test('creates and removes a list; switches and creates boards; no axe violations', async ({ page, api }) => {
    const { project, board, base } = await boardProject(api);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await expect(page.getByRole('heading', { name: 'Doing', level: 2 })).toBeVisible();
    expect(await axeViolations(page, 'board')).toEqual([]);

    await page.getByRole('button', { name: 'Add list' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add list' });
    await dialog.getByRole('button', { name: 'Add list' }).click();
    await expect(dialog.getByText('Choose a label.')).toBeVisible();
    await dialog.getByRole('combobox', { name: 'Label' }).selectOption({ label: 'Review' });
    await dialog.getByRole('button', { name: 'Add list' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Review', level: 2 })).toBeVisible();
    const lists = async () => (await api.get<{ lists: Array<{ label: { name: string } }> }>(`${base}/boards/${board.id}`)).lists.map((list) => list.label.name);
    expect(await lists()).toEqual(['To do', 'Doing', 'Review']);

    await page.getByRole('button', { name: 'Remove list Doing' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove list Doing?' });
    await confirm.getByRole('button', { name: 'Remove list' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Doing', level: 2 })).toHaveCount(0);
    expect(await lists()).toEqual(['To do', 'Review']);

    // a second board, selected in the URL
    await page.getByRole('button', { name: 'Create board' }).click();
    const create = page.getByRole('dialog', { name: 'Create board' });
    await create.getByLabel('Board name').fill('Triage');
    await create.getByRole('button', { name: 'Create board' }).click();
    await expect(create).toBeHidden();
    await expect(page.getByRole('combobox', { name: 'Board' })).toHaveValue(/\d+/);
    const boards = await api.get<Array<{ id: number; name: string }>>(`${base}/boards`);
    const triage = boards.find((item) => item.name === 'Triage')!;
    await expect.poll(() => new URL(page.url()).searchParams.get('board')).toBe(String(triage.id));
    // a new board has only Open and Closed
    await expect(columnHeadings(page)).toHaveText(['Open', 'Closed']);
    await page.getByRole('combobox', { name: 'Board' }).selectOption(String(board.id));
    await expect.poll(() => new URL(page.url()).searchParams.get('board')).toBe(String(board.id));
    await expect(columnHeadings(page)).toHaveText(['Open', 'To do', 'Review', 'Closed']);
  });
});
