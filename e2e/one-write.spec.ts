import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, type Api } from './fixtures.ts';

/**
 * One press, one write: every create and update form, and the one-click writes, pressed the way
 * an impatient user does. The sandbox's request log (its test control) counts what arrived, and
 * the API shows that exactly one object was made or changed. New areas add their forms here.
 */

/**
 * A double click, Enter twice where a user would press it (a form field, or the focused button),
 * and two clicks in one task: the second lands before the screen can re-render, as on a slow
 * device or during a form's validation, so no disabled button can stop it.
 */
type Press = 'double click' | 'Enter twice' | 'two clicks before a render';
const PRESSES: Press[] = ['double click', 'Enter twice', 'two clicks before a render'];

async function pressTwice(page: Page, press: Press, button: Locator, enterOn: Locator = button) {
  await expect(button).toBeEnabled();
  if (press === 'double click') return button.dblclick();
  if (press === 'two clicks before a render') {
    return button.evaluate((element: HTMLElement) => {
      element.click();
      element.click();
    });
  }
  await enterOn.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
}

/** Once the outcome shows, every request the presses started has arrived: exactly one may have. */
async function expectOneRequest(api: Api, mark: number, method: string, path: string) {
  const arrived = await api.requestsSince(mark, { method, path });
  expect(arrived.map((request) => `${request.method} ${request.path}`), `${method} ${path}`).toEqual([`${method} ${path}`]);
}

const unique = () => randomBytes(4).toString('hex');

async function newGroup(api: Api) {
  const tag = unique();
  return api.post<{ id: number; name: string }>('/groups', { name: `One write ${tag}`, path: `one-write-${tag}` });
}

async function newProject(api: Api) {
  return api.post<{ id: number }>('/projects', { name: `one-write-${unique()}` });
}

async function newHook(api: Api) {
  const hook = await api.post<{ id: number; url: string }>('/hooks', { url: `http://127.0.0.1:9/one-write-${unique()}` });
  api.deleteAfter(`/hooks/${hook.id}`);
  return hook;
}

