import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { IssueListPage } from './pages/issues.ts';

interface IssueAnswer {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  labels: string[];
  milestone: { title: string } | null;
  assignees: Array<{ id: number }>;
  moved_to_id: number | null;
}

const unique = () => randomBytes(4).toString('hex');

/** One search param of the page's URL (the router writes lists as JSON), for `expect.poll`. */
const params = (page: Page, name: string) => () => {
  const value = new URL(page.url()).searchParams.get(name);
  return value === null ? null : (JSON.parse(value) as unknown);
};

async function newProject(api: Api, namespaceId?: number) {
  const tag = unique();
  return api.post<{ id: number; path_with_namespace: string }>('/projects', { name: `issues-${tag}`, path: `issues-${tag}`, ...(namespaceId ? { namespace_id: namespaceId } : {}) });
}

async function newIssue(api: Api, projectId: number, title: string, labels: string[] = []) {
  return api.post<IssueAnswer>(`/projects/${projectId}/issues`, { title, labels: labels.join(',') });
}

async function projectIssues(api: Api, projectId: number, query = '') {
  return api.get<IssueAnswer[]>(`/projects/${projectId}/issues?per_page=100&state=all${query}`);
}

// every test makes its own projects and issues: they spread over both workers
test.describe.configure({ mode: 'parallel', timeout: 90_000 });
test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

test('triage a project’s list through its filter bar, a negated filter included, and reload to the same view', async ({ page, api }) => {
  const project = await newProject(api);
  const tag = unique();
  await newIssue(api, project.id, `Crash on save ${tag}`, ['bug', 'priority::high']);
  await newIssue(api, project.id, `Typo in footer ${tag}`, ['bug']);
  await newIssue(api, project.id, `Old browser quirk ${tag}`, ['bug', 'wontfix']);
  await newIssue(api, project.id, `Dark mode ${tag}`, ['feature']);
  const list = new IssueListPage(page);
  await page.goto(`/projects/${project.id}/issues`);
  await expect(list.rows()).toHaveCount(4);
  await expect(list.stateTab('Open 4')).toBeVisible();

  await list.addFilter('Label', 'is', 'bug');
  await expect(list.token('label is bug')).toBeVisible();
  await expect(list.rows()).toHaveCount(3);
  await list.addFilter('Label', 'is not', 'wontfix');
  await expect(list.token('label is not wontfix')).toBeVisible();
  await expect(list.rows()).toHaveCount(2);
  await expect(list.row(`Crash on save ${tag}`)).toBeVisible();
  await expect(list.row(`Typo in footer ${tag}`)).toBeVisible();
  // the counts follow the filters
  await expect(list.stateTab('Open 2')).toBeVisible();
  // a scoped label shows as its scope and its value
  await expect(list.row(`Crash on save ${tag}`).getByLabel('priority: high')).toBeVisible();
  await expect.poll(params(page, 'label')).toEqual(['bug']);
  await expect.poll(params(page, 'not_label')).toEqual(['wontfix']);

  // the same URL restores the same filters and rows
  await page.reload();
  await expect(list.token('label is bug')).toBeVisible();
  await expect(list.token('label is not wontfix')).toBeVisible();
  await expect(list.rows()).toHaveCount(2);
  await expect(list.row(`Crash on save ${tag}`)).toBeVisible();

  // the API agrees with what the list shows
  const expected = await projectIssues(api, project.id, '&state=opened&labels=bug&not[labels]=wontfix');
  expect(expected.map((issue) => issue.title).sort()).toEqual([`Crash on save ${tag}`, `Typo in footer ${tag}`]);

  // the order too is in the URL: by title, ascending, as the API orders them
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Title' });
  await page.getByRole('combobox', { name: 'Direction' }).selectOption({ label: 'Ascending' });
  await expect(list.rows().first()).toContainText(`Crash on save ${tag}`);
  await expect.poll(() => new URL(page.url()).searchParams.get('order_by')).toBe('title');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Direction' })).toHaveValue('asc');
  await expect(list.rows().first()).toContainText(`Crash on save ${tag}`);
  await expect(list.rows().nth(1)).toContainText(`Typo in footer ${tag}`);

  // removing a token widens the list again
  await list.removeToken('label is not wontfix').click();
  await expect(list.rows()).toHaveCount(3);
  await expect.poll(params(page, 'not_label')).toBeNull();

  // a wrong value is refused with a message and the typed value kept
  await list.addFilter('IID', 'is', 'abc');
  await expect(page.getByRole('form', { name: 'Add a filter' }).getByRole('alert')).toHaveText('An IID is a whole number above 0.');
  await expect(page.getByRole('form', { name: 'Add a filter' }).getByLabel('Value')).toHaveValue('abc');
});

