import { chromium, type Browser, type Locator, type Page, type Request } from '@playwright/test';
import { DEMO_PATHS, DEMO_REGISTRY, DEMO_TOKENS } from '../sandbox/seed/demo.ts';
import { DEMO_PIPELINES } from '../sandbox/seed/pipelines.ts';
import { DEMO_PACKAGES } from '../sandbox/seed/packages.ts';
import { DEMO_ALERTS } from '../sandbox/seed/alerts.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { addPaintClock, arm, painted, type Target } from './paint-clock.ts';
import { signedInStorage, withSession } from './session.ts';
import { emit, log, median, round } from './report.ts';

/**
 * Clicks on loopback, no throttling: a real pointer press (CDP Input: move, down, up) on the link
 * to a list screen, timed from the `mousedown` event to the first frame in which the list's first
 * data row is painted (Element Timing). Against it, the same request made raw from the same page:
 * a button the bench adds, whose click fetches the console's own URL for that list and shows the
 * first item's name in a table row, timed the same way. Each run starts from a fresh document
 * (the route's code is in the HTTP cache, not yet running). Then the same with 50 ms added to every
 * API answer (the sandbox's latency fault), and a screen already shown: away and back, its list in
 * the query cache, in frames of 16.7 ms. Last the floor of all three (floorRun): the console's
 * finished main content put in place by a raw handler, which no client, router or React can beat (the
 * sidebar, which a press from home also changes, stays as it is).
 */

const RUNS = 10;
const STEP_TIMEOUT_MS = 20_000;
const FRAME_MS = 1000 / 60;
const NETWORK_LATENCY_MS = 50;
const TOKENS_GROUP = 'platform-team';

interface ClickScreen {
  name: string;
  token: string;
  /** Where each run starts, and the link pressed there. */
  start: string;
  link: (page: Page) => Locator;
  /** A link on the screen that leads away (to `start`), for the back-and-forth of a cached screen. */
  away: (page: Page) => Locator;
  /** The list's first data row, and its request (the first API request whose path matches). */
  target: Target;
  request: RegExp;
  /** A list read through GraphQL: its request is the POST whose body matches; the raw button repeats it. */
  graphql?: { body: RegExp; firstItem: string };
  /** Measured by a part of its own (`console.pipelines_list`, `console.packages_list`...), not with the click part's other screens. */
  ownPart?: boolean;
  /**
   * The raw request's URL when the screen's own is not a GET of a JSON list (tags come over
   * GraphQL): the same page of the same list by REST.
   */
  rawUrl?: string;
  /**
   * False where the away-and-back figure cannot be read: on the 10,000-tag image's page the
   * clock never sees its rows come back from the cache (not understood yet), so it is left out.
   */
  cached?: boolean;
}

const areas = (page: Page) => new Shell(page).areas;

/** A pointer press on the middle of `link`: move, down, up, as a user's mouse does. */
export async function press(page: Page, link: Locator): Promise<void> {
  await link.scrollIntoViewIfNeeded();
  // a link that wraps has a gap between its lines where the middle of its box falls: its first line's middle
  const box = await link.evaluate((element) => {
    const { x, y, width, height } = element.getClientRects()[0] ?? element.getBoundingClientRect();
    return { x, y, width, height };
  });
  if (!box.width) throw new Error('the link has no box to press');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.up();
}

/**
 * A button (top left, over the page) that fetches `url` raw and shows the first item's name in a
 * table row; with `wholeScreen`, it puts the stashed copy of the console's finished screen in place
 * of the page's main content instead (the floor: what painting that screen costs beyond one row),
 * and with 'at once' does so without a request (the floor of a screen shown from the cache).
 */
