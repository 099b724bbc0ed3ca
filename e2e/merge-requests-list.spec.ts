import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { renderedLines } from './rendered-lines.ts';
import { DEMO_MERGE_REQUESTS } from '../sandbox/seed/demo.ts';

const unique = () => randomBytes(4).toString('hex');

/** One search param of the page's URL, for `expect.poll`: the router writes lists as JSON and plain words as they are. */
const param = (page: Page, name: string) => () => {
  const value = new URL(page.url()).searchParams.get(name);
  if (value === null) return null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
};

/** A project of its own with one branch per request, each with a commit, and a request from each. */
async function projectWithRequests(api: Api, requests: Array<{ title: string; labels: string[] }>) {
  const tag = unique();
  const project = await api.post<{ id: number }>('/projects', { name: `mr-list-${tag}`, path: `mr-list-${tag}` });
  const repository = `/projects/${project.id}/repository`;
  for (const [index, request] of requests.entries()) {
    const branch = `topic-${index}`;
    await api.post(`${repository}/branches`, { branch, ref: 'main' });
    await api.post(`${repository}/commits`, { branch, commit_message: `Work ${index}`, actions: [{ action: 'create', file_path: `work-${index}.txt`, content: `${index}\n` }] });
    await api.post(`/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title: request.title, labels: request.labels.join(',') });
  }
  return project.id;
}

test.describe.configure({ mode: 'parallel', timeout: 90_000 });

test('a reviewer finds the merge request awaiting their review in "Review requested from me"', async ({ page, api, connectAs }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const awaiting = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await connectAs(page, DEMO_TOKENS.developer.secret);
  await page.goto('/merge-requests');
  await expect(page.getByRole('heading', { level: 1, name: 'Merge requests' })).toBeVisible();
  const whose = page.getByRole('navigation', { name: 'Whose merge requests' });
  await expect(whose.getByRole('link', { name: 'Review requested from me' })).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: 'Open merge requests' });
  const row = table.getByRole('row').filter({ hasText: awaiting.title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(`!${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await expect(row).toContainText('@maya.chen');
  await expect(row).toContainText('@diego.ramirez');
  // every open request listed asks diego for a review
  for (const text of await table.getByRole('row').allInnerTexts()) if (!text.startsWith('Merge request')) expect(text).toContain('@diego.ramirez');
  expect(await axeViolations(page, 'review requested')).toEqual([]);

  // created by me: diego's own requests, none of them awaiting his review of maya's
  await whose.getByRole('link', { name: 'Created by me' }).click();
  await expect.poll(param(page, 'whose')).toBe('created_by_me');
  await expect(page.getByRole('link', { name: 'Created by me' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('row').filter({ hasText: awaiting.title })).toHaveCount(0);
});

/** The filter bar (`role="search"` named "Filter merge requests"): its tokens and the form that adds one, by role and label. */
function filterBar(page: Page) {
  const bar = page.getByRole('search', { name: 'Filter merge requests' });
  const form = bar.getByRole('form', { name: 'Add a filter' });
  return {
    bar,
    form,
    token: (text: string) => bar.getByRole('list', { name: 'Active filters' }).getByText(text, { exact: true }),
    remove: (text: string) => bar.getByRole('button', { name: `Remove filter ${text}`, exact: true }),
    async add(field: string, operator: 'is' | 'is not', value: string) {
      await form.getByRole('combobox', { name: 'Filter by' }).selectOption({ label: field });
      // a field without a negated form has its operator fixed at "is"
      const operatorSelect = form.getByRole('combobox', { name: 'Operator' });
      if (operator === 'is not' || (await operatorSelect.isEnabled())) await operatorSelect.selectOption({ label: operator });
      const input = form.getByLabel('Value');
      // a select for fixed values (draft), a text box with suggestions for the others
      if ((await input.evaluate((element) => element.tagName)) === 'SELECT') {
        await input.selectOption({ label: value });
        await form.getByRole('button', { name: 'Add filter' }).click();
      } else {
        await input.fill(value);
        await input.press('Enter');
      }
    },
  };
}

test('a project list filtered through the bar: a negated label and reviewer None, kept in the URL and through a reload', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const tag = unique();
  const maya = await api.userByUsername('maya.chen');
  const projectId = await projectWithRequests(api, [
    { title: `Draft: Dark mode ${tag}`, labels: ['frontend'] },
    { title: `Draft: Old browsers ${tag}`, labels: ['frontend', 'wontfix'] },
    { title: `Search box ${tag}`, labels: ['frontend'] },
  ]);
  await api.post(`/projects/${projectId}/members`, { user_id: maya.id, access_level: 30 });
  await api.put(`/projects/${projectId}/merge_requests/3`, { reviewer_ids: [maya.id] });
  await page.goto(`/projects/${projectId}/merge-requests`);
  const rows = page.getByRole('table', { name: 'Open merge requests' }).getByRole('row');
  await expect(rows).toHaveCount(4); // the header and three requests
  await expect(rows.filter({ hasText: `Draft: Dark mode ${tag}` })).toContainText('Draft');

  const filters = filterBar(page);
  await filters.add('Label', 'is not', 'wontfix');
  await expect(filters.token('label is not wontfix')).toBeVisible();
  await expect.poll(param(page, 'not_label')).toEqual(['wontfix']);
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: `Old browsers ${tag}` })).toHaveCount(0);

  // suggestions: the reviewer's value offers the platform's words and the users the API finds
  await filters.form.getByRole('combobox', { name: 'Filter by' }).selectOption({ label: 'Reviewer' });
  await filters.form.getByLabel('Value').fill('maya');
  await expect(filters.form.getByRole('option', { name: 'maya.chen', includeHidden: true })).toHaveCount(1);
  await expect(filters.form.getByRole('option', { name: 'None', includeHidden: true })).toHaveCount(1);

  await filters.add('Reviewer', 'is', 'None');
  await expect(filters.token('reviewer is None')).toBeVisible();
  await expect.poll(param(page, 'reviewer')).toBe('None');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Dark mode ${tag}` })).toHaveCount(1);

  // the same URL restores the same tokens and rows
  await page.reload();
  await expect(filters.token('label is not wontfix')).toBeVisible();
  await expect(filters.token('reviewer is None')).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Dark mode ${tag}` })).toHaveCount(1);
  expect(await axeViolations(page, 'project merge requests with filters')).toEqual([]);

  // the API agrees with what the list shows
  const expected = await api.get<Array<{ title: string }>>(`/projects/${projectId}/merge_requests?state=opened&reviewer_id=None&not[labels]=wontfix`);
  expect(expected.map((request) => request.title)).toEqual([`Draft: Dark mode ${tag}`]);

  // the reviewer instead: only maya's request; then drafts only hides it
  await filters.remove('reviewer is None').click();
  await filters.add('Reviewer', 'is', 'maya.chen');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Search box ${tag}` })).toHaveCount(1);
  await filters.add('Draft', 'is', 'yes');
  await expect.poll(param(page, 'draft')).toBe('yes');
  await expect(page.getByText('No merge request matches these filters.')).toBeVisible();

  // a value the API cannot take is refused with a message, the typed value kept
  await filters.form.getByRole('combobox', { name: 'Filter by' }).selectOption({ label: 'Target branch' });
  await expect(filters.form.getByRole('combobox', { name: 'Operator' })).toBeDisabled();
  await filters.form.getByLabel('Value').fill('   ');
  await filters.form.getByRole('button', { name: 'Add filter' }).click();
  await expect(filters.form.getByRole('alert')).toHaveText('Enter a value.');

  // clear all: the full list, and no filter left in the URL
  await filters.bar.getByRole('button', { name: 'Clear all filters' }).click();
  await expect(rows).toHaveCount(4);
  await expect.poll(param(page, 'not_label')).toBeNull();
  await expect.poll(param(page, 'reviewer')).toBeNull();
  await expect(filters.bar.getByText('No filters: add one below.')).toBeVisible();
});

test('filtered by who may approve: a name is looked up as the id the API takes, and None finds the requests no rule names anyone for', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const tag = unique();
  const maya = await api.userByUsername('maya.chen');
  const projectId = await projectWithRequests(api, [
    { title: `Needs Maya ${tag}`, labels: [] },
    { title: `Nobody named ${tag}`, labels: [] },
  ]);
  await api.post(`/projects/${projectId}/members`, { user_id: maya.id, access_level: 30 });
  await api.post(`/projects/${projectId}/merge_requests/1/approval_rules`, { name: 'Maya', approvals_required: 1, user_ids: [maya.id] });
  await page.goto(`/projects/${projectId}/merge-requests`);
  const rows = page.getByRole('table', { name: 'Open merge requests' }).getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(2);
  const filters = filterBar(page);
  await filters.add('Approver', 'is', 'maya.chen');
  await expect(filters.token('approver is maya.chen')).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.getByRole('link', { name: `Needs Maya ${tag}`, exact: true })).toBeVisible();
  await expect.poll(param(page, 'approver')).toEqual(['maya.chen']);
  await filters.remove('approver is maya.chen').click();
  await filters.add('Approver', 'is', 'None');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByRole('link', { name: `Nobody named ${tag}`, exact: true })).toBeVisible();
});

test('the approvals column shows given of required for the rows in view, asked for those rows only (none for another tab’s)', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const asked = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/\/merge_requests\/\d+\/approvals$/.test(path)) asked.add(path);
  });
  // the approvals are held back until the rows have been measured without them
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/merge_requests\/\d+\/approvals$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/projects/${webApp}/merge-requests`);
  const rows = page.getByRole('table', { name: 'Open merge requests' }).getByRole('row').filter({ has: page.getByRole('cell') });
  const shown = await api.get<Array<{ iid: number; title: string }>>(`/projects/${webApp}/merge_requests?state=opened&per_page=20`);
  await expect(rows).toHaveCount(shown.length);
  await expect(rows.getByText('Loading…')).toHaveCount(shown.length);
  const heights = async () => Promise.all((await rows.all()).map(async (row) => (await row.boundingBox())?.height));
  const before = await heights();
  release();
  await expect(rows.getByText('Loading…')).toHaveCount(0);
  // the counts arrived without moving a row
  expect(await heights()).toEqual(before);
  for (const request of shown) {
    const approvals = await api.get<{ approvals_required: number; approved_by: unknown[] }>(`/projects/${webApp}/merge_requests/${request.iid}/approvals`);
    const row = rows.filter({ has: page.getByRole('link', { name: request.title, exact: true }) });
    await expect(row.getByText(`${approvals.approved_by.length} of ${approvals.approvals_required}`, { exact: true })).toBeVisible();
  }
  // one request per row in view, none for the merged and closed requests of the other tabs
  expect([...asked].sort()).toEqual(shown.map((request) => `/api/v4/projects/${webApp}/merge_requests/${request.iid}/approvals`).sort());

  // the partly approved demo request: some approvals given, more needed
  const partly = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.partlyApproved}`);
  const partlyApprovals = await api.get<{ approvals_required: number; approved_by: unknown[]; approvals_left: number }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.partlyApproved}/approvals`);
  expect(partlyApprovals.approved_by.length).toBeGreaterThan(0);
  expect(partlyApprovals.approvals_left).toBeGreaterThan(0);
  await page.goto(`/projects/${webApp}/merge-requests?search=${encodeURIComponent(partly.title)}`);
  const row = rows.filter({ has: page.getByRole('link', { name: partly.title, exact: true }) });
  await expect(row.getByText(`${partlyApprovals.approved_by.length} of ${partlyApprovals.approvals_required}`, { exact: true })).toBeVisible();
  expect(await axeViolations(page, 'merge requests with approvals')).toEqual([]);
});

