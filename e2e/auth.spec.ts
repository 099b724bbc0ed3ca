import net from 'node:net';
import { DEMO_DEAD_TOKENS, DEMO_PATHS, DEMO_TOKENS, expect, test } from './fixtures.ts';
import { startProxyConsole } from './console-server.ts';
import { ConnectPage } from './pages/connect.ts';
import { Shell } from './pages/shell.ts';

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

test.describe('connecting', () => {
  test('the administrator token lands on home with the admin badge', async ({ page, consoleServer, api }) => {
    const connect = new ConnectPage(page);
    const me = await api.get<{ name: string }>('/user');
    await connect.goto();
    await expect(connect.heading).toBeVisible();
    // the console's own origin is the default instance
    await expect(connect.instanceUrl).toHaveValue(consoleServer.baseURL);
    await connect.accessToken.fill(consoleServer.adminToken);
    await connect.submit.click();

    await expect(page).toHaveURL(`${consoleServer.baseURL}/`);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${me.name}` })).toBeVisible();
    await expect(new Shell(page).account).toHaveAccessibleName(/administrator/i);
    expect(page.url()).not.toContain(consoleServer.adminToken);
  });

  const refused = [
    { case: 'an unknown token', token: 'glpat-not-a-token-at-all-000', says: /401 Unauthorized/ },
    { case: 'a revoked token', token: DEMO_DEAD_TOKENS.revoked.secret, says: /revoked/i },
    { case: 'an expired token', token: DEMO_DEAD_TOKENS.expired.secret, says: /expired/i },
  ];
  for (const { case: name, token, says } of refused) {
    test(`${name} is refused on the Access token field and the typed address stays`, async ({ page, consoleServer }) => {
      const connect = new ConnectPage(page);
      await connect.goto();
      // typed with the API path: accepted, and kept exactly as typed after the failure
      const typedAddress = `${consoleServer.baseURL}/api/v4`;
      await connect.instanceUrl.fill(typedAddress);
      await connect.accessToken.fill(token);
      await connect.submit.click();

      await expect(connect.accessToken).toHaveAttribute('aria-invalid', 'true');
      await expect(connect.accessToken).toHaveAccessibleDescription(says);
      await expect(connect.instanceUrl).toHaveValue(typedAddress);
      await expect(connect.instanceUrl).not.toHaveAttribute('aria-invalid', 'true');
      await expect(connect.submit).toBeEnabled();
      expect(new URL(page.url()).pathname).toBe('/connect');
      expect(page.url()).not.toContain(token);
    });
  }

  test('an unreachable instance is reported as such', async ({ page }) => {
    const connect = new ConnectPage(page);
    const address = `http://127.0.0.1:${await closedPort()}`;
    await connect.goto();
    await connect.instanceUrl.fill(address);
    await connect.accessToken.fill(DEMO_TOKENS.maintainer.secret);
    await connect.submit.click();

    await expect(connect.formError).toContainText(`Could not reach ${address}`);
    await expect(connect.accessToken).not.toHaveAttribute('aria-invalid', 'true');
    await expect(connect.instanceUrl).toHaveValue(address);
  });

  test('an address that is not a full http(s) URL is refused on its field, and both fields keep what was typed', async ({ page }) => {
    const connect = new ConnectPage(page);
    await connect.goto();
    for (const address of ['gitlab.example.com', 'ftp://gitlab.example.com']) {
      await connect.instanceUrl.fill(address);
      await connect.accessToken.fill(DEMO_TOKENS.maintainer.secret);
      await connect.submit.click();
      await expect(connect.instanceUrl).toHaveAttribute('aria-invalid', 'true');
      await expect(connect.instanceUrl).toHaveAccessibleDescription(/Enter a full http:\/\/ or https:\/\/ address/);
      await expect(connect.instanceUrl).toHaveValue(address);
      await expect(connect.accessToken).toHaveValue(DEMO_TOKENS.maintainer.secret);
      expect(new URL(page.url()).pathname).toBe('/connect');
    }
  });

  test('a read_api token connects read-only', async ({ page, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    const account = new Shell(page).account;
    await expect(account).toContainText('Read-only');
    // the badge is part of what assistive technology announces, not only drawn
    await expect(account).toHaveAccessibleName(/read-only/i);
    await expect(account).not.toHaveAccessibleName(/administrator/i);
  });

  test('the connect screen gives way to the shell whole: it is never shown inside the shell', async ({ page, connectAs }) => {
    // every change of the document is looked at as it is made: a single commit of both is caught
    await page.addInitScript(() => {
      new MutationObserver(() => {
        const mains = document.querySelectorAll('main, [role="main"]').length;
        const most = (window as unknown as { mostMains?: number }).mostMains ?? 0;
        (window as unknown as { mostMains: number }).mostMains = Math.max(most, mains);
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/connect');
    // the shell's code is in before the press, as it is once the connect screen has been idle
    await page.waitForLoadState('networkidle');
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { mostMains: number }).mostMains)).toBe(1);
  });
});

test.describe('a console started with --target', () => {
  // starting a second server takes a few seconds
  test.slow();

  test('talks to that instance through its own origin: connect, then people across keyset pages', async ({ page, consoleServer }) => {
    // the worker's console server stands in for the remote instance
    const proxy = await startProxyConsole(consoleServer.baseURL);
    try {
      const apiOrigins = new Set<string>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/v4/')) apiOrigins.add(url.origin);
      });
      const connect = new ConnectPage(page);
      await page.goto(`${proxy.baseURL}/connect`);
      // its own origin is the default, with no CORS to set up
      await expect(connect.instanceUrl).toHaveValue(proxy.baseURL);
      await connect.accessToken.fill(consoleServer.adminToken);
      await connect.submit.click();
      await expect(new Shell(page).areas).toBeVisible();

      await page.goto(`${proxy.baseURL}/users`);
      const people = page.getByRole('table', { name: 'People', exact: true });
      const rows = people.getByRole('row').filter({ has: page.getByRole('cell') });
      await expect(rows).toHaveCount(50);
      // the next page comes from the instance's Link header, followed through the proxy; the list
      // is virtualized from then on, so its status tells how many are loaded
      await page.getByRole('button', { name: 'Load more', exact: true }).click();
      await expect(page.getByRole('status', { name: /^Shown: 100 people/ })).toBeVisible();
      expect([...apiOrigins]).toEqual([proxy.baseURL]);
    } finally {
      await proxy.stop();
    }
  });
});

