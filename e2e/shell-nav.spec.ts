import type { Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { Shell } from './pages/shell.ts';

/**
 * The shell at a desktop width (1440 px) and a phone's (390 px): the sidebar of each context, the
 * groups and projects lists, home, and the command palette, each also checked by axe-core.
 */
const WEB_APP = 'acme-engineering/frontend/web-app';

async function expectNoAxeViolations(page: Page, screen: string) {
  expect(await axeViolations(page, screen)).toEqual([]);
}

/** The `x-total` the platform answers for a one-row page of `path`. */
async function totalOf(api: Api, path: string, token?: string): Promise<number> {
  const answer = await api.call('GET', `${path}${path.includes('?') ? '&' : '?'}per_page=1`, { token });
  expect(answer.status, path).toBe(200);
  return Number(answer.headers.get('x-total'));
}

/** The body rows of the named table (its second rowgroup: the first holds the header). */
function bodyRows(page: Page, caption: string) {
  return page.getByRole('table', { name: caption }).getByRole('rowgroup').nth(1).getByRole('row');
}

/** The list shows the first page of `names` in order, or its empty state when there are none. */
async function expectRows(page: Page, caption: string, names: string[], emptyTitle: string) {
  if (names.length === 0) return expect(page.getByRole('status', { name: emptyTitle })).toBeVisible();
  const shown = names.slice(0, 20);
  await expect(bodyRows(page, caption)).toHaveCount(shown.length);
  for (const [index, name] of shown.entries()) await expect(bodyRows(page, caption).nth(index)).toContainText(name);
}

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  // axe and the administrator's counts take a while on a busy two-core machine
  test.describe.configure({ timeout: 60_000 });

  test('an administrator’s home counts the instance with one request per figure, and leads to the groups behind its count', async ({ page, context, api, adminSession }) => {
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const figures: Array<[string, string]> = [
      ['Users', '/users'],
      ['Groups', '/groups?all_available=true'],
      ['Projects', '/projects?simple=true'],
      ['Runners online', '/runners/all?status=online'],
      ['Personal access tokens expiring within 30 days', `/personal_access_tokens?state=active&expires_before=${soon}&sort=expires_asc`],
    ];
    const counted: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/v4/') && url.searchParams.get('per_page') === '1') counted.push(url.pathname);
    });
    await applyAdminSession(context, adminSession);
    // a runner crosses the online threshold (contacted within 2 hours) as time passes: each figure is
    // checked against the API's total before and after the page read it
    const before = await Promise.all(figures.map(([, path]) => totalOf(api, path)));
    await page.goto('/');
    const overview = page.getByRole('region', { name: 'Instance overview' });
    for (const [index, [label, path]] of figures.entries()) {
      const item = overview.getByRole('listitem').filter({ hasText: new RegExp(`${label}$`) });
      await expect(item).toHaveText(new RegExp(`^[\\d,]+${label}$`));
      const shown = Number((await item.textContent())!.slice(0, -label.length).replaceAll(',', ''));
      const after = await totalOf(api, path);
      expect(shown, label).toBeGreaterThanOrEqual(Math.min(before[index], after));
      expect(shown, label).toBeLessThanOrEqual(Math.max(before[index], after));
    }
    expect(counted.sort()).toEqual(['/api/v4/groups', '/api/v4/personal_access_tokens', '/api/v4/projects', '/api/v4/runners/all', '/api/v4/users']);
    // the administrator's own groups (none in the demo; earlier tests of this worker may have made some), and the overview still leads to all of them
    const own = await api.get<Array<{ full_name: string }>>('/groups?all_available=false&order_by=name&sort=asc&per_page=5');
    if (own.length === 0) await expect(page.getByRole('region', { name: 'Your groups' })).toContainText('You are not a member of any group yet.');
    else await expect(page.getByRole('region', { name: 'Your groups' }).getByRole('link', { name: own[0].full_name, exact: true })).toBeVisible();
    await expectNoAxeViolations(page, 'home');
    // each count leads to the list behind it, filtered as counted
    await expect(overview.getByRole('link', { name: /Runners online$/ })).toHaveAttribute('href', '/admin/runners?status=online');
    await expect(overview.getByRole('link', { name: /Projects$/ })).toHaveAttribute('href', '/projects?archived=include');
    await expect(overview.getByRole('link', { name: /Users$/ })).toHaveAttribute('href', '/users');

    const groups = await totalOf(api, '/groups?all_available=true');
    await overview.getByRole('link', { name: new RegExp(`^${groups} Groups$`) }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/groups');
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
    await expect(page.getByRole('status', { name: `Shown: 1–${Math.min(groups, 20)} of ${groups}` })).toBeVisible();
    await expect(new Shell(page).section('Your work').getByRole('link', { name: 'Groups', exact: true })).toHaveAttribute('aria-current', 'page');
  });

  test('the groups list keeps its scope, search and filters in the URL and lists what the platform answers', async ({ page, context, api, adminSession }) => {
    await applyAdminSession(context, adminSession);
    await page.goto('/groups');
    await expect(page.getByRole('table', { name: 'Groups' })).toBeVisible();
    await expectNoAxeViolations(page, 'groups');

    await page.getByRole('searchbox', { name: 'Search groups' }).fill('acme');
    await expect(page).toHaveURL((url) => url.searchParams.get('search') === 'acme');
    const acme = (await api.get<Array<{ full_name: string }>>('/groups?all_available=true&search=acme&order_by=name')).map((group) => group.full_name);
    expect(acme.length).toBeGreaterThan(1);
    await expectRows(page, 'Groups', acme, '');

    await page.getByLabel('Sort by').selectOption({ label: 'Name, Z to A' });
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'name_desc');
    await expectRows(page, 'Groups', [...acme].reverse(), '');

    await page.getByLabel('Visibility').selectOption('private');
    await page.getByRole('checkbox', { name: 'Top-level groups only' }).check();
    await expect(page).toHaveURL((url) => url.searchParams.get('visibility') === 'private' && url.searchParams.get('top_level_only') === 'true');
    const privateTop = await api.get<Array<{ full_name: string }>>('/groups?all_available=true&search=acme&visibility=private&top_level_only=true&order_by=name&sort=desc');
    await expectRows(page, 'Groups', privateTop.map((group) => group.full_name), 'No group matches these filters.');

    // the administrator's own groups: none in the demo, but earlier tests of this worker may have made some
    await page.goto('/groups?scope=member');
    await expect(page.getByLabel('Show', { exact: true })).toHaveValue('member');
    const own = await api.get<Array<{ full_name: string }>>('/groups?all_available=false&order_by=name&sort=asc&per_page=20');
    await expectRows(page, 'Groups', own.map((group) => group.full_name), 'You are not a member of any group.');

    // a bookmarked list opens as it was
    await page.goto('/groups?search=acme&sort=name_desc');
    await expect(page.getByRole('searchbox', { name: 'Search groups' })).toHaveValue('acme');
    await expect(page.getByLabel('Sort by')).toHaveValue('name_desc');
    await expectRows(page, 'Groups', [...acme].reverse(), '');
  });

  test('the projects list of a Developer: theirs, owned, starred and archived, each in the URL', async ({ page, api, connectAs }) => {
    const developer = DEMO_TOKENS.developer.secret;
    const webApp = await api.projectId(WEB_APP);
    await api.post(`/projects/${webApp}/star`, {}, { token: developer });
    api.cleanup(() => api.post(`/projects/${webApp}/unstar`, {}, { token: developer }));
    const names = async (query: string) => (await api.get<Array<{ name_with_namespace: string }>>(`/projects?${query}`, { token: developer })).map((project) => project.name_with_namespace);
    const mine = await names('membership=true&archived=false&order_by=last_activity_at&sort=desc');
    await connectAs(page, developer);

    await page.goto('/projects');
    await expect(page.getByLabel('Show', { exact: true })).toHaveValue('member');
    await expectRows(page, 'Projects', mine, '');
    await expectNoAxeViolations(page, 'projects');

    await page.getByLabel('Show', { exact: true }).selectOption('starred');
    await expect(page).toHaveURL((url) => url.searchParams.get('scope') === 'starred');
    await expectRows(page, 'Projects', ['Acme Engineering / Frontend / Web App'], '');

    await page.getByLabel('Show', { exact: true }).selectOption('owned');
    await expect(page).toHaveURL((url) => url.searchParams.get('scope') === 'owned');
    await expectRows(page, 'Projects', await names('owned=true&archived=false&order_by=last_activity_at&sort=desc'), 'You own no project.');

    await page.getByLabel('Show', { exact: true }).selectOption('member');
    await page.getByLabel('Archived').selectOption('only');
    await expect(page).toHaveURL((url) => url.searchParams.get('archived') === 'only');
    await expectRows(page, 'Projects', await names('membership=true&archived=true&order_by=last_activity_at&sort=desc'), 'No project matches these filters.');

    await page.getByLabel('My role').selectOption({ label: 'Maintainer or above' });
    await expect(page).toHaveURL((url) => url.searchParams.get('min_access_level') === '40');
  });

  test('the sidebar of a project: its sections in the platform’s order, the current page, the keyboard, and collapsing', async ({ page, api, connectAs }) => {
    const webApp = await api.projectId(WEB_APP);
    const shell = new Shell(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await page.goto(`/projects/${webApp}/blob/README.md`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    await expect(shell.areas.getByRole('group')).toHaveText([/^Your work/, /^Manage/, /^Plan/, /^Code/, /^Build/, /^Deploy/, /^Monitor/, /^Settings/]);
    await expect(shell.areas).toContainText('Acme Engineering / Frontend / Web App');
    await expect(shell.section('Code').getByRole('link')).toHaveText(['Merge requests', 'Merge request board', 'Files', 'Commits', 'Branches']);
    // a file is part of Files, which stays current on it
    await expect(shell.section('Code').getByRole('link', { name: 'Files' })).toHaveAttribute('aria-current', 'page');
    for (const name of ['Merge requests', 'Merge request board', 'Commits', 'Branches']) await expect(shell.section('Code').getByRole('link', { name })).not.toHaveAttribute('aria-current', 'page');
    await expect(shell.section('Admin')).toHaveCount(0);
    await expectNoAxeViolations(page, 'project sidebar');

    // the keyboard reaches the sidebar straight after the header
    await shell.account.focus();
    await page.keyboard.press('Tab');
    await expect(shell.section('Your work').getByRole('link', { name: 'Home' })).toBeFocused();
    await shell.section('Code').getByRole('link', { name: 'Commits' }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${webApp}/commits`);
    await expect(shell.section('Code').getByRole('link', { name: 'Commits' })).toHaveAttribute('aria-current', 'page');

    // collapsed, it stays so on this device
    await expect(shell.navigationToggle).toHaveAttribute('aria-expanded', 'true');
    await shell.navigationToggle.click();
    await expect(shell.areas).toBeHidden();
    await expect(shell.navigationToggle).toHaveAttribute('aria-expanded', 'false');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(shell.areas).toBeHidden();
    await shell.navigationToggle.click();
    await expect(shell.section('Code')).toBeVisible();

    // the width is followed after navigations too: a phone's width closes it into a drawer, a desktop's shows it again
    await shell.section('Code').getByRole('link', { name: 'Branches' }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${webApp}/branches`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(shell.areas).toBeHidden();
    await expect(shell.navigationToggle).toHaveAttribute('aria-expanded', 'false');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(shell.section('Code')).toBeVisible();
  });

  test('a project’s or group’s own address opens its members, as every link to one does; an unknown address leads home', async ({ page, api, connectAs }) => {
    const [webApp, group] = [await api.projectId(WEB_APP), await api.groupId(DEMO_PATHS.bigGroup)];
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await page.goto(`/projects/${webApp}`);
    await expect(page).toHaveURL(new RegExp(`/projects/${webApp}/members$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Members of Acme Engineering / Frontend / Web App' })).toBeVisible();
    await page.goto(`/groups/${group}/`);
    await expect(page).toHaveURL(new RegExp(`/groups/${group}/members$`));
    await expect(page.getByRole('heading', { level: 1, name: /^Members of Acme Engineering$/ })).toBeVisible();

    await page.goto(`/projects/${webApp}/no-such-screen`);
    const missing = page.getByRole('status', { name: 'There is no such page in the console.' });
    await expect(missing).toBeVisible();
    await expectNoAxeViolations(page, 'unknown address');
    await missing.getByRole('link', { name: 'Go to your home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();

    // a screen whose object is missing (a stale link): its heading says so, and it leads home too
    await page.goto(`/projects/${webApp}/merge-requests/99999`);
    const refused = page.getByRole('alert').filter({ has: page.getByRole('heading', { level: 1, name: 'Not found, or not visible to you' }) });
    await expect(refused).toContainText('404');
    await expect(refused.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expectNoAxeViolations(page, 'missing merge request');
    await refused.getByRole('link', { name: 'Go to your home page' }).click();
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
  });

  test('the keyboard: a link of the screen that opens another screen leaves the focus at the start of that screen, not of the page', async ({ page, api, connectAs }) => {
    const group = await api.get<{ id: number; full_name: string }>(`/groups/${encodeURIComponent(DEMO_PATHS.bigGroup)}`);
    await connectAs(page, DEMO_TOKENS.developer.secret);
    await page.goto('/');
    const main = page.getByRole('main');
    const groupLink = page.getByRole('region', { name: 'Your groups' }).getByRole('link', { name: group.full_name, exact: true });
    await groupLink.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: `Members of ${group.full_name}` })).toBeVisible();
    // the pressed link left with the home screen: the focus is on the new screen, and Tab goes on inside it
    await expect(main).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await main.evaluate((element) => element !== document.activeElement && element.contains(document.activeElement))).toBe(true);

    // a link that keeps the screen (another list of it) keeps the focus
    const allMembers = page.getByRole('navigation', { name: 'Member lists' }).getByRole('link', { name: 'All members' });
    await allMembers.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL((url) => url.searchParams.get('tab') === 'all');
    await expect(allMembers).toHaveAttribute('aria-current', 'page');
    await expect(allMembers).toBeFocused();
  });

  test('the command palette: Ctrl+K, a project by name, a screen of where one is, arrows and Enter', async ({ page, api, connectAs }) => {
    const payments = await api.projectId(DEMO_PATHS.inheritedProject);
    const shell = new Shell(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);

    await page.keyboard.press('Control+k');
    await expect(shell.palette).toBeVisible();
    await expect(shell.paletteInput).toBeFocused();
    await shell.paletteInput.fill('payments service');
    const option = shell.paletteOption('Projects', /Payments Service/);
    await expect(option).toBeVisible();
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expectNoAxeViolations(page, 'command palette');
    await page.keyboard.press('Enter');
    await expect(shell.palette).toBeHidden();
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${payments}/members`);

    // in a project, its screens come first
    await shell.paletteTrigger.click();
    await shell.paletteInput.fill('b');
    await expect(shell.paletteOption('Screens', /^Branches Code/)).toBeVisible();
    await shell.paletteInput.fill('branches');
    await expect(shell.paletteOption('Screens', /^Branches Code/)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${payments}/branches`);

    // arrows move the choice, and wrap
    await page.keyboard.press('Meta+k');
    await shell.paletteInput.fill('your work');
    const screens = shell.palette.getByRole('group', { name: 'Screens' }).getByRole('option');
    await expect(screens.first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowDown');
    await expect(screens.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(screens.last()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Escape');
    await expect(shell.palette).toBeHidden();

    await page.keyboard.press('Control+k');
    await shell.paletteInput.fill('no-such-thing-anywhere');
    await expect(shell.palette.getByRole('status')).toHaveText('Nothing matches.');
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.describe.configure({ timeout: 60_000 });

  test('the sidebar is a drawer: closed, opened by the header’s button, closed by Escape or by going somewhere', async ({ page, connectAs }) => {
    const shell = new Shell(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await expect(shell.areas).toBeHidden();
    await expect(shell.navigationToggle).toHaveAttribute('aria-expanded', 'false');

    await shell.navigationToggle.click();
    await expect(shell.areas).toBeVisible();
    await expect(shell.section('Your work').getByRole('link', { name: 'Home' })).toBeFocused();
    await expectNoAxeViolations(page, 'open drawer');
    await page.keyboard.press('Escape');
    await expect(shell.areas).toBeHidden();
    await expect(shell.navigationToggle).toBeFocused();

    await shell.navigationToggle.click();
    await shell.section('Your work').getByRole('link', { name: 'Projects' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/projects');
    await expect(shell.areas).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
    await expectNoAxeViolations(page, 'projects at 390 px');
  });

  test('home, the lists and the palette fit the width: wide tables scroll in their own box', async ({ page, context, adminSession }) => {
    const shell = new Shell(page);
    await applyAdminSession(context, adminSession);
    await page.goto('/');
    const scrollsSideways = () => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    await expect(page.getByRole('region', { name: 'Instance overview' })).toBeVisible();
    expect(await scrollsSideways()).toBe(false);
    await expectNoAxeViolations(page, 'home at 390 px');
    for (const path of ['/groups', '/projects']) {
      await page.goto(path);
      await expect(page.getByRole('table')).toBeVisible();
      expect(await scrollsSideways(), path).toBe(false);
    }

    await shell.paletteTrigger.click();
    await shell.paletteInput.fill('web app');
    await shell.paletteOption('Projects', /Web App/).click();
    await expect(page).toHaveURL((url) => /^\/projects\/\d+\/members$/.test(url.pathname));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Web App');
    expect(await scrollsSideways()).toBe(false);
  });
});
