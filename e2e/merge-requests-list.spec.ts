import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
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

test('a project list filtered to drafts and without a label, kept through a reload', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const tag = unique();
  const projectId = await projectWithRequests(api, [
    { title: `Draft: Dark mode ${tag}`, labels: ['frontend'] },
    { title: `Draft: Old browsers ${tag}`, labels: ['frontend', 'wontfix'] },
    { title: `Search box ${tag}`, labels: ['frontend'] },
  ]);
  await page.goto(`/projects/${projectId}/merge-requests`);
  const rows = page.getByRole('table', { name: 'Open merge requests' }).getByRole('row');
  await expect(rows).toHaveCount(4); // the header and three requests
  await expect(rows.filter({ hasText: `Draft: Dark mode ${tag}` })).toContainText('Draft');

  const filters = page.getByRole('form', { name: 'Merge request filters' });
  await filters.getByLabel('Draft').selectOption({ label: 'Drafts only' });
  await filters.getByLabel('Labels are not').fill('wontfix');
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect.poll(param(page, 'draft')).toBe('yes');
  await expect.poll(param(page, 'not_label')).toEqual(['wontfix']);
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Dark mode ${tag}` })).toHaveCount(1);

  await page.reload();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Dark mode ${tag}` })).toHaveCount(1);
  await expect(filters.getByLabel('Draft')).toHaveValue('yes');
  await expect(filters.getByLabel('Labels are not')).toHaveValue('wontfix');
  expect(await axeViolations(page, 'project merge requests')).toEqual([]);

  // not drafts: the one ready request
  await filters.getByLabel('Draft').selectOption({ label: 'Not drafts' });
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Search box ${tag}` })).toHaveCount(1);

  // a filter that hides everything says so and clears back to the full list
  await filters.getByLabel('Author', { exact: true }).fill(`nobody-${tag}`);
  await filters.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByText('No merge request matches these filters.')).toBeVisible();
  await page.getByRole('link', { name: 'Clear the filters' }).click();
  await expect(rows).toHaveCount(4);
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
