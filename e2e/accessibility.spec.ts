import { axeViolations as violations } from './axe.ts';
import { test, expect, applyAdminSession } from './fixtures.ts';
import { watchApiRequests } from './api-settled.ts';
import { ConnectPage } from './pages/connect.ts';

/**
 * axe-core (the reference engine for automated WCAG checks) over each area's main screen, a
 * few dialogs and the menus (as the administrator on the demo seed), and the connect screen with
 * its errors: no violation of any impact.
 */
const WEB_APP = 'acme-engineering/frontend/web-app';
const LUMEN = 'lumen/core/lumen';

test('the connect screen, and its errors, have no axe violations', async ({ page }) => {
  await page.goto('/connect');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const found = await violations(page, 'connect');
  // a refused connection puts its errors on the page: they must be as accessible as the form
  const connect = new ConnectPage(page);
  await connect.submit.click();
  await expect(connect.accessToken).toHaveAttribute('aria-invalid', 'true');
  found.push(...(await violations(page, 'connect with errors')));
  expect(found).toEqual([]);
});

test.describe('accessibility', () => {
  // the screens in halves and the dialogs apart, so the workers share them
  test.describe.configure({ mode: 'parallel' });
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  const SHARDS = 2;
  for (let shard = 0; shard < SHARDS; shard++) test(`the main screens have no axe violations (part ${shard + 1} of ${SHARDS})`, async ({ page, api }) => {
    // axe runs of about a second of renderer CPU each; the shared two-core machine may be several times slower
    test.setTimeout(300_000);
    const webApp = await api.projectId(WEB_APP);
    const lumen = await api.projectId(LUMEN);
    const group = await api.groupId('acme-engineering');
    const [head] = await api.get<Array<{ id: string }>>(`/projects/${webApp}/repository/commits?per_page=1`);
    const screens: Array<[string, string]> = [
      ['home', '/'],
      ['group members', `/groups/${group}/members`],
      ['group access tokens', `/groups/${group}/access-tokens`],
      ['people', '/users'],
      ['runner fleet', '/admin/runners'],
      ['system hooks', '/admin/hooks'],
      ['storage moves', '/admin/storage-moves'],
      ['file tree', `/projects/${webApp}/tree/src`],
      ['file', `/projects/${webApp}/blob/src/components/Order%20Summary.tsx`],
      ['blame', `/projects/${lumen}/blame/src/lib.rs`],
      ['commit history', `/projects/${webApp}/commits`],
      ['commit', `/projects/${webApp}/commit/${head.id}`],
      ['branches', `/projects/${webApp}/branches`],
      ['issue board', `/projects/${webApp}/boards`],
      ['deploy keys', `/projects/${webApp}/deploy-keys`],
      ['multi-file commit', `/projects/${webApp}/changes`],
      ['file editor', `/projects/${webApp}/edit/README.md`],
    ];
    const found: string[] = [];
    const apiSettled = watchApiRequests(page);
    for (const [index, [name, path]] of screens.entries()) {
      if (index % SHARDS !== shard) continue;
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await apiSettled();
      found.push(...(await violations(page, name)));
    }
    expect(found).toEqual([]);
  });

  // open dialogs and menus too: they are where focus and labels most often go wrong
  test('a dialog and a menu have no axe violations', async ({ page, api }) => {
    test.setTimeout(300_000);
    const webApp = await api.projectId(WEB_APP);
    const [head] = await api.get<Array<{ id: string }>>(`/projects/${webApp}/repository/commits?per_page=1`);
    const found: string[] = [];
    await page.goto(`/projects/${webApp}/branches`);
    await page.getByRole('button', { name: 'New branch' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await violations(page, 'new branch dialog')));
    await page.keyboard.press('Escape');
    await page.goto(`/projects/${webApp}/deploy-keys`);
    await page.getByRole('button', { name: 'Add deploy key', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await violations(page, 'add deploy key dialog')));
    await page.keyboard.press('Escape');
    await page.goto(`/projects/${webApp}/commit/${head.id}`);
    await page.getByRole('button', { name: 'Cherry-pick', exact: true }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    found.push(...(await violations(page, 'cherry-pick dialog')));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: /^Account:/ }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    found.push(...(await violations(page, 'account menu')));
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Switch group or project' }).click();
    await expect(page.getByRole('dialog', { name: 'Switch group or project' })).toBeVisible();
    found.push(...(await violations(page, 'context switcher')));
    expect(found).toEqual([]);
  });
});
