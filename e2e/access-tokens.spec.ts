import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { AccessTokensPage, ExpiryOverviewPage } from './pages/access-tokens.ts';
import { MembersPage } from './pages/members.ts';
import { Shell } from './pages/shell.ts';
import { apiAnswers } from './api-answers.ts';

interface TokenAnswer {
  id: number;
  name: string;
  active: boolean;
  revoked: boolean;
  expires_at: string | null;
  scopes: string[];
}

interface NewTokenAnswer extends TokenAnswer {
  token: string;
}

interface Group {
  id: number;
  name: string;
}

/** One search param of the page's URL, for `expect.poll`: retried until it matches. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

/** A `YYYY-MM-DD` date `days` from today (UTC, as the API and the console read dates). */
const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A fresh top-level group the administrator owns. The sandbox cannot delete groups, so the path is
 * unique; whatever token is still active in it when the test ends is revoked then (after every
 * other cleanup step, so it also catches tokens the test made through the console or by rotating).
 */
async function ownedGroup(api: Api): Promise<Group> {
  const suffix = randomBytes(4).toString('hex');
  const group = await api.post<{ id: number; full_name: string }>('/groups', { name: `E2E Tokens ${suffix}`, path: `e2e-tokens-${suffix}`, visibility: 'private' });
  api.cleanup(async () => {
    const active = await api.get<TokenAnswer[]>(`/groups/${group.id}/access_tokens?state=active&per_page=100`);
    for (const token of active) await api.delete(`/groups/${group.id}/access_tokens/${token.id}`);
  });
  return { id: group.id, name: group.full_name };
}

/** A fixture token made through the API (for tests that are not about creating one). */
function groupToken(api: Api, groupId: number, body: { name: string; scopes?: string[]; access_level?: number; expires_at?: string; description?: string }) {
  return api.post<NewTokenAnswer>(`/groups/${groupId}/access_tokens`, { scopes: ['read_api'], ...body });
}

/** Who the secret authenticates as; a header, never a URL, carries it. */
const selfStatus = async (api: Api, secret: string) => (await api.call('GET', '/personal_access_tokens/self', { token: secret })).status;

/** Whether the secret is anywhere the page keeps things: its markup and text, form values, web storage. */
function pageHolds(page: Page, secret: string): Promise<boolean> {
  return page.evaluate((needle) => {
    const fields = [...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].map((field) => field.value);
    const storage = [localStorage, sessionStorage].flatMap((store) => Object.keys(store).map((key) => `${key}=${store.getItem(key)}`));
    return [document.documentElement.outerHTML, document.body.innerText, ...fields, ...storage].some((text) => text.includes(needle));
  }, secret);
}

// each test makes or reads its own objects and each worker has its own sandbox: the file's tests spread over both workers
test.describe.configure({ mode: 'parallel' });