test.describe('one press sends one write', () => {
  test.beforeEach(async ({ page, connectAs, consoleServer }) => {
    await connectAs(page, consoleServer.adminToken);
  });

  for (const press of PRESSES) {
    test(`add a system hook (${press})`, async ({ page, api }) => {
      const url = `http://127.0.0.1:9/one-write-${unique()}`;
      await page.goto('/admin/hooks/new');
      const form = page.getByRole('form', { name: 'New system hook' });
      await form.getByLabel('URL', { exact: true }).fill(url);
      const mark = await api.requestMark();
      await pressTwice(page, press, form.getByRole('button', { name: 'Add system hook', exact: true }), form.getByLabel('URL', { exact: true }));
      await expect(page).toHaveURL(/\/admin\/hooks\/\d+$/);
      await expectOneRequest(api, mark, 'POST', '/api/v4/hooks');
      const made = (await api.get<Array<{ id: number; url: string }>>('/hooks?per_page=100')).filter((hook) => hook.url === url);
      for (const hook of made) api.deleteAfter(`/hooks/${hook.id}`);
      expect(made).toHaveLength(1);
    });

    test(`edit a system hook (${press})`, async ({ page, api }) => {
      const hook = await newHook(api);
      const url = `${hook.url}-edited`;
      await page.goto(`/admin/hooks/${hook.id}`);
      const form = page.getByRole('form', { name: 'Hook settings' });
      await form.getByLabel('URL', { exact: true }).fill(url);
      const mark = await api.requestMark();
      await pressTwice(page, press, form.getByRole('button', { name: 'Save changes', exact: true }), form.getByLabel('URL', { exact: true }));
      await expect.poll(async () => (await api.get<{ url: string }>(`/hooks/${hook.id}`)).url).toBe(url);
      // the form is shown afresh after a save: its button is back
      await expect(form.getByRole('button', { name: 'Save changes', exact: true })).toBeEnabled();
      await expectOneRequest(api, mark, 'PUT', `/api/v4/hooks/${hook.id}`);
    });

    test(`set a hook's URL variable (${press})`, async ({ page, api }) => {
      const hook = await newHook(api);
      // letters first, then digits (the platform's rule for keys)
      const key = `onewrite${Date.now() % 1_000_000}`;
      await page.goto(`/admin/hooks/${hook.id}`);
      const form = page.getByRole('form', { name: 'Set a URL variable' });
      await form.getByLabel('Variable key', { exact: true }).fill(key);
      await form.getByLabel('Variable value', { exact: true }).fill('value');
      const mark = await api.requestMark();
      await pressTwice(page, press, form.getByRole('button', { name: 'Save variable', exact: true }), form.getByLabel('Variable value', { exact: true }));
      await expect(page.getByRole('list', { name: 'URL variable keys' }).getByText(key, { exact: true })).toBeVisible();
      await expectOneRequest(api, mark, 'PUT', `/api/v4/hooks/${hook.id}/url_variables/${key}`);
      expect((await api.get<{ url_variables: Array<{ key: string }> }>(`/hooks/${hook.id}`)).url_variables).toEqual([{ key }]);
    });

    test(`delete a system hook (${press})`, async ({ page, api }) => {
      const hook = await newHook(api);
      await page.goto(`/admin/hooks/${hook.id}`);
      await page.getByRole('main').getByRole('button', { name: 'Delete hook', exact: true }).click();
      const confirm = page.getByRole('alertdialog').getByRole('button', { name: 'Delete hook', exact: true });
      const mark = await api.requestMark();
      await pressTwice(page, press, confirm);
      await expect(page).toHaveURL(/\/admin\/hooks$/);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/hooks/${hook.id}`);
      expect((await api.call('GET', `/hooks/${hook.id}`)).status).toBe(404);
    });

    test(`create a group access token (${press})`, async ({ page, api }) => {
      const group = await newGroup(api);
      const name = `token ${unique()}`;
      await page.goto(`/groups/${group.id}/access-tokens`);
      await page.getByRole('main').getByRole('button', { name: 'New token', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `New access token for ${group.name}`, exact: true });
      await dialog.getByLabel('Token name', { exact: true }).fill(name);
      await dialog.getByRole('checkbox', { name: /^read_api ?:/ }).check();
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Create token', exact: true }), dialog.getByLabel('Token name', { exact: true }));
      await expect(page.getByRole('dialog', { name: 'Your new access token' })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/groups/${group.id}/access_tokens`);
      const tokens = await api.get<Array<{ name: string }>>(`/groups/${group.id}/access_tokens`);
      expect(tokens.filter((token) => token.name === name)).toHaveLength(1);
    });

    test(`create an instance service account (${press})`, async ({ page, api }) => {
      const username = `sa-${unique()}`;
      await page.goto('/admin/service-accounts');
      await page.getByRole('main').getByRole('button', { name: 'New service account', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name', { exact: true }).fill(`Service ${username}`);
      await dialog.getByLabel('Username', { exact: true }).fill(username);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Create service account', exact: true }), dialog.getByLabel('Username', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', '/api/v4/service_accounts');
      expect(await api.get<unknown[]>(`/users?username=${username}`)).toHaveLength(1);
    });

    test(`create a branch (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const name = `feature/${unique()}`;
      await page.goto(`/projects/${project.id}/branches`);
      await page.getByRole('button', { name: 'New branch', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'New branch' });
      await dialog.getByLabel('Branch name', { exact: true }).fill(name);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Create branch', exact: true }), dialog.getByLabel('Branch name', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository/branches`);
      expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/repository/branches?per_page=100`)).filter((branch) => branch.name === name)).toHaveLength(1);
    });

    test(`protect a branch (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const name = `release/${unique()}`;
      await api.post(`/projects/${project.id}/repository/branches`, { branch: name, ref: 'main' });
      await page.goto(`/projects/${project.id}/branches`);
      await page.getByRole('button', { name: `Protect ${name}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Protect branch ${name}` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Protect', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/protected_branches`);
      expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/protected_branches`)).filter((branch) => branch.name === name)).toHaveLength(1);
    });

    test(`follow a user (${press})`, async ({ page, api }) => {
      const person = await api.createUser();
      await page.goto(`/users/${person.id}`);
      const mark = await api.requestMark();
      await pressTwice(page, press, page.getByRole('button', { name: 'Follow', exact: true }));
      await expect(page.getByRole('button', { name: 'Unfollow', exact: true })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/users/${person.id}/follow`);
      expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4/users/${person.id}/unfollow` })).toEqual([]);
      expect(await api.get<unknown[]>(`/users/${person.id}/followers`)).toHaveLength(1);
    });
  }

  test('after a 5xx the hook may have been made: the console checks, then offers to send it again, and one hook is made', async ({ page, api }) => {
    const url = `http://127.0.0.1:9/one-write-${unique()}`;
    await page.goto('/admin/hooks');
    await page.getByRole('main').getByRole('link', { name: 'Add system hook', exact: true }).click();
    const form = page.getByRole('form', { name: 'New system hook' });
    await form.getByLabel('URL', { exact: true }).fill(url);
    await api.injectFault({ path: '/api/v4/hooks', methods: ['POST'], error_rate: 1, error_status: 503, times: 1 });
    const mark = await api.requestMark();
    await form.getByRole('button', { name: 'Add system hook', exact: true }).click();
    const notice = page.getByRole('status').filter({ hasText: 'The request may have gone through' });
    await expect(notice).toContainText('fetched again from the server');
    const [failed] = await api.requestsSince(mark, { method: 'POST', path: '/api/v4/hooks' });
    expect(failed?.status).toBe(503);
    // the check: the hook list was fetched after the failed request, before any retry
    expect(await api.requestsSince(failed!.id, { method: 'GET', path: '/api/v4/hooks' })).not.toEqual([]);
    const retryMark = await api.requestMark();
    await pressTwice(page, 'two clicks before a render', notice.getByRole('button', { name: 'Try again', exact: true }));
    await expect(page).toHaveURL(/\/admin\/hooks\/\d+$/);
    await expectOneRequest(api, retryMark, 'POST', '/api/v4/hooks');
    const made = (await api.get<Array<{ id: number; url: string }>>('/hooks?per_page=100')).filter((hook) => hook.url === url);
    for (const hook of made) api.deleteAfter(`/hooks/${hook.id}`);
    expect(made).toHaveLength(1);
  });
});
