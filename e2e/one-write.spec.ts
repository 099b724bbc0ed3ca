import { randomBytes } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { test, expect, applyAdminSession, type Api } from './fixtures.ts';
import { CommitPage } from './pages/commits.ts';
import { Shell } from './pages/shell.ts';
import { FilesPage } from './pages/files.ts';
import { IssueListPage } from './pages/issues.ts';
import { PipelinesPage, RunPipelinePage } from './pages/pipelines.ts';
import { RunnerFleetPage } from './pages/runners.ts';
import { StorageMovesPage } from './pages/storage-moves.ts';
import { newSshKey } from './ssh-key.ts';
import { newPackagesProject, uploadGeneric } from './packages-api.ts';
import { jobNamed, newCiProject, settledPipeline } from './ci.ts';
import { pushTags } from './registry-control.ts';

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

async function newGroupToken(api: Api, groupId: number, daysLeft: number) {
  return api.post<{ id: number; name: string }>(`/groups/${groupId}/access_tokens`, { name: `token ${unique()}`, scopes: ['read_api'], expires_at: isoDay(daysLeft) });
}

async function newProject(api: Api) {
  return api.post<{ id: number; name: string; path_with_namespace: string }>('/projects', { name: `one-write-${unique()}` });
}

/** A project runner of a new project, and another new project it does not serve yet. */
async function newProjectRunner(api: Api) {
  const [home, other] = [await newProject(api), await newProject(api)];
  api.deleteAfter(`/projects/${home.id}`);
  api.deleteAfter(`/projects/${other.id}`);
  const runner = await api.post<{ id: number }>('/user/runners', { runner_type: 'project_type', project_id: home.id });
  return { other, runner };
}

async function newServiceAccount(api: Api) {
  const username = `sa-${unique()}`;
  return api.post<{ id: number; name: string; username: string }>('/service_accounts', { name: `Service ${username}`, username });
}

async function newAccountToken(api: Api, userId: number) {
  return api.post<{ id: number; name: string }>(`/users/${userId}/personal_access_tokens`, { name: `token ${unique()}`, scopes: ['read_api'], expires_at: isoDay(30) });
}

async function accountTokens(api: Api, userId: number) {
  return api.get<Array<{ id: number; name: string; active: boolean }>>(`/personal_access_tokens?user_id=${userId}`);
}

/** A project's storage moves, newest first. */
async function projectMoves(api: Api, projectId: number) {
  return api.get<Array<{ state: string; destination_storage_name: string }>>(`/projects/${projectId}/repository_storage_moves`);
}

/** Moves a project through the API and waits for the move to end as `state`. */
async function moveAndWait(api: Api, projectId: number, destination: string, state: 'finished' | 'failed') {
  await api.post(`/projects/${projectId}/repository_storage_moves`, { destination_storage_name: destination });
  await expect.poll(async () => (await projectMoves(api, projectId))[0]?.state, { timeout: 30_000 }).toBe(state);
}

async function newRunner(api: Api) {
  return api.post<{ id: number }>('/user/runners', { runner_type: 'instance_type', description: `One write ${unique()}` });
}

async function newSource(api: Api, kind: 'groups' | 'projects') {
  return kind === 'groups' ? newGroup(api) : newProject(api);
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

/** A merge request opened by a Developer in a project of its own, one commit ahead of main. */
async function newMergeRequest(api: Api) {
  const project = await api.post<{ id: number }>('/projects', { name: `one-write-${unique()}`, initialize_with_readme: true });
  api.deleteAfter(`/projects/${project.id}`);
  const author = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: author.id, access_level: 30 });
  await api.post(`/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' });
  await api.post(`/projects/${project.id}/repository/commits`, { branch: 'feature', commit_message: 'Work', actions: [{ action: 'create', file_path: 'work.txt', content: 'one write\n' }] }, { token: author.token });
  const request = await api.post<{ iid: number }>(`/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: `One write ${unique()}` }, { token: author.token });
  const path = `/projects/${project.id}/merge_requests/${request.iid}`;
  return { project, iid: request.iid, path, page: `/projects/${project.id}/merge-requests/${request.iid}` };
}

/** A CI file whose pipelines fail in `test` and keep a manual `deploy` waiting. */
const FAILING_WITH_MANUAL_CI = `stages: [test, deploy]
fail:
  stage: test
  script: [exit 1]
deploy:
  stage: deploy
  needs: []
  when: manual
  script: [echo deployed]
`;

/**
 * One case pressed the three ways in turn, each a step named after its press, on one page: a
 * case pays for one browser context and one cold load of the console, not three.
 */
function eachPress(title: string, body: (fixtures: { page: Page; api: Api; consoleServer: { baseURL: string; adminToken: string } }, press: Press) => Promise<void>) {
  test(title, async ({ page, api, consoleServer }) => {
    for (const press of PRESSES) await test.step(press, () => body({ page, api, consoleServer }, press));
  });
}

// every case makes its own objects, so the cases spread over both workers (each has its own sandbox)
test.describe.configure({ mode: 'parallel', timeout: 120_000 });
// signed in once per worker: the connect screen has its own spec
test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