test('a group’s list by state tab and order: merged and closed requests of its projects, the order in the URL', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const group = await api.groupId(DEMO_PATHS.mergeRequests.split('/').slice(0, -1).join('/'));
  const merged = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.merged}`);
  const closed = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.closed}`);
  await page.goto(`/groups/${group}/merge-requests`);
  const states = page.getByRole('navigation', { name: 'Merge request states' });
  await expect(states.getByRole('link', { name: 'Open' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('row').filter({ hasText: merged.title })).toHaveCount(0);

  await states.getByRole('link', { name: 'Merged' }).click();
  await expect.poll(param(page, 'state')).toBe('merged');
  const row = page.getByRole('table', { name: 'Merged merge requests' }).getByRole('row').filter({ hasText: merged.title });
  await expect(row).toContainText('Merged');
  await expect(page.getByRole('row').filter({ hasText: closed.title })).toHaveCount(0);

  await states.getByRole('link', { name: 'Closed' }).click();
  await expect(page.getByRole('table', { name: 'Closed merge requests' }).getByRole('row').filter({ hasText: closed.title })).toHaveCount(1);

  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Title' });
  await page.getByRole('combobox', { name: 'Direction' }).selectOption({ label: 'Ascending' });
  await expect.poll(param(page, 'order_by')).toBe('title');
  await expect.poll(param(page, 'sort')).toBe('asc');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('title');
  await expect(page.getByRole('table', { name: 'Closed merge requests' })).toBeVisible();
});