test.describe('coming back after connecting', () => {
  test('a deep link opened signed out returns there after connecting', async ({ page, api, connectAs, consoleServer }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const target = `/groups/${groupId}/members`;
    await page.goto(target);

    await expect(page).toHaveURL((url) => url.pathname === '/connect' && url.searchParams.get('redirect') === target);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await expect(page).toHaveURL(`${consoleServer.baseURL}${target}`);
    await expect(page.getByRole('table', { name: /members$/i })).toBeVisible();
  });

  test('a token revoked during the session leads to connect and back to the same page', async ({ page, api, connectAs, consoleServer }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    const target = `/groups/${groupId}/members`;
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await page.goto(target);
    await expect(page.getByRole('table', { name: /members$/i })).toBeVisible();

    // The sandbox cannot revoke a token yet, so its requests now carry the seed's revoked token:
    // the instance itself answers the real 401 ("Token was revoked").
    await page.route('**/api/v4/**', (route) => {
      const headers = route.request().headers();
      if (!headers['private-token']) return route.continue();
      return route.continue({ headers: { ...headers, 'private-token': DEMO_DEAD_TOKENS.revoked.secret } });
    });
    await page.goto(`${target}?page=2`);

    const connect = new ConnectPage(page);
    await expect(connect.sessionEndedNotice).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/connect' && url.searchParams.get('redirect') === `${target}?page=2`);
    // the saved connection lost its token with the 401
    await expect(connect.useConnection(DEMO_TOKENS.maintainer.username, consoleServer.baseURL)).toBeDisabled();

    await page.unroute('**/api/v4/**');
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await expect(page).toHaveURL((url) => pathOf(url.href) === `${target}?page=2`);
    await expect(page.getByRole('table', { name: /members$/i })).toBeVisible();
  });
});

