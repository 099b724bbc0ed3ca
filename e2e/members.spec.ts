import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { BillableMembersPage, MembersPage } from './pages/members.ts';
import { apiAnswers } from './api-answers.ts';

interface MemberAnswer {
  id: number;
  name: string;
  username: string;
  access_level: number;
  expires_at: string | null;
  membership_state?: string;
}

const BIG_GROUP_NAME = 'Acme Engineering';

/** One search param of the page's URL, for `expect.poll`: retried until it matches. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

/** A `YYYY-MM-DD` date `days` from today (UTC, as the API reads dates). */
const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The big group's Add member dialog, opened on a phone's window. */
async function addDialogOnPhone(page: Page, groupId: number) {
  const members = new MembersPage(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await members.gotoGroup(groupId);
  await members.addMember.click();
  return members.addDialog(BIG_GROUP_NAME);
}

/** The list's total as the API counts it (x-total), so the checks hold on a re-run. */
async function totalOf(api: Api, path: string): Promise<number> {
  const answer = await api.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=1`);
  return Number(answer.headers.get('x-total'));
}

// each test makes or reads its own objects and each worker has its own sandbox: the file's tests spread over both workers
test.describe.configure({ mode: 'parallel' });

test.describe('members list filters', () => {
  let groupId: number;
  test.beforeEach(async ({ context, api, adminSession }) => {
    groupId = await api.groupId(DEMO_PATHS.bigGroup);
    await applyAdminSession(context, adminSession);
  });

  test('search goes to query= and survives a reload', async ({ page, api }) => {
    const members = new MembersPage(page);
    const expected = await api.get<MemberAnswer[]>(`/groups/${groupId}/members?query=maya`);
    expect(expected.map((member) => member.name)).toContain('Maya Chen');
    await members.gotoGroup(groupId);
    await expect(members.heading(BIG_GROUP_NAME)).toBeVisible();

    await members.search.fill('maya');
    await expect.poll(param(page, 'query')).toBe('maya');
    await expect(members.rows()).toHaveCount(expected.length);
    await expect(members.row('Maya Chen')).toBeVisible();

    await page.reload();
    await expect(members.search).toHaveValue('maya');
    await expect(members.rows()).toHaveCount(expected.length);
    await expect(members.row('Maya Chen')).toBeVisible();
    expect(param(page, 'query')()).toBe('maya');
  });

  test('a search that matches nobody says so and offers to clear the filters', async ({ page }) => {
    const members = new MembersPage(page);
    await members.gotoGroup(groupId, '?query=nobody-is-called-this');
    await expect(members.search).toHaveValue('nobody-is-called-this');
    await expect(members.emptyState).toContainText('No member matches these filters.');
    await members.emptyState.getByRole('link', { name: 'Clear the filters' }).click();
    await expect.poll(param(page, 'query')).toBeNull();
    await expect(members.rows()).toHaveCount(20);
    await expect(members.search).toHaveValue('');
  });

  test('only user IDs goes to user_ids= and survives a reload', async ({ page, api }) => {
    const members = new MembersPage(page);
    const [first, , third] = await api.get<MemberAnswer[]>(`/groups/${groupId}/members?per_page=3`);
    await members.gotoGroup(groupId);

    await members.onlyUserIds.fill(`${first.id}, ${third.id}`);
    await members.onlyUserIds.press('Enter');
    await expect.poll(param(page, 'user_ids')).toBe(JSON.stringify([first.id, third.id]));
    await expect(members.rows()).toHaveCount(2);
    await expect(members.row(first.name)).toBeVisible();
    await expect(members.row(third.name)).toBeVisible();

    await page.reload();
    await expect(members.onlyUserIds).toHaveValue(`${first.id}, ${third.id}`);
    await expect(members.rows()).toHaveCount(2);
    await expect(members.row(third.name)).toBeVisible();
  });

  test('user IDs that are not numbers are refused on the field and leave the URL alone', async ({ page }) => {
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);
    await members.onlyUserIds.fill('12, abc');
    await members.onlyUserIds.press('Enter');
    await expect(members.onlyUserIds).toHaveAttribute('aria-invalid', 'true');
    await expect(members.rows()).toHaveCount(20);
    expect(param(page, 'user_ids')()).toBeNull();
  });

  test('skip user IDs goes to skip_users= (applied on leaving the field) and survives a reload', async ({ page, api }) => {
    const members = new MembersPage(page);
    const path = `/groups/${groupId}/members`;
    const total = await totalOf(api, path);
    const [first, second] = await api.get<MemberAnswer[]>(`${path}?per_page=2`);
    await members.gotoGroup(groupId);
    await expect(members.row(first.name)).toBeVisible();

    await members.skipUserIds.fill(`${first.id},${second.id}`);
    await members.skipUserIds.blur();
    await expect.poll(param(page, 'skip_users')).toBe(JSON.stringify([first.id, second.id]));
    await expect(members.summary).toHaveText(`1–20 of ${total - 2}`);
    await expect(members.row(first.name)).toHaveCount(0);
    await expect(members.row(second.name)).toHaveCount(0);

    await page.reload();
    await expect(members.skipUserIds).toHaveValue(`${first.id}, ${second.id}`);
    await expect(members.summary).toHaveText(`1–20 of ${total - 2}`);
    await expect(members.row(first.name)).toHaveCount(0);
  });

  test('show seat use goes to show_seat_info= and adds the Seat column, after a reload too', async ({ page }) => {
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);
    await expect(members.columnHeader('Seat')).toHaveCount(0);

    // not check(): the box is drawn from the URL, so it shows ticked only once the list for it has loaded
    await members.showSeatUse.click();
    await expect(members.showSeatUse).toBeChecked();
    await expect.poll(param(page, 'show_seat_info')).toBe('true');
    await expect(members.columnHeader('Seat')).toBeVisible();
    await expect(members.rows().filter({ hasText: /Uses a seat|No seat/ })).toHaveCount(20);

    await page.reload();
    await expect(members.showSeatUse).toBeChecked();
    await expect(members.columnHeader('Seat')).toBeVisible();

    await members.showSeatUse.click();
    await expect(members.showSeatUse).not.toBeChecked();
    await expect.poll(param(page, 'show_seat_info')).toBeNull();
    await expect(members.columnHeader('Seat')).toHaveCount(0);
  });

  test('per page goes to per_page= and survives a reload', async ({ page, api }) => {
    const members = new MembersPage(page);
    const total = await totalOf(api, `/groups/${groupId}/members`);
    await members.gotoGroup(groupId);
    await expect(members.rows()).toHaveCount(20);

    await members.perPage.selectOption('50');
    await expect.poll(param(page, 'per_page')).toBe('50');
    await expect(members.rows()).toHaveCount(50);
    await expect(members.summary).toHaveText(`1–50 of ${total}`);

    await page.reload();
    await expect(members.perPage).toHaveValue('50');
    await expect(members.rows()).toHaveCount(50);
  });

  test('a page of 100 is virtualized: the table says how many rows it has, holds fewer, and shows the last as it scrolls', async ({ page, api }) => {
    const members = new MembersPage(page);
    const path = `/groups/${groupId}/members`;
    const onPage = Math.min(100, await totalOf(api, path));
    // the demo's big group fills more than the page length from which rows are virtualized
    expect(onPage).toBeGreaterThan(60);
    const all = await api.get<MemberAnswer[]>(`${path}?per_page=100`);
    await page.goto(`${path}?per_page=100`);
    const table = members.table();
    await expect(table).toHaveAttribute('aria-rowcount', String(onPage + 1));
    await expect(members.row(all[0]!.name)).toBeVisible();
    // every row shows until the virtualizer's code is in (it loads with the first long page)
    await expect.poll(() => members.rows().count()).toBeLessThan(onPage);
    const last = all[onPage - 1]!;
    await expect(members.row(last.name)).toHaveCount(0);
    await table.hover();
    for (let step = 0; step < 40 && (await members.row(last.name).count()) === 0; step++) await page.mouse.wheel(0, 1500);
    await expect(members.row(last.name)).toBeVisible();
  });

  test('the All members tab goes to tab=, its state filter to state=, and both survive a reload', async ({ page, api }) => {
    const members = new MembersPage(page);
    const awaiting = await api.get<MemberAnswer[]>(`/groups/${groupId}/members/all?state=awaiting&per_page=100`);
    expect(awaiting.length).toBeGreaterThan(0);
    await members.gotoGroup(groupId);
    await expect(members.listLink('Direct members')).toHaveAttribute('aria-current', 'page');
    await expect(members.state).toHaveCount(0);

    await members.listLink('All members').click();
    await expect.poll(param(page, 'tab')).toBe('all');
    await expect(members.listLink('All members')).toHaveAttribute('aria-current', 'page');
    await expect(members.listLink('Direct members')).not.toHaveAttribute('aria-current', 'page');
    await expect(members.table('All members')).toBeVisible();
    // skip_users is a direct-members parameter only
    await expect(members.skipUserIds).toHaveCount(0);

    await members.state.selectOption({ label: 'Awaiting approval' });
    await expect.poll(param(page, 'state')).toBe('awaiting');
    await expect(members.rows('All members')).toHaveCount(awaiting.length);
    await expect(members.rows('All members').filter({ hasText: 'Awaiting approval' })).toHaveCount(awaiting.length);

    await page.reload();
    await expect(members.listLink('All members')).toHaveAttribute('aria-current', 'page');
    await expect(members.state).toHaveValue('awaiting');
    await expect(members.rows('All members')).toHaveCount(awaiting.length);
    await expect(members.row(awaiting[0].name, 'All members')).toBeVisible();
  });
});

test.describe('members paging', () => {
  test('forward, back and the browser history move through pages with the URL and the summary', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const path = `/groups/${groupId}/members`;
    const total = await totalOf(api, path);
    // the demo's big group has more than three pages of 20
    expect(total).toBeGreaterThan(60);
    const lastPage = Math.ceil(total / 20);
    const [firstOfPage2] = await api.get<MemberAnswer[]>(`${path}?page=2&per_page=20`);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await members.gotoGroup(groupId);

    await expect(members.summary).toHaveText(`1–20 of ${total}`);
    await expect(members.pageLink('Page 1')).toHaveAttribute('aria-current', 'page');
    // nothing before the first page: "Previous" is not a link
    await expect(members.pageLink('Previous')).toHaveCount(0);
    await expect(members.row(firstOfPage2.name)).toHaveCount(0);

    await members.pageLink('Next').click();
    await expect.poll(param(page, 'page')).toBe('2');
    await expect(members.summary).toHaveText(`21–40 of ${total}`);
    await expect(members.pageLink('Page 2')).toHaveAttribute('aria-current', 'page');
    await expect(members.row(firstOfPage2.name)).toBeVisible();

    await members.pageLink(`Page ${lastPage}`).click();
    await expect.poll(param(page, 'page')).toBe(String(lastPage));
    await expect(members.summary).toHaveText(`${(lastPage - 1) * 20 + 1}–${total} of ${total}`);
    await expect(members.pageLink('Next')).toHaveCount(0);

    await members.pageLink('Previous').click();
    await expect.poll(param(page, 'page')).toBe(String(lastPage - 1));
    await expect(members.summary).toHaveText(`${(lastPage - 2) * 20 + 1}–${(lastPage - 1) * 20} of ${total}`);

    await page.goBack();
    await expect.poll(param(page, 'page')).toBe(String(lastPage));
    await expect(members.summary).toHaveText(`${(lastPage - 1) * 20 + 1}–${total} of ${total}`);
    await page.goBack();
    await expect.poll(param(page, 'page')).toBe('2');
    await expect(members.summary).toHaveText(`21–40 of ${total}`);

    await page.reload();
    await expect(members.summary).toHaveText(`21–40 of ${total}`);
    await members.pageLink('Previous').click();
    // page 1 is the default, so it leaves the URL
    await expect.poll(param(page, 'page')).toBeNull();
    await expect(members.summary).toHaveText(`1–20 of ${total}`);
  });

  test('a filter change starts again from page 1 and keeps the other filters', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await members.gotoGroup(groupId, '?page=3&show_seat_info=true');
    await expect(members.pageLink('Page 3')).toHaveAttribute('aria-current', 'page');

    await members.perPage.selectOption('50');
    await expect.poll(param(page, 'per_page')).toBe('50');
    expect(param(page, 'page')()).toBeNull();
    expect(param(page, 'show_seat_info')()).toBe('true');
    await expect(members.pageLink('Page 1')).toHaveAttribute('aria-current', 'page');
  });
});

test.describe('when the instance fails', () => {
  test('the members list says so, keeps the filters in the URL, and Try again loads it', async ({ page, context, api, adminSession }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const expected = await api.get<MemberAnswer[]>(`/groups/${groupId}/members?query=maya`);
    await applyAdminSession(context, adminSession);
    const heal = await api.injectFault({ path: `/api/v4/groups/${groupId}/members`, methods: ['GET'], error_rate: 1, error_status: 503 });
    const members = new MembersPage(page);
    await members.gotoGroup(groupId, '?query=maya');
    const failure = page.getByRole('alert').filter({ hasText: 'The instance had a problem' });
    // 5xx answers are retried with backoff before the screen gives up
    await expect(failure).toBeVisible({ timeout: 20_000 });
    expect(param(page, 'query')()).toBe('maya');

    await heal();
    await failure.getByRole('button', { name: 'Try again' }).click();
    await expect(members.rows()).toHaveCount(expected.length);
    await expect(members.row('Maya Chen')).toBeVisible();
    await expect(failure).toHaveCount(0);
  });
});

test.describe('managing group members', () => {
  let groupId: number;
  test.beforeEach(async ({ context, api, adminSession }) => {
    groupId = await api.groupId(DEMO_PATHS.bigGroup);
    await applyAdminSession(context, adminSession);
  });

  test('add a member through the dialog: they are listed with the chosen role and expiry', async ({ page, api }) => {
    const newcomer = await api.createUser();
    api.deleteAfter(`/groups/${groupId}/members/${newcomer.id}`);
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);

    await members.addMember.click();
    const dialog = members.addDialog(BIG_GROUP_NAME);
    await expect(dialog.root).toBeVisible();
    await dialog.userSearch.fill(newcomer.username);
    await dialog.userOption(newcomer.username).check();
    await dialog.role.selectOption({ label: 'Maintainer' });
    await dialog.expiresOn.fill(isoDay(30));
    await dialog.submit(newcomer.name).click();

    await expect(dialog.root).toBeHidden();
    await expect(members.toast(`Added ${newcomer.name} as Maintainer.`)).toBeVisible();
    await members.search.fill(newcomer.username);
    await expect(members.rows()).toHaveCount(1);
    const row = members.row(newcomer.name);
    await expect(row).toContainText('Maintainer');
    await expect(row).toContainText('in 30 days');

    const stored = await api.get<MemberAnswer>(`/groups/${groupId}/members/${newcomer.id}`);
    expect(stored).toMatchObject({ access_level: 40, expires_at: isoDay(30) });
  });

  test('on a phone, the long usernames of bots wrap in the user search instead of widening the dialog past the window', async ({ page }) => {
    const dialog = await addDialogOnPhone(page, groupId);
    await dialog.userSearch.fill('bot');
    const results = dialog.root.getByRole('radiogroup', { name: 'Matching users' });
    // bots' usernames are 40 characters and more, such as project_10_bot_9df4fbc934f79d239e04c306c3c8d808
    await expect(results.getByRole('radio', { name: /_bot_[0-9a-f]{32}$/ }).first()).toBeVisible();
    // the list, and the dialog with it, stay within the window: nothing to scroll sideways to
    expect(await results.evaluate((box) => box.getBoundingClientRect().right - innerWidth)).toBeLessThanOrEqual(0);
    expect(await dialog.root.evaluate((box) => box.scrollWidth - box.clientWidth)).toBe(0);
  });

  test('a search that finds nobody says so on a line kept for it: the results and the dialog’s buttons stay where they were', async ({ page }) => {
    const dialog = await addDialogOnPhone(page, groupId);
    const submit = dialog.root.getByRole('button', { name: 'Add member', exact: true });
    // before a search, the line says what to do with the empty box under it
    await expect(dialog.root.getByText('Type a name or username to find someone.')).toBeVisible();
    await dialog.userSearch.fill('maya');
    await expect(dialog.userOption('maya.chen')).toBeVisible();
    const before = await submit.boundingBox();
    // longer than the line at 390 px: it is cut to the line rather than wrapping onto a second one
    const search = `nobody-${'x'.repeat(80)}`;
    await dialog.userSearch.fill(search);
    await expect(dialog.root.getByText(`No active user matches “${search}”.`)).toBeVisible();
    expect(await submit.boundingBox()).toEqual(before);
  });

  test('with emails and SSO identities shown, each row’s Edit and Remove stay wholly in view', async ({ page }) => {
    const members = new MembersPage(page);
    await page.setViewportSize({ width: 1280, height: 720 });
    await members.gotoGroup(groupId, '?tab=all');
    await expect(members.columnHeader('Email', 'All members')).toBeVisible();
    await expect(members.columnHeader('SSO identity', 'All members')).toBeVisible();
    // long addresses wrap at their joints instead of pushing the actions out of the table's view
    const first = members.rows('All members').first();
    await expect(first.getByRole('button', { name: /^Edit / })).toBeInViewport({ ratio: 1 });
    await expect(first.getByRole('button', { name: /^Remove / })).toBeInViewport({ ratio: 1 });
  });

  test('adding someone who is already a member keeps the dialog and its values, and says why', async ({ page, api }) => {
    const maya = await api.userByUsername('maya.chen');
    const before = await api.get<MemberAnswer>(`/groups/${groupId}/members/${maya.id}`);
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);
    await members.addMember.click();
    const dialog = members.addDialog(BIG_GROUP_NAME);
    await dialog.userSearch.fill('maya.chen');
    await dialog.userOption('maya.chen').check();
    await dialog.role.selectOption({ label: 'Maintainer' });
    await dialog.expiresOn.fill(isoDay(30));
    await dialog.submit(maya.name).click();

    // the platform answers 409 "Member already exists"
    await expect(dialog.formError).toContainText('Member already exists');
    await expect(dialog.root).toBeVisible();
    await expect(dialog.userOption('maya.chen')).toBeChecked();
    await expect(dialog.role).toHaveValue('40');
    await expect(dialog.expiresOn).toHaveValue(isoDay(30));
    await expect(dialog.submit(maya.name)).toBeEnabled();
    expect(await api.get<MemberAnswer>(`/groups/${groupId}/members/${maya.id}`)).toEqual(before);
  });

  test('the add dialog refuses to submit without a user', async ({ page }) => {
    const members = new MembersPage(page);
    await members.gotoGroup(groupId);
    await members.addMember.click();
    const dialog = members.addDialog(BIG_GROUP_NAME);
    await dialog.root.getByRole('button', { name: 'Add member', exact: true }).click();
    await expect(dialog.root.getByRole('group', { name: 'User' })).toContainText('Choose a user');
    await expect(dialog.root).toBeVisible();
  });

  test('edit role and expiry: a past date is refused on the field and the typed values stay', async ({ page, api }) => {
    const person = await api.createUser();
    await api.post(`/groups/${groupId}/members`, { user_id: person.id, access_level: 30 });
    api.deleteAfter(`/groups/${groupId}/members/${person.id}`);
    const members = new MembersPage(page);
    await members.gotoGroup(groupId, `?query=${person.username}`);
    await expect(members.row(person.name)).toContainText('Developer');

    await members.editButton(person.name).click();
    const dialog = members.editDialog(person.name);
    await expect(dialog.role).toHaveValue('30');
    await dialog.role.selectOption({ label: 'Reporter' });
    await dialog.expiresOn.fill('2020-01-15');
    await dialog.save.click();

    await expect(dialog.expiresOn).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.expiresOn).toHaveAccessibleDescription(/The expiry date must be after today/);
    await expect(dialog.expiresOn).toHaveValue('2020-01-15');
    await expect(dialog.role).toHaveValue('20');
    await expect(dialog.root).toBeVisible();
    // nothing was sent
    expect((await api.get<MemberAnswer>(`/groups/${groupId}/members/${person.id}`)).access_level).toBe(30);

    await dialog.expiresOn.fill(isoDay(10));
    await expect(dialog.expiresOn).not.toHaveAttribute('aria-invalid', 'true');
    await dialog.save.click();
    await expect(dialog.root).toBeHidden();
    await expect(members.toast(`${person.name} is now Reporter.`)).toBeVisible();
    await expect(members.row(person.name)).toContainText('Reporter');
    await expect(members.row(person.name)).toContainText('in 10 days');
    expect(await api.get<MemberAnswer>(`/groups/${groupId}/members/${person.id}`)).toMatchObject({ access_level: 20, expires_at: isoDay(10) });
  });

  test('remove asks first, names the member, and cancelling keeps them', async ({ page, api }) => {
    const person = await api.createUser();
    await api.post(`/groups/${groupId}/members`, { user_id: person.id, access_level: 20 });
    api.deleteAfter(`/groups/${groupId}/members/${person.id}`);
    const members = new MembersPage(page);
    await members.gotoGroup(groupId, `?query=${person.username}`);

    await members.removeButton(person.name).click();
    const confirm = members.removeDialog(person.name);
    await expect(confirm.root).toContainText(`loses the Reporter role in ${BIG_GROUP_NAME}`);
    await expect(confirm.alsoSubgroups).toBeChecked();
    await confirm.cancel.click();
    await expect(confirm.root).toBeHidden();
    await expect(members.row(person.name)).toBeVisible();

    await members.removeButton(person.name).click();
    await confirm.confirm.click();
    await expect(confirm.root).toBeHidden();
    await expect(members.toast(`Removed ${person.name} from ${BIG_GROUP_NAME}.`)).toBeVisible();
    await expect(members.row(person.name)).toHaveCount(0);
    await expect(members.emptyState).toContainText('No member matches these filters.');
    expect((await api.call('GET', `/groups/${groupId}/members/${person.id}`)).status).toBe(404);
  });
});

test.describe('managing project members as a project Maintainer', () => {
  test('add, change and remove a project member; Owner is not offered', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const project = await api.get<{ name_with_namespace: string }>(`/projects/${projectId}`);
    const person = await api.createUser();
    api.deleteAfter(`/projects/${projectId}/members/${person.id}`);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await members.gotoProject(projectId);
    await expect(members.heading(project.name_with_namespace)).toBeVisible();

    await members.addMember.click();
    const add = members.addDialog(project.name_with_namespace);
    // spec: only an Owner grants Owner, and Maya is a Maintainer here
    await expect(add.role.getByRole('option', { name: 'Owner', exact: true })).toHaveCount(0);
    await add.userSearch.fill(person.username);
    await add.userOption(person.username).check();
    await add.role.selectOption({ label: 'Developer' });
    await add.submit(person.name).click();
    await expect(members.toast(`Added ${person.name} as Developer.`)).toBeVisible();

    await members.search.fill(person.username);
    await expect(members.row(person.name)).toContainText('Developer');
    await expect(members.row(person.name)).toContainText('Never');

    await members.editButton(person.name).click();
    const edit = members.editDialog(person.name);
    await edit.role.selectOption({ label: 'Maintainer' });
    await edit.save.click();
    await expect(members.toast(`${person.name} is now Maintainer.`)).toBeVisible();
    await expect(members.row(person.name)).toContainText('Maintainer');

    await members.removeButton(person.name).click();
    const confirm = members.removeDialog(person.name);
    // projects have no subgroups to clean up
    await expect(confirm.alsoSubgroups).toHaveCount(0);
    await confirm.confirm.click();
    await expect(members.toast(`Removed ${person.name} from ${project.name_with_namespace}.`)).toBeVisible();
    await expect(members.row(person.name)).toHaveCount(0);
  });

  test('a project’s Owner is not the Maintainer’s to change: Edit and Remove are reached, and say why when pressed', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const owner = await api.createUser();
    await api.post(`/projects/${projectId}/members`, { user_id: owner.id, access_level: 50 });
    api.deleteAfter(`/projects/${projectId}/members/${owner.id}`);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await members.gotoProject(projectId);
    await members.search.fill(owner.username);
    await expect(members.row(owner.name)).toContainText('Owner');
    const why = 'Only Owners can change an Owner.';
    for (const button of [members.editButton(owner.name), members.removeButton(owner.name)]) {
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(why);
    }
    await members.removeButton(owner.name).focus();
    await page.keyboard.press('Enter');
    // one reason on screen: the pressed button's (each button's describes it, unseen until pressed)
    const shownReasons = members.row(owner.name).getByText(why, { exact: true }).filter({ visible: true });
    await expect(shownReasons).toHaveCount(1);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    // leaving the button folds the reason
    await page.keyboard.press('Shift+Tab');
    await expect(members.editButton(owner.name)).toBeFocused();
    await expect(shownReasons).toHaveCount(0);
  });

  test('the screen comes whole: the project’s name and the Maintainer’s actions show with the first row, not after it', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const project = await api.get<{ name_with_namespace: string }>(`/projects/${projectId}`);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    // the caller's role and the project answer well after the list
    await api.injectFault({ path: `/api/v4/projects/${projectId}/members/all`, methods: ['GET'], latency_ms: 1_500 });
    await api.injectFault({ path: `/api/v4/projects/${projectId}`, methods: ['GET'], latency_ms: 1_500 });
    await members.gotoProject(projectId);
    await expect(members.rows().first()).toBeVisible();
    // read once, the moment the row shows: no retrying until they come
    expect(await members.heading(project.name_with_namespace).isVisible()).toBe(true);
    expect(await members.addMember.isVisible()).toBe(true);
  });
});

test.describe('who may change members', () => {
  test('a Developer of the group sees no Add, Edit or Remove, and is told why', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.developer.secret);
    await members.gotoGroup(groupId);

    await expect(members.rows()).toHaveCount(20);
    await expect(members.notice('Only Owners of this group can add, change or remove members.')).toBeVisible();
    await expect(members.addMember).toHaveCount(0);
    await expect(members.rowActions).toHaveCount(0);
  });

  test('a read-only token lists members but offers no change, and says why', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId('acme-engineering/backend/payments');
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    await members.gotoGroup(groupId);

    await expect(members.row('Olga Petrova')).toBeVisible();
    await expect(members.notice(/This token is read-only/)).toBeVisible();
    await expect(members.addMember).toHaveCount(0);
    await expect(members.rowActions).toHaveCount(0);
  });

  test('on the All members list, inherited members are managed where they were granted', async ({ page, context, api, adminSession }) => {
    const groupId = await api.groupId('acme-engineering/backend/payments');
    const maya = await api.userByUsername('maya.chen');
    const members = new MembersPage(page);
    await applyAdminSession(context, adminSession);
    await members.gotoGroup(groupId, `?tab=all&user_ids=${encodeURIComponent(JSON.stringify([maya.id]))}`);

    // Maya is a member through Backend, not of Payments itself
    await expect(members.row('Maya Chen', 'All members')).toContainText('Managed where granted');
    await expect(members.editButton('Maya Chen')).toHaveCount(0);
  });
});

test.describe('billable members', () => {
  let groupId: number;
  test.beforeEach(async ({ context, api, adminSession }) => {
    groupId = await api.groupId(DEMO_PATHS.bigGroup);
    await applyAdminSession(context, adminSession);
  });

  test('search and sort go to the URL and survive a reload', async ({ page, api }) => {
    const billable = new BillableMembersPage(page);
    const [firstByNameDesc] = await api.get<MemberAnswer[]>(`/groups/${groupId}/billable_members?sort=name_desc&per_page=1`);
    const found = await api.get<MemberAnswer[]>(`/groups/${groupId}/billable_members?search=chen`);
    await billable.goto(groupId);
    await expect(billable.heading(BIG_GROUP_NAME)).toBeVisible();
    await expect(billable.rows).toHaveCount(20);

    await billable.sortBy.selectOption({ label: 'Name, Z to A' });
    await expect.poll(param(page, 'sort')).toBe('name_desc');
    await expect(billable.rows.first()).toContainText(firstByNameDesc.name);

    await billable.search.fill('chen');
    await expect.poll(param(page, 'search')).toBe('chen');
    await expect(billable.rows).toHaveCount(found.length);
    await expect(billable.table.getByRole('link', { name: 'Maya Chen', exact: true })).toBeVisible();

    await page.reload();
    await expect(billable.search).toHaveValue('chen');
    await expect(billable.sortBy).toHaveValue('name_desc');
    await expect(billable.rows).toHaveCount(found.length);
    expect(param(page, 'sort')()).toBe('name_desc');
  });

  test('a member’s memberships open in a panel addressed by member= in the URL', async ({ page, api }) => {
    const billable = new BillableMembersPage(page);
    const maya = await api.userByUsername('maya.chen');
    const memberships = await api.get<Array<{ source_full_name: string }>>(`/groups/${groupId}/billable_members/${maya.id}/memberships`);
    expect(memberships.length).toBeGreaterThan(1);
    await billable.goto(groupId, '?search=maya');

    await billable.membershipsLink('Maya Chen').click();
    await expect.poll(param(page, 'member')).toBe(String(maya.id));
    await expect(billable.membershipsPanel('Maya Chen')).toBeVisible();
    // one item per membership, in the API's order, each naming where it is
    await expect(billable.memberships('Maya Chen')).toContainText(memberships.map((membership) => membership.source_full_name));

    // a shared link opens the panel again
    await page.reload();
    await expect(billable.memberships('Maya Chen')).toHaveCount(memberships.length);

    await billable.close('Maya Chen').click();
    await expect(billable.membershipsPanel('Maya Chen')).toBeHidden();
    await expect.poll(param(page, 'member')).toBeNull();
    expect(param(page, 'search')()).toBe('maya');
  });

  test('member= opens the panel even when that member is not on the page in view', async ({ page, api }) => {
    const billable = new BillableMembersPage(page);
    const maya = await api.userByUsername('maya.chen');
    // the screen's default order is by name: Maya is further on
    const firstPage = await api.get<MemberAnswer[]>(`/groups/${groupId}/billable_members?sort=name_asc&per_page=20`);
    expect(firstPage.map((member) => member.id)).not.toContain(maya.id);
    const memberships = await api.get<Array<{ source_full_name: string }>>(`/groups/${groupId}/billable_members/${maya.id}/memberships`);
    await billable.goto(groupId, `?member=${maya.id}`);

    await expect(billable.memberships()).toContainText(memberships.map((membership) => membership.source_full_name));
    await billable.close().click();
    await expect.poll(param(page, 'member')).toBeNull();
  });
});

test.describe('billable members, for whom they are not shown', () => {
  test('a Maintainer is told the page is for Owners and their own role, and the list is not asked for', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const answers = apiAnswers(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    const billable = new BillableMembersPage(page);
    await billable.goto(groupId);
    await expect(billable.heading(BIG_GROUP_NAME)).toBeVisible();
    await expect(billable.notice(/^Only Owners of this group and administrators can see its billable members\. Your role in this group is \w+\.$/)).toBeVisible();
    await expect(billable.errorPanel).toHaveCount(0);
    expect(answers.filter((answer) => answer.includes('/billable_members'))).toEqual([]);
  });

  test('an administrator on a subgroup is told seats are counted in its top-level group (the platform answers a bare 400)', async ({ page, context, api, adminSession }) => {
    const subgroupId = await api.groupId('acme-engineering/backend');
    const answers = apiAnswers(page);
    await applyAdminSession(context, adminSession);
    const billable = new BillableMembersPage(page);
    await billable.goto(subgroupId);
    await expect(billable.notice('Seats are counted in top-level groups, and this is a subgroup: its members take their seats in “acme-engineering”.')).toBeVisible();
    await expect(billable.errorPanel).toHaveCount(0);
    expect(answers.filter((answer) => answer.includes('/billable_members'))).toEqual([]);
  });
});