async function addRawButton(page: Page, url: string, token: string, graphql?: { body: string; firstItem: string }, wholeScreen: boolean | 'at once' = false): Promise<Locator> {
  await page.evaluate(
    ({ url, token, graphql, wholeScreen }) => {
      document.getElementById('bench-raw')?.remove();
      const box = document.createElement('div');
      box.id = 'bench-raw';
      box.style.cssText = 'position:fixed;top:0;left:0;z-index:2147483647;background:Canvas;color:CanvasText;padding:4px';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Raw fetch';
      const table = document.createElement('table');
      box.append(button, table);
      button.addEventListener('click', async () => {
        if (wholeScreen === 'at once') {
          const screen = (window as unknown as { benchScreen: Element }).benchScreen.cloneNode(true) as Element;
          document.querySelector('main')!.replaceChildren(...screen.childNodes);
          return;
        }
        const started = performance.now();
        const response = graphql
          ? await fetch(url, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: graphql.body })
          : await fetch(url, { headers: { 'PRIVATE-TOKEN': token } });
        const json = (await response.json()) as unknown;
        // a GraphQL answer's list is at a dotted path of `data` (e.g. project.alertManagementAlerts.nodes)
        const items = (graphql ? graphql.firstItem.split('.').reduce((at: any, key) => at?.[key], (json as { data: unknown }).data) : json) as Array<{ name?: string; title?: string; description?: string; id: number }>;
        (window as unknown as { rawFetchMs: number }).rawFetchMs = performance.now() - started;
        const first = items[0];
        if (wholeScreen) {
          const screen = (window as unknown as { benchScreen: Element }).benchScreen.cloneNode(true) as Element;
          document.querySelector('main')!.replaceChildren(...screen.childNodes);
          return;
        }
        const tbody = document.createElement('tbody');
        const row = document.createElement('tr');
        const cell = document.createElement('td');
        cell.textContent = first.name ?? first.title ?? first.description ?? String(first.id);
        row.append(cell);
        tbody.append(row);
        table.replaceChildren(tbody);
      });
      document.body.append(box);
    },
    { url, token, graphql, wholeScreen },
  );
  return page.getByRole('button', { name: 'Raw fetch', exact: true });
}

interface ClickRun {
  /** Press to the first row painted, and (the older figure) click to the row in the document. */
  painted: number;
  inserted: number;
  raw: number;
  rawFetch: number;
}

/**
 * Fresh document at `start`, settled; the raw button pressed first (its fetch leaves nothing behind
 * to compete with), then the link on the same page.
 */
async function clickRun(page: Page, screen: ClickScreen, token: string, requestUrl: { value?: string; body?: string }): Promise<ClickRun> {
  await page.goto(screen.start);
  const link = screen.link(page);
  await link.waitFor();
  // the start screen's own requests (and its idle preloads) are over before the clock starts
  await page.waitForLoadState('networkidle');
  let raw: { at: number; pressAt: number } | undefined;
  let rawFetch = 0;
  // the first run finds the console's URL for the list; the raw request repeats it from then on
  if (requestUrl.value) {
    const button = await addRawButton(page, requestUrl.value, token, screen.graphql && requestUrl.body ? { body: requestUrl.body, firstItem: screen.graphql.firstItem } : undefined);
    await arm(page, { selector: '#bench-raw tbody > tr' });
    await press(page, button);
    raw = await painted(page, STEP_TIMEOUT_MS);
    rawFetch = await page.evaluate(() => (window as unknown as { rawFetchMs: number }).rawFetchMs);
    await page.evaluate(() => document.getElementById('bench-raw')?.remove());
  }

  let seen = false;
  const onRequest = (request: Request) => {
    if (!screen.request.test(new URL(request.url()).pathname)) return;
    if (screen.graphql && !screen.graphql.body.test(request.postData() ?? '')) return;
    seen = true;
    if (requestUrl.value) return;
    requestUrl.value = request.url();
    requestUrl.body = request.postData() ?? undefined;
  };
  page.on('request', onRequest);
  await arm(page, screen.target);
  await press(page, link);
  const shown = await painted(page, STEP_TIMEOUT_MS);
  page.off('request', onRequest);
  if (!requestUrl.value) throw new Error(`${screen.name}: no request matched ${screen.request}`);
  if (screen.rawUrl && !seen) throw new Error(`${screen.name}: no request matched ${screen.request}`);
  return { painted: shown.at - shown.pressAt, inserted: shown.insertedAt - shown.clickAt, raw: raw ? raw.at - raw.pressAt : NaN, rawFetch };
}

/**
 * The floor of a click: at the screen's own address (loaded, its rows painted) its main content is
 * copied, the page goes away in the app, and there the raw request is made twice from the same page:
 * once showing one row, once putting the copied screen in place. Their difference is what painting
 * the finished screen costs, with no router, React or client at all.
 */
