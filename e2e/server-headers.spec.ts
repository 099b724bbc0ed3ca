import fs from 'node:fs';
import { DEMO_PATHS, expect, test } from './fixtures.ts';
import { Shell } from './pages/shell.ts';

/** The scripts a served page lists: its own and those it preloads. */
const scriptsOf = (html: string) => [...html.matchAll(/<(?:script type="module" crossorigin src|link rel="modulepreload" crossorigin href)="(\/assets\/[^"]+\.js)">/g)].map((match) => match[1]);

test.describe('the served console', () => {
  test('sends its security headers, and its hashed files compressed and immutable', async ({ request }) => {
    const page = await request.get('/groups/1/members');
    expect(page.status()).toBe(200);
    const headers = page.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self';");
    expect(headers['content-security-policy']).toContain("connect-src 'self';");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("require-trusted-types-for 'script'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');

    // the built page carries the policy a static host can carry (https connections for the direct
    // mode); served here, the header alone is the policy
    expect(fs.readFileSync('dist/index.html', 'utf8')).toMatch(/<meta http-equiv="Content-Security-Policy" content="[^"]*connect-src 'self' https:;/);
    const html = await page.text();
    expect(html).not.toContain('http-equiv="Content-Security-Policy"');
    const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeTruthy();
    const script = await request.get(entry!, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(script.status()).toBe(200);
    expect(script.headers()['content-encoding']).toBe('br');
    expect(script.headers()['vary']).toBe('Accept-Encoding');
    expect(script.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers()['x-content-type-options']).toBe('nosniff');
  });

  test('runs under its policy with Trusted Types enforced', async ({ browser, consoleServer }) => {
    // a context of its own: the violations below are on purpose, and the policy guard watches the test's context
    const context = await browser.newContext({ baseURL: consoleServer.baseURL });
    const page = await context.newPage();
    await page.goto('/connect');
    await expect(page.getByRole('heading', { name: 'Platform Console' })).toBeVisible();
    // a string reaching an HTML sink is refused: the browser enforces Trusted Types here
    const refused = await page.evaluate(() => {
      try {
        document.createElement('div').innerHTML = '<img src=x>';
        return 'accepted';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(refused).toBe('TypeError');
    // the one policy the console may create is Markdown's: any other name is refused
    const created = await page.evaluate(() => {
      try {
        (window as unknown as { trustedTypes: { createPolicy(name: string, rules: object): unknown } }).trustedTypes.createPolicy('other', {});
        return 'created';
      } catch (error) {
        return (error as Error).name;
      }
    });
    expect(created).toBe('TypeError');
    // and an inline script never runs
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      try {
        script.textContent = 'window.__inline = true';
        document.head.append(script);
      } catch {
        // Trusted Types refuse the text itself
      }
      return Boolean((window as { __inline?: boolean }).__inline);
    });
    expect(ran).toBe(false);
    await context.close();
  });

  test("a deep link's scripts are marked for eager compilation: the boot script, the entry and the screen's code", async ({ request }) => {
    const hint = '//# allFunctionsCalledOnLoad\n';
    const listed = scriptsOf(await (await request.get('/admin/runners')).text());
    // the boot script, the entry and what it imports, the shell, and the fleet's screen
    expect(listed.length).toBeGreaterThan(5);
    for (const file of listed) expect((await (await request.get(file)).text()).startsWith(hint), file).toBe(true);
  });

  test('a deep link\'s page preloads its route\'s chunks, and the screen needs no other chunk', async ({ page, request, connectAs, consoleServer }) => {
    const listed = scriptsOf(await (await request.get('/admin/runners')).text());
    // the fleet's screen and the shell, beyond what every page lists
    expect(listed.length).toBeGreaterThan(scriptsOf(await (await request.get('/connect')).text()).length);
    for (const file of listed) expect((await request.get(file)).status(), file).toBe(200);

    await connectAs(page, consoleServer.adminToken);
    // any other chunk is held back (routing turns the HTTP cache off): the screen must show without it
    await page.route('**/assets/*.js', (route) => (listed.includes(new URL(route.request().url()).pathname) ? route.continue() : undefined));
    await page.goto('/admin/runners');
    await expect(page.getByRole('table', { name: /^Runners$/ }).getByRole('row').nth(1)).toBeVisible();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('a deep link\'s page preloads its route\'s styles too, and the screen needs no other', async ({ page, request, connectAs, consoleServer, api }) => {
    const project = await api.get<{ id: number }>(`/projects/${encodeURIComponent(DEMO_PATHS.issueTracker)}`);
    const path = `/projects/${project.id}/tree/`;
    const stylesOf = (html: string) => [...html.matchAll(/<link rel="(?:stylesheet|preload" as="style)" crossorigin href="(\/assets\/[^"]+\.css)">/g)].map((match) => match[1]);
    const listed = stylesOf(await (await request.get(path)).text());
    // the file screen's own styles, beyond the entry's
    expect(listed.length).toBeGreaterThan(stylesOf(await (await request.get('/connect')).text()).length);

    await connectAs(page, consoleServer.adminToken);
    // any other stylesheet is held back: the screen must show without it
    await page.route('**/assets/*.css', (route) => (listed.includes(new URL(route.request().url()).pathname) ? route.continue() : undefined));
    await page.goto(path);
    await expect(page.getByRole('table', { name: /^Files/ }).getByRole('row').nth(1)).toBeVisible();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test("a deep link's first request leaves from the boot script before the console's code runs, and is asked once", async ({ page, api, connectAs, consoleServer }) => {
    const groupId = await api.groupId(DEMO_PATHS.bigGroup);
    await connectAs(page, consoleServer.adminToken);
    const firstPage = `/api/v4/groups/${groupId}/members?page=1&per_page=20`;
    const asked: string[] = [];
    let listAsked!: () => void;
    const listSent = new Promise<void>((resolve) => (listAsked = resolve));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname + url.search !== firstPage) return;
      asked.push(request.url());
      listAsked();
    });
    // every script but the boot script waits for the list's request: only the boot script can send it
    await page.route('**/assets/*.js', async (route) => {
      if (!/\/assets\/boot-[^/]+\.js$/.test(new URL(route.request().url()).pathname)) await listSent;
      await route.continue();
    });
    await page.goto(`/groups/${groupId}/members`);
    await expect(page.getByRole('table', { name: /members$/ }).getByRole('row').nth(1)).toBeVisible();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(asked).toHaveLength(1);
  });

  test("a pressed link's first request leaves as the button goes down, and is asked once", async ({ page, connectAs, consoleServer }) => {
    await connectAs(page, consoleServer.adminToken);
    const firstPage = '/api/v4/runners/all?page=1&per_page=20';
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname + url.search === firstPage) asked.push(request.url());
    });
    const link = new Shell(page).areas.getByRole('link', { name: 'Runners', exact: true });
    const box = (await link.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // the button is still down: no click yet, no navigation, and the list is on its way
    await expect.poll(() => asked.length).toBe(1);
    await expect(page).not.toHaveURL(/\/admin\/runners/);
    await page.mouse.up();
    await expect(page.getByRole('table', { name: /^Runners$/ }).getByRole('row').nth(1)).toBeVisible();
    expect(asked).toHaveLength(1);
  });

  test("a pressed link to a project's files asks for the tree at its default branch as the button goes down, before the files' code is there", async ({ page, request, connectAs, consoleServer, api }) => {
    const project = await api.get<{ id: number; default_branch: string }>(`/projects/${encodeURIComponent(DEMO_PATHS.issueTracker)}`);
    const path = `/projects/${project.id}/members`;
    const listed = scriptsOf(await (await request.get(path)).text());
    await connectAs(page, consoleServer.adminToken);
    // the members screen's own code only: the files' route never arrives, so its loader cannot ask
    await page.route('**/assets/*.js', (route) => (listed.includes(new URL(route.request().url()).pathname) ? route.continue() : undefined));
    // a screen of the project: its details, and so its default branch, are in the console's cache
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const asked: string[] = [];
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (url.pathname.startsWith(`/api/v4/projects/${project.id}`)) asked.push(url.pathname.replace(`/api/v4/projects/${project.id}`, '') + (url.searchParams.has('ref') ? `@${url.searchParams.get('ref')}` : ''));
    });
    const link = new Shell(page).section('Code').getByRole('link', { name: 'Files', exact: true });
    await link.scrollIntoViewIfNeeded();
    const box = (await link.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    // at once, and without asking for the project again
    await expect.poll(() => asked).toEqual([`/repository/tree@${project.default_branch}`]);
    await page.mouse.up();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
