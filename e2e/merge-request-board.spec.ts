import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { DEMO_MERGE_REQUESTS } from '../sandbox/seed/demo.ts';

const unique = () => randomBytes(4).toString('hex');

/** A column of the board: a list named by its title and its count (e.g. "Approved: 1 merge request"). */
const column = (page: Page, title: string) => page.getByRole('list', { name: new RegExp(`^${title}: `) });
/** The card of a request, by its title's link. */
const card = (page: Page, title: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });

/** A project of its own (`merge_method` as given) with a branch and a commit per request, and a request from each. */
async function projectWithRequests(api: Api, requests: Array<{ title: string; labels?: string[] }>, settings: Record<string, unknown> = {}) {
  const tag = unique();
  const project = await api.post<{ id: number }>('/projects', { name: `mr-board-${tag}`, path: `mr-board-${tag}`, ...settings });
  const repository = `/projects/${project.id}/repository`;
  const iids: number[] = [];
  for (const [index, request] of requests.entries()) {
    const branch = `topic-${index}`;
    await api.post(`${repository}/branches`, { branch, ref: 'main' });
    await api.post(`${repository}/commits`, { branch, commit_message: `Work ${index}`, actions: [{ action: 'create', file_path: `work-${index}.txt`, content: `${index}\n` }] });
    const created = await api.post<{ iid: number }>(`/projects/${project.id}/merge_requests`, {
      source_branch: branch, target_branch: 'main', title: request.title, labels: (request.labels ?? []).join(','),
    });
    iids.push(created.iid);
  }
  return { projectId: project.id, iids };
}

test.describe.configure({ mode: 'parallel', timeout: 90_000 });

test('a request blocked by a rebase moves from "Awaiting review" to "Approved" once another user approves it', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const title = `Faster checkout ${unique()}`;
  // fast-forward only: a request behind its target needs a rebase, which review does not fix
  const { projectId, iids: [iid] } = await projectWithRequests(api, [{ title }], { merge_method: 'ff' });
  await api.post(`/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'Main moves on', actions: [{ action: 'create', file_path: 'main.txt', content: 'on\n' }] });
  const request = await api.get<{ sha: string; detailed_merge_status: string }>(`/projects/${projectId}/merge_requests/${iid}`);
  expect(request.detailed_merge_status).toBe('need_rebase');

  await page.goto(`/projects/${projectId}/merge-request-board`);
  await expect(page.getByRole('heading', { level: 1, name: /^Merge request board of / })).toBeVisible();
  await expect(column(page, 'Awaiting review')).toHaveAccessibleName('Awaiting review: 1 merge request');
  const awaiting = card(page, title);
  await expect(column(page, 'Awaiting review').getByRole('listitem')).toHaveCount(1);
  await expect(awaiting).toContainText(`!${iid}`);
  await expect(awaiting).toContainText('0 approvals');
  await expect(awaiting).toContainText('Needs a rebase');
  await expect(column(page, 'Approved')).toHaveAccessibleName('Approved: 0 merge requests');

  const reviewer = await api.createUser();
  await api.post(`/projects/${projectId}/members`, { user_id: reviewer.id, access_level: 30 });
  await api.post(`/projects/${projectId}/merge_requests/${iid}/approve`, { sha: request.sha }, { token: reviewer.token });

  await page.reload();
  await expect(column(page, 'Approved')).toHaveAccessibleName('Approved: 1 merge request');
  const approved = column(page, 'Approved').getByRole('listitem');
  await expect(approved).toHaveCount(1);
  await expect(approved).toContainText(title);
  await expect(approved).toContainText('1 approval');
  await expect(approved).toContainText('Needs a rebase');
  await expect(column(page, 'Awaiting review')).toHaveAccessibleName('Awaiting review: 0 merge requests');
  // the title opens the request
  await approved.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/merge-requests/${iid}$`));
});

test('filters in the URL are kept through a reload and carried to the list', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const tag = unique();
  const { projectId } = await projectWithRequests(api, [
    { title: `Draft: Dark mode ${tag}`, labels: ['frontend'] },
    { title: `Search box ${tag}`, labels: ['frontend'] },
    { title: `Old browsers ${tag}`, labels: ['wontfix'] },
  ]);
  await page.goto(`/projects/${projectId}/merge-request-board`);
  await expect(column(page, 'Draft')).toHaveAccessibleName('Draft: 1 merge request');
  await expect(column(page, 'Ready to merge')).toHaveAccessibleName('Ready to merge: 2 merge requests');

  await page.goto(`/projects/${projectId}/merge-request-board?draft=no&not_label=${encodeURIComponent(JSON.stringify(['wontfix']))}`);
  await expect(column(page, 'Ready to merge')).toHaveAccessibleName('Ready to merge: 1 merge request');
  await expect(card(page, `Search box ${tag}`)).toBeVisible();
  await expect(column(page, 'Draft')).toHaveAccessibleName('Draft: 0 merge requests');
  await page.reload();
  await expect(column(page, 'Ready to merge')).toHaveAccessibleName('Ready to merge: 1 merge request');
  await expect(card(page, `Old browsers ${tag}`)).toHaveCount(0);
  // the board shows its filters as the list does, as tokens of its filter bar
  const tokens = page.getByRole('search', { name: 'Filter merge requests' }).getByRole('list', { name: 'Active filters' });
  await expect(tokens.getByText('label is not wontfix', { exact: true })).toBeVisible();

  // the list of the same requests, with the same filters, and back
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'List' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${projectId}/merge-requests` && url.searchParams.get('draft') === 'no' && url.searchParams.get('not_label') === '["wontfix"]');
  const rows = page.getByRole('table', { name: 'Open merge requests' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'Board' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/projects/${projectId}/merge-request-board` && url.searchParams.get('draft') === 'no');
  await expect(column(page, 'Ready to merge')).toHaveAccessibleName('Ready to merge: 1 merge request');
});