async function floorRun(page: Page, screen: ClickScreen, token: string, screenUrl: string, requestUrl: { value?: string; body?: string }, { atOnce: measureAtOnce = true } = {}): Promise<{ overhead: number; ratio: number; atOnce: number }> {
  // the screen at its address, its main content copied; then away, in the app
  const prepare = async () => {
    await page.goto(screenUrl);
    // shown is enough here (a row painted within the load's first frames is not always reported by Element Timing)
    await arm(page, { ...screen.target, byFrame: true });
    await painted(page, STEP_TIMEOUT_MS);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => ((window as unknown as { benchScreen: Element }).benchScreen = document.querySelector('main')!.cloneNode(true) as Element));
    await screen.away(page).click();
    await screen.link(page).waitFor();
    await page.waitForLoadState('networkidle');
  };
  await prepare();
  const graphql = screen.graphql && requestUrl.body ? { body: requestUrl.body, firstItem: screen.graphql.firstItem } : undefined;
  await arm(page, { selector: '#bench-raw tbody > tr' });
  await press(page, await addRawButton(page, requestUrl.value!, token, graphql));
  const row = await painted(page, STEP_TIMEOUT_MS);
  await arm(page, screen.target);
  await press(page, await addRawButton(page, requestUrl.value!, token, graphql, true));
  const whole = await painted(page, STEP_TIMEOUT_MS);
  const overhead = whole.at - whole.pressAt - (row.at - row.pressAt);
  const ratio = (whole.at - whole.pressAt) / (row.at - row.pressAt);
  if (!measureAtOnce) return { overhead, ratio, atOnce: NaN };
  // and the copy put in place by the press itself, as a screen from the cache could be at best (the
  // page's own content was replaced behind React's back: a fresh page)
  await prepare();
  await arm(page, screen.target);
  await press(page, await addRawButton(page, '', token, undefined, 'at once'));
  const atOnce = await painted(page, STEP_TIMEOUT_MS);
  return { overhead, ratio, atOnce: atOnce.at - atOnce.pressAt };
}

/** The screen shown, then away and back: press to the first row painted, its list from the query cache. */
async function cachedRun(page: Page, screen: ClickScreen): Promise<number> {
  await page.waitForLoadState('networkidle');
  await screen.away(page).click();
  await screen.link(page).waitFor();
  await page.waitForLoadState('networkidle');
  await arm(page, screen.target);
  await press(page, screen.link(page));
  const shown = await painted(page, STEP_TIMEOUT_MS);
  await page.waitForLoadState('networkidle');
  return shown.at - shown.pressAt;
}

const list = (values: number[]) => values.map((ms) => round(ms, 1)).join(', ');

