import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { BranchesPage } from './pages/branches.ts';

interface BranchAnswer {
  name: string;
  merged: boolean;
  protected: boolean;
  commit: { id: string; short_id: string };
}

/**
 * A project of this test's own (the demo repositories stay as seeded): main, two feature
 * branches ahead of it, and fix/gamma and release/1.0 left behind on main's first commit
 * (merged). The sandbox has no project deletion; each project has a unique name.
 */
async function projectWithBranches(api: Api) {
  const project = await api.post<{ id: number; name_with_namespace: string }>('/projects', { name: `e2e-branches-${randomBytes(4).toString('hex')}` });
  const path = `/projects/${project.id}/repository`;
  for (const branch of ['fix/gamma', 'release/1.0', 'feature/alpha', 'feature/beta']) await api.post(`${path}/branches`, { branch, ref: 'main' });
  const commit = (branch: string, file: string) => api.post(`${path}/commits`, { branch, commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: `${file}\n` }] });
  await commit('main', 'main.txt');
  await commit('feature/alpha', 'alpha.txt');
  await commit('feature/beta', 'beta.txt');
  return project;
}

const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

test.describe('branches (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('search with anchors and an RE2 regex come from the URL; badges and last commits show', async ({ page, api }) => {
    const project = await projectWithBranches(api);
    const branches = new BranchesPage(page);
    await branches.goto(project.id, '?search=%5Efeature');
    await expect(branches.heading(`Branches of ${project.name_with_namespace}`)).toBeVisible();
    await expect(branches.search).toHaveValue('^feature');
    await expect.poll(() => branches.names()).toEqual(['feature/alpha', 'feature/beta']);
    await expect(branches.row('feature/alpha')).toContainText('Add alpha.txt');

    await branches.goto(project.id, `?regex=${encodeURIComponent('^(fix|release)/')}`);
    await expect(branches.match).toHaveValue('regex');
    await expect(branches.regex).toHaveValue('^(fix|release)/');
    await expect.poll(() => branches.names()).toEqual(['fix/gamma', 'release/1.0']);
    await expect(branches.badge('fix/gamma', 'merged')).toBeVisible();

    // the default branch: badged, and its delete disabled with the reason
    await branches.goto(project.id, '?search=main%24');
    await expect(branches.badge('main', 'default')).toBeVisible();
    await expect(branches.badge('main', 'protected')).toBeVisible();
    await expect(branches.deleteButton('main')).toBeDisabled();
    await expect(branches.deleteButton('main')).toHaveAccessibleDescription('The default branch of a project cannot be deleted.');
    // a press says why on screen (a title alone reached a mouse's hover, never a keyboard or a phone)
    await branches.deleteButton('main').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('The default branch of a project cannot be deleted.', { exact: true })).toBeVisible();
    await expect(branches.dialog).toHaveCount(0);

    // typing a regex puts it in the URL
    await branches.match.selectOption('regex');
    await branches.regex.fill('alpha$');
    await branches.regex.press('Enter');
    await expect.poll(param(page, 'regex')).toBe('alpha$');
    await expect.poll(param(page, 'search')).toBe(null);
    await expect.poll(() => branches.names()).toEqual(['feature/alpha']);
  });

  test('a regex RE2 refuses is refused in the browser with RE2\'s reason, and never sent', async ({ page, api }) => {
    const project = await projectWithBranches(api);
    const branches = new BranchesPage(page);
    const regexRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/repository/branches') && request.url().includes('regex=')) regexRequests.push(request.url());
    });
    await branches.goto(project.id, `?regex=${encodeURIComponent('^(?!feature)')}`);
    await expect(branches.alert(/RE2 cannot use this regular expression: invalid or unsupported Perl syntax: `\(\?!`/)).toBeVisible();
    await expect(branches.table).toHaveCount(0);
    expect(regexRequests).toEqual([]);

    await branches.goto(project.id, `?regex=${encodeURIComponent('(a)\\1')}`);
    await expect(branches.alert(/invalid escape sequence: `\\1`/)).toBeVisible();
    expect(regexRequests).toEqual([]);

    // RE2-only syntax a JavaScript RegExp lacks goes through, and the server agrees
    await branches.goto(project.id, `?regex=${encodeURIComponent('^\\Qfeature/\\E(?i:ALPHA)$')}`);
    await expect.poll(() => branches.names()).toEqual(['feature/alpha']);
    expect(regexRequests.length).toBeGreaterThan(0);
  });

  test('create from a ref (field error keeps input), protect with levels, unprotect, delete with confirmation', async ({ page, api }) => {
    const project = await projectWithBranches(api);
    const main = await api.get<BranchAnswer>(`/projects/${project.id}/repository/branches/main`);
    const branches = new BranchesPage(page);
    await branches.goto(project.id);
    await expect(branches.table).toBeVisible();

    await branches.newBranch.click();
    await expect(branches.field('Create from')).toHaveValue('main');
    await branches.field('Branch name').fill('e2e/new');
    await branches.field('Create from').fill('no-such-ref');
    await branches.dialogButton('Create branch').click();
    await expect(branches.dialog.getByText('No branch, tag or commit is named “no-such-ref”.')).toBeVisible();
    await expect(branches.field('Branch name')).toHaveValue('e2e/new');
    await branches.field('Create from').fill(main.commit.short_id);
    await branches.dialogButton('Create branch').click();
    await expect(branches.dialog).toHaveCount(0);
    await expect(branches.row('e2e/new')).toBeVisible();
    expect((await api.get<BranchAnswer>(`/projects/${project.id}/repository/branches/e2e%2Fnew`)).commit.id).toBe(main.commit.id);

    await branches.protectButton('e2e/new').click();
    await branches.field('Allowed to push').selectOption({ label: 'No one' });
    await branches.field('Allowed to merge').selectOption({ label: 'Developers + Maintainers' });
    await branches.dialog.getByRole('checkbox', { name: /Allow force push/ }).check();
    await branches.dialogButton('Protect').click();
    await expect(branches.dialog).toHaveCount(0);
    await expect(branches.badge('e2e/new', 'protected')).toBeVisible();
    await expect(branches.row('e2e/new')).toContainText('push: No one · merge: Developers + Maintainers · force push allowed');
    const protection = await api.get<{ push_access_levels: Array<{ access_level: number }>; merge_access_levels: Array<{ access_level: number }>; allow_force_push: boolean }>(
      `/projects/${project.id}/protected_branches/e2e%2Fnew`,
    );
    expect(protection.push_access_levels.map((level) => level.access_level)).toEqual([0]);
    expect(protection.merge_access_levels.map((level) => level.access_level)).toEqual([30]);
    expect(protection.allow_force_push).toBe(true);

    await branches.unprotectButton('e2e/new').click();
    await expect(branches.dialog).toContainText('Anyone allowed to push to the project can then push to e2e/new');
    await branches.dialogButton('Unprotect').click();
    await expect(branches.dialog).toHaveCount(0);
    await expect(branches.protectButton('e2e/new')).toBeVisible();
    expect((await api.call('GET', `/projects/${project.id}/protected_branches/e2e%2Fnew`)).status).toBe(404);

    await branches.deleteButton('e2e/new').click();
    await expect(branches.dialog).toContainText('The branch is removed from the repository');
    await branches.dialogButton('Cancel').click();
    await expect(branches.row('e2e/new')).toBeVisible();
    await branches.deleteButton('e2e/new').click();
    await branches.dialogButton('Delete branch').click();
    await expect(branches.dialog).toHaveCount(0);
    await expect(branches.row('e2e/new')).toHaveCount(0);
    expect((await api.call('GET', `/projects/${project.id}/repository/branches/e2e%2Fnew`)).status).toBe(404);
  });

  test('delete merged previews the merged, unprotected, non-default branches, then refreshes', async ({ page, api }) => {
    const project = await projectWithBranches(api);
    // merged but protected: stays, and is not in the preview
    await api.post(`/projects/${project.id}/protected_branches`, { name: 'release/1.0' });
    const branches = new BranchesPage(page);
    await branches.goto(project.id);
    await expect(branches.row('fix/gamma')).toBeVisible();
    await branches.deleteMerged.click();
    const preview = branches.dialog.getByRole('list', { name: 'Branches that will be deleted' });
    await expect(preview.getByRole('listitem')).toHaveCount(1);
    await expect(preview.getByRole('listitem')).toContainText('fix/gamma');
    await branches.dialogButton('Delete 1 merged branch').click();
    await expect(branches.dialog).toHaveCount(0);
    await expect(branches.row('fix/gamma')).toHaveCount(0);
    await expect.poll(() => branches.names()).toEqual(['feature/alpha', 'feature/beta', 'main', 'release/1.0']);
    const left = await api.get<BranchAnswer[]>(`/projects/${project.id}/repository/branches`);
    expect(left.map((branch) => branch.name)).toEqual(['feature/alpha', 'feature/beta', 'main', 'release/1.0']);

    // nothing left to delete: said so, and the confirmation cannot be given
    await branches.deleteMerged.click();
    await expect(branches.dialog.getByRole('status')).toContainText('No branch would be deleted');
    await expect(branches.dialogButton('Delete merged branches')).toBeDisabled();
    await branches.dialogButton('Cancel').click();
    await expect(branches.dialog).toHaveCount(0);
  });
});

