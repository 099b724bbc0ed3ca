import { expiryFigures } from './expiry.ts';
import { commitHookFigures, fleetFigures } from './fleet.ts';
import { blameFigures } from './blame.ts';
import { historyFigures } from './history.ts';
import { chromium, type Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { bundleFigures } from './bundle.ts';
import { connectedPage, settledAfterClick, settledAt } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';

/**
 * Console figures: bundle sizes, then the members list in a real browser. The list is timed as a
 * user meets it: a click on the group in the home screen (an in-app navigation, no hover preload)
 * until the first data row of the members table is in the document, against a plain fetch of the
 * same endpoint from the same page. Each run starts from a fresh document, so nothing is cached.
 */

// nine runs a variant: single navigations here vary by several ms, the median of five moved by two or three
const RUNS = 9;
const STEP_TIMEOUT_MS = 20_000;
// diego.ramirez is a direct member of the big group, so it is listed on his home screen
const USER = DEMO_TOKENS.developer;

/** The members table (its caption names it, e.g. "Direct members"), and its first row with data cells. */
function firstMemberRow(page: Page) {
  const table = page.getByRole('table', { name: /members$/i });
  return table.getByRole('row').filter({ has: page.getByRole('cell') }).first();
}

/**
 * Home, then a click on the group. With `visitedFirst` (a members list) that list is shown first
 * and home is reached in-app: the route's code is loaded and running, and when it is this group's
 * own list, its first page is in the cache too, so only the router and the rendering are timed.
 */
async function timeNavigation(page: Page, groupName: string, visitedFirst?: string): Promise<number> {
  if (visitedFirst) {
    await page.goto(visitedFirst);
    await firstMemberRow(page).waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.waitForLoadState('networkidle');
    await new Shell(page).areas.getByRole('link', { name: 'Home', exact: true }).click();
  } else {
    await page.goto('/');
  }
  const link = page.getByRole('region', { name: 'Your groups' }).getByRole('link', { name: groupName, exact: true });
  await link.waitFor({ timeout: STEP_TIMEOUT_MS });
  // the home screen's own requests are over before the clock starts
  await page.waitForLoadState('networkidle');
  // a click event without a hover first: the router gets no head start from preloading on intent
  await link.dispatchEvent('click');
  const row = firstMemberRow(page);
  await row.waitFor({ timeout: STEP_TIMEOUT_MS });
  return settledAfterClick(row);
}

/** Whether the page requested the first page of `listPath` since the last click (Resource Timing). */
async function requestedFirstPageSinceClick(page: Page, listPath: string): Promise<boolean> {
  return page.evaluate((listPath) => {
    const clickAt = (window as unknown as { benchClock: { clickAt: number } }).benchClock.clickAt;
    return performance.getEntriesByType('resource').some((entry) => {
      const url = new URL(entry.name);
      return entry.startTime >= clickAt && url.pathname === listPath && (url.searchParams.get('page') ?? '1') === '1';
    });
  }, listPath);
}

async function timeRawFetch(page: Page, url: string, token: string): Promise<number> {
  return page.evaluate(
    async ({ url, token }) => {
      const started = performance.now();
      const response = await fetch(url, { headers: { 'PRIVATE-TOKEN': token } });
      // the console needs the body too, so it is part of the time
      await response.json();
      if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
      return performance.now() - started;
    },
    { url, token },
  );
}

/** A full load of the list's address: from the navigation's start to the first row. */
async function timeDeepLink(page: Page, path: string): Promise<number> {
  await page.goto(path);
  const row = firstMemberRow(page);
  await row.waitFor({ timeout: STEP_TIMEOUT_MS });
  return (await settledAt(row)).times[0];
}

/** A network distance to a real instance, for the second set of timings. */
const NETWORK_LATENCY_MS = 50;

async function membersListFigures(): Promise<void> {
  const server = await startConsoleServer();
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const groupAnswer = await fetch(`${server.baseURL}/api/v4/groups/${encodeURIComponent(DEMO_PATHS.bigGroup)}`, { headers: { 'PRIVATE-TOKEN': server.adminToken } });
    if (!groupAnswer.ok) throw new Error(`GET /groups/${DEMO_PATHS.bigGroup} answered ${groupAnswer.status}`);
    const group = (await groupAnswer.json()) as { id: number; full_name: string };
    const membersPath = `/groups/${group.id}/members`;

    const { context, page } = await connectedPage(browser, server.baseURL, USER.secret, STEP_TIMEOUT_MS);

    // one run first, not counted: the browser fetches the route's chunks once
    const warmup = await timeNavigation(page, group.full_name);
    const navigations: number[] = [];
    for (let run = 0; run < RUNS; run++) navigations.push(await timeNavigation(page, group.full_name));
    const otherGroup = (await (await fetch(`${server.baseURL}/api/v4/groups/${encodeURIComponent(DEMO_PATHS.sharedGroupHost)}`, { headers: { 'PRIVATE-TOKEN': server.adminToken } })).json()) as { id: number };
    const codeLoaded: number[] = [];
    for (let run = 0; run < RUNS; run++) codeLoaded.push(await timeNavigation(page, group.full_name, `/groups/${otherGroup.id}/members`));
    // the floor: this group's list was just shown, so its page is in the cache and no request goes
    // out; what is left is the router and React rendering the screen, which no network can remove
    const fromCache: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      fromCache.push(await timeNavigation(page, group.full_name, membersPath));
      if (await requestedFirstPageSinceClick(page, `/api/v4${membersPath}`)) throw new Error('the cached list was requested again: the figure would not be the floor');
    }
    const fetchUrl = `${server.baseURL}/api/v4/groups/${group.id}/members?per_page=20`;
    await timeRawFetch(page, fetchUrl, USER.secret);
    const fetches: number[] = [];
    for (let run = 0; run < RUNS; run++) fetches.push(await timeRawFetch(page, fetchUrl, USER.secret));
    const deepLinks: number[] = [];
    for (let run = 0; run < RUNS; run++) deepLinks.push(await timeDeepLink(page, membersPath));

    const firstRow = median(navigations);
    const rawFetch = median(fetches);
    log(`members list of ${DEMO_PATHS.bigGroup} as ${USER.username}: click to first row ${navigations.map((ms) => round(ms, 1)).join(', ')} ms (first, uncounted: ${round(warmup, 1)} ms)`);
    log(`the same with the route's code already loaded: ${codeLoaded.map((ms) => round(ms, 1)).join(', ')} ms (median ${round(median(codeLoaded), 1)})`);
    log(`the same with the list already in the cache (no request): ${fromCache.map((ms) => round(ms, 1)).join(', ')} ms (median ${round(median(fromCache), 1)})`);
    log(`raw fetch of ${fetchUrl.replace(server.baseURL, '')}: ${fetches.map((ms) => round(ms, 1)).join(', ')} ms`);
    log(`full load of ${membersPath} to first row, median: ${round(median(deepLinks), 1)} ms`);
    emit({ name: 'console.members_first_row_ms', value: round(firstRow, 1), unit: 'ms' });
    emit({ name: 'console.members_raw_fetch_ms', value: round(rawFetch, 1), unit: 'ms' });
    emit({ name: 'console.members_first_row_ratio', value: round(firstRow / rawFetch, 2), unit: 'ratio' });
    // the lowest ratio any request could give: rendering alone, against the raw fetch
    emit({ name: 'console.members_first_row_from_cache_ms', value: round(median(fromCache), 1), unit: 'ms' });
    emit({ name: 'console.members_first_row_ratio_floor', value: round(median(fromCache) / rawFetch, 2), unit: 'ratio' });

    // the same with the distance to a real instance: the sandbox's latency fault delays every API
    // answer by 50 ms (the console's own files are not delayed: a browser caches them)
    const faults = `${server.baseURL}/-/sandbox/faults`;
    const admin = { 'PRIVATE-TOKEN': server.adminToken, 'Content-Type': 'application/json' };
    const rule = await fetch(faults, { method: 'POST', headers: admin, body: JSON.stringify({ path: '/api/v4/*', latency_ms: NETWORK_LATENCY_MS }) });
    if (!rule.ok) throw new Error(`POST /-/sandbox/faults answered ${rule.status}`);
    try {
      const slowNavigations: number[] = [];
      for (let run = 0; run < RUNS; run++) slowNavigations.push(await timeNavigation(page, group.full_name));
      const slowFetches: number[] = [];
      for (let run = 0; run < RUNS; run++) slowFetches.push(await timeRawFetch(page, fetchUrl, USER.secret));
      log(`with ${NETWORK_LATENCY_MS} ms added to every API answer: click to first row ${slowNavigations.map((ms) => round(ms, 1)).join(', ')} ms, raw fetch ${slowFetches.map((ms) => round(ms, 1)).join(', ')} ms`);
      const suffix = `latency_${NETWORK_LATENCY_MS}ms`;
      emit({ name: `console.members_first_row_ms.${suffix}`, value: round(median(slowNavigations), 1), unit: 'ms' });
      emit({ name: `console.members_raw_fetch_ms.${suffix}`, value: round(median(slowFetches), 1), unit: 'ms' });
      emit({ name: `console.members_first_row_ratio.${suffix}`, value: round(median(slowNavigations) / median(slowFetches), 2), unit: 'ratio' });
    } finally {
      await fetch(faults, { method: 'DELETE', headers: admin });
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Every console figure; false when a part failed (already logged), the others still measured. */
export async function consoleFigures(): Promise<boolean> {
  let ok = true;
  for (const [what, part] of [['bundle sizes', bundleFigures], ['members list timing', membersListFigures], ['expiry overview', expiryFigures], ['runner fleet', fleetFigures], ['commits with system hooks', commitHookFigures], ['commit history', historyFigures], ['blame', blameFigures]] as const) {
    try {
      await part();
    } catch (error) {
      ok = false;
      log(`${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return ok;
}