test('a long label and a long unbroken title wrap in their cells: the list does not scroll sideways at 1440 px', async ({ page, context, adminSession, api }) => {
  const tag = unique();
  const label = `<img src=x onerror=window.__xss=true>${tag} ${'scoped-label-without-breaks-'.repeat(2)}${tag}`;
  const title = `Refactor-${'the-whole-configuration-loader-'.repeat(3)}${tag}`;
  const projectId = await projectWithRequests(api, [{ title, labels: [label] }]);
  await applyAdminSession(context, adminSession);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/projects/${projectId}/merge-requests`);
  const table = page.getByRole('table', { name: 'Open merge requests' });
  await expect(table.getByRole('row').filter({ hasText: tag })).toHaveCount(1);
  const sideways = await table.evaluate((element) => {
    const box = element.parentElement!;
    return box.scrollWidth - box.clientWidth;
  });
  expect(sideways).toBeLessThanOrEqual(1);
});

test('on a phone titles break between words: the title column keeps room for a word and the table scrolls in its box', async ({ page, context, adminSession, api }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const big = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.big}`);
  await applyAdminSession(context, adminSession);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/projects/${webApp}/merge-requests`);
  const lines = await page.getByRole('table', { name: 'Open merge requests' }).getByRole('link', { name: big.title, exact: true }).evaluate(renderedLines);
  expect(lines.join('')).toBe(big.title);
  // squeezed to a few letters' width it read "Design / tokens / generat / ed …"
  for (const line of lines.slice(0, -1)) expect(line).toMatch(/ $/);
});