test.describe('a group owner manages its access tokens', () => {
  let group: Group;
  test.beforeEach(async ({ context, api, adminSession }) => {
    group = await ownedGroup(api);
    await applyAdminSession(context, adminSession);
  });

  test('a new token: its secret is shown once, works, and is gone from the page when the dialog closes', async ({ page, context, api, baseURL, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    await tokens.goto(group.id);
    await expect(tokens.heading(group.name)).toBeVisible();
    await expect(new Shell(page).areas.getByRole('link', { name: 'Access tokens', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(tokens.emptyState).toHaveAccessibleName(`${group.name} has no access tokens.`);
    // no pager under an empty list
    await expect(page.getByRole('status', { name: /^Shown:/ })).toHaveCount(0);

    await tokens.newToken.click();
    const form = tokens.createDialog(group.name);
    await form.name.fill('release bot');
    await form.description.fill('Publishes releases');
    await form.role.selectOption({ label: 'Reporter' });
    await form.scope('read_api').check();
    await form.scope('read_repository').check();
    await form.submit.click();

    const shown = tokens.secretDialog('Your new access token');
    await expect(shown.root).toBeVisible();
    await expect(form.root).toHaveCount(0);
    await expect(shown.warning).toContainText('this is the only time the token is shown');
    await expect(shown.token).toHaveValue(/^glpat-/);
    await expect(shown.token).not.toBeEditable();
    const secret = await shown.token.inputValue();
    // from here on the leak guard watches for this one too
    knownSecrets.add(secret);

    await shown.copy.click();
    await expect(shown.copyStatus).toHaveText('Copied to the clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // Escape or a click outside asks first: the secret would be gone for good
    await page.keyboard.press('Escape');
    await expect(shown.root).toBeVisible();
    await expect(shown.root.getByRole('alert')).toContainText('It cannot be shown again');
    await shown.root.getByRole('button', { name: 'Keep it open', exact: true }).click();
    await expect(shown.root.getByRole('alert')).toHaveCount(0);
    await expect(shown.token).toHaveValue(secret);

    await shown.done.click();
    await expect(shown.root).toHaveCount(0);
    const row = tokens.row('release bot', 'Active');
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell', { name: 'Reporter', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'read_api, read_repository', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'Never used', exact: true })).toBeVisible();
    await expect(row).toContainText('Publishes releases');
    await expect.poll(() => pageHolds(page, secret), { message: 'the secret must be gone from the page once its dialog closes' }).toBe(false);

    expect(await selfStatus(api, secret)).toBe(200);
    const [created] = await api.get<TokenAnswer[]>(`/groups/${group.id}/access_tokens?search=release`);
    expect(created).toMatchObject({ name: 'release bot', scopes: ['read_api', 'read_repository'], expires_at: isoDay(365), active: true });
  });

  test('the expiry defaults to one year ahead; a later date is refused on the field and the typed name stays', async ({ page }) => {
    const tokens = new AccessTokensPage(page);
    const creates: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/access_tokens')) creates.push(request.url());
    });
    await tokens.goto(group.id);
    await tokens.newToken.click();
    const form = tokens.createDialog(group.name);
    await expect(form.expiresOn).toHaveValue(isoDay(365));
    await expect(form.expiresOn).toHaveAttribute('max', isoDay(365));
    await expect(form.role).toHaveValue('40');

    await form.name.fill('nightly backup');
    // what a scope allows is visible text, not only a description for screen readers
    await expect(form.scope('api')).toHaveAccessibleDescription('Read and write the whole API');
    await expect(form.scopes.getByText('Read and write the whole API', { exact: true })).toBeVisible();
    await form.scope('api').check();
    await form.expiresOn.fill(isoDay(400));
    await form.submit.click();

    await expect(form.expiresOn).toHaveAttribute('aria-invalid', 'true');
    await expect(form.expiresOn).toHaveAccessibleDescription(new RegExp(`at most one year ahead \\(${isoDay(365)}\\)`));
    await expect(form.name).toHaveValue('nightly backup');
    await expect(form.scope('api')).toBeChecked();
    expect(creates, 'a refused date is not sent').toEqual([]);

    await form.expiresOn.fill(isoDay(20));
    await form.submit.click();
    const shown = tokens.secretDialog('Your new access token');
    await expect(shown.token).toHaveValue(/^glpat-/);
    await shown.done.click();
    await expect(tokens.row('nightly backup', 'Active').getByRole('cell', { name: /\(expires in 20 days\)$/ })).toBeVisible();
    expect(creates).toHaveLength(1);
  });

  test('state and search filters go to the URL and survive a reload', async ({ page, api }) => {
    const tokens = new AccessTokensPage(page);
    await groupToken(api, group.id, { name: 'deploy bot' });
    const retired = await groupToken(api, group.id, { name: 'backup job' });
    await api.delete(`/groups/${group.id}/access_tokens/${retired.id}`);
    await groupToken(api, group.id, { name: 'ci runner' });

    await tokens.goto(group.id);
    await expect(tokens.rows).toHaveCount(3);

    await tokens.state.selectOption({ label: 'Active' });
    await expect.poll(param(page, 'state')).toBe('active');
    await expect(tokens.rows).toHaveCount(2);
    await expect(tokens.row('backup job')).toHaveCount(0);
    await page.reload();
    await expect(tokens.state).toHaveValue('active');
    await expect(tokens.rows).toHaveCount(2);
    await expect(tokens.row('deploy bot', 'Active')).toHaveCount(1);
    await expect(tokens.row('ci runner', 'Active')).toHaveCount(1);

    await tokens.state.selectOption({ label: 'Inactive (revoked or expired)' });
    await expect.poll(param(page, 'state')).toBe('inactive');
    await expect(tokens.rows).toHaveCount(1);
    await expect(tokens.row('backup job', 'Revoked')).toHaveCount(1);
    await expect(tokens.rowActions).toHaveCount(0);

    await tokens.state.selectOption({ label: 'Any' });
    await expect.poll(param(page, 'state')).toBeNull();
    await expect(tokens.rows).toHaveCount(3);
    await tokens.revokedOnly.click();
    await expect.poll(param(page, 'revoked')).toBe('true');
    await expect(tokens.rows).toHaveCount(1);
    await expect(tokens.row('backup job', 'Revoked')).toHaveCount(1);
    await tokens.revokedOnly.click();
    await expect.poll(param(page, 'revoked')).toBeNull();
    await expect(tokens.rows).toHaveCount(3);

    await tokens.search.fill('deploy');
    await expect.poll(param(page, 'search')).toBe('deploy');
    await expect(tokens.rows).toHaveCount(1);
    await expect(tokens.row('deploy bot', 'Active')).toHaveCount(1);
    await page.reload();
    await expect(tokens.search).toHaveValue('deploy');
    await expect(tokens.rows).toHaveCount(1);
    await expect(tokens.row('deploy bot')).toHaveCount(1);

    // both filters at once: nothing matches, and the empty state says so
    await tokens.state.selectOption({ label: 'Inactive (revoked or expired)' });
    await expect.poll(param(page, 'state')).toBe('inactive');
    await expect(tokens.emptyState).toHaveAccessibleName('No token matches these filters.');
    await tokens.emptyState.getByRole('link', { name: 'Clear the filters' }).click();
    await expect.poll(param(page, 'search')).toBeNull();
    expect(param(page, 'state')()).toBeNull();
    await expect(tokens.search).toHaveValue('');
    await expect(tokens.rows).toHaveCount(3);
  });

  test('rotate: the old token is revoked, the new one active, and only the new secret works', async ({ page, api, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    const original = await groupToken(api, group.id, { name: 'deploy bot', scopes: ['api'] });
    knownSecrets.add(original.token);
    await tokens.goto(group.id);
    await expect(tokens.row('deploy bot', 'Active')).toHaveCount(1);

    await tokens.rotateButton('deploy bot').click();
    const confirm = tokens.rotateDialog('deploy bot');
    // a second rotate of the same token revokes its whole family: the confirmation says so
    await expect(confirm.root).toHaveAccessibleDescription(/revokes every token of its family/);
    await confirm.newExpiry.fill(isoDay(20));
    await confirm.confirm.click();

    const shown = tokens.secretDialog('The rotated access token');
    await expect(shown.token).toHaveValue(/^glpat-/);
    const rotated = await shown.token.inputValue();
    knownSecrets.add(rotated);
    expect(rotated).not.toBe(original.token);
    await page.keyboard.press('Escape');
    await shown.root.getByRole('button', { name: 'Close, the token is gone', exact: true }).click();
    await expect(shown.root).toHaveCount(0);

    await expect(tokens.rows).toHaveCount(2);
    await expect(tokens.row('deploy bot', 'Revoked')).toHaveCount(1);
    const fresh = tokens.row('deploy bot', 'Active');
    await expect(fresh).toHaveCount(1);
    await expect(fresh.getByRole('cell', { name: /\(expires in 20 days\)$/ })).toBeVisible();
    // only the active row can be rotated or revoked
    await expect(tokens.rotateButton('deploy bot')).toHaveCount(1);
    await expect(tokens.revokeButton('deploy bot')).toHaveCount(1);
    await expect.poll(() => pageHolds(page, rotated)).toBe(false);

    expect(await selfStatus(api, rotated)).toBe(200);
    expect(await selfStatus(api, original.token)).toBe(401);
  });

  test('rotate offers the token\'s current lifetime and says, where the date is chosen, that no date means 7 days', async ({ page, api, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    const original = await groupToken(api, group.id, { name: 'monthly bot', expires_at: isoDay(30) });
    knownSecrets.add(original.token);
    await tokens.goto(group.id);
    await tokens.rotateButton('monthly bot').click();
    const confirm = tokens.rotateDialog('monthly bot');
    await expect(confirm.newExpiry).toHaveValue(isoDay(30));
    await expect(confirm.newExpiry).toHaveAccessibleDescription(/current lifetime of 30 days.*Without a date the platform gives the new token only 7 days/);
    await confirm.newExpiry.fill('');
    await confirm.root.getByRole('button', { name: /^Keep the current lifetime/ }).click();
    await expect(confirm.newExpiry).toHaveValue(isoDay(30));
    await confirm.confirm.click();

    const shown = tokens.secretDialog('The rotated access token');
    await expect(shown.token).toHaveValue(/^glpat-/);
    knownSecrets.add(await shown.token.inputValue());
    await shown.done.click();
    await expect(tokens.row('monthly bot', 'Active').getByRole('cell', { name: /\(expires in 30 days\)$/ })).toBeVisible();
  });

  test('an administrator\'s visit asks nothing that fails: no own-membership lookup (members/all/:me)', async ({ page, api }) => {
    // a group the administrator is no member of
    const owner = await api.createUser();
    const suffix = randomBytes(4).toString('hex');
    const theirs = await api.post<{ id: number }>('/groups', { name: `Not mine ${suffix}`, path: `not-mine-${suffix}`, visibility: 'private' }, { token: owner.token });
    const token = await groupToken(api, theirs.id, { name: 'quiet' });
    api.cleanup(() => api.call('DELETE', `/groups/${theirs.id}/access_tokens/${token.id}`));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
    });
    const tokens = new AccessTokensPage(page);
    await tokens.goto(theirs.id);
    await expect(tokens.row('quiet', 'Active')).toHaveCount(1);
    await expect(tokens.newToken).toBeVisible();
    await new MembersPage(page).gotoGroup(theirs.id);
    await expect(page.getByRole('main').getByRole('row').filter({ hasText: owner.username })).toHaveCount(1);
    expect(failed).toEqual([]);
  });

  test('a revoked token shows its date without the expiry warning', async ({ page, api, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    const gone = await groupToken(api, group.id, { name: 'short lived', expires_at: isoDay(5) });
    knownSecrets.add(gone.token);
    await api.delete(`/groups/${group.id}/access_tokens/${gone.id}`);
    const live = await groupToken(api, group.id, { name: 'still live', expires_at: isoDay(5) });
    knownSecrets.add(live.token);
    await tokens.goto(group.id);
    await expect(tokens.row('still live', 'Active').getByRole('cell', { name: /\(expires in 5 days\)$/ })).toBeVisible();
    await expect(tokens.row('short lived', 'Revoked')).toHaveCount(1);
    await expect(tokens.row('short lived', 'Revoked')).not.toContainText('expires in');
  });

  test('a double click on "Rotate token" sends one rotate request', async ({ page, api, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    const original = await groupToken(api, group.id, { name: 'deploy bot' });
    knownSecrets.add(original.token);
    const rotations: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/rotate')) rotations.push(request.url());
    });
    await tokens.goto(group.id);
    await tokens.rotateButton('deploy bot').click();
    const confirm = tokens.rotateDialog('deploy bot');
    await expect(confirm.confirm).toBeEnabled();

    await confirm.confirm.dblclick();
    const shown = tokens.secretDialog('The rotated access token');
    await expect(shown.token).toHaveValue(/^glpat-/);
    const rotated = await shown.token.inputValue();
    knownSecrets.add(rotated);
    await shown.done.click();
    await expect(tokens.row('deploy bot', 'Revoked')).toHaveCount(1);
    await expect(tokens.row('deploy bot', 'Active')).toHaveCount(1);

    expect(rotations).toEqual([`${new URL(page.url()).origin}/api/v4/groups/${group.id}/access_tokens/${original.id}/rotate`]);
    // a second rotate would have been reuse of a revoked token and revoked the new one too
    expect(await selfStatus(api, rotated)).toBe(200);
  });

  test('revoke asks first, names the token, and the token stops working', async ({ page, api, knownSecrets }) => {
    const tokens = new AccessTokensPage(page);
    const token = await groupToken(api, group.id, { name: 'old integration', scopes: ['read_api', 'read_repository'] });
    knownSecrets.add(token.token);
    await groupToken(api, group.id, { name: 'keeps working' });
    await tokens.goto(group.id);

    await tokens.revokeButton('old integration').click();
    const confirm = tokens.revokeDialog('old integration');
    await expect(confirm.root).toHaveAccessibleDescription(/“old integration” \(Maintainer, scopes read_api, read_repository\) stops working at once and for good/);
    await confirm.cancel.click();
    await expect(confirm.root).toHaveCount(0);
    await expect(tokens.row('old integration', 'Active')).toHaveCount(1);
    expect(await selfStatus(api, token.token)).toBe(200);

    await tokens.revokeButton('old integration').click();
    await confirm.confirm.click();
    await expect(confirm.root).toHaveCount(0);
    await expect(tokens.toast('Revoked old integration.')).toBeVisible();
    await expect(tokens.row('old integration', 'Revoked')).toHaveCount(1);
    await expect(tokens.rotateButton('old integration')).toHaveCount(0);
    await expect(tokens.revokeButton('old integration')).toHaveCount(0);
    await expect(tokens.row('keeps working', 'Active')).toHaveCount(1);
    expect(await selfStatus(api, token.token)).toBe(401);
  });

  test('the expiry overview of someone who owns no group says so once, without "0 tokens in 0 groups" under it', async ({ page, api, connectAs }) => {
    const nobody = await api.createUser();
    await connectAs(page, nobody.token);
    const overview = new ExpiryOverviewPage(page);
    await overview.goto();
    await expect(page.getByRole('main').getByRole('status', { name: 'You own no groups, so there are no group tokens to check.' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: /tokens in/ })).toHaveCount(0);
  });

  test('the expiry overview lists a token that expires in 3 days, and rotates it from there', async ({ page, api, knownSecrets }) => {
    const overview = new ExpiryOverviewPage(page);
    const soon = await groupToken(api, group.id, { name: 'expiring soon', expires_at: isoDay(3) });
    knownSecrets.add(soon.token);
    await groupToken(api, group.id, { name: 'far off', expires_at: isoDay(200) });

    await overview.goto('?everywhere=true');
    await expect(overview.heading).toBeVisible();
    await expect(overview.everywhere).toBeChecked();
    await expect(overview.summary).toBeVisible();
    const row = overview.row('expiring soon', group.name);
    // a token may need attention for several reasons: "Expire within 7 days, Never used"
    await expect(row.getByRole('cell', { name: /^Expire within 7 days(,|$)/ })).toBeVisible();
    await expect(row.getByRole('cell', { name: /\(expires in 3 days\)$/ })).toBeVisible();
    // never used, so listed too, but not among the soon-expiring
    await expect(overview.row('far off', group.name)).toHaveCount(1);

    await overview.show.selectOption({ value: 'within_7_days' });
    await expect.poll(param(page, 'reason')).toBe('within_7_days');
    await expect(overview.row('expiring soon', group.name)).toHaveCount(1);
    await expect(overview.row('far off', group.name)).toHaveCount(0);
    await page.reload();
    await expect(overview.show).toHaveValue('within_7_days');
    await expect(overview.row('expiring soon', group.name)).toHaveCount(1);
    await expect(overview.row('far off', group.name)).toHaveCount(0);

    await overview.rotateButton('expiring soon', group.name).click();
    const confirm = new AccessTokensPage(page).rotateDialog('expiring soon');
    await confirm.confirm.click();
    const shown = new AccessTokensPage(page).secretDialog('The rotated access token');
    await expect(shown.token).toHaveValue(/^glpat-/);
    const rotated = await shown.token.inputValue();
    knownSecrets.add(rotated);
    await shown.done.click();
    // the successor keeps the 3-day lifetime (the dialog's default) and was never used: it takes the row
    await expect(overview.row('expiring soon', group.name)).toHaveCount(1);
    await expect(overview.row('expiring soon', group.name)).toContainText('(expires in 3 days)');
    expect(await selfStatus(api, rotated)).toBe(200);
    expect(await selfStatus(api, soon.token)).toBe(401);
  });
});

test.describe('a member who is not an Owner', () => {
  test('gets no Access tokens link, and the page itself says which role it takes, without asking for the list', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const answers = apiAnswers(page);
    await connectAs(page, DEMO_TOKENS.developer.secret);
    const shell = new Shell(page);
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);
    // the notice needs the caller's role, the same answer the Areas nav decides by
    await expect(members.notice('Only Owners of this group can add, change or remove members.')).toBeVisible();
    await expect(shell.areas.getByRole('link', { name: 'Members', exact: true })).toBeVisible();
    await expect(shell.areas.getByRole('link', { name: 'Access tokens', exact: true })).toHaveCount(0);

    const tokens = new AccessTokensPage(page);
    await tokens.goto(groupId);
    await expect(tokens.notice('Only Owners of this group can see its access tokens. Your role in this group is Developer.')).toBeVisible();
    await expect(tokens.errorPanel).toHaveCount(0);
    await expect(tokens.newToken).toHaveCount(0);
    await page.reload();
    await expect(tokens.notice('Only Owners of this group can see its access tokens.')).toBeVisible();
    expect(answers.filter((answer) => answer.includes('/access_tokens'))).toEqual([]);
    await expect(shell.account).toHaveAccessibleName(/^Account: /);
  });
});