test('the 3,000-issue tracker pages by keyset: Next follows the API’s cursor, and the page survives a reload', async ({ page, api }) => {
  const tracker = await api.projectId(DEMO_PATHS.issueTracker);
  const first = await api.call<IssueAnswer[]>('GET', `/projects/${tracker}/issues?state=opened&order_by=created_at&sort=desc&per_page=20&pagination=keyset`);
  const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
  expect(next).toBeTruthy();
  const second = await api.get<IssueAnswer[]>(next!.slice(next!.indexOf('/api/v4') + '/api/v4'.length));
  const list = new IssueListPage(page);
  await page.goto(`/projects/${tracker}/issues`);
  await expect(list.rows()).toHaveCount(20);
  await expect(list.rows().first()).toContainText(first.body[0].title);
  await page.getByRole('navigation', { name: 'Open issues pages' }).getByRole('link', { name: 'Next' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('cursor')).toBeTruthy();
  await expect(list.rows().first()).toContainText(second[0].title);
  await page.reload();
  await expect(list.rows().first()).toContainText(second[0].title);
  await expect(list.rows()).toHaveCount(20);
  await page.getByRole('navigation', { name: 'Open issues pages' }).getByRole('link', { name: 'First page' }).click();
  await expect(list.rows().first()).toContainText(first.body[0].title);
  // a keyset search that finds nothing says so, without "0 issues" and two dead page buttons
  await page.goto(`/projects/${tracker}/issues?search=${encodeURIComponent('no issue is called this')}`);
  await expect(page.getByText('No issue matches these filters.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Open issues pages' })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /issues/ })).toHaveCount(0);
});

test('a project with one open issue says "1 issue" under its list', async ({ page, api }) => {
  const project = await newProject(api);
  await newIssue(api, project.id, `Only ${unique()}`, []);
  const list = new IssueListPage(page);
  await page.goto(`/projects/${project.id}/issues`);
  await expect(list.rows()).toHaveCount(1);
  await expect(page.getByRole('status', { name: 'Shown: 1 issue', exact: true })).toHaveText('1 issue');
});

test('on a phone the filters fold away under "Filters"; a set filter opens them with its chip', async ({ page, api }) => {
  const tracker = await api.projectId(DEMO_PATHS.issueTracker);
  await page.setViewportSize({ width: 390, height: 844 });
  const list = new IssueListPage(page);
  await page.goto(`/projects/${tracker}/issues`);
  await expect(list.rows().first()).toBeInViewport();
  await expect(page.getByRole('search', { name: 'Filter issues' })).toBeHidden();
  await page.goto(`/projects/${tracker}/issues?search=settings`);
  await expect(page.getByText('Filters (1 set)', { exact: true })).toBeVisible();
  await expect(page.getByRole('search', { name: 'Filter issues' }).getByRole('button', { name: /^Remove filter / })).toBeVisible();
});

