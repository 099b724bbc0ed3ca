import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, type Api } from './fixtures.ts';
import { FilesPage } from './pages/files.ts';
import { newSshKey } from './ssh-key.ts';

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
const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function newGroup(api: Api) {
  const tag = unique();
  return api.post<{ id: number; name: string }>('/groups', { name: `One write ${tag}`, path: `one-write-${tag}` });
}

async function newProject(api: Api) {
  return api.post<{ id: number }>('/projects', { name: `one-write-${unique()}` });
}

async function newServiceAccount(api: Api) {
  const username = `sa-${unique()}`;
  return api.post<{ id: number; name: string; username: string }>('/service_accounts', { name: `Service ${username}`, username });
}

async function newRunner(api: Api) {
  return api.post<{ id: number }>('/user/runners', { runner_type: 'instance_type', description: `One write ${unique()}` });
}

async function newSource(api: Api, kind: 'groups' | 'projects') {
  if (kind === 'groups') return newGroup(api);
  return api.post<{ id: number; name: string }>('/projects', { name: `one-write-${unique()}` });
}

async function commitFile(api: Api, projectId: number, branch: string, filePath: string) {
  return api.post<{ id: string }>(`/projects/${projectId}/repository/commits`, {
    branch,
    commit_message: `Add ${filePath}`,
    actions: [{ action: 'create', file_path: filePath, content: 'one write\n' }],
  });
}