test.describe('branches: list states', () => {
  test('a failing list shows the error with a retry that recovers; an empty filter says so', async ({ page, context, api, adminSession }) => {
    const project = await projectWithBranches(api);
    await applyAdminSession(context, adminSession);
    let failing = true;
    await page.route(`**/api/v4/projects/${project.id}/repository/branches?**`, (route) =>
      failing ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: '500 Internal Server Error' }) }) : route.continue(),
    );
    const branches = new BranchesPage(page);
    await branches.goto(project.id);
    // 5xx are retried with backoff first
    const panel = branches.alert('The instance had a problem');
    await expect(panel).toBeVisible({ timeout: 20_000 });
    failing = false;
    await panel.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => branches.names()).toEqual(['feature/alpha', 'feature/beta', 'fix/gamma', 'main', 'release/1.0']);

    await branches.goto(project.id, '?search=nothing-like-this');
    await expect(page.getByRole('status', { name: 'No branch matches this filter.' })).toBeVisible();
    await page.getByRole('link', { name: 'Clear the filter' }).click();
    await expect(branches.row('main')).toBeVisible();
  });
});

test.describe('branches (developer)', () => {
  test('protect is disabled with the reason; the server’s refusal to delete a protected branch is shown', async ({ page, api, connectAs }) => {
    const project = await projectWithBranches(api);
    const developer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await api.post(`/projects/${project.id}/protected_branches`, { name: 'release/1.0' });
    await connectAs(page, developer.token);
    const branches = new BranchesPage(page);
    await branches.goto(project.id);
    await expect(branches.protectButton('feature/alpha')).toBeDisabled();
    await expect(branches.page.getByRole('main').getByRole('note')).toContainText('Only Maintainers and Owners of this project can protect and unprotect branches.');
    await expect(branches.deleteButton('release/1.0')).toBeDisabled();
    await expect(branches.deleteButton('release/1.0')).toHaveAccessibleDescription('This branch is protected: only Maintainers and Owners can delete it.');
    await branches.deleteButton('release/1.0').click({ force: true });
    await expect(page.getByText('This branch is protected: only Maintainers and Owners can delete it.', { exact: true })).toBeVisible();
    await expect(branches.dialog).toHaveCount(0);

    // protected meanwhile, behind the screen's back: the platform refuses and the dialog says so
    await branches.deleteButton('feature/beta').click();
    await api.post(`/projects/${project.id}/protected_branches`, { name: 'feature/beta' });
    await branches.dialogButton('Delete branch').click();
    await expect(branches.dialog.getByRole('alert')).toContainText('The platform refused: You are not allowed to delete protected branches from this project.');
    await expect(branches.dialog).toBeVisible();
    expect((await api.call('GET', `/projects/${project.id}/repository/branches/feature%2Fbeta`)).status).toBe(200);
  });
});

test.describe('branches on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('the heading’s actions, wrapped below it, keep their distance from the filters', async ({ page, api }) => {
    const project = await projectWithBranches(api);
    await new BranchesPage(page).goto(project.id);
    const action = await page.getByRole('button', { name: 'Delete merged branches' }).boundingBox();
    const firstFilter = await page.getByLabel('Match').boundingBox();
    expect(action && firstFilter, 'both are on screen').toBeTruthy();
    // the heading keeps 12 px (var(--space-3)) below it; its wrapped actions did not (4 px)
    expect(firstFilter!.y - (action!.y + action!.height)).toBeGreaterThanOrEqual(10);
  });
});