test('bulk edit 20 issues: labels added and removed, milestone and assignees set, checked through the API', async ({ page, api }) => {
  const project = await newProject(api);
  const [maya, diego] = [await api.userByUsername('maya.chen'), await api.userByUsername('diego.ramirez')];
  for (const user of [maya, diego]) await api.post(`/projects/${project.id}/members`, { user_id: user.id, access_level: 30 });
  const milestone = await api.post<{ id: number; title: string }>(`/projects/${project.id}/milestones`, { title: `Sprint ${unique()}` });
  for (let index = 1; index <= 20; index++) await newIssue(api, project.id, `Bulk ${index}`, ['needs-triage']);
  const list = new IssueListPage(page);
  await page.goto(`/projects/${project.id}/issues`);
  await expect(list.rows()).toHaveCount(20);
  await list.selectAll.check();
  await expect(page.getByRole('status').filter({ hasText: '20 selected' })).toBeVisible();
  await list.bulkForm.getByLabel('Add labels').fill('triaged, frontend');
  await list.bulkForm.getByLabel('Remove labels').fill('needs-triage');
  await list.bulkForm.getByLabel('Set milestone').selectOption({ label: milestone.title });
  await list.bulkForm.getByLabel('Set assignees').fill('maya.chen, @diego.ramirez');
  await list.bulkForm.getByRole('button', { name: 'Apply to 20 issues' }).click();
  await expect(list.outcome('20 of 20 changed.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Result per issue' }).getByRole('listitem')).toHaveCount(20);

  const issues = await projectIssues(api, project.id);
  expect(issues).toHaveLength(20);
  for (const issue of issues) {
    expect([...issue.labels].sort(), issue.title).toEqual(['frontend', 'triaged']);
    expect(issue.milestone?.title, issue.title).toBe(milestone.title);
    expect(issue.assignees.map((user) => user.id).sort(), issue.title).toEqual([maya.id, diego.id].sort());
  }
  // the list shows what the server holds now
  await expect(list.row('Bulk 7').getByText(milestone.title)).toBeVisible();
});

test('bulk move issues of two subgroups from the group list to another project, each through its own project', async ({ page, api }) => {
  const tag = unique();
  const group = await api.post<{ id: number }>('/groups', { name: `Move ${tag}`, path: `move-${tag}` });
  const first = await api.post<{ id: number }>('/groups', { name: 'first', path: `first-${tag}`, parent_id: group.id });
  const second = await api.post<{ id: number }>('/groups', { name: 'second', path: `second-${tag}`, parent_id: group.id });
  const [inFirst, inSecond] = [await newProject(api, first.id), await newProject(api, second.id)];
  const target = await newProject(api);
  // labels travel by name: the target has bug, so that label follows the moved issue
  await api.post(`/projects/${target.id}/labels`, { name: 'bug', color: '#dc143c' });
  const originals = [
    await newIssue(api, inFirst.id, `First A ${tag}`, ['bug']),
    await newIssue(api, inFirst.id, `First B ${tag}`),
    await newIssue(api, inSecond.id, `Second A ${tag}`, ['bug']),
  ];
  const list = new IssueListPage(page);
  await page.goto(`/groups/${group.id}/issues`);
  await expect(list.rows()).toHaveCount(3);
  await list.selectAll.check();
  await list.moveForm.getByLabel('Find a project').fill(target.path_with_namespace.split('/').pop()!);
  await list.moveForm.getByLabel('Move to project').selectOption({ label: target.path_with_namespace });
  await list.moveForm.getByRole('button', { name: 'Move 3 issues' }).click();
  const dialog = page.getByRole('alertdialog', { name: `Move 3 issues to ${target.path_with_namespace}?` });
  await dialog.getByRole('button', { name: 'Move 3 issues' }).click();
  await expect(list.outcome('3 of 3 moved.')).toBeVisible();

  const moved = await projectIssues(api, target.id);
  expect(moved.map((issue) => issue.title).sort()).toEqual([`First A ${tag}`, `First B ${tag}`, `Second A ${tag}`]);
  expect(moved.find((issue) => issue.title === `Second A ${tag}`)?.labels).toEqual(['bug']);
  for (const original of originals) {
    const now = await api.get<IssueAnswer>(`/projects/${original.project_id}/issues/${original.iid}`);
    expect(now.state).toBe('closed');
    expect(moved.map((issue) => issue.id)).toContain(now.moved_to_id);
  }
  // the group's open list is empty now: the originals are closed
  await expect(page.getByRole('status', { name: 'No open issues.' })).toBeVisible();
});