async function screenFigures(browser: Browser, baseURL: string, faults: (latency: number | null) => Promise<void>, screen: ClickScreen): Promise<void> {
  const context = await browser.newContext({ baseURL });
  try {
    await withSession(context, await signedInStorage(browser, baseURL, screen.token, STEP_TIMEOUT_MS));
    await addPaintClock(context);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const requestUrl: { value?: string; body?: string } = { value: screen.rawUrl };
    // one run first, not counted: the browser fetches the route's chunks once, and the list's URL is noted
    await clickRun(page, screen, screen.token, requestUrl);
    const screenUrl = page.url();
    const runs: ClickRun[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await clickRun(page, screen, screen.token, requestUrl));
    const cached: number[] = [];
    if (screen.cached !== false) for (let run = 0; run < RUNS; run++) cached.push(await cachedRun(page, screen));
    const floors: Array<{ overhead: number; atOnce: number }> = [];
    // a floor is a reference beside the figures: a run whose copied row is never reported painted is left out
    let floorFailures = 0;
    if (screen.cached !== false) {
      for (let run = 0; run < RUNS; run++) {
        try {
          floors.push(await floorRun(page, screen, screen.token, screenUrl, requestUrl));
        } catch {
          floorFailures++;
        }
      }
    }
    if (floorFailures) log(`${screen.name}: ${floorFailures} of ${RUNS} floor runs not measured (the copied row was not reported painted within ${STEP_TIMEOUT_MS / 1000} s)`);
    if (floors.length < RUNS / 2) floors.length = 0;
    await faults(NETWORK_LATENCY_MS);
    const slow: ClickRun[] = [];
    // the floor of the ratio: the finished screen put in place at the raw answer, against one row
    const slowFloors: number[] = [];
    try {
      for (let run = 0; run < RUNS; run++) slow.push(await clickRun(page, screen, screen.token, requestUrl));
      if (floors.length) {
        for (let run = 0; run < RUNS; run++) {
          try {
            slowFloors.push((await floorRun(page, screen, screen.token, screenUrl, requestUrl, { atOnce: false })).ratio);
          } catch {
            // left out, as above: its copied row was never reported painted
          }
        }
      }
    } finally {
      await faults(null);
    }

    const path = new URL(requestUrl.value!).pathname;
    log(`${screen.name}: press to first row painted ${list(runs.map((run) => run.painted))} ms; raw ${path} press to painted ${list(runs.map((run) => run.raw))} ms`);
    log(`${screen.name}: click to first row in the document ${list(runs.map((run) => run.inserted))} ms; raw fetch alone ${list(runs.map((run) => run.rawFetch))} ms`);
    if (cached.length) log(`${screen.name}: cached (away and back) press to painted ${list(cached)} ms`);
    if (floors.length) log(`${screen.name}: floor (the finished screen put in place by the raw request's handler, less one row) ${list(floors.map((floor) => floor.overhead))} ms; put in place by the press itself ${list(floors.map((floor) => floor.atOnce))} ms`);
    log(`${screen.name} with ${NETWORK_LATENCY_MS} ms added to every API answer: press to painted ${list(slow.map((run) => run.painted))} ms; raw ${list(slow.map((run) => run.raw))} ms`);
    if (slowFloors.length >= RUNS / 2) log(`${screen.name} with ${NETWORK_LATENCY_MS} ms added: floor (the finished screen put in place by the raw request's handler, against one row) ratios ${slowFloors.map((ratio) => round(ratio, 2)).join(', ')}`);
    const prefix = `console.click.${screen.name}`;
    const overheads = runs.map((run) => run.painted - run.raw);
    emit({ name: `${prefix}.first_row_painted_ms`, value: round(median(runs.map((run) => run.painted)), 1), unit: 'ms' });
    emit({ name: `${prefix}.raw_painted_ms`, value: round(median(runs.map((run) => run.raw)), 1), unit: 'ms' });
    // pairs from the same document: the median of the differences, less noisy than a difference of medians
    emit({ name: `${prefix}.overhead_ms`, value: round(median(overheads), 1), unit: 'ms', goal: 33 });
    if (floors.length) emit({ name: `${prefix}.floor_overhead_ms`, value: round(median(floors.map((floor) => floor.overhead)), 1), unit: 'ms' });
    const suffix = `latency_${NETWORK_LATENCY_MS}ms`;
    emit({ name: `${prefix}.first_row_painted_ms.${suffix}`, value: round(median(slow.map((run) => run.painted)), 1), unit: 'ms' });
    emit({ name: `${prefix}.raw_painted_ms.${suffix}`, value: round(median(slow.map((run) => run.raw)), 1), unit: 'ms' });
    emit({ name: `${prefix}.ratio.${suffix}`, value: round(median(slow.map((run) => run.painted / run.raw)), 2), unit: 'ratio', goal: 1.4 });
    if (slowFloors.length >= RUNS / 2) emit({ name: `${prefix}.floor_ratio.${suffix}`, value: round(median(slowFloors), 2), unit: 'ratio' });
    if (cached.length) emit({ name: `${prefix}.cached_frames`, value: round(median(cached) / FRAME_MS, 2), unit: 'frames', goal: 1.5 });
    if (floors.length) emit({ name: `${prefix}.floor_cached_frames`, value: round(median(floors.map((floor) => floor.atOnce)) / FRAME_MS, 2), unit: 'frames' });

    if (screen.name === 'members') {
      // the figures of the first members bench (click to the row in the document, fetch alone), kept for comparison
      const firstRow = median(runs.map((run) => run.inserted));
      const rawFetch = median(runs.map((run) => run.rawFetch));
      emit({ name: 'console.members_first_row_ms', value: round(firstRow, 1), unit: 'ms' });
      emit({ name: 'console.members_raw_fetch_ms', value: round(rawFetch, 1), unit: 'ms' });
      emit({ name: 'console.members_first_row_ratio', value: round(firstRow / rawFetch, 2), unit: 'ratio' });
      emit({ name: 'console.members_first_row_from_cache_ms', value: round(median(cached), 1), unit: 'ms' });
      emit({ name: 'console.members_first_row_ratio_floor', value: round(median(cached) / rawFetch, 2), unit: 'ratio' });
      const slowFirstRow = median(slow.map((run) => run.inserted));
      const slowFetch = median(slow.map((run) => run.rawFetch));
      emit({ name: `console.members_first_row_ms.${suffix}`, value: round(slowFirstRow, 1), unit: 'ms' });
      emit({ name: `console.members_raw_fetch_ms.${suffix}`, value: round(slowFetch, 1), unit: 'ms' });
      emit({ name: `console.members_first_row_ratio.${suffix}`, value: round(slowFirstRow / slowFetch, 2), unit: 'ratio' });
    }
  } finally {
    await context.close();
  }
}

