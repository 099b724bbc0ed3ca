import type { Page, Request } from '@playwright/test';
import { expect, test, applyAdminSession } from './fixtures.ts';
import { BlamePage } from './pages/blame.ts';

const LUMEN = 'lumen/core/lumen';
const GLYPH_TABLE = 'src/text/glyph_table.rs';
const DOM_BUDGET = 1500;

/** Every blame request the page makes (its lines, `start-end`), and the most that were ever in flight at once. */
function watchBlameRequests(page: Page) {
  const isBlame = (request: Request) => /\/repository\/files\/[^/]+\/blame\?/.test(request.url());
  const spans: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const done = (request: Request) => {
    if (isBlame(request)) inFlight--;
  };
  page.on('request', (request) => {
    if (!isBlame(request)) return;
    const query = new URL(request.url()).searchParams;
    spans.push(`${query.get('range[start]')}-${query.get('range[end]')}`);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { spans, maxInFlight: () => maxInFlight };
}

test.describe('blame of the 50,000-line file', () => {
  let projectId: number;

  test.beforeAll(async ({ consoleServer }) => {
    // the lumen repository is built on first use: build it before any test times anything (a busy machine takes a minute)
    test.setTimeout(120_000);
    const headers = { 'PRIVATE-TOKEN': consoleServer.adminToken };
    const project = (await (await fetch(`${consoleServer.baseURL}/api/v4/projects/${encodeURIComponent(LUMEN)}`, { headers })).json()) as { id: number };
    projectId = project.id;
    const warm = await fetch(`${consoleServer.baseURL}/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(GLYPH_TABLE)}/blame?ref=main&range[start]=1&range[end]=1`, { headers });
    expect(warm.status).toBe(200);
  });

  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('shows the first lines with their commits while the rest is not loaded, and stays small while scrolling', async ({ page }) => {
    const requests = watchBlameRequests(page);
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main' });
    await expect(blame.heading()).toBeVisible();
    const first = blame.row(1);
    await expect(first).toContainText('// Glyph metrics for the built-in font');
    await expect(first).toContainText('Sofia Lindqvist');
    await expect(first).toContainText('Lumen: first light');
    // estimated from the file's size until the end is reached: near, not exact
    await expect(blame.lineCount).toHaveText(/^About \d\d,\d{3} lines$/);
    const estimate = Number((await blame.lineCount.textContent())!.replace(/\D/g, ''));
    expect(Math.abs(estimate - 50_000)).toBeLessThan(5000);
    // the platform's first page of 200 lines, then only the top range and the one below it: not the whole file
    await expect.poll(() => requests.spans.length).toBeGreaterThanOrEqual(3);
    expect(requests.spans.slice(0, 3)).toEqual(['1-200', '1-2000', '2001-4000']);
    expect(requests.spans.length).toBeLessThanOrEqual(3);
    expect(await blame.domNodes()).toBeLessThan(DOM_BUDGET);

    let most = 0;
    for (let step = 0; step < 12; step++) {
      await blame.scrollBy(4000);
      most = Math.max(most, await blame.domNodes());
    }
    // long throws across many ranges: the wish list changes faster than answers come back
    for (let step = 0; step < 6; step++) {
      await blame.scrollBy(150_000);
      most = Math.max(most, await blame.domNodes());
    }
    await expect(blame.table.getByRole('row').filter({ hasText: /\[0x/ }).first()).toBeVisible();
    expect(most).toBeLessThan(DOM_BUDGET);
    expect(requests.maxInFlight()).toBeLessThanOrEqual(4);
    expect(requests.spans.length).toBeLessThan(25);
  });

  test('on a slow network, fast scrolling keeps four requests in flight and no more', async ({ page }) => {
    // every blame answer takes 400 ms more, so requests pile up while the list is thrown about
    await page.route(/\/blame\?/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const requests = watchBlameRequests(page);
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main' });
    await expect(blame.row(1)).toContainText('// Glyph metrics');
    for (let step = 0; step < 8; step++) await blame.scrollBy(90_000);
    await expect(blame.table.getByRole('row').filter({ hasText: /\[0x/ }).first()).toBeVisible();
    expect(requests.maxInFlight()).toBe(4);
    expect(await blame.domNodes()).toBeLessThan(DOM_BUDGET);
  });

  test('a line past the end of the file says so and shows the top of the file', async ({ page }) => {
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main', hash: 'L60000' });
    await expect(page.getByRole('alert').filter({ hasText: 'Line 60,000 is past the end of this file' })).toBeVisible();
    await expect(blame.row(1)).toContainText('// Glyph metrics');
  });

  test('jumps to line 40,000 from the URL hash, loading the lines around it first, four requests in flight at most', async ({ page }) => {
    const requests = watchBlameRequests(page);
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main', hash: 'L40000' });
    const target = blame.row(40_000);
    await expect(target).toBeInViewport();
    await expect(target).toHaveAttribute('aria-current', 'true');
    await expect(blame.row(39_999)).not.toHaveAttribute('aria-current', 'true');
    // the 200 lines around line 40,000 first, then its range; the top of the file is never asked for
    expect(requests.spans.slice(0, 2)).toEqual(['39900-40099', '38001-40000']);
    await expect(blame.row(40_001)).toContainText(/\S/);
    expect(requests.spans.filter((span) => span.startsWith('1-'))).toEqual([]);
    expect(requests.spans.length).toBeLessThanOrEqual(5);
    expect(requests.maxInFlight()).toBeLessThanOrEqual(4);
    expect(await blame.domNodes()).toBeLessThan(DOM_BUDGET);

    // the end of the file: its last line, and a count that is now exact
    await blame.goToLine.fill('50000');
    await blame.goToLine.press('Enter');
    await expect(page).toHaveURL(/#L50000$/);
    await expect(blame.row(50_000)).toBeInViewport();
    await expect(blame.row(50_000)).toContainText('];');
    await expect(blame.lineCount).toHaveText('50,000 lines');
    expect(requests.maxInFlight()).toBeLessThanOrEqual(4);
  });

  test('selects a range of lines with shift-click, and its link opens the same selection', async ({ page, context, consoleServer }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: consoleServer.baseURL });
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main' });
    await blame.lineLink(10).click();
    await expect(page).toHaveURL(/#L10$/);
    await blame.lineLink(20).click({ modifiers: ['Shift'] });
    await expect(page).toHaveURL(/#L10-20$/);
    for (const line of [10, 15, 20]) await expect(blame.row(line)).toHaveAttribute('aria-current', 'true');
    for (const line of [9, 21]) await expect(blame.row(line)).not.toHaveAttribute('aria-current', 'true');

    await blame.copyLink.click();
    await expect(blame.copyLink).toHaveAccessibleName('Copy link to lines 10–20');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`/projects/${projectId}/blame/src/text/glyph_table\\.rs\\?ref=main#L10-20$`));

    // the link, opened afresh, shows the same selection
    await page.goto('/');
    await page.goto(link);
    await expect(blame.row(15)).toHaveAttribute('aria-current', 'true');
    await expect(blame.row(21)).not.toHaveAttribute('aria-current', 'true');

    // the keyboard's way: a range typed into "Go to line"; nonsense is refused and kept
    await blame.goToLine.fill('12 to 14');
    await blame.goToLine.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'A line number, or two joined by a dash' })).toBeVisible();
    await expect(blame.goToLine).toHaveValue('12 to 14');
    await blame.goToLine.fill('120-140');
    await blame.goToLine.press('Enter');
    await expect(page).toHaveURL(/#L120-140$/);
    for (const line of [120, 140]) await expect(blame.row(line)).toHaveAttribute('aria-current', 'true');
    await expect(blame.copyLink).toHaveAccessibleName('Copy link to lines 120–140');
  });

  test('shows the 200 lines around the linked line while its ranges are still on their way', async ({ page }) => {
    // the 2,000-line ranges are held back until the test lets them go; the first view is not
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/blame\?/, async (route) => {
      const query = new URL(route.request().url()).searchParams;
      if (Number(query.get('range[end]')) - Number(query.get('range[start]')) + 1 === 2000) await released;
      await route.continue();
    });
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main', hash: 'L40000' });
    await expect(blame.row(40_000)).toBeInViewport();
    await expect(blame.row(40_000)).toContainText(/\[0x/);
    await expect(blame.row(40_000)).toHaveAttribute('aria-current', 'true');
    await expect(blame.lineCount).toHaveText(/^About \d\d,\d{3} lines$/);
    release();
    await expect(blame.row(40_001)).toContainText(/\S/);
    await expect(blame.table).not.toHaveAttribute('aria-busy', 'true');
  });

  test('on a phone, the linked line and its code are in view without scrolling sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main', hash: 'L40000' });
    await expect(blame.lineLink(40_000)).toBeInViewport({ ratio: 1 });
    await expect(blame.row(40_000).getByText('[0x9c5c,')).toBeInViewport();
    // the commit column keeps its title, which links to it, within the phone's width
    const title = await blame.table.getByRole('link', { name: /^glyph table:/ }).first().boundingBox();
    expect(title!.width).toBeGreaterThan(40);
    expect(title!.x + title!.width).toBeLessThanOrEqual(390);
  });

  test('a range that fails says so in place and loads on Retry', async ({ page }) => {
    let failing = true;
    await page.route(/\/blame\?.*range\[start\]=2001&/, (route) =>
      failing ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: '503 Service Unavailable' }) }) : route.continue(),
    );
    const blame = new BlamePage(page, GLYPH_TABLE);
    await blame.goto(projectId, { ref: 'main' });
    await expect(blame.row(1)).toContainText('// Glyph metrics');
    await blame.goToLine.fill('2010');
    await blame.goToLine.press('Enter');
    await expect(blame.row(2010)).toHaveAttribute('aria-current', 'true');
    // a 503 is retried quietly a few times before the range shows as failed
    const retry = blame.retry('lines 2,001–4,000');
    await expect(retry).toBeVisible({ timeout: 15_000 });
    await expect(blame.table).toContainText('Could not load lines 2,001–4,000: 503 Service Unavailable');
    failing = false;
    await retry.click();
    await expect(blame.row(2010)).toContainText(/\[0x/);
    await expect(retry).toHaveCount(0);
  });
});

test.describe('blame of a short file', () => {
  test('a path with a space on the default branch: exact line count, commit groups, and the commit link', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId('acme-engineering/frontend/web-app');
    const path = 'src/components/Order Summary.tsx';
    const lines = (await api.get<Array<{ lines: string[] }>>(`/projects/${projectId}/repository/files/${encodeURIComponent(path)}/blame?ref=main`)).flatMap((group) => group.lines);
    await applyAdminSession(context, adminSession);
    const blame = new BlamePage(page, path);
    // no ref in the URL: the project's default branch
    await page.goto(`/projects/${projectId}/blame/${encodeURIComponent(path).replace(/%2F/g, '/')}`);
    await expect(blame.heading()).toBeVisible();
    await expect(blame.lineCount).toHaveText(`${lines.length} lines`);
    await expect(blame.row(lines.length)).toContainText(lines[lines.length - 1].trim());
    await expect(blame.lineLink(lines.length + 1)).toHaveCount(0);
    const commitLink = blame.row(1).getByRole('link', { name: 'Add order summary' });
    await expect(commitLink).toBeVisible();
    await commitLink.click();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/commit/[0-9a-f]{40}$`));
  });
});
