import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, DEMO_TOKENS, DEMO_PATHS, applyAdminSession } from './fixtures.ts';
import { apiAnswers } from './api-answers.ts';
import { AccountTokensPage, ServiceAccountsPage } from './pages/service-accounts.ts';

interface AccountAnswer {
  id: number;
  username: string;
  name: string;
  email: string;
}

const BIG_GROUP_NAME = 'Acme Engineering';
const suffix = () => randomBytes(4).toString('hex');

/** One search param of the page's URL, for `expect.poll`: retried until it matches. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

// each test makes or reads its own objects and each worker has its own sandbox: the file's tests spread over both workers
test.describe.configure({ mode: 'parallel' });

test.describe('group service accounts', () => {
  test('an Owner creates an account, gives it a token shown once, rotates it and hard-deletes the account', async ({ page, api, connectAs, knownSecrets }) => {
    const owner = await api.createUser();
    const tag = suffix();
    const group = await api.post<{ id: number; full_name: string }>('/groups', { name: `Robots ${tag}`, path: `robots-${tag}` }, { token: owner.token });
    const accounts = new ServiceAccountsPage(page);
    const tokens = new AccountTokensPage(page);
    const username = `deploy-bot-${tag}`;
    await connectAs(page, owner.token);

    await accounts.gotoGroup(group.id);
    await expect(accounts.heading(`Service accounts of ${group.full_name}`)).toBeVisible();
    await expect(accounts.emptyState).toContainText('has no service accounts');
    await accounts.newAccount.click();
    const create = accounts.createDialog(`New service account for ${group.full_name}`);
    await create.name.fill('Deploy bot');
    await create.username.fill(username);
    await create.submit.click();
    await expect(create.root).toBeHidden();
    await expect(accounts.row(username)).toBeVisible();
    const [account] = (await api.get<AccountAnswer[]>(`/groups/${group.id}/service_accounts`)).filter((item) => item.username === username);
    expect(account).toMatchObject({ name: 'Deploy bot' });
    // if the test fails half-way, the account goes with what it owns (hard: no Ghost User appears)
    api.deleteAfter(`/groups/${group.id}/service_accounts/${account.id}?hard_delete=true`);

    await accounts.tokensLink('Deploy bot').click();
    await expect(page).toHaveURL(new RegExp(`/groups/${group.id}/service-accounts/${account.id}/tokens$`));
    await expect(tokens.heading('Deploy bot')).toBeVisible();
    await expect(tokens.emptyState).toContainText('Deploy bot has no tokens.');

    await tokens.newToken.click();
    const newToken = tokens.createDialog('Deploy bot');
    await newToken.name.fill('deploy');
    await newToken.scope('api').check();
    await newToken.submit.click();
    const shown = tokens.secretDialog('New token of Deploy bot');
    await expect(shown.token).toHaveValue(/^glpat-/);
    const secret = await shown.token.inputValue();
    knownSecrets.add(secret);
    await expect(shown.warning).toContainText('this is the only time the token is shown');
    expect((await api.get<{ username: string }>('/user', { token: secret })).username).toBe(username);
    await shown.done.click();
    await expect(shown.root).toBeHidden();
    // shown once: nothing on the page holds it any more
    await expect(page.getByRole('textbox', { name: 'Token', exact: true })).toHaveCount(0);
    await expect(tokens.row('deploy', 'Active')).toHaveCount(1);

    // the account alone owns a group it made itself: only a hard delete may remove it
    const botGroup = await api.post<{ id: number }>('/groups', { name: `Bot land ${tag}`, path: `bot-land-${tag}` }, { token: secret });

    await tokens.rotateButton('deploy').click();
    const rotate = tokens.rotateDialog('deploy');
    await expect(rotate.root).toContainText('revokes every token of its family');
    const rotations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/rotate')) rotations.push(request.url());
    });
    // a second rotate would be reuse of the revoked token and revoke the whole family
    await rotate.confirm.dblclick();
    const rotated = tokens.secretDialog('Rotated token of Deploy bot');
    await expect(rotated.token).toHaveValue(/^glpat-/);
    const newSecret = await rotated.token.inputValue();
    knownSecrets.add(newSecret);
    expect(newSecret).not.toBe(secret);
    await rotated.done.click();
    expect(rotations).toHaveLength(1);
    await expect(tokens.row('deploy', 'Revoked')).toHaveCount(1);
    await expect(tokens.row('deploy', 'Active')).toHaveCount(1);
    expect((await api.call('GET', '/user', { token: secret })).status).toBe(401);
    expect((await api.call('GET', '/user', { token: newSecret })).status).toBe(200);

    await tokens.backToAccounts.click();
    await accounts.deleteButton('Deploy bot').click();
    const remove = accounts.deleteDialog('Deploy bot');
    await expect(remove.root).toContainText('reassigned to the Ghost User');
    await expect(remove.hardDelete).not.toBeChecked();
    await expect(remove.hardDelete).toHaveAccessibleDescription(/Contributions are deleted, not reassigned to a placeholder user, and groups owned only by this account are deleted/);
    await remove.confirm.click();
    await expect(remove.error).toContainText('sole-owner of a group');
    await expect(remove.error).toContainText('Choose hard delete');
    await remove.hardDelete.check();
    await expect(remove.confirm).toHaveText('Hard delete service account');
    await remove.confirm.click();
    await expect(remove.root).toBeHidden();
    await expect(accounts.toast(/^Deleted Deploy bot, its contributions/)).toBeVisible();
    await expect(accounts.row(username)).toHaveCount(0);
    expect(await api.get<AccountAnswer[]>(`/groups/${group.id}/service_accounts`)).toEqual([]);
    expect((await api.call('GET', `/groups/${botGroup.id}`)).status).toBe(404);
    expect((await api.call('GET', '/user', { token: newSecret })).status).toBe(401);
  });

  test('a rename to a taken username shows on the Username field', async ({ page, context, api, adminSession }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const tag = suffix();
    const first = await api.post<AccountAnswer>(`/groups/${groupId}/service_accounts`, { name: `Lint bot ${tag}`, username: `lint-${tag}` });
    api.deleteAfter(`/groups/${groupId}/service_accounts/${first.id}?hard_delete=true`);
    const second = await api.post<AccountAnswer>(`/groups/${groupId}/service_accounts`, { name: `Docs bot ${tag}`, username: `docs-${tag}` });
    api.deleteAfter(`/groups/${groupId}/service_accounts/${second.id}?hard_delete=true`);
    const accounts = new ServiceAccountsPage(page);
    await applyAdminSession(context, adminSession);
    await accounts.gotoGroup(groupId);
    await accounts.editButton(second.name).click();
    const edit = accounts.editDialog(second.name);
    await expect(edit.username).toHaveValue(second.username);
    await expect(edit.email).toHaveCount(0);
    await edit.username.fill(first.username);
    await edit.submit.click();
    await expect(edit.username).toHaveAttribute('aria-invalid', 'true');
    await expect(edit.username).toHaveAccessibleDescription(/Username has already been taken/);
    await expect(edit.formError).toHaveCount(0);

    await edit.username.fill(`docs-renamed-${tag}`);
    await edit.submit.click();
    await expect(edit.root).toBeHidden();
    await expect(accounts.row(`docs-renamed-${tag}`)).toBeVisible();
  });

  test('a Developer sees why there is nothing for them: no list and no actions', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    // an account exists, so an Owner would see a row with actions
    const account = await api.post<AccountAnswer>(`/groups/${groupId}/service_accounts`, { name: `Hidden bot ${suffix()}` });
    api.deleteAfter(`/groups/${groupId}/service_accounts/${account.id}?hard_delete=true`);
    const accounts = new ServiceAccountsPage(page);
    await connectAs(page, DEMO_TOKENS.developer.secret);
    const answers = apiAnswers(page);
    await accounts.gotoGroup(groupId);
    await expect(accounts.heading(`Service accounts of ${BIG_GROUP_NAME}`)).toBeVisible();
    await expect(accounts.notice('Only Owners of this group and administrators can see and manage its service accounts.')).toBeVisible();
    await expect(accounts.newAccount).toHaveCount(0);
    await expect(accounts.table).toHaveCount(0);
    await expect(accounts.rowActions).toHaveCount(0);

    const tokens = new AccountTokensPage(page);
    await tokens.gotoGroup(groupId, account.id);
    await expect(tokens.notice('Only Owners of this group and administrators')).toBeVisible();
    await expect(tokens.newToken).toHaveCount(0);
    await expect(tokens.table).toHaveCount(0);
    // the role is read first: neither list the platform would refuse (403) is asked for
    expect(answers.filter((answer) => answer.includes('/service_accounts'))).toEqual([]);
  });

  test('an Owner whose role could not be read is told so, not refused, and a retry brings the list', async ({ page, api, connectAs }) => {
    const tag = suffix();
    const group = await api.post<{ id: number }>('/groups', { name: `Unread owner ${tag}`, path: `unread-owner-${tag}` });
    api.deleteAfter(`/groups/${group.id}`);
    const owner = await api.createUser();
    await api.post(`/groups/${group.id}/members`, { user_id: owner.id, access_level: 50 });
    const account = await api.post<AccountAnswer>(`/groups/${group.id}/service_accounts`, { name: `Bot ${tag}` });
    api.deleteAfter(`/groups/${group.id}/service_accounts/${account.id}?hard_delete=true`);
    const heal = await api.injectFault({ path: `/api/v4/groups/${group.id}/members/all`, methods: ['GET'], error_rate: 1, error_status: 503 });
    await connectAs(page, owner.token);
    const accounts = new ServiceAccountsPage(page);
    await accounts.gotoGroup(group.id);
    const unread = accounts.notice(/Your role here could not be read \(.+\), so its service accounts are not shown\./);
    // the read is retried (about 3.5 s) before the failure is said
    await expect(unread).toBeVisible({ timeout: 15_000 });
    await expect(accounts.heading(`Service accounts of Unread owner ${tag}`)).toBeVisible();
    await expect(accounts.notice(/Only Owners/)).toHaveCount(0);
    await expect(accounts.table).toHaveCount(0);
    await heal();
    await unread.getByRole('button', { name: 'Try again' }).click();
    await expect(accounts.table.getByRole('row', { name: new RegExp(`Bot ${tag}`) })).toBeVisible();
    await expect(unread).toHaveCount(0);
  });

  test('a subgroup explains that service accounts live on the top-level group', async ({ page, context, api, adminSession }) => {
    const subgroupId = await api.groupId(`${DEMO_PATHS.bigGroup}/backend`);
    const accounts = new ServiceAccountsPage(page);
    await applyAdminSession(context, adminSession);
    await accounts.gotoGroup(subgroupId);
    await expect(accounts.notice(`Service accounts belong to top-level groups, and this is a subgroup. Those of this group’s hierarchy are managed in the top-level group “${DEMO_PATHS.bigGroup}”.`)).toBeVisible();
    await expect(accounts.newAccount).toHaveCount(0);
  });
});

test.describe('instance service accounts', () => {
  test('a taken email shows on the Email field and what was typed stays', async ({ page, context, api, adminSession }) => {
    const [maya] = await api.get<Array<{ email: string }>>(`/users?username=${DEMO_TOKENS.maintainer.username}`);
    expect(maya.email).toBeTruthy();
    const tag = suffix();
    const accounts = new ServiceAccountsPage(page);
    await applyAdminSession(context, adminSession);
    await accounts.gotoInstance();
    await expect(accounts.heading('Instance service accounts')).toBeVisible();

    await accounts.newAccount.click();
    const create = accounts.createDialog('New instance service account');
    await create.name.fill('Backup robot');
    await create.username.fill(`backup-${tag}`);
    await create.email.fill(maya.email);
    await create.submit.click();
    await expect(create.email).toHaveAttribute('aria-invalid', 'true');
    await expect(create.email).toHaveAccessibleDescription(/Email has already been taken/);
    await expect(create.formError).toHaveCount(0);
    await expect(create.name).toHaveValue('Backup robot');
    await expect(create.username).toHaveValue(`backup-${tag}`);
    await expect(create.email).toHaveValue(maya.email);
    const [created] = await api.get<AccountAnswer[]>(`/service_accounts?order_by=username&sort=asc&per_page=100`).then((all) => all.filter((item) => item.username === `backup-${tag}`));
    expect(created).toBeUndefined();

    await create.email.fill(`backup-${tag}@example.com`);
    await create.submit.click();
    await expect(create.root).toBeHidden();
    await expect(accounts.row(`backup-${tag}`)).toBeVisible();
    await expect(accounts.toast(`Created the service account Backup robot (@backup-${tag}).`)).toBeVisible();
  });

  test('an administrator gives an instance account a token through the personal access tokens API', async ({ page, context, api, knownSecrets, adminSession }) => {
    const tag = suffix();
    const account = await api.post<AccountAnswer>('/service_accounts', { name: `Mirror ${tag}`, username: `mirror-${tag}` });
    const accounts = new ServiceAccountsPage(page);
    const tokens = new AccountTokensPage(page);
    await applyAdminSession(context, adminSession);
    await accounts.gotoInstance('?order_by=username&sort=asc&per_page=100');
    // instance accounts are edited and deleted like a group's
    await expect(accounts.editButton(account.name)).toBeVisible();
    await expect(accounts.deleteButton(account.name)).toBeVisible();
    await accounts.tokensLink(account.name).click();
    await expect(page).toHaveURL(new RegExp(`/admin/service-accounts/${account.id}/tokens$`));
    await expect(tokens.heading(account.name)).toBeVisible();

    await tokens.newToken.click();
    const newToken = tokens.createDialog(account.name);
    await newToken.name.fill('mirror');
    await newToken.scope('read_repository').check();
    await newToken.submit.click();
    const shown = tokens.secretDialog(`New token of ${account.name}`);
    await expect(shown.token).toHaveValue(/^glpat-/);
    knownSecrets.add(await shown.token.inputValue());
    await shown.done.click();
    await expect(tokens.row('mirror', 'Active')).toHaveCount(1);

    await tokens.revokeButton('mirror').click();
    await tokens.revokeDialog('mirror').confirm.click();
    await expect(tokens.row('mirror', 'Revoked')).toHaveCount(1);
    const [stored] = await api.get<Array<{ revoked: boolean }>>(`/personal_access_tokens?user_id=${account.id}`);
    expect(stored.revoked).toBe(true);

    // the state filter lives in the URL
    await tokens.state.selectOption('active');
    await expect.poll(param(page, 'state')).toBe('active');
    await expect(tokens.emptyState).toContainText('No token matches these filters.');
    await page.reload();
    await expect(tokens.state).toHaveValue('active');
    await expect(tokens.emptyState).toContainText('No token matches these filters.');
    await tokens.emptyState.getByRole('link', { name: 'Clear the filters' }).click();
    await expect.poll(param(page, 'state')).toBeNull();
    await expect(tokens.row('mirror', 'Revoked')).toHaveCount(1);
  });

  test('an administrator renames an instance account (a taken username shows on the field) and hard-deletes it', async ({ page, context, api, knownSecrets, adminSession }) => {
    const tag = suffix();
    const account = await api.post<AccountAnswer>('/service_accounts', { name: `Packager ${tag}`, username: `packager-${tag}` });
    api.deleteAfter(`/users/${account.id}?hard_delete=true`);
    const other = await api.post<AccountAnswer>('/service_accounts', { name: `Signer ${tag}`, username: `signer-${tag}` });
    api.deleteAfter(`/users/${other.id}?hard_delete=true`);
    // the account alone owns a group it made with its own token: only a hard delete may remove it
    const { token } = await api.post<{ token: string }>(`/users/${account.id}/personal_access_tokens`, { name: 'api', scopes: ['api'] });
    knownSecrets.add(token);
    const ownGroup = await api.post<{ id: number }>('/groups', { name: `Packages ${tag}`, path: `packages-${tag}` }, { token });
    const renamed = { name: `Packager renamed ${tag}`, username: `packager-renamed-${tag}` };
    const accounts = new ServiceAccountsPage(page);
    await applyAdminSession(context, adminSession);
    // newest first: both accounts are on the first page
    await accounts.gotoInstance();
    await expect(accounts.row(account.username)).toBeVisible();
    await expect(accounts.notice(/rename or delete/)).toHaveCount(0);

    await accounts.editButton(account.name).click();
    const edit = accounts.editDialog(account.name);
    await expect(edit.username).toHaveValue(account.username);
    await expect(edit.email).toHaveValue(account.email);
    await edit.username.fill(other.username);
    await edit.submit.click();
    await expect(edit.username).toHaveAttribute('aria-invalid', 'true');
    await expect(edit.username).toHaveAccessibleDescription(/Username has already been taken/);
    await expect(edit.formError).toHaveCount(0);
    await expect(edit.name).toHaveValue(account.name);

    await edit.name.fill(renamed.name);
    await edit.username.fill(renamed.username);
    await edit.submit.click();
    await expect(edit.root).toBeHidden();
    await expect(accounts.toast(`Saved ${renamed.name}.`)).toBeVisible();
    await expect(accounts.row(renamed.username)).toContainText(renamed.name);
    expect(await api.get<AccountAnswer>(`/users/${account.id}`)).toMatchObject({ ...renamed, email: account.email });

    await accounts.deleteButton(renamed.name).click();
    const remove = accounts.deleteDialog(renamed.name);
    await expect(remove.root).toContainText('reassigned to the Ghost User');
    await expect(remove.hardDelete).toHaveAccessibleDescription(/Contributions are deleted, not reassigned to a placeholder user, and groups owned only by this account are deleted/);
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(new URL(request.url()).pathname + new URL(request.url()).search);
    });
    await remove.confirm.click();
    await expect(remove.error).toContainText('sole-owner of a group');
    expect((await api.call('GET', `/users/${account.id}`)).status).toBe(200);
    await remove.hardDelete.check();
    await expect(remove.confirm).toHaveText('Hard delete service account');
    await remove.confirm.click();
    await expect(remove.root).toBeHidden();
    await expect(accounts.toast(`Deleted ${renamed.name}, its contributions and the groups it owned alone.`)).toBeVisible();
    await expect(accounts.row(renamed.username)).toHaveCount(0);
    // instance accounts are users to the platform: they go through the users API
    expect(deletes).toEqual([`/api/v4/users/${account.id}?hard_delete=false`, `/api/v4/users/${account.id}?hard_delete=true`]);
    expect((await api.call('GET', `/users/${account.id}`)).status).toBe(404);
    expect((await api.call('GET', `/groups/${ownGroup.id}`)).status).toBe(404);
    expect((await api.call('GET', '/user', { token })).status).toBe(401);
  });

  test('the sort goes to order_by= and sort= and survives a reload', async ({ page, context, api, adminSession }) => {
    const tag = suffix();
    // a username that sorts before the demo data and anything the other tests make
    const first = await api.post<AccountAnswer>('/service_accounts', { name: `Aardvark ${tag}`, username: `0-aardvark-${tag}` });
    const expected = await api.get<AccountAnswer[]>('/service_accounts?order_by=username&sort=asc&per_page=1');
    expect(expected[0].username <= first.username).toBe(true);
    const accounts = new ServiceAccountsPage(page);
    await applyAdminSession(context, adminSession);
    await accounts.gotoInstance();
    const { sortBy } = accounts;
    await expect(sortBy).toHaveValue('id_desc');
    await expect(accounts.rows.first()).toContainText(`@${first.username}`);

    await sortBy.selectOption({ label: 'Username, A to Z' });
    await expect.poll(param(page, 'order_by')).toBe('username');
    await expect.poll(param(page, 'sort')).toBe('asc');
    await expect(accounts.rows.first()).toContainText(`@${expected[0].username}`);
    await page.reload();
    await expect(sortBy).toHaveValue('username_asc');
    await expect(accounts.rows.first()).toContainText(`@${expected[0].username}`);
  });

  test('someone who is not an administrator is told the page is for administrators', async ({ page, connectAs }) => {
    const accounts = new ServiceAccountsPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await accounts.gotoInstance();
    await expect(accounts.heading('Instance service accounts')).toBeVisible();
    await expect(accounts.notice('Instance service accounts are managed by administrators only')).toBeVisible();
    await expect(accounts.newAccount).toHaveCount(0);
    await expect(accounts.table).toHaveCount(0);
  });
});