test('a failed issue of a bulk edit says which and why; the others go through', async ({ page, api }) => {
  const project = await newProject(api);
  await newIssue(api, project.id, 'Keeps going');
  const doomed = await newIssue(api, project.id, 'Deleted meanwhile');
  const list = new IssueListPage(page);
  await page.goto(`/projects/${project.id}/issues`);
  await expect(list.rows()).toHaveCount(2);
  await list.selectAll.check();
  await api.delete(`/projects/${project.id}/issues/${doomed.iid}`);
  await list.bulkForm.getByLabel('Set state').selectOption({ label: 'Close' });
  await list.bulkForm.getByRole('button', { name: 'Apply to 2 issues' }).click();
  await expect(list.outcome('1 of 2 changed, 1 failed.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Result per issue' }).getByText(new RegExp(`#${doomed.iid}: failed: .+`))).toBeVisible();
  // a name nobody has is refused before anything is sent
  await list.bulkForm.getByLabel('Set assignees').fill('nobody-has-this-name');
  await list.bulkForm.getByRole('button', { name: 'Apply to 1 issue' }).click();
  await expect(list.bulkForm.getByRole('alert')).toHaveText('No active user is named nobody-has-this-name.');
  await expect(list.bulkForm.getByLabel('Set assignees')).toHaveValue('nobody-has-this-name');
  // the failed one stays selected
  await expect(page.getByRole('status').filter({ hasText: '1 selected' })).toBeVisible();
  expect((await projectIssues(api, project.id)).map((issue) => issue.state)).toEqual(['closed']);
});

test('the instance list has its scope tabs, and the list with its bulk panel has no axe violations', async ({ page, api }) => {
  const project = await newProject(api);
  await newIssue(api, project.id, `Mine ${unique()}`, ['bug', 'priority::low']);
  const list = new IssueListPage(page);
  // with tokens in the bar, a negated one among them
  await page.goto(`/issues?scope=created_by_me&label=${encodeURIComponent('["bug"]')}&not_label=${encodeURIComponent('["wontfix"]')}`);
  await expect(list.token('label is not wontfix')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Whose issues' }).getByRole('link', { name: 'Created by me' })).toHaveAttribute('aria-current', 'page');
  await expect(list.rows().first()).toBeVisible();
  await list.rows().first().getByRole('checkbox').check();
  await expect(list.bulkForm).toBeVisible();
  expect(await axeViolations(page, 'issue list')).toEqual([]);
});

test('a read-only token sees the list and its filters, but no selection or bulk edit', async ({ browser, baseURL, api, connectAs }) => {
  const payments = await api.projectId(DEMO_PATHS.inheritedProject);
  const title = `Read only ${unique()}`;
  await newIssue(api, payments, title, ['bug']);
  // a context of its own: the file's other tests open signed in as the administrator
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    await page.goto(`/projects/${payments}/issues?search=${encodeURIComponent(title)}`);
    const list = new IssueListPage(page);
    await expect(list.row(title)).toBeVisible();
    await expect(list.token(`search is ${title}`)).toBeVisible();
    await expect(page.getByRole('note').filter({ hasText: 'read-only' })).toBeVisible();
    await expect(list.selectAll).toHaveCount(0);
    await expect(list.row(title).getByRole('checkbox')).toHaveCount(0);
    await expect(list.bulkForm).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('on a phone a label is never broken between its letters: the list scrolls in its box instead', async ({ page, api }) => {
  const project = await newProject(api);
  const issue = await newIssue(api, project.id, `Narrow labels ${unique()}`, ['feature', 'priority::high']);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/projects/${project.id}/issues`);
  const labels = page.getByRole('list', { name: `Labels of #${issue.iid}` }).getByRole('listitem');
  await expect(labels).toHaveCount(2);
  for (const label of await labels.all()) {
    // one line of text, wider than tall: squeezed to a letter's width it stood as a column of letters
    const box = (await label.boundingBox())!;
    expect(box.width).toBeGreaterThan(box.height);
  }
});
