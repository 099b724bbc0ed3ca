import { randomBytes } from 'node:crypto';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';

interface Settings {
  reset_approvals_on_push: boolean;
  selective_code_owner_removals: boolean;
  merge_requests_author_approval: boolean;
  require_reauthentication_to_approve: boolean;
}

interface Rule {
  id: number;
  name: string;
  approvals_required: number;
  users: Array<{ id: number }>;
  protected_branches: Array<{ name: string }>;
}

const unique = () => randomBytes(4).toString('hex');

async function newProject(api: Api) {
  const project = await api.post<{ id: number; name_with_namespace: string }>('/projects', { name: `e2e-approvals-${unique()}` });
  api.deleteAfter(`/projects/${project.id}`);
  return project;
}

test.describe.configure({ mode: 'parallel' });

test.describe('merge request approvals of a project (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('the switches are saved and read back; the Code Owner rule is refused before sending, with the input kept', async ({ page, api }) => {
    const project = await newProject(api);
    await page.goto(`/projects/${project.id}/approval-settings`);
    await expect(page.getByRole('heading', { level: 1, name: `Merge request approvals of ${project.name_with_namespace}` })).toBeVisible();
    const form = page.getByRole('form', { name: 'Approval settings' });
    const reset = form.getByRole('checkbox', { name: 'Remove all approvals when commits are added' });
    const selective = form.getByRole('checkbox', { name: 'Remove approvals by Code Owners if their files changed' });
    const author = form.getByRole('checkbox', { name: 'Allow the author to approve' });
    const reauth = form.getByRole('checkbox', { name: 'Require user re-authentication to approve' });
    await expect(reset).toBeChecked();
    await expect(selective).not.toBeChecked();
    // the description of each switch is read with it
    await expect(author).toHaveAccessibleDescription('The person who opened a merge request may approve it themselves.');

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/projects/${project.id}/approvals`)) posts.push(request.url());
    });
    await selective.check();
    await reauth.check();
    await form.getByRole('button', { name: 'Save approval settings' }).click();
    await expect(form.getByRole('alert')).toContainText('can only be enabled when reset_approvals_on_push is disabled');
    await expect(selective).toBeChecked();
    await expect(reauth).toBeChecked();
    expect(posts).toEqual([]);
    expect((await api.get<Settings>(`/projects/${project.id}/approvals`)).selective_code_owner_removals).toBe(false);

    await reset.uncheck();
    await expect(form.getByRole('alert')).toHaveCount(0);
    await author.uncheck();
    await form.getByRole('button', { name: 'Save approval settings' }).click();
    await expect(page.getByText('Saved the approval settings.', { exact: true })).toBeVisible();
    expect(await api.get<Settings>(`/projects/${project.id}/approvals`)).toMatchObject({
      reset_approvals_on_push: false,
      selective_code_owner_removals: true,
      merge_requests_author_approval: false,
      require_reauthentication_to_approve: true,
    });
    await page.reload();
    await expect(selective).toBeChecked();
    await expect(reset).not.toBeChecked();
    await expect(author).not.toBeChecked();
    expect(await axeViolations(page, 'approval settings')).toEqual([]);
  });

  test('a refusal of the server is shown on the switch and the input kept', async ({ page, api }) => {
    const project = await newProject(api);
    await api.post(`/projects/${project.id}/approvals`, { reset_approvals_on_push: false });
    await page.goto(`/projects/${project.id}/approval-settings`);
    const form = page.getByRole('form', { name: 'Approval settings' });
    const reset = form.getByRole('checkbox', { name: 'Remove all approvals when commits are added' });
    await expect(reset).not.toBeChecked();
    // someone else turns selective removals on meanwhile; this form still shows them off
    await api.post(`/projects/${project.id}/approvals`, { selective_code_owner_removals: true });
    await reset.check();
    await form.getByRole('button', { name: 'Save approval settings' }).click();
    await expect(form.getByRole('alert')).toContainText('can only be enabled when reset_approvals_on_push is disabled');
    await expect(reset).toBeChecked();
    expect(await api.get<Settings>(`/projects/${project.id}/approvals`)).toMatchObject({ reset_approvals_on_push: false, selective_code_owner_removals: true });
  });

  test('a rule is created with a user, edited and deleted, each checked through the API', async ({ page, api }) => {
    const project = await newProject(api);
    const approver = await api.createUser({ name: `Approver ${unique()}` });
    await api.post(`/projects/${project.id}/members`, { user_id: approver.id, access_level: 30 });
    await api.post(`/projects/${project.id}/repository/branches`, { branch: 'release', ref: 'main' });
    await api.post(`/projects/${project.id}/protected_branches`, { name: 'release' });
    await page.goto(`/projects/${project.id}/approval-settings`);
    await expect(page.getByRole('status', { name: 'This project has no approval rules.' })).toBeVisible();

    await page.getByRole('button', { name: 'Add approval rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an approval rule' });
    await dialog.getByLabel('Rule name').fill('');
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await expect(dialog.getByText('Give the rule a name')).toBeVisible();
    await dialog.getByLabel('Rule name').fill('Security');
    await dialog.getByLabel('Approvals required').fill('1');
    await dialog.getByRole('searchbox', { name: 'Search users by name or username' }).fill(approver.username);
    await dialog.getByRole('checkbox', { name: new RegExp(approver.name) }).check();
    await dialog.getByRole('group', { name: 'Target branches' }).getByRole('checkbox', { name: 'release' }).check();
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByRole('row').filter({ hasText: 'Security' });
    await expect(row).toContainText(approver.name);
    await expect(row).toContainText('release');
    const [created] = await api.get<Rule[]>(`/projects/${project.id}/approval_rules`);
    expect(created).toMatchObject({ name: 'Security', approvals_required: 1, users: [{ id: approver.id }], protected_branches: [{ name: 'release' }] });
    expect(await axeViolations(page, 'approval rules')).toEqual([]);

    await page.getByRole('button', { name: 'Edit Security' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit the rule Security' });
    await expect(edit.getByRole('checkbox', { name: new RegExp(approver.name) })).toBeChecked();
    await expect(edit.getByRole('group', { name: 'Target branches' }).getByRole('checkbox', { name: 'release' })).toBeChecked();
    await edit.getByLabel('Approvals required').fill('2');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await expect(edit).toHaveCount(0);
    await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();
    expect(await api.get<Rule[]>(`/projects/${project.id}/approval_rules`)).toEqual([expect.objectContaining({ id: created!.id, approvals_required: 2, users: [expect.objectContaining({ id: approver.id })], protected_branches: [expect.objectContaining({ name: 'release' })] })]);

    await page.getByRole('button', { name: 'Delete Security' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the rule Security?' });
    await confirm.getByRole('button', { name: 'Delete rule' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('status', { name: 'This project has no approval rules.' })).toBeVisible();
    expect(await api.get<Rule[]>(`/projects/${project.id}/approval_rules`)).toEqual([]);
  });
});

test('a Developer sees the settings and rules read-only, and is told why', async ({ page, api, connectAs }) => {
  const project = await newProject(api);
  await api.post(`/projects/${project.id}/approval_rules`, { name: 'Backend', approvals_required: 1 });
  const developer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  await connectAs(page, developer.token);
  await page.goto(`/projects/${project.id}/approval-settings`);
  await expect(page.getByRole('note')).toContainText('Only Maintainers and Owners of this project, and administrators, can change');
  await expect(page.getByRole('checkbox', { name: 'Allow the author to approve' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save approval settings' })).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: 'Backend' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit Backend' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Backend' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add approval rule' })).toBeDisabled();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Merge request approvals' })).toBeVisible();
  expect(await axeViolations(page, 'approval settings, read-only')).toEqual([]);
});