test.describe('one press sends one write', () => {
  eachPress('add a system hook', async ({ page, api }, press) => {
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

  eachPress('edit a system hook', async ({ page, api }, press) => {
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

  eachPress(`set a hook's URL variable`, async ({ page, api }, press) => {
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

  eachPress(`delete a hook's URL variable`, async ({ page, api }, press) => {
    const hook = await newHook(api);
    const key = `onewrite${Date.now() % 1_000_000}`;
    await api.put(`/hooks/${hook.id}/url_variables/${key}`, { value: 'value' });
    await page.goto(`/admin/hooks/${hook.id}`);
    const keys = page.getByRole('list', { name: 'URL variable keys' });
    await expect(keys.getByText(key, { exact: true })).toBeVisible();
    const mark = await api.requestMark();
    await pressTwice(page, press, keys.getByRole('button', { name: `Delete variable ${key}`, exact: true }));
    await expect(keys.getByText(key, { exact: true })).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/hooks/${hook.id}/url_variables/${key}`);
    expect((await api.get<{ url_variables: unknown[] }>(`/hooks/${hook.id}`)).url_variables).toEqual([]);
  });

  eachPress('delete a system hook', async ({ page, api }, press) => {
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

  eachPress('create a group access token', async ({ page, api }, press) => {
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

  eachPress('create an instance service account', async ({ page, api }, press) => {
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

  eachPress('create a branch', async ({ page, api }, press) => {
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

  eachPress('protect a branch', async ({ page, api }, press) => {
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

  eachPress('follow a user', async ({ page, api }, press) => {
    const person = await api.createUser();
    await page.goto(`/users/${person.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Follow', exact: true }));
    await expect(page.getByRole('button', { name: 'Unfollow', exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/users/${person.id}/follow`);
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4/users/${person.id}/unfollow` })).toEqual([]);
    expect(await api.get<unknown[]>(`/users/${person.id}/followers`)).toHaveLength(1);
  });

  eachPress('test a system hook', async ({ page, api }, press) => {
    const hook = await newHook(api);
    await page.goto(`/admin/hooks/${hook.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Test hook', exact: true }));
    await expect(page.getByLabel('Test answer', { exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/hooks/${hook.id}`);
  });

  eachPress('unprotect a branch', async ({ page, api }, press) => {
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

  eachPress('delete a branch', async ({ page, api }, press) => {
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

  eachPress('delete a package file', async ({ page, api, consoleServer }, press) => {
    const project = await newPackagesProject(api);
    const upload = { name: `one-write-${unique()}`, version: '1.0.0', bytes: Buffer.from('x') };
    const pkg = await uploadGeneric(consoleServer, project.id, { ...upload, fileName: 'keep.txt' });
    await uploadGeneric(consoleServer, project.id, { ...upload, fileName: 'drop.txt' });
    const [drop] = (await api.get<Array<{ id: number; file_name: string }>>(`/projects/${project.id}/packages/${pkg.id}/package_files`)).filter((file) => file.file_name === 'drop.txt');
    await page.goto(`/projects/${project.id}/packages/${pkg.id}`);
    await page.getByRole('button', { name: 'Delete drop.txt', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete file drop.txt?' });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete file', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/packages/${pkg.id}/package_files/${drop.id}`);
    expect((await api.get<Array<{ file_name: string }>>(`/projects/${project.id}/packages/${pkg.id}/package_files`)).map((file) => file.file_name)).toEqual(['keep.txt']);
  });

  eachPress('delete a package', async ({ page, api, consoleServer }, press) => {
    const project = await newPackagesProject(api);
    const name = `one-write-${unique()}`;
    const pkg = await uploadGeneric(consoleServer, project.id, { name, version: '2.0.0', fileName: 'a.txt', bytes: Buffer.from('a') });
    await page.goto(`/projects/${project.id}/packages/${pkg.id}`);
    await page.getByRole('main').getByRole('button', { name: 'Delete package', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete package ${name} 2.0.0?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete package', exact: true }));
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/packages$`));
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/packages/${pkg.id}`);
    expect((await api.call('GET', `/projects/${project.id}/packages/${pkg.id}`)).status).toBe(404);
  });

  eachPress('add a package protection rule', async ({ page, api }, press) => {
    const project = await newPackagesProject(api);
    const pattern = `@acme/${unique()}-*`;
    await page.goto(`/projects/${project.id}/packages-and-registries`);
    const form = page.getByRole('form', { name: 'Add protection rule' });
    await form.getByLabel('Name pattern').fill(pattern);
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Add rule', exact: true }), form.getByLabel('Name pattern'));
    await expect(page.getByRole('table', { name: 'Package protection rules' }).getByRole('row').filter({ hasText: pattern })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/packages/protection/rules`);
    expect((await api.get<Array<{ package_name_pattern: string }>>(`/projects/${project.id}/packages/protection/rules`)).map((rule) => rule.package_name_pattern)).toEqual([pattern]);
  });

  eachPress('delete a package protection rule', async ({ page, api }, press) => {
    const project = await newPackagesProject(api);
    const pattern = `@acme/${unique()}-*`;
    const rule = await api.post<{ id: number }>(`/projects/${project.id}/packages/protection/rules`, { package_name_pattern: pattern, package_type: 'npm', minimum_access_level_for_push: 'maintainer' });
    await page.goto(`/projects/${project.id}/packages-and-registries`);
    await page.getByRole('button', { name: `Delete rule ${pattern}`, exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete rule ${pattern}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete rule', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/packages/protection/rules/${rule.id}`);
    expect(await api.get<unknown[]>(`/projects/${project.id}/packages/protection/rules`)).toEqual([]);
  });

  eachPress('delete merged branches', async ({ page, api }, press) => {
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

  eachPress('revoke a group access token', async ({ page, api }, press) => {
    const group = await newGroup(api);
    const token = await newGroupToken(api, group.id, 30);
    await page.goto(`/groups/${group.id}/access-tokens`);
    await page.getByRole('button', { name: `Revoke ${token.name}`, exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Revoke ${token.name}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Revoke token', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/groups/${group.id}/access_tokens/${token.id}`);
    expect((await api.get<{ active: boolean }>(`/groups/${group.id}/access_tokens/${token.id}`)).active).toBe(false);
  });

  for (const from of ['its group', 'the expiry overview'] as const) {
    eachPress(`rotate a group access token from ${from}`, async ({ page, api }, press) => {
      const group = await newGroup(api);
      // three days left: the overview lists it among those that expire within a week
      const token = await newGroupToken(api, group.id, 3);
      if (from === 'its group') {
        await page.goto(`/groups/${group.id}/access-tokens`);
        await page.getByRole('button', { name: `Rotate ${token.name}`, exact: true }).click();
      } else {
        await page.goto('/access-tokens/expiry?reason=within_7_days');
        await page.getByRole('button', { name: `Rotate ${token.name} of ${group.name}`, exact: true }).click();
      }
      const dialog = page.getByRole('alertdialog', { name: `Rotate ${token.name}?` });
      const mark = await api.requestMark();
      await pressTwice(page, press, dialog.getByRole('button', { name: 'Rotate token', exact: true }));
      await expect(page.getByRole('dialog', { name: 'The rotated access token' })).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/groups/${group.id}/access_tokens/${token.id}/rotate`);
      // one new token; a second rotate would have revoked the whole family
      const family = (await api.get<Array<{ name: string; active: boolean }>>(`/groups/${group.id}/access_tokens`)).filter((each) => each.name === token.name);
      expect(family.map((each) => each.active).sort()).toEqual([false, true]);
    });
  }

  eachPress('edit an instance service account', async ({ page, api }, press) => {
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

  eachPress(`create a service account's token`, async ({ page, api }, press) => {
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

  eachPress(`rotate a service account's token`, async ({ page, api }, press) => {
    const account = await newServiceAccount(api);
    const token = await newAccountToken(api, account.id);
    await page.goto(`/admin/service-accounts/${account.id}/tokens`);
    await page.getByRole('button', { name: `Rotate ${token.name}`, exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Rotate ${token.name}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Rotate token', exact: true }));
    await expect(page.getByRole('dialog', { name: `Rotated token of ${account.name}` })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/personal_access_tokens/${token.id}/rotate`);
    // one successor; a second rotate would have revoked the whole family
    const family = (await accountTokens(api, account.id)).filter((each) => each.name === token.name);
    expect(family.map((each) => each.active).sort()).toEqual([false, true]);
  });

  eachPress(`revoke a service account's token`, async ({ page, api }, press) => {
    const account = await newServiceAccount(api);
    const token = await newAccountToken(api, account.id);
    await page.goto(`/admin/service-accounts/${account.id}/tokens`);
    await page.getByRole('button', { name: `Revoke ${token.name}`, exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Revoke ${token.name}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Revoke token', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/personal_access_tokens/${token.id}`);
    expect((await accountTokens(api, account.id)).map((each) => [each.id, each.active])).toEqual([[token.id, false]]);
  });

  eachPress('delete an instance service account', async ({ page, api }, press) => {
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

  eachPress('edit a runner', async ({ page, api }, press) => {
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

  eachPress('pause a runner', async ({ page, api }, press) => {
    const runner = await newRunner(api);
    await page.goto(`/admin/runners/${runner.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Pause runner', exact: true }));
    await expect(page.getByRole('button', { name: 'Resume runner', exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'PUT', `/api/v4/runners/${runner.id}`);
    expect((await api.get<{ paused: boolean }>(`/runners/${runner.id}`)).paused).toBe(true);
  });

  eachPress('pause runners selected in the fleet', async ({ page, api }, press) => {
    const tag = `one-write-${unique()}`;
    const runner = await api.post<{ id: number }>('/user/runners', { runner_type: 'instance_type', description: `One write ${tag}`, tag_list: [tag] });
    const fleet = new RunnerFleetPage(page);
    await fleet.goto(`?tag_list=${encodeURIComponent(JSON.stringify([tag]))}`);
    await fleet.select(runner.id).check();
    const mark = await api.requestMark();
    await pressTwice(page, press, fleet.action('Pause selected'));
    await expect(fleet.outcome('Paused 1 runner.')).toBeVisible();
    await expectOneRequest(api, mark, 'PUT', `/api/v4/runners/${runner.id}`);
    expect((await api.get<{ paused: boolean }>(`/runners/${runner.id}`)).paused).toBe(true);
  });

  eachPress(`reset a runner's token`, async ({ page, api }, press) => {
    const runner = await newRunner(api);
    await page.goto(`/admin/runners/${runner.id}`);
    await page.getByRole('button', { name: 'Reset token', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Reset the token of runner #${runner.id}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Reset token', exact: true }));
    await expect(page.getByRole('dialog', { name: `New authentication token of runner #${runner.id}` })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/runners/${runner.id}/reset_authentication_token`);
  });

  eachPress('delete a runner', async ({ page, api }, press) => {
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

  eachPress('assign a runner to another project', async ({ page, api }, press) => {
    const { other, runner } = await newProjectRunner(api);
    await page.goto(`/admin/runners/${runner.id}`);
    await page.getByRole('button', { name: 'Assign to a project…', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Assign runner #${runner.id} to a project` });
    await dialog.getByLabel('Search projects').fill(other.name);
    await dialog.getByRole('radio', { name: new RegExp(other.name) }).check();
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Assign runner', exact: true }));
    await expect(page.getByRole('list', { name: 'Runner owners' }).getByRole('link', { name: new RegExp(other.name) })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${other.id}/runners`);
  });

  eachPress('assign a runner from the project’s runners page', async ({ page, api }, press) => {
    const { other, runner } = await newProjectRunner(api);
    await page.goto(`/projects/${other.id}/runners`);
    const others = page.getByRole('region', { name: 'Your other project runners' });
    const mark = await api.requestMark();
    await pressTwice(page, press, others.getByRole('button', { name: `Assign runner #${runner.id} to this project` }));
    await expect(page.getByRole('status').filter({ hasText: `Runner #${runner.id} now serves this project.` })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${other.id}/runners`);
  });

  eachPress('unassign a runner from a project', async ({ page, api }, press) => {
    const { other, runner } = await newProjectRunner(api);
    await api.post(`/projects/${other.id}/runners`, { runner_id: runner.id });
    await page.goto(`/admin/runners/${runner.id}`);
    const owners = page.getByRole('list', { name: 'Runner owners' });
    await owners.getByRole('button', { name: new RegExp(`^Unassign from .*${other.name}$`) }).click();
    const dialog = page.getByRole('alertdialog', { name: new RegExp(`^Unassign runner #${runner.id} from`) });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Unassign runner', exact: true }));
    await expect(owners.getByRole('link', { name: new RegExp(other.name) })).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${other.id}/runners/${runner.id}`);
  });

  for (const kind of ['groups', 'projects'] as const) {
    const where = kind === 'groups' ? 'group' : 'project';

    eachPress(`add a ${where} member`, async ({ page, api }, press) => {
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

    eachPress(`edit a ${where} member's role and expiry`, async ({ page, api }, press) => {
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

    eachPress(`remove a ${where} member`, async ({ page, api }, press) => {
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

  /** A project with the labels To do and Doing, and a board with a To do list. */
  async function projectWithBoard(api: Api) {
    const project = await newProject(api);
    const todo = await api.post<{ id: number }>(`/projects/${project.id}/labels`, { name: 'To do', color: '#1f75cb' });
    await api.post(`/projects/${project.id}/labels`, { name: 'Doing', color: '#e9be74' });
    const board = await api.post<{ id: number }>(`/projects/${project.id}/boards`, { name: `board ${unique()}` });
    const list = await api.post<{ id: number }>(`/projects/${project.id}/boards/${board.id}/lists`, { label_id: todo.id });
    return { project, board, list };
  }

  eachPress('create an issue board', async ({ page, api }, press) => {
    const { project } = await projectWithBoard(api);
    const name = `Triage ${unique()}`;
    await page.goto(`/projects/${project.id}/boards`);
    await page.getByRole('button', { name: 'Create board', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create board' });
    await dialog.getByLabel('Board name', { exact: true }).fill(name);
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Create board', exact: true }), dialog.getByLabel('Board name', { exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/boards`);
    expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/boards`)).filter((board) => board.name === name)).toHaveLength(1);
  });

  eachPress('add a list to an issue board', async ({ page, api }, press) => {
    const { project, board } = await projectWithBoard(api);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await page.getByRole('button', { name: 'Add list', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add list' });
    await dialog.getByRole('combobox', { name: 'Label', exact: true }).selectOption({ label: 'Doing' });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Add list', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/boards/${board.id}/lists`);
    expect((await api.get<Array<{ label: { name: string } }>>(`/projects/${project.id}/boards/${board.id}/lists`)).map((list) => list.label.name)).toEqual(['To do', 'Doing']);
  });

  eachPress('remove a list from an issue board', async ({ page, api }, press) => {
    const { project, board, list } = await projectWithBoard(api);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await page.getByRole('button', { name: 'Remove list To do', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove list To do?' });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Remove list', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/boards/${board.id}/lists/${list.id}`);
    expect(await api.get(`/projects/${project.id}/boards/${board.id}/lists`)).toEqual([]);
  });

  eachPress('delete an issue board', async ({ page, api }, press) => {
    const { project, board } = await projectWithBoard(api);
    await page.goto(`/projects/${project.id}/boards?board=${board.id}`);
    await page.getByRole('button', { name: 'Delete board', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: /^Delete board / });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete board', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/boards/${board.id}`);
    expect(await api.get(`/projects/${project.id}/boards`)).toEqual([]);
  });

  eachPress('add a deploy key', async ({ page, api }, press) => {
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

  eachPress('add an instance deploy key', async ({ page, api }, press) => {
    const title = `instance key ${unique()}`;
    await page.goto('/admin/deploy-keys');
    await page.getByRole('button', { name: 'Add instance deploy key', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an instance deploy key' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Public key', { exact: true }).fill(newSshKey().text);
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Add key', exact: true }), dialog.getByLabel('Title', { exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', '/api/v4/deploy_keys');
    expect((await api.get<Array<{ title: string }>>('/deploy_keys?per_page=100')).filter((key) => key.title === title)).toHaveLength(1);
  });

  eachPress('edit a deploy key', async ({ page, api }, press) => {
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

  eachPress('enable an existing deploy key', async ({ page, api }, press) => {
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

  eachPress('remove a deploy key', async ({ page, api }, press) => {
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

  eachPress('create a file', async ({ page, api }, press) => {
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

  eachPress('edit a file', async ({ page, api }, press) => {
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

  eachPress('delete a file', async ({ page, api }, press) => {
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

  eachPress('commit several changes', async ({ page, api }, press) => {
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

  for (const [verb, action] of [['Cherry-pick', 'cherry_pick'], ['Revert', 'revert']] as const) {
    eachPress(`${verb.toLowerCase()} a commit after its dry run`, async ({ page, api }, press) => {
      const project = await newProject(api);
      const branch = `pick/${unique()}`;
      // a cherry-pick brings the commit to a branch cut before it; a revert undoes it on one cut after
      if (action === 'cherry_pick') await api.post(`/projects/${project.id}/repository/branches`, { branch, ref: 'main' });
      const commit = await commitFile(api, project.id, 'main', `picked-${unique()}.txt`);
      if (action === 'revert') await api.post(`/projects/${project.id}/repository/branches`, { branch, ref: 'main' });
      const history = () => api.get<unknown[]>(`/projects/${project.id}/repository/commits?ref_name=${encodeURIComponent(branch)}&per_page=100`);
      const before = (await history()).length;
      const commitPage = new CommitPage(page);
      await commitPage.goto(project.id, commit.id);
      await (action === 'cherry_pick' ? commitPage.cherryPickButton : commitPage.revertButton).click();
      await commitPage.targetBranch.fill(branch);
      // the dry run is a POST to the same path: pressed the same ways, it too goes once
      const checkMark = await api.requestMark();
      await pressTwice(page, press, commitPage.check, commitPage.targetBranch);
      await expect(commitPage.confirm(verb, branch)).toBeVisible();
      await expectOneRequest(api, checkMark, 'POST', `/api/v4/projects/${project.id}/repository/commits/${commit.id}/${action}`);
      const mark = await api.requestMark();
      await pressTwice(page, press, commitPage.confirm(verb, branch));
      await expect(commitPage.createdLink).toBeVisible();
      await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository/commits/${commit.id}/${action}`);
      expect(await history()).toHaveLength(before + 1);
    });
  }

  /** A project with `count` open issues of its own, for the bulk writes of its issue list. */
  async function projectWithIssues(api: Api, count: number) {
    const project = await newProject(api);
    const issues = [];
    for (let index = 1; index <= count; index++) issues.push(await api.post<{ iid: number }>(`/projects/${project.id}/issues`, { title: `One write ${index}` }));
    return { project, issues };
  }

  /** A bulk write sends one write per selected issue: exactly one each, however it was pressed. */
  async function expectOnePerIssue(api: Api, mark: number, method: string, projectId: number, iids: number[], suffix = '') {
    const arrived = await api.requestsSince(mark, { method, path: `/api/v4/projects/${projectId}/issues/*` });
    expect(arrived.map((request) => request.path).sort()).toEqual(iids.map((iid) => `/api/v4/projects/${projectId}/issues/${iid}${suffix}`).sort());
  }

  eachPress('bulk edit issues', async ({ page, api }, press) => {
    const { project, issues } = await projectWithIssues(api, 3);
    const label = `bulk-${unique()}`;
    const list = new IssueListPage(page);
    await page.goto(`/projects/${project.id}/issues`);
    await list.selectAll.check();
    await list.bulkForm.getByLabel('Add labels').fill(label);
    const mark = await api.requestMark();
    await pressTwice(page, press, list.bulkForm.getByRole('button', { name: 'Apply to 3 issues', exact: true }), list.bulkForm.getByLabel('Add labels'));
    await expect(list.outcome('3 of 3 changed.')).toBeVisible();
    await expectOnePerIssue(api, mark, 'PUT', project.id, issues.map((issue) => issue.iid));
    const labelled = await api.get<Array<{ labels: string[] }>>(`/projects/${project.id}/issues?labels=${label}`);
    expect(labelled).toHaveLength(3);
  });

  eachPress('bulk move issues', async ({ page, api }, press) => {
    const { project, issues } = await projectWithIssues(api, 2);
    const target = await newProject(api);
    const list = new IssueListPage(page);
    await page.goto(`/projects/${project.id}/issues`);
    await list.selectAll.check();
    await list.moveForm.getByLabel('Find a project').fill(target.name);
    await list.moveForm.getByLabel('Move to project').selectOption({ label: target.path_with_namespace });
    await list.moveForm.getByRole('button', { name: 'Move 2 issues', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Move 2 issues to ${target.path_with_namespace}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Move 2 issues', exact: true }));
    await expect(list.outcome('2 of 2 moved.')).toBeVisible();
    await expectOnePerIssue(api, mark, 'POST', project.id, issues.map((issue) => issue.iid), '/move');
    expect(await api.get<unknown[]>(`/projects/${target.id}/issues`)).toHaveLength(2);
  });

  eachPress('schedule a storage move', async ({ page, api }, press) => {
    const project = await newProject(api);
    const moves = new StorageMovesPage(page);
    await moves.goto();
    await moves.projectSearch.fill(project.name);
    await moves.projectPick.selectOption({ label: project.path_with_namespace });
    await expect(moves.scheduleForm.getByText('Currently on default.')).toBeVisible();
    await moves.destination.selectOption('storage-2');
    const mark = await api.requestMark();
    await pressTwice(page, press, moves.schedule, moves.projectSearch);
    await expect(moves.latestRow(project.path_with_namespace)).toContainText('default → storage-2');
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository_storage_moves`);
    expect(await projectMoves(api, project.id)).toHaveLength(1);
  });

  eachPress('move all projects of a storage', async ({ page, api }, press) => {
    // a project of this press's own on storage-3, which the demo instance leaves empty
    const project = await newProject(api);
    await moveAndWait(api, project.id, 'storage-3', 'finished');
    const moves = new StorageMovesPage(page);
    await moves.goto();
    await moves.bulkForm.getByRole('combobox', { name: 'Source storage' }).selectOption('storage-3');
    await moves.bulkForm.getByRole('combobox', { name: 'Destination storage' }).selectOption('storage-2');
    await moves.bulkForm.getByRole('button', { name: 'Move all projects', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Move every project off storage-3?' });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Schedule the moves', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', '/api/v4/project_repository_storage_moves');
    // the bulk move scheduled one move of this project, newest first
    const [latest, setUp, ...older] = await projectMoves(api, project.id);
    expect([latest?.destination_storage_name, setUp?.destination_storage_name, older]).toEqual(['storage-2', 'storage-3', []]);
  });

  eachPress('reschedule a failed storage move', async ({ page, api }, press) => {
    const project = await newProject(api);
    // a move onto the storage the repository is on fails; the project then moves away, so the retry can succeed
    await moveAndWait(api, project.id, 'default', 'failed');
    await moveAndWait(api, project.id, 'storage-2', 'finished');
    const moves = new StorageMovesPage(page);
    await moves.goto();
    const mark = await api.requestMark();
    await pressTwice(page, press, moves.table.getByRole('button', { name: `Reschedule the move of ${project.path_with_namespace} to default`, exact: true }));
    await expect(moves.latestRow(project.path_with_namespace)).toContainText('storage-2 → default');
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/repository_storage_moves`);
    expect(await projectMoves(api, project.id)).toHaveLength(3);
  });

  // the issue detail screen: each press on an issue of its own
  const newIssue = async (api: Api) => {
    const project = await newProject(api);
    api.deleteAfter(`/projects/${project.id}`);
    const issue = await api.post<{ iid: number; title: string }>(`/projects/${project.id}/issues`, { title: `One write ${unique()}` });
    return { project, issue, path: `/projects/${project.id}/issues/${issue.iid}` };
  };

  eachPress('post a comment on an issue', async ({ page, api }, press) => {
    const { project, issue, path } = await newIssue(api);
    const text = `One comment ${unique()}`;
    await page.goto(path);
    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByLabel('Comment', { exact: true }).fill(text);
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Comment', exact: true }));
    await expect(page.getByRole('article', { name: /^Comment by / })).toContainText(text);
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/issues/${issue.iid}/notes`);
    const notes = await api.get<Array<{ body: string }>>(`/projects/${project.id}/issues/${issue.iid}/notes?per_page=100`);
    expect(notes.filter((note) => note.body === text)).toHaveLength(1);
  });

  eachPress('add a label to an issue', async ({ page, api }, press) => {
    const { project, issue, path } = await newIssue(api);
    const name = `one-label-${unique()}`;
    await api.post(`/projects/${project.id}/labels`, { name, color: '#5cb85c' });
    await page.goto(path);
    const sidebar = page.getByRole('complementary', { name: 'Issue details' });
    await sidebar.getByLabel('Find a label to add').fill(name);
    const mark = await api.requestMark();
    await pressTwice(page, press, sidebar.getByRole('button', { name: `Add label ${name}`, exact: true }));
    await expect(sidebar.getByRole('list', { name: 'Labels', exact: true })).toContainText(name);
    await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}/issues/${issue.iid}`);
    const events = await api.get<unknown[]>(`/projects/${project.id}/issues/${issue.iid}/resource_label_events`);
    expect(events).toHaveLength(1);
  });

  eachPress('close an issue', async ({ page, api }, press) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Close issue', exact: true }));
    await expect(page.getByRole('button', { name: 'Reopen issue', exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}/issues/${issue.iid}`);
    expect(await api.get<unknown[]>(`/projects/${project.id}/issues/${issue.iid}/resource_state_events`)).toHaveLength(1);
  });

  eachPress('react to an issue', async ({ page, api }, press) => {
    const { project, issue, path } = await newIssue(api);
    await page.goto(path);
    const reactions = page.getByRole('group', { name: 'Reactions to this issue' });
    await reactions.getByRole('button', { name: 'Add reaction', exact: true }).click();
    const mark = await api.requestMark();
    await pressTwice(page, press, reactions.getByRole('button', { name: 'React with tada', exact: true }));
    await expect(reactions.getByRole('button', { name: /^tada: 1 reaction/ })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/issues/${issue.iid}/award_emoji`);
    expect(await api.get<unknown[]>(`/projects/${project.id}/issues/${issue.iid}/award_emoji`)).toHaveLength(1);
  });

  eachPress('move an issue to another project', async ({ page, api }, press) => {
    const { project, issue, path } = await newIssue(api);
    const target = await newProject(api);
    api.deleteAfter(`/projects/${target.id}`);
    await page.goto(path);
    await page.getByRole('button', { name: 'Move…', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Move issue #${issue.iid}` });
    await dialog.getByLabel('Search projects').fill(target.name);
    await dialog.getByRole('radio', { name: new RegExp(target.name) }).check();
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Move issue', exact: true }));
    await expect(page).toHaveURL(new RegExp(`/projects/${target.id}/issues/\\d+$`));
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/issues/${issue.iid}/move`);
    expect(await api.get<unknown[]>(`/projects/${target.id}/issues`)).toHaveLength(1);
  });

  /** A merge request of a project of its own (a branch with one commit), with one open thread. */
  async function newMergeRequestWithThread(api: Api) {
    const project = await api.post<{ id: number }>('/projects', { name: `one-write-${unique()}`, initialize_with_readme: true });
    api.deleteAfter(`/projects/${project.id}`);
    await api.post(`/projects/${project.id}/repository/branches`, { branch: 'topic', ref: 'main' });
    await commitFile(api, project.id, 'topic', 'work.txt');
    const request = await api.post<{ iid: number }>(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: `One write ${unique()}` });
    const base = `/projects/${project.id}/merge_requests/${request.iid}`;
    const thread = await api.post<{ id: string }>(`${base}/discussions`, { body: 'Is this right?' });
    return { base, thread, path: `/projects/${project.id}/merge-requests/${request.iid}` };
  }

  type ThreadAnswer = { id: string; individual_note: boolean; notes: Array<{ id: number; body: string; system: boolean; resolved: boolean }> };
  const threadsOf = async (api: Api, base: string) => (await api.get<ThreadAnswer[]>(`${base}/discussions`)).filter((thread) => !thread.notes[0]?.system);

  eachPress('resolve a merge request thread', async ({ page, api }, press) => {
    const { base, thread, path } = await newMergeRequestWithThread(api);
    await page.goto(path);
    const article = page.getByRole('article', { name: /^Thread by / });
    const mark = await api.requestMark();
    await pressTwice(page, press, article.getByRole('button', { name: 'Resolve thread', exact: true }));
    await expect(article.getByRole('button', { name: 'Unresolve thread', exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'PUT', `/api/v4${base}/discussions/${thread.id}`);
    expect((await threadsOf(api, base)).map((entry) => entry.notes.map((note) => note.resolved))).toEqual([[true]]);
  });

  eachPress('reply to a merge request thread', async ({ page, api }, press) => {
    const { base, thread, path } = await newMergeRequestWithThread(api);
    await page.goto(path);
    const article = page.getByRole('article', { name: /^Thread by / });
    await article.getByRole('button', { name: 'Reply…', exact: true }).click();
    const form = article.getByRole('form', { name: 'Reply to the thread' });
    await form.getByLabel('Reply', { exact: true }).fill('Yes.');
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Reply', exact: true }));
    await expect(form).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', `/api/v4${base}/discussions/${thread.id}/notes`);
    expect((await threadsOf(api, base)).map((entry) => entry.notes.map((note) => note.body))).toEqual([['Is this right?', 'Yes.']]);
  });

  eachPress('comment on a merge request', async ({ page, api }, press) => {
    const { base, path } = await newMergeRequestWithThread(api);
    await page.goto(path);
    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByLabel('Comment', { exact: true }).fill('Looks good.');
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Comment', exact: true }));
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('');
    await expectOneRequest(api, mark, 'POST', `/api/v4${base}/notes`);
    expect((await threadsOf(api, base)).filter((entry) => entry.individual_note).map((entry) => entry.notes[0]?.body)).toEqual(['Looks good.']);
  });

  eachPress('start a thread on a merge request', async ({ page, api }, press) => {
    const { base, path } = await newMergeRequestWithThread(api);
    await page.goto(path);
    const form = page.getByRole('form', { name: 'Add a comment' });
    await form.getByLabel('Comment', { exact: true }).fill('Another question.');
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Start a thread', exact: true }));
    await expect(form.getByLabel('Comment', { exact: true })).toHaveValue('');
    await expectOneRequest(api, mark, 'POST', `/api/v4${base}/discussions`);
    expect((await threadsOf(api, base)).map((entry) => entry.notes[0]?.body)).toEqual(['Is this right?', 'Another question.']);
  });

  eachPress('save an edited merge request comment', async ({ page, api }, press) => {
    const { base, path } = await newMergeRequestWithThread(api);
    await page.goto(path);
    const article = page.getByRole('article', { name: /^Thread by / });
    await article.getByRole('button', { name: 'Edit comment', exact: true }).click();
    const form = article.getByRole('form', { name: 'Edit comment' });
    await form.getByLabel('Edited comment', { exact: true }).fill('Is this right now?');
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Save comment', exact: true }));
    await expect(form).toHaveCount(0);
    const [{ notes: [note] }] = await threadsOf(api, base);
    await expectOneRequest(api, mark, 'PUT', `/api/v4${base}/notes/${note!.id}`);
    expect((await threadsOf(api, base)).map((entry) => entry.notes.map((each) => each.body))).toEqual([['Is this right now?']]);
  });

  eachPress('start a thread on a line of the changes', async ({ page, api }, press) => {
    const { base, path } = await newMergeRequestWithThread(api);
    await page.goto(`${path}/changes`);
    await page.getByRole('button', { name: 'Comment on line 1', exact: true }).click();
    const form = page.getByRole('form', { name: /^New thread on / });
    await form.getByLabel('Comment', { exact: true }).fill('On this line.');
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Start a thread', exact: true }));
    await expect(page.getByRole('list', { name: 'Threads on this line' })).toContainText('On this line.');
    await expectOneRequest(api, mark, 'POST', `/api/v4${base}/discussions`);
    expect((await threadsOf(api, base)).map((entry) => entry.notes[0]?.body)).toEqual(['Is this right?', 'On this line.']);
  });

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

  eachPress('save the approval settings of a project', async ({ page, api }, press) => {
    const project = await newProject(api);
    await page.goto(`/projects/${project.id}/approval-settings`);
    const form = page.getByRole('form', { name: 'Approval settings' });
    await form.getByRole('checkbox', { name: 'Prevent approvals by committers' }).check();
    const mark = await api.requestMark();
    await pressTwice(page, press, form.getByRole('button', { name: 'Save approval settings', exact: true }));
    await expect(page.getByText('Saved the approval settings.', { exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/approvals`);
    expect(await api.get<{ merge_requests_disable_committers_approval: boolean }>(`/projects/${project.id}/approvals`)).toMatchObject({ merge_requests_disable_committers_approval: true });
  });

  eachPress('create an approval rule', async ({ page, api }, press) => {
    const project = await newProject(api);
    await page.goto(`/projects/${project.id}/approval-settings`);
    await page.getByRole('button', { name: 'Add approval rule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an approval rule' });
    await dialog.getByLabel('Rule name', { exact: true }).fill('Security');
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Add rule', exact: true }), dialog.getByLabel('Rule name', { exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/approval_rules`);
    expect((await api.get<Array<{ name: string }>>(`/projects/${project.id}/approval_rules`)).map((rule) => rule.name)).toEqual(['Security']);
  });

  eachPress('delete an approval rule', async ({ page, api }, press) => {
    const project = await newProject(api);
    const rule = await api.post<{ id: number }>(`/projects/${project.id}/approval_rules`, { name: 'Backend', approvals_required: 1 });
    await page.goto(`/projects/${project.id}/approval-settings`);
    await page.getByRole('button', { name: 'Delete Backend', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete the rule Backend?' });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete rule', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/approval_rules/${rule.id}`);
    expect(await api.get<unknown[]>(`/projects/${project.id}/approval_rules`)).toEqual([]);
  });

  eachPress('approve a merge request', async ({ page, api }, press) => {
    const request = await newMergeRequest(api);
    await page.goto(request.page);
    const panel = page.getByRole('region', { name: 'Approvals' });
    const mark = await api.requestMark();
    await pressTwice(page, press, panel.getByRole('button', { name: 'Approve', exact: true }));
    await expect(panel.getByText('Approved by you.')).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4${request.path}/approve`);
    // Revoke takes Approve's place: the second press must not land on it
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4${request.path}/unapprove` })).toEqual([]);
    expect(await api.get<{ approved_by: unknown[] }>(`${request.path}/approvals`)).toMatchObject({ approved_by: [expect.anything()] });
  });

  eachPress('revoke an approval', async ({ page, api }, press) => {
    const request = await newMergeRequest(api);
    await api.post(`${request.path}/approve`, {});
    await page.goto(request.page);
    const panel = page.getByRole('region', { name: 'Approvals' });
    const mark = await api.requestMark();
    await pressTwice(page, press, panel.getByRole('button', { name: 'Revoke approval', exact: true }));
    await expect(panel.getByText('No approvals yet.')).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4${request.path}/unapprove`);
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4${request.path}/approve` })).toEqual([]);
    expect(await api.get<{ approved_by: unknown[] }>(`${request.path}/approvals`)).toMatchObject({ approved_by: [] });
  });

  eachPress('merge a merge request', async ({ page, api }, press) => {
    const request = await newMergeRequest(api);
    await page.goto(request.page);
    const panel = page.getByRole('region', { name: 'Merge', exact: true });
    await panel.getByRole('button', { name: 'Merge', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: `Merge !${request.iid}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Merge', exact: true }));
    await expect(dialog).toHaveCount(0);
    await expect(panel.getByText('Merged', { exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'PUT', `/api/v4${request.path}/merge`);
    expect(await api.get<{ state: string }>(request.path)).toMatchObject({ state: 'merged' });
  });

  eachPress('play a manual job from the pipeline graph', async ({ page, api }, press) => {
    const projectId = await newCiProject(api, { '.gitlab-ci.yml': FAILING_WITH_MANUAL_CI });
    const { pipeline, jobs } = await settledPipeline(api, projectId);
    const deploy = jobNamed(jobs, 'deploy');
    await page.goto(`/projects/${projectId}/pipelines/${pipeline.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Run deploy', exact: true }));
    await expect(page.getByRole('button', { name: 'Run deploy', exact: true })).toHaveCount(0);
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${projectId}/jobs/${deploy.id}/play`);
    expect((await api.get<{ status: string }>(`/projects/${projectId}/jobs/${deploy.id}`)).status).not.toBe('manual');
  });

  eachPress('retry a failed job from its page', async ({ page, api }, press) => {
    const projectId = await newCiProject(api, { '.gitlab-ci.yml': FAILING_WITH_MANUAL_CI });
    const { pipeline, jobs } = await settledPipeline(api, projectId);
    const failed = jobNamed(jobs, 'fail');
    await page.goto(`/projects/${projectId}/jobs/${failed.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Retry fail', exact: true }));
    // the retry is a new job, and the page moves to it
    await expect(page).not.toHaveURL(new RegExp(`/jobs/${failed.id}$`));
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${projectId}/jobs/${failed.id}/retry`);
    const all = await api.get<Array<{ name: string }>>(`/projects/${projectId}/pipelines/${pipeline.id}/jobs?include_retried=true&per_page=100`);
    expect(all.filter((job) => job.name === 'fail')).toHaveLength(2);
  });

  eachPress('retry a failed pipeline from its page', async ({ page, api }, press) => {
    const projectId = await newCiProject(api, { '.gitlab-ci.yml': FAILING_WITH_MANUAL_CI });
    const { pipeline } = await settledPipeline(api, projectId);
    expect(pipeline.status).toBe('failed');
    await page.goto(`/projects/${projectId}/pipelines/${pipeline.id}`);
    const mark = await api.requestMark();
    await pressTwice(page, press, page.getByRole('button', { name: 'Retry pipeline', exact: true }));
    // the retried job runs and fails again: the pipeline may be retried once more, on purpose
    const failRuns = async () => (await api.get<Array<{ name: string }>>(`/projects/${projectId}/pipelines/${pipeline.id}/jobs?include_retried=true&per_page=100`)).filter((job) => job.name === 'fail').length;
    await expect.poll(failRuns, { timeout: 30_000 }).toBe(2);
    await expect(page.getByRole('button', { name: 'Retry pipeline', exact: true })).toBeEnabled({ timeout: 30_000 });
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${projectId}/pipelines/${pipeline.id}/retry`);
    expect(await failRuns()).toBe(2);
  });

  // pipelines: a project with a CI file of its own; SLOW=yes runs a minute, FAIL=yes fails at once
  const pipelineProject = async (api: Api) => {
    const project = await newProject(api);
    const ci = 'variables:\n  SLOW:\n    value: "no"\n    description: Runs a minute\n  FAIL: "no"\nbuild:\n  script:\n    - echo built\nslow:\n  rules:\n    - if: \'$SLOW == "yes"\'\n  script:\n    - sleep 60\nfail:\n  rules:\n    - if: \'$FAIL == "yes"\'\n  script:\n    - exit 1\n';
    await api.post(`/projects/${project.id}/repository/commits`, { branch: 'main', commit_message: 'CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ci }] });
    return project;
  };
  const pipelineNow = (api: Api, projectId: number, variables: Record<string, string>) =>
    api.post<{ id: number }>(`/projects/${projectId}/pipeline`, { ref: 'main', variables: Object.entries(variables).map(([key, value]) => ({ key, value })) });
  const pipelineIn = async (api: Api, projectId: number, pipelineId: number, status: string) =>
    expect.poll(async () => (await api.get<{ status: string }>(`/projects/${projectId}/pipelines/${pipelineId}`)).status, { timeout: 30_000 }).toBe(status);
  const apiPipelines = (api: Api, projectId: number) => api.get<Array<{ id: number; source: string }>>(`/projects/${projectId}/pipelines?source=api&per_page=100`);

  eachPress('run a pipeline from the run form', async ({ page, api }, press) => {
    const project = await pipelineProject(api);
    const run = new RunPipelinePage(page);
    await run.goto(project.id);
    await expect(run.key(1)).toHaveValue('SLOW');
    const mark = await api.requestMark();
    await pressTwice(page, press, run.submit, run.key(1));
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/pipelines/\\d+$`));
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/pipeline`);
    expect(await apiPipelines(api, project.id)).toHaveLength(1);
  });

  eachPress('retry a failed pipeline from the list', async ({ page, api }, press) => {
    const project = await pipelineProject(api);
    const pipeline = await pipelineNow(api, project.id, { FAIL: 'yes' });
    await pipelineIn(api, project.id, pipeline.id, 'failed');
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    const mark = await api.requestMark();
    await pressTwice(page, press, list.action(pipeline.id, 'Retry'));
    await expect(page.getByRole('status').filter({ hasText: `Retried pipeline #${pipeline.id}.` })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/pipelines/${pipeline.id}/retry`);
  });

  eachPress('cancel a running pipeline from the list', async ({ page, api }, press) => {
    const project = await pipelineProject(api);
    const pipeline = await pipelineNow(api, project.id, { SLOW: 'yes' });
    await pipelineIn(api, project.id, pipeline.id, 'running');
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    const mark = await api.requestMark();
    await pressTwice(page, press, list.action(pipeline.id, 'Cancel'));
    await expect(list.row(pipeline.id).getByText('Canceled', { exact: true })).toBeVisible();
    await expectOneRequest(api, mark, 'POST', `/api/v4/projects/${project.id}/pipelines/${pipeline.id}/cancel`);
  });

  eachPress('delete a pipeline after confirming', async ({ page, api }, press) => {
    const project = await pipelineProject(api);
    const pipeline = await pipelineNow(api, project.id, {});
    await pipelineIn(api, project.id, pipeline.id, 'success');
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await list.action(pipeline.id, 'Delete').click();
    const dialog = page.getByRole('alertdialog', { name: `Delete pipeline #${pipeline.id}?` });
    const mark = await api.requestMark();
    await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete pipeline' }));
    await expect(dialog).toBeHidden();
    await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/pipelines/${pipeline.id}`);
  });

  test('delete a registry tag, an image, tags by rule, and save the cleanup policy', async ({ page, api, consoleServer }) => {
    for (const press of PRESSES) {
      await test.step(press, async () => {
        const project = await newProject(api);
        const image = await pushTags(consoleServer, project.id, 'app', [{ name: 'a1' }, { name: 'a2' }, { name: 'b1' }]);
        const doomed = await pushTags(consoleServer, project.id, 'doomed', [{ name: 'x' }]);
        await page.goto(`/projects/${project.id}/registry/${image.id}`);
        await page.getByRole('button', { name: 'Delete tag b1', exact: true }).click();
        let dialog = page.getByRole('alertdialog', { name: 'Delete tag b1?' });
        let mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete tag', exact: true }));
        await expect(dialog).toBeHidden();
        await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/registry/repositories/${image.id}/tags/b1`);

        await page.getByRole('button', { name: 'Delete tags by rule', exact: true }).click();
        await page.getByRole('textbox', { name: 'Delete tags matching' }).fill('a1');
        await page.getByRole('button', { name: 'Delete 1 tag', exact: true }).click();
        dialog = page.getByRole('alertdialog', { name: 'Delete 1 tag?' });
        mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete 1 tag', exact: true }));
        await expect(dialog).toBeHidden();
        await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/registry/repositories/${image.id}/tags`);

        await page.goto(`/projects/${project.id}/registry`);
        await page.getByRole('button', { name: `Delete image ${doomed.path}`, exact: true }).click();
        dialog = page.getByRole('alertdialog', { name: `Delete image ${doomed.path}?` });
        mark = await api.requestMark();
        await pressTwice(page, press, dialog.getByRole('button', { name: 'Delete image', exact: true }));
        await expect(dialog).toBeHidden();
        await expectOneRequest(api, mark, 'DELETE', `/api/v4/projects/${project.id}/registry/repositories/${doomed.id}`);

        await page.goto(`/projects/${project.id}/registry/cleanup-policy`);
        const form = page.getByRole('form', { name: 'Cleanup policy' });
        await form.getByRole('textbox', { name: 'Remove tags matching' }).fill('a.*');
        mark = await api.requestMark();
        await pressTwice(page, press, form.getByRole('button', { name: 'Save cleanup policy', exact: true }), form.getByRole('textbox', { name: 'Remove tags matching' }));
        await expect(page.getByRole('status').filter({ hasText: 'Saved the cleanup policy.' }).first()).toBeVisible();
        await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}`);
      });
    }
  });
});

// -- alerts: GraphQL mutations and the relay, counted as the browser sends them (one /api/graphql path serves reads too)

/** The browser's requests from now on that run GraphQL mutation `name`, or post to the alert relay. */
function countWrites(page: Page, match: { mutation: string } | { relay: true }) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    const url = new URL(request.url());
    if ('relay' in match ? url.pathname === '/-/alerts-relay' : url.pathname === '/api/graphql' && (request.postData() ?? '').includes(`mutation ${match.mutation}(`)) seen.push(url.pathname);
  });
  return seen;
}

/**
 * A new project with an HTTP alert integration added through its settings screen (left open),
 * pressed as `press` when given; `writes` are the create mutations the browser sent.
 */
async function projectWithIntegration(page: Page, api: Api, press?: Press) {
  const project = await newProject(api);
  api.deleteAfter(`/projects/${project.id}`);
  const name = `Hook ${unique()}`;
  await page.goto(`/projects/${project.id}/settings/alerts`);
  const form = page.getByRole('form', { name: 'Add an alert integration' });
  await form.getByLabel('Integration name').fill(name);
  const writes = countWrites(page, { mutation: 'httpIntegrationCreate' });
  const add = form.getByRole('button', { name: 'Add integration', exact: true });
  if (press) await pressTwice(page, press, add, form.getByLabel('Integration name'));
  else await add.click();
  const row = page.getByRole('table', { name: 'Alert integrations' }).getByRole('row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(add).toBeEnabled();
  return { project, name, row, writes };
}

test.describe('one press sends one write: alerts', () => {
  eachPress('add an alert integration', async ({ page, api }, press) => {
    const { writes } = await projectWithIntegration(page, api, press);
    expect(writes).toHaveLength(1);
  });

  eachPress('reset the key of an alert integration, and send a test alert', async ({ page, api }, press) => {
    const { project, name, row } = await projectWithIntegration(page, api);
    await row.getByRole('button', { name: `Reset key of ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Reset the key of ${name}?` });
    const resets = countWrites(page, { mutation: 'httpIntegrationResetToken' });
    await pressTwice(page, press, confirm.getByRole('button', { name: 'Reset key', exact: true }));
    await expect(confirm).toHaveCount(0);
    expect(resets).toHaveLength(1);

    await page.goto(`/projects/${project.id}/alerts/tester`);
    await page.getByLabel('Payload', { exact: true }).fill(JSON.stringify({ title: `One write ${unique()}` }));
    const sends = countWrites(page, { relay: true });
    await pressTwice(page, press, page.getByRole('button', { name: 'Send test alert', exact: true }));
    await expect(page.getByRole('heading', { name: 'The instance answered 200' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send test alert', exact: true })).toBeEnabled();
    expect(sends).toHaveLength(1);
    await page.goto(`/projects/${project.id}/alerts?tab=all`);
    await expect(page.getByRole('table', { name: 'Alerts' }).getByRole('row')).toHaveCount(2);
  });

  eachPress('create an issue from an alert', async ({ page, api }, press) => {
    const { project } = await projectWithIntegration(page, api);
    await page.goto(`/projects/${project.id}/alerts/tester`);
    await page.getByLabel('Payload', { exact: true }).fill(JSON.stringify({ title: 'Needs an issue' }));
    await page.getByRole('button', { name: 'Send test alert', exact: true }).click();
    await page.getByRole('link', { name: 'Alert #1: Needs an issue' }).click();
    const writes = countWrites(page, { mutation: 'createAlertIssue' });
    await pressTwice(page, press, page.getByRole('button', { name: 'Create issue', exact: true }));
    await expect(page.getByRole('link', { name: /^Issue #\d+/ })).toBeVisible();
    expect(writes).toHaveLength(1);
    expect(await api.get<unknown[]>(`/projects/${project.id}/issues`)).toHaveLength(1);
  });
});

/**
 * A person's double click with the pointer (trusted events: only they move the focus): the second
 * press lands at the same place once the first has drawn what it opens (`opened`), well within
 * the double click's span, on whatever is there by then.
 */
async function doubleClickAt(page: Page, target: Locator, opened: Locator): Promise<void> {
  const box = (await target.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(opened).toBeVisible();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * A person's double click on a toggle: the second click comes some 100 to 300 ms after the first,
 * by when a quick write is answered and the button reads its opposite (Follow → Unfollow). The
 * second click lands on the same button once it has turned and 250 ms have passed, enabled or
 * not; the time between the clicks, under the double click's span (800 ms), is returned.
 */
async function doubleClickAsAPerson(button: Locator): Promise<number> {
  return button.evaluate(async (element: HTMLButtonElement) => {
    const label = element.textContent;
    element.click();
    const first = performance.now();
    // answered: the same button element has turned to the opposite's name; a person's second click comes 250 ms after the first
    while ((element.textContent === label || performance.now() - first < 250) && performance.now() - first < 5_000) await new Promise((resolve) => setTimeout(resolve, 5));
    element.click();
    return performance.now() - first;
  });
}

test.describe('a double click on a button that opens a dialog leaves it open', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a form dialog and the command palette', async ({ page, api }) => {
    const project = await newProject(api);
    await page.goto(`/projects/${project.id}/branches`);
    // the second click lands on the dialog's backdrop, which closes a dialog once the double click is over
    const dialog = page.getByRole('dialog', { name: 'New branch' });
    await doubleClickAt(page, page.getByRole('button', { name: 'New branch', exact: true }), dialog);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Branch name', { exact: true })).toBeFocused();
    const shell = new Shell(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await doubleClickAt(page, shell.paletteTrigger, shell.palette);
    await expect(shell.palette).toBeVisible();
    await expect(shell.paletteInput).toBeFocused();
  });
});

test.describe('a double click on a toggle is one press', () => {
  test('follow a user: the second click, on Unfollow by then, sends nothing; a later click unfollows', async ({ page, api }) => {
    const person = await api.createUser();
    await page.goto(`/users/${person.id}`);
    const mark = await api.requestMark();
    const between = await doubleClickAsAPerson(page.getByRole('button', { name: 'Follow', exact: true }));
    expect(between).toBeLessThan(800);
    const unfollow = page.getByRole('button', { name: 'Unfollow', exact: true });
    await expect(unfollow).toBeVisible();
    // enabled again once the double click's span is over: a write the second click started has arrived by then
    await expect(unfollow).toBeEnabled();
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4/users/${person.id}/unfollow` })).toEqual([]);
    expect(await api.get<unknown[]>(`/users/${person.id}/followers`)).toHaveLength(1);
    // once the double click is over, a click is a new press
    await unfollow.click();
    await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
    expect(await api.get<unknown[]>(`/users/${person.id}/followers`)).toHaveLength(0);
  });

  test('close an issue: the second click, on Reopen by then, sends nothing', async ({ page, api }) => {
    const project = await newProject(api);
    api.deleteAfter(`/projects/${project.id}`);
    const issue = await api.post<{ iid: number }>(`/projects/${project.id}/issues`, { title: `Double click ${unique()}` });
    await page.goto(`/projects/${project.id}/issues/${issue.iid}`);
    const mark = await api.requestMark();
    const between = await doubleClickAsAPerson(page.getByRole('button', { name: 'Close issue', exact: true }));
    expect(between).toBeLessThan(800);
    await expect(page.getByRole('button', { name: 'Reopen issue', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reopen issue', exact: true })).toBeEnabled();
    await expectOneRequest(api, mark, 'PUT', `/api/v4/projects/${project.id}/issues/${issue.iid}`);
    expect((await api.get<{ state: string }>(`/projects/${project.id}/issues/${issue.iid}`)).state).toBe('closed');
  });

  test('pause a runner: the second click, on Resume by then, sends nothing', async ({ page, api }) => {
    const runner = await newRunner(api);
    await page.goto(`/admin/runners/${runner.id}`);
    const mark = await api.requestMark();
    const between = await doubleClickAsAPerson(page.getByRole('button', { name: 'Pause runner', exact: true }));
    expect(between).toBeLessThan(800);
    await expect(page.getByRole('button', { name: 'Resume runner', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resume runner', exact: true })).toBeEnabled();
    await expectOneRequest(api, mark, 'PUT', `/api/v4/runners/${runner.id}`);
    expect((await api.get<{ paused: boolean }>(`/runners/${runner.id}`)).paused).toBe(true);
  });
});