/** The commits of main that touched a file: each write through the editor is one. */
async function commitsTouching(api: Api, projectId: number, filePath: string) {
  return api.get<unknown[]>(`/projects/${projectId}/repository/commits?ref_name=main&path=${encodeURIComponent(filePath)}`);
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
      await dialog.getByRole('checkbox', { name: 'read_api', exact: true }).check();
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

    test(`test a system hook (${press})`, async ({ page, api }) => {
      const hook = await newHook(api);
      await page.goto(`/admin/hooks/${hook.id}`);
      const mark = await api.requestMark();
      await pressTwice(page, press, page.getByRole('button', { name: 'Test hook', exact: true }));
      await expect(page.getByLabel('Test answer', { exact: true })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/hooks/${hook.id}`);
    });

    test(`unprotect a branch (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const name = `release/${unique()}`;
      await api.post(`/projects/${project.id}/repository/branches`, { branch: name, ref: 'main' });
      await api.post(`/projects/${project.id}/protected_branches`, { name });
      await page.goto(`/projects/${project.id}/branches`);
      await page.getByRole('button', { name: `Unprotect ${name}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Unprotect branch ${name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Unprotect', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/protected_branches/${encodeURIComponent(name)}`);
      expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/protected_branches`)).map((rule) => rule.name)).toEqual(['main']);
    });

    test(`delete a branch (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const name = `old/${unique()}`;
      await api.post(`/projects/${project.id}/repository/branches`, { branch: name, ref: 'main' });
      await page.goto(`/projects/${project.id}/branches`);
      await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete branch ${name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete branch', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/repository/branches/${encodeURIComponent(name)}`);
      expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/repository/branches?per_page=100`)).map((branch) => branch.name)).toEqual(['main']);
    });

    test(`delete merged branches (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const name = `merged/${unique()}`;
      await api.post(`/projects/${project.id}/repository/branches`, { branch: name, ref: 'main' });
      // a branch at the default branch's tip does not count as merged: main moves on
      await commitFile(api, project.id, 'main', `after-${unique()}.txt`);
      await page.goto(`/projects/${project.id}/branches`);
      await page.getByRole('button', { name: 'Delete merged branches', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete merged branches?' });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete 1 merged branch', exact: true }));
      // the dialog closes once the branch list has been fetched again, which a loaded machine slows
      await expect(dialog).toHaveCount(0, { timeout: 30_000 });
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/repository/merged_branches`);
      await expect.poll(async () => (await api.get<Array<{ name: string }>>(`/projects/${project.id}/repository/branches?per_page=100`)).map((branch) => branch.name)).toEqual(['main']);
    });

    test(`revoke a group access token (${press})`, async ({ page, api }) => {
      const group = await newGroup(api);
      const token = await api.post<{ id: number; name: string }>(`/groups/${group.id}/access_tokens`, { name: `token ${unique()}`, scopes: ['read_api'], expires_at: isoDay(30) });
      await page.goto(`/groups/${group.id}/access-tokens`);
      await page.getByRole('button', { name: `Revoke ${token.name}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Revoke ${token.name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Revoke token', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/groups/${group.id}/access_tokens/${token.id}`);
      expect((await api.get<{ active: boolean }>(`/groups/${group.id}/access_tokens/${token.id}`)).active).toBe(false);
    });

    test(`rotate a group access token (${press})`, async ({ page, api }) => {
      const group = await newGroup(api);
      const token = await api.post<{ id: number; name: string }>(`/groups/${group.id}/access_tokens`, { name: `token ${unique()}`, scopes: ['read_api'], expires_at: isoDay(30) });
      await page.goto(`/groups/${group.id}/access-tokens`);
      await page.getByRole('button', { name: `Rotate ${token.name}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Rotate ${token.name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Rotate token', exact: true }));
      await expect(page.getByRole('dialog', { name: 'The rotated access token' })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/groups/${group.id}/access_tokens/${token.id}/rotate`);
      // one new token; a second rotate would have revoked the whole family
      const family = (await api.get<Array<{ name: string; active: boolean }>>(`/groups/${group.id}/access_tokens`)).filter((each) => each.name === token.name);
      expect(family.map((each) => each.active).sort()).toEqual([false, true]);
    });

    test(`edit an instance service account (${press})`, async ({ page, api }) => {
      const account = await newServiceAccount(api);
      const name = `${account.name} edited`;
      await page.goto('/admin/service-accounts');
      await page.getByRole('button', { name: `Edit ${account.name}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Edit ${account.name}` });
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Save', exact: true }), dialog.getByLabel('Name', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'PATCH', `/api/v4/service_accounts/${account.id}`);
      expect((await api.get<{ name: string }>(`/users/${account.id}`)).name).toBe(name);
    });

    test(`create a service account's token (${press})`, async ({ page, api }) => {
      const account = await newServiceAccount(api);
      const name = `token ${unique()}`;
      await page.goto(`/admin/service-accounts/${account.id}/tokens`);
      await page.getByRole('main').getByRole('button', { name: 'New token', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `New token for ${account.name}`, exact: true });
      await dialog.getByLabel('Token name', { exact: true }).fill(name);
      await dialog.getByRole('checkbox', { name: 'read_api', exact: true }).check();
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Create token', exact: true }), dialog.getByLabel('Token name', { exact: true }));
      await expect(page.getByRole('dialog', { name: `New token of ${account.name}` })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/users/${account.id}/personal_access_tokens`);
      expect((await api.get<Array<{ name: string }>>(`/personal_access_tokens?user_id=${account.id}`)).filter((token) => token.name === name)).toHaveLength(1);
    });

    test(`delete an instance service account (${press})`, async ({ page, api }) => {
      const account = await newServiceAccount(api);
      await page.goto('/admin/service-accounts');
      await page.getByRole('button', { name: `Delete ${account.name}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete ${account.name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete service account', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/users/${account.id}`);
      await expect.poll(async () => (await api.call('GET', `/users/${account.id}`)).status).toBe(404);
    });

    test(`edit a runner (${press})`, async ({ page, api }) => {
      const runner = await newRunner(api);
      const description = `edited ${unique()}`;
      await page.goto(`/admin/runners/${runner.id}`);
      await page.getByRole('button', { name: 'Edit settings', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Edit runner #${runner.id}` });
      await dialog.getByLabel('Description', { exact: true }).fill(description);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Save changes', exact: true }), dialog.getByLabel('Description', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'PUT', `/api/v4/runners/${runner.id}`);
      expect((await api.get<{ description: string }>(`/runners/${runner.id}`)).description).toBe(description);
    });

    test(`pause a runner (${press})`, async ({ page, api }) => {
      const runner = await newRunner(api);
      await page.goto(`/admin/runners/${runner.id}`);
      const mark = await api.requestMark();
      await pressTwice(page, press, page.getByRole('button', { name: 'Pause runner', exact: true }));
      await expect(page.getByRole('button', { name: 'Resume runner', exact: true })).toBeVisible();
      await expectOneRequest(api, mark, 'PUT', `/api/v4/runners/${runner.id}`);
      expect((await api.get<{ paused: boolean }>(`/runners/${runner.id}`)).paused).toBe(true);
    });

    test(`reset a runner's token (${press})`, async ({ page, api }) => {
      const runner = await newRunner(api);
      await page.goto(`/admin/runners/${runner.id}`);
      await page.getByRole('button', { name: 'Reset token', exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Reset the token of runner #${runner.id}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Reset token', exact: true }));
      await expect(page.getByRole('dialog', { name: `New authentication token of runner #${runner.id}` })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/runners/${runner.id}/reset_authentication_token`);
    });

    test(`delete a runner (${press})`, async ({ page, api }) => {
      const runner = await newRunner(api);
      await page.goto(`/admin/runners/${runner.id}`);
      await page.getByRole('main').getByRole('button', { name: 'Delete runner', exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Delete runner #${runner.id}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete runner', exact: true }));
      await expect(page).toHaveURL(/\/admin\/runners$/);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/runners/${runner.id}`);
      expect((await api.call('GET', `/runners/${runner.id}`)).status).toBe(404);
    });

    for (const kind of ['groups', 'projects'] as const) {
      const where = kind === 'groups' ? 'group' : 'project';

      test(`add a ${where} member (${press})`, async ({ page, api }) => {
        const source = await newSource(api, kind);
        const person = await api.createUser();
        await page.goto(`/${kind}/${source.id}/members`);
        await page.getByRole('main').getByRole('button', { name: 'Add member', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: /^Add a member to / });
        await dialog.getByLabel('Search users by name or username', { exact: true }).fill(person.username);
        await dialog.getByRole('radio', { name: new RegExp(`@${person.username}`) }).check();
        await dialog.getByLabel('Role', { exact: true }).selectOption({ label: 'Developer' });
        const mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: `Add ${person.name}`, exact: true }), dialog.getByLabel('Access expires on', { exact: true }));
        await expect(dialog).toHaveCount(0);
        await expectOneRequest(api, mark, 'POST', `/api/v4/${kind}/${source.id}/members`);
        expect((await api.get<Array<{ id: number }>>(`/${kind}/${source.id}/members?per_page=100`)).filter((member) => member.id === person.id)).toHaveLength(1);
      });

      test(`edit a ${where} member's role and expiry (${press})`, async ({ page, api }) => {
        const source = await newSource(api, kind);
        const person = await api.createUser();
        await api.post(`/${kind}/${source.id}/members`, { user_id: person.id, access_level: 30 });
        const expires = isoDay(20);
        await page.goto(`/${kind}/${source.id}/members`);
        await page.getByRole('button', { name: `Edit ${person.name}`, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: `Edit ${person.name}'s membership` });
        await dialog.getByLabel('Role', { exact: true }).selectOption({ label: 'Maintainer' });
        await dialog.getByLabel('Access expires on', { exact: true }).fill(expires);
        const mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: 'Save', exact: true }), dialog.getByLabel('Access expires on', { exact: true }));
        await expect(dialog).toHaveCount(0);
        await expectOneRequest(api, mark, 'PUT', `/api/v4/${kind}/${source.id}/members/${person.id}`);
        expect(await api.get<{ access_level: number; expires_at: string }>(`/${kind}/${source.id}/members/${person.id}`)).toMatchObject({ access_level: 40, expires_at: expires });
      });

      test(`remove a ${where} member (${press})`, async ({ page, api }) => {
        const source = await newSource(api, kind);
        const person = await api.createUser();
        await api.post(`/${kind}/${source.id}/members`, { user_id: person.id, access_level: 30 });
        await page.goto(`/${kind}/${source.id}/members`);
        await page.getByRole('button', { name: `Remove ${person.name}`, exact: true }).click();
        const dialog = page.getByRole('alertdialog', { name: `Remove ${person.name}?` });
        const mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: 'Remove member', exact: true }));
        await expect(dialog).toHaveCount(0);
        await expectOneRequest(api, mark, 'DELETE', `/api/v4/${kind}/${source.id}/members/${person.id}`);
        expect((await api.call('GET', `/${kind}/${source.id}/members/${person.id}`)).status).toBe(404);
      });
    }

    test(`add a deploy key (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const title = `key ${unique()}`;
      await page.goto(`/projects/${project.id}/deploy-keys`);
      await page.getByRole('button', { name: 'Add deploy key', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a deploy key' });
      await dialog.getByLabel('Title', { exact: true }).fill(title);
      await dialog.getByLabel('Public key', { exact: true }).fill(newSshKey().text);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Add key', exact: true }), dialog.getByLabel('Title', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/deploy_keys`);
      expect((await api.get<Array<{ title: string }>>(`/projects/${project.id}/deploy_keys`)).map((key) => key.title)).toEqual([title]);
    });

    test(`edit a deploy key (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const key = await api.post<{ id: number; title: string }>(`/projects/${project.id}/deploy_keys`, { title: `key ${unique()}`, key: newSshKey().text });
      const title = `${key.title} edited`;
      await page.goto(`/projects/${project.id}/deploy-keys`);
      await page.getByRole('button', { name: `Edit ${key.title}`, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Edit deploy key ${key.title}` });
      await dialog.getByLabel('Title', { exact: true }).fill(title);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Save', exact: true }), dialog.getByLabel('Title', { exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}/deploy_keys/${key.id}`);
      expect((await api.get<{ title: string }>(`/projects/${project.id}/deploy_keys/${key.id}`)).title).toBe(title);
    });

    test(`enable an existing deploy key (${press})`, async ({ page, api }) => {
      const [project, other] = [await newProject(api), await newProject(api)];
      const key = await api.post<{ id: number; title: string }>(`/projects/${other.id}/deploy_keys`, { title: `key ${unique()}`, key: newSshKey().text });
      await page.goto(`/projects/${project.id}/deploy-keys`);
      await page.getByRole('button', { name: 'Enable an existing key', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Enable an existing deploy key' });
      await dialog.getByLabel('Filter keys by title or fingerprint', { exact: true }).fill(key.title);
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: `Enable ${key.title}`, exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/deploy_keys/${key.id}/enable`);
      expect((await api.get<Array<{ id: number }>>(`/projects/${project.id}/deploy_keys`)).map((each) => each.id)).toEqual([key.id]);
    });

    test(`remove a deploy key (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const key = await api.post<{ id: number; title: string }>(`/projects/${project.id}/deploy_keys`, { title: `key ${unique()}`, key: newSshKey().text });
      await page.goto(`/projects/${project.id}/deploy-keys`);
      await page.getByRole('button', { name: `Remove ${key.title}`, exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Remove deploy key ${key.title}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Remove key', exact: true }));
      await expect(dialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/deploy_keys/${key.id}`);
      expect(await api.get<unknown[]>(`/projects/${project.id}/deploy_keys`)).toEqual([]);
    });

    test(`create a file (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const files = new FilesPage(page);
      const name = `note-${unique()}.md`;
      await files.gotoTree(project.id, '', 'main');
      await files.action('New file').click();
      await files.fileName.fill(name);
      await files.content.fill('created\n');
      const mark = await api.requestMark();
      await pressTwice(page, press, files.submit('Commit new file'), files.targetBranch);
      await expect(files.heading(name)).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository/files/${name}`);
      expect(await commitsTouching(api, project.id, name)).toHaveLength(1);
    });

    test(`edit a file (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const files = new FilesPage(page);
      const name = `note-${unique()}.md`;
      await commitFile(api, project.id, 'main', name);
      await files.gotoEdit(project.id, name, 'main');
      await files.content.fill('edited\n');
      const mark = await api.requestMark();
      await pressTwice(page, press, files.submit('Commit changes'), files.targetBranch);
      await expect(files.code(name)).toContainText('edited');
      await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}/repository/files/${name}`);
      expect(await commitsTouching(api, project.id, name)).toHaveLength(2);
    });

    test(`delete a file (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const files = new FilesPage(page);
      const name = `note-${unique()}.md`;
      await commitFile(api, project.id, 'main', name);
      await files.gotoBlob(project.id, name, { ref: 'main' });
      await files.action('Delete').click();
      const mark = await api.requestMark();
      await pressTwice(page, press, files.confirmDialog.getByRole('button', { name: 'Delete file', exact: true }));
      await expect(files.confirmDialog).toHaveCount(0);
      await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/repository/files/${name}`);
      expect(await commitsTouching(api, project.id, name)).toHaveLength(2);
    });

    test(`commit several changes (${press})`, async ({ page, api }) => {
      const project = await newProject(api);
      const files = new FilesPage(page);
      const name = `docs/${unique()}.md`;
      await files.gotoTree(project.id, '', 'main');
      await files.action('Commit several changes').click();
      await files.stageForm.getByRole('textbox', { name: 'File path' }).fill(name);
      await files.stageForm.getByRole('textbox', { name: 'Content' }).fill('created\n');
      await files.stageForm.getByRole('button', { name: 'Stage change' }).click();
      await expect(files.stagedList.getByRole('listitem')).toHaveCount(1);
      await files.commitMessage.fill(`Add ${name}`);
      const mark = await api.requestMark();
      await pressTwice(page, press, files.submit('Commit 1 change'), files.targetBranch);
      await expect(files.stagedList).toHaveCount(0);
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository/commits`);
      expect(await commitsTouching(api, project.id, name)).toHaveLength(1);
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