test.describe('saved connections', () => {
  test('a second connection is added from the account menu, and the menu switches between the two', async ({ page, api, connectAs, consoleServer }) => {
    const maya = await api.userByUsername(DEMO_TOKENS.maintainer.username);
    const diego = await api.userByUsername(DEMO_TOKENS.developer.username);
    const welcome = (name: string) => page.getByRole('heading', { level: 1, name: `Welcome, ${name}` });
    const shell = new Shell(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await expect(welcome(maya.name)).toBeVisible();

    await shell.account.click();
    await shell.menuItem('Add a connection').click();
    const connect = new ConnectPage(page);
    await expect(page.getByRole('heading', { level: 2, name: 'Saved connections' })).toBeVisible();
    await expect(connect.form).toHaveAccessibleName('New connection');
    await connect.accessToken.fill(DEMO_TOKENS.developer.secret);
    await connect.submit.click();
    await expect(welcome(diego.name)).toBeVisible();
    await expect(shell.account).toHaveAccessibleName(new RegExp(diego.name));

    // switched from a screen of Diego's: none of its requests goes out with Maya's token
    const diegoProject = (await api.get<Array<{ id: number }>>('/projects?membership=true&per_page=1', { token: DEMO_TOKENS.developer.secret }))[0];
    await page.goto(`/projects/${diegoProject.id}/members`);
    await expect(page.getByRole('table', { name: /members$/i })).toBeVisible();
    const mayaOnDiegoScreen: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/projects/${diegoProject.id}`) && request.headers()['private-token'] === DEMO_TOKENS.maintainer.secret) mayaOnDiegoScreen.push(request.url());
    });
    await shell.account.click();
    await shell.menuItem(`Switch to ${DEMO_TOKENS.maintainer.username} on ${consoleServer.baseURL}`).click();
    await expect(welcome(maya.name)).toBeVisible();
    await expect(shell.account).toHaveAccessibleName(new RegExp(maya.name));
    expect(mayaOnDiegoScreen).toEqual([]);

    await shell.account.click();
    await shell.menuItem(`Switch to ${DEMO_TOKENS.developer.username} on ${consoleServer.baseURL}`).click();
    await expect(welcome(diego.name)).toBeVisible();
  });

  test('the connect screen lists saved connections to use or forget', async ({ page, connectAs, consoleServer }) => {
    const shell = new Shell(page);
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await shell.account.click();
    await shell.menuItem('Add a connection').click();
    const connect = new ConnectPage(page);
    const use = page.getByRole('button', { name: `Use ${DEMO_TOKENS.maintainer.username} on ${consoleServer.baseURL}`, exact: true });
    const forget = page.getByRole('button', { name: `Forget ${DEMO_TOKENS.maintainer.username} on ${consoleServer.baseURL}`, exact: true });
    await use.click();
    await expect(shell.areas).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');

    await shell.account.click();
    await shell.menuItem('Add a connection').click();
    await forget.click();
    await expect(use).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Saved connections' })).toHaveCount(0);
    await expect(connect.form).toHaveAccessibleName('Connect');
    // the connection in use is gone, so the console is signed out
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === '/connect');
  });
});

test.describe('the session', () => {
  test('signing out returns to connect and a reload stays signed out', async ({ page, connectAs, consoleServer }) => {
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    await new Shell(page).signOut();

    const connect = new ConnectPage(page);
    await expect(page).toHaveURL((url) => url.pathname === '/connect');
    await expect(connect.form).toBeVisible();
    await page.reload();
    await expect(connect.form).toBeVisible();
    // listed to sign in again, but its token is gone
    await expect(connect.useConnection(DEMO_TOKENS.maintainer.username, consoleServer.baseURL)).toBeDisabled();
    await page.goto('/');
    await expect(page).toHaveURL((url) => url.pathname === '/connect');
    await expect(new Shell(page).areas).toBeHidden();
  });

  test('signing out sends nothing more to the instance: no request is refused after it', async ({ page, api, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    const group = await api.groupId('acme-engineering');
    // a screen with several queries in view when the connection goes
    await page.goto(`/groups/${group}/members`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const after: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) after.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await new Shell(page).signOut();
    await expect(new ConnectPage(page).form).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(after).toEqual([]);
  });

  test('remembered on this device, the session opens in a new page of the same browser', async ({ page, context, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.developer.secret, { remember: true });

    const another = await context.newPage();
    await another.goto('/');
    await expect(another.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
    await expect(new Shell(another).account).toHaveAccessibleName(/^Account:/);
  });

  test('not remembered, the session stays in its tab: it survives a reload but not a new page', async ({ page, context, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.developer.secret);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();

    const another = await context.newPage();
    await another.goto('/');
    await expect(another).toHaveURL((url) => url.pathname === '/connect');
    await expect(new ConnectPage(another).form).toBeVisible();
  });
});