test('a reviewer’s queue is one click from the lists and the boards, across projects', async ({ page, api, connectAs }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const awaiting = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await connectAs(page, DEMO_TOKENS.developer.secret);
  await page.goto(`/projects/${webApp}/merge-requests`);
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'My review queue' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/merge-requests/board');
  await expect(page.getByRole('heading', { level: 1, name: 'My review queue' })).toBeVisible();
  const mine = card(page, awaiting.title);
  await expect(mine).toContainText(`${DEMO_PATHS.mergeRequests}!${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await expect(mine.getByRole('list', { name: /^Reviewers of / })).toContainText('Diego Ramírez');
  await expect(column(page, 'Awaiting review')).toContainText(awaiting.title);

  // from a project's board too, and the sidebar's entry is current there
  await page.goto(`/projects/${webApp}/merge-request-board`);
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'My review queue' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My review queue' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Review queue' })).toHaveAttribute('aria-current', 'page');
  // the queue's list is the "review requested" list
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'List' }).click();
  await expect(page.getByRole('navigation', { name: 'Whose merge requests' }).getByRole('link', { name: 'Review requested from me' })).toHaveAttribute('aria-current', 'page');
});

test('a group’s board holds its projects’ requests, with full references, and is in the group’s sidebar', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const group = await api.groupId(DEMO_PATHS.mergeRequests.split('/').slice(0, -1).join('/'));
  const awaiting = await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await page.goto(`/groups/${group}/merge-requests`);
  await page.getByRole('navigation', { name: 'Merge request views' }).getByRole('link', { name: 'Board' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/groups/${group}/merge-request-board`);
  await expect(page.getByRole('heading', { level: 1, name: /^Merge request board of / })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Merge request board' })).toHaveAttribute('aria-current', 'page');
  await expect(card(page, awaiting.title)).toContainText(`${DEMO_PATHS.mergeRequests}!${DEMO_MERGE_REQUESTS.awaitingReview}`);
  await expect(column(page, 'Awaiting review')).toContainText(awaiting.title);
});

test('the demo board: every review state in its column, titles as text, no axe violation', async ({ page, context, adminSession, api }) => {
  await applyAdminSession(context, adminSession);
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  const titleOf = async (iid: number) => (await api.get<{ title: string }>(`/projects/${webApp}/merge_requests/${iid}`)).title;
  await page.goto(`/projects/${webApp}/merge-request-board`);
  await expect(page.getByRole('status').filter({ hasText: /open merge requests?$/ })).toBeVisible();
  await expect(column(page, 'Draft')).toContainText(await titleOf(DEMO_MERGE_REQUESTS.draft));
  await expect(column(page, 'Awaiting review')).toContainText(await titleOf(DEMO_MERGE_REQUESTS.awaitingReview));
  const partly = card(page, await titleOf(DEMO_MERGE_REQUESTS.partlyApproved));
  await expect(partly).toContainText('1 of 2 approvals');
  await expect(column(page, 'Changes to make')).toContainText(await titleOf(DEMO_MERGE_REQUESTS.conflict));
  await expect(column(page, 'Changes to make')).toContainText(await titleOf(DEMO_MERGE_REQUESTS.unresolvedThreads));
  await expect(column(page, 'Ready to merge')).toContainText(await titleOf(DEMO_MERGE_REQUESTS.approved));
  await expect(card(page, await titleOf(DEMO_MERGE_REQUESTS.approved))).toContainText('2 of 2 approvals');
  await expect(page.getByText(await titleOf(DEMO_MERGE_REQUESTS.closed))).toHaveCount(0);
  expect(await axeViolations(page, 'merge request board')).toEqual([]);

  // a title that is markup stays text; a request merged today is in Merged
  const markup = `<img src=x onerror="window.__boardXss=1">Checkout <b>${unique()}</b>`;
  const { projectId, iids } = await projectWithRequests(api, [{ title: markup }, { title: `Merged today ${unique()}` }]);
  await api.put(`/projects/${projectId}/merge_requests/${iids[1]}/merge`, {});
  await page.goto(`/projects/${projectId}/merge-request-board`);
  await expect(page.getByRole('link', { name: markup, exact: true })).toBeVisible();
  await expect(column(page, 'Merged in the last 7 days')).toHaveAccessibleName('Merged in the last 7 days: 1 merge request');
  await expect(column(page, 'Merged in the last 7 days')).toContainText('Merged today');
  expect(await page.evaluate(() => (window as unknown as { __boardXss?: number }).__boardXss)).toBeUndefined();
  await expect(page.getByRole('main').getByRole('img', { includeHidden: true })).toHaveCount(0);
});