/** Every screen's figures, or only those of the screens named in `only` (one screen at a time while working on it). */
export async function clickFigures(only?: readonly string[]): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const admin = { 'PRIVATE-TOKEN': server.adminToken, 'Content-Type': 'application/json' };
    const groupAnswer = await fetch(`${server.baseURL}/api/v4/groups/${encodeURIComponent(DEMO_PATHS.bigGroup)}`, { headers: admin });
    if (!groupAnswer.ok) throw new Error(`GET /groups/${DEMO_PATHS.bigGroup} answered ${groupAnswer.status}`);
    const group = (await groupAnswer.json()) as { id: number; full_name: string };
    // the demo's group with a group access token of its own
    const tokensGroupAnswer = await fetch(`${server.baseURL}/api/v4/groups/${encodeURIComponent(TOKENS_GROUP)}`, { headers: admin });
    if (!tokensGroupAnswer.ok) throw new Error(`GET /groups/${TOKENS_GROUP} answered ${tokensGroupAnswer.status}`);
    const tokensGroup = (await tokensGroupAnswer.json()) as { id: number };
    // the demo's tracker: 3,000 issues
    const trackerAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_PATHS.issueTracker)}`, { headers: admin });
    if (!trackerAnswer.ok) throw new Error(`GET /projects/${DEMO_PATHS.issueTracker} answered ${trackerAnswer.status}`);
    const tracker = (await trackerAnswer.json()) as { id: number };
    // the demo's API gateway: 5,000 pipelines
    const gatewayAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_PIPELINES.project)}`, { headers: admin });
    if (!gatewayAnswer.ok) throw new Error(`GET /projects/${DEMO_PIPELINES.project} answered ${gatewayAnswer.status}`);
    const gateway = (await gatewayAnswer.json()) as { id: number };
    // the demo's project with 5,000 packages (the gateway's nightly builds)
    const packagesAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_PACKAGES.benchProject)}`, { headers: admin });
    if (!packagesAnswer.ok) throw new Error(`GET /projects/${DEMO_PACKAGES.benchProject} answered ${packagesAnswer.status}`);
    const packagesProject = (await packagesAnswer.json()) as { id: number };
    // the demo's image of 10,000 tags
    const registryAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}`, { headers: admin });
    if (!registryAnswer.ok) throw new Error(`GET /projects/${DEMO_REGISTRY.bigProject} answered ${registryAnswer.status}`);
    const registryProject = (await registryAnswer.json()) as { id: number; path_with_namespace: string };
    // the demo's payments service: 10,000 alerts
    const alertsAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_ALERTS.benchProject)}`, { headers: admin });
    if (!alertsAnswer.ok) throw new Error(`GET /projects/${DEMO_ALERTS.benchProject} answered ${alertsAnswer.status}`);
    const alertsProject = (await alertsAnswer.json()) as { id: number };
    const faultsUrl = `${server.baseURL}/-/sandbox/faults`;
    const faults = async (latency: number | null) => {
      const answer = latency === null
        ? await fetch(faultsUrl, { method: 'DELETE', headers: admin })
        : await fetch(faultsUrl, { method: 'POST', headers: admin, body: JSON.stringify({ path: '/api/v4/*', latency_ms: latency }) });
      if (!answer.ok) throw new Error(`${latency === null ? 'DELETE' : 'POST'} /-/sandbox/faults answered ${answer.status}`);
      // the lists read through GraphQL wait as long
      if (latency !== null) {
        const graphql = await fetch(faultsUrl, { method: 'POST', headers: admin, body: JSON.stringify({ path: '/api/graphql', latency_ms: latency }) });
        if (!graphql.ok) throw new Error(`POST /-/sandbox/faults (graphql) answered ${graphql.status}`);
      }
    };
    const home = (page: Page) => areas(page).getByRole('link', { name: 'Home', exact: true });
    const screens: ClickScreen[] = [
      {
        // diego.ramirez is a direct member of the big group, so it is listed on his home screen
        name: 'members', token: DEMO_TOKENS.developer.secret, start: '/',
        link: (page) => page.getByRole('region', { name: 'Your groups' }).getByRole('link', { name: group.full_name, exact: true }),
        away: home, target: { caption: 'members$' }, request: /^\/api\/v4\/groups\/\d+\/members$/,
      },
      {
        name: 'runners', token: server.adminToken, start: '/',
        link: (page) => areas(page).getByRole('link', { name: 'Runners', exact: true }),
        away: home, target: { caption: '^Runners$' }, request: /^\/api\/v4\/runners\/all$/,
      },
      {
        name: 'access_tokens', token: server.adminToken, start: `/groups/${tokensGroup.id}/members`,
        link: (page) => areas(page).getByRole('link', { name: 'Access tokens', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Access tokens$' }, request: /^\/api\/v4\/groups\/\d+\/access_tokens$/,
      },
      {
        name: 'issues', token: server.adminToken, start: `/projects/${tracker.id}/members`,
        link: (page) => new Shell(page).section('Plan').getByRole('link', { name: 'Issues', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Open issues$' }, request: /^\/api\/v4\/projects\/\d+\/issues$/,
      },
      {
        // the tracker holds the demo's merge requests too
        name: 'merge_requests', token: server.adminToken, start: `/projects/${tracker.id}/members`,
        link: (page) => new Shell(page).section('Code').getByRole('link', { name: 'Merge requests', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Open merge requests$' }, request: /^\/api\/v4\/projects\/\d+\/merge_requests$/,
      },
      {
        // the list's rows come first; each row's user and durations follow from the single pipeline
        name: 'pipelines', token: server.adminToken, start: `/projects/${gateway.id}/members`, ownPart: true,
        link: (page) => new Shell(page).section('Build').getByRole('link', { name: 'Pipelines', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Pipelines$' }, request: /^\/api\/v4\/projects\/\d+\/pipelines$/,
      },
      {
        // the first page of 5,000 packages, newest first
        name: 'packages', token: server.adminToken, start: `/projects/${packagesProject.id}/members`, ownPart: true,
        link: (page) => new Shell(page).section('Deploy').getByRole('link', { name: 'Package registry', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Packages$' }, request: /^\/api\/v4\/projects\/\d+\/packages$/,
      },
      {
        // an image's first page of tags (over GraphQL, as the platform's own pages read them); raw: the same page by REST
        name: 'registry_tags', token: server.adminToken, start: `/projects/${registryProject.id}/registry`, ownPart: true,
        link: (page) => page.getByRole('main').getByRole('link', { name: `${registryProject.path_with_namespace} (root image)`, exact: true }),
        away: (page) => new Shell(page).section('Deploy').getByRole('link', { name: 'Container registry', exact: true }),
        // a page of 100 rows is virtualized: its first rows may be replaced once the virtualizer's code is in, so the frame that shows the first row counts
        target: { caption: '^Tags$', byFrame: true },
        request: /^\/api\/graphql$/,
        rawUrl: `${server.baseURL}/api/v4/projects/${registryProject.id}/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}/tags?pagination=keyset&per_page=100`,
        cached: false,
      },
      {
        // a page of the open ones among 10,000 alerts and the status counts, in one GraphQL request
        name: 'alerts', token: server.adminToken, start: `/projects/${alertsProject.id}/members`, ownPart: true,
        link: (page) => new Shell(page).section('Monitor').getByRole('link', { name: 'Alerts', exact: true }),
        away: (page) => areas(page).getByRole('link', { name: 'Members', exact: true }), target: { caption: '^Alerts$' }, request: /^\/api\/graphql$/,
        graphql: { body: /query alerts\(/, firstItem: 'project.alertManagementAlerts.nodes' },
      },
    ];
    for (const screen of screens) if (only ? only.includes(screen.name) : !screen.ownPart) await screenFigures(browser, server.baseURL, faults, screen);
  } finally {
    await browser.close();
    await server.stop();
  }
}
