import { expect, test } from './fixtures.ts';
import { ConnectPage } from './pages/connect.ts';
import { Shell } from './pages/shell.ts';
import { blockSiteData } from './browser.ts';

test('a browser that blocks site data still gets a working console, the token in memory only', async ({ page, consoleServer }) => {
  await blockSiteData(page);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const connect = new ConnectPage(page);
  await page.goto('/connect');
  await expect(connect.heading).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'the token is kept in this page\'s memory only' })).toBeVisible();
  // nothing can be remembered on this device
  await expect(connect.remember).toHaveCount(0);

  await connect.accessToken.fill(consoleServer.adminToken);
  await connect.submit.click();
  const shell = new Shell(page);
  await expect(shell.areas).toBeVisible();
  await shell.areas.getByRole('link', { name: 'People' }).click();
  await expect(page).toHaveURL(/\/users$/);

  // a reload starts afresh: the token was nowhere but in memory
  await page.reload();
  await expect(connect.heading).toBeVisible();
  expect(errors).toEqual([]);
});
