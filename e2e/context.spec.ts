import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession } from './fixtures.ts';
import { ContextSwitcher } from './pages/context-switcher.ts';
import { MembersPage } from './pages/members.ts';
import { Shell } from './pages/shell.ts';

test.describe('switching context', () => {
  test('search finds a project and a group; choosing one opens its members', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const project = await api.get<{ name_with_namespace: string }>(`/projects/${projectId}`);
    const groupId = await api.groupId('acme-engineering/backend/payments');
    const group = await api.get<{ full_name: string }>(`/groups/${groupId}`);
    const switcher = new ContextSwitcher(page);
    const members = new MembersPage(page);
    const areas = new Shell(page).areas;
    await connectAs(page, DEMO_TOKENS.maintainer.secret);

    await switcher.trigger.click();
    await expect(switcher.panel).toBeVisible();
    await switcher.search.fill('payments');
    await expect(switcher.link('Projects', project.name_with_namespace)).toBeVisible();
    await expect(switcher.link('Groups', group.full_name)).toBeVisible();
    // the search narrows both lists: Acme Design matches nothing of "payments"
    await expect(switcher.section('Groups').getByRole('link', { name: 'Acme Design', exact: true })).toHaveCount(0);

    await switcher.link('Projects', project.name_with_namespace).click();
    await expect(switcher.panel).toBeHidden();
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${projectId}/members`);
    await expect(members.heading(project.name_with_namespace)).toBeVisible();
    await expect(areas).toContainText(project.name_with_namespace);
    await expect(areas.getByRole('link', { name: 'Members', exact: true })).toBeVisible();

    await switcher.trigger.click();
    await switcher.search.fill('payments');
    await switcher.link('Groups', group.full_name).click();
    await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}/members`);
    await expect(members.heading(group.full_name)).toBeVisible();
    // billable members belong to top-level groups only
    await expect(areas.getByRole('link', { name: 'Billable members', exact: true })).toHaveCount(0);
  });

  test('a top-level group adds Billable members to the areas of its Owners', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const owner = await api.createUser();
    await api.post(`/groups/${groupId}/members`, { user_id: owner.id, access_level: 50 });
    api.deleteAfter(`/groups/${groupId}/members/${owner.id}`);
    const switcher = new ContextSwitcher(page);
    const areas = new Shell(page).areas;
    await connectAs(page, owner.token);

    await switcher.trigger.click();
    await switcher.search.fill('Acme Engineering');
    await switcher.link('Groups', 'Acme Engineering').click();
    await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}/members`);
    await expect(new MembersPage(page).heading('Acme Engineering')).toBeVisible();

    await areas.getByRole('link', { name: 'Billable members', exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/groups/${groupId}/billable-members`);
    await expect(page.getByRole('heading', { level: 1, name: 'Billable members of Acme Engineering' })).toBeVisible();
  });

  test('a Developer of a top-level group is not offered Billable members, which only Owners may list', async ({ page, api, connectAs }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const members = new MembersPage(page);
    await connectAs(page, DEMO_TOKENS.developer.secret);
    await members.gotoGroup(groupId);
    await expect(members.heading('Acme Engineering')).toBeVisible();
    await expect(new Shell(page).areas.getByRole('link', { name: 'Billable members', exact: true })).toHaveCount(0, { timeout: 3_000 });
  });

  test('a search that matches nothing says so in both lists', async ({ page, connectAs }) => {
    const switcher = new ContextSwitcher(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await switcher.trigger.click();
    await switcher.search.fill('no-such-thing-anywhere');
    await expect(switcher.section('Groups')).toContainText('No groups match.');
    await expect(switcher.section('Projects')).toContainText('No projects match.');
    await page.keyboard.press('Escape');
    await expect(switcher.panel).toBeHidden();
    await expect(switcher.trigger).toBeFocused();
  });
});

test.describe('the shell', () => {
  const instanceAreas = ['Runners', 'Service accounts', 'System hooks', 'Storage moves', 'Deploy keys'];

  test('the instance areas are listed for an administrator', async ({ page, context, adminSession }) => {
    await applyAdminSession(context, adminSession);
    await page.goto('/');
    const instance = new Shell(page).section('Admin');
    await expect(instance).toBeVisible();
    for (const name of instanceAreas) await expect(instance.getByRole('link', { name, exact: true })).toBeVisible();
  });

  test('and for nobody else', async ({ page, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    const areas = new Shell(page).areas;
    await expect(areas.getByRole('link', { name: 'People', exact: true })).toBeVisible();
    await expect(new Shell(page).section('Admin')).toHaveCount(0);
    for (const name of instanceAreas) await expect(areas.getByRole('link', { name, exact: true })).toHaveCount(0);
  });

  test('light and dark follow the system setting', async ({ page, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    /** The page's background as a 0 (black) to 255 (white) lightness. */
    const lightness = () =>
      page.getByRole('main').evaluate((main) => {
        const [red, green, blue] = getComputedStyle(main.ownerDocument.body).backgroundColor.match(/\d+/g)!.map(Number);
        return (red + green + blue) / 3;
      });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await lightness()).toBeGreaterThan(200);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await lightness()).toBeLessThan(60);
  });
});
