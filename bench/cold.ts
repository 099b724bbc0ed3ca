import { chromium, type Browser, type Page } from '@playwright/test';
import { DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { addPaintClock, clockSession, painted, readClock, type Target } from './paint-clock.ts';
import { demoId, demoObject, signedInStorage, withSession } from './session.ts';
import { emit, log, median, round } from './report.ts';
import { floorLoad, type FloorLoad } from './floor.ts';

/**
 * Cold deep links as a user on a slow link meets them: each load in a new browser context (its cache
 * empty), signed in (the tab's session storage is there before the first script, as after a
 * reload), with 4x CPU slowdown and 150 ms RTT, 1.6 Mbps down, 750 kbps up (CDP emulation). For
 * each screen: LCP, the first data row painted (Element Timing), total blocking time (long tasks
 * after FCP, minus 50 ms each, until the page has been quiet) and the bytes transferred (CDP
 * encodedDataLength: as compressed on the wire, headers included) until then: the screen's own, and
 * with the other screens' code that the console fetches ahead once the screen is idle.
 */

// five loads a figure: three swung the median by some 150 ms between runs on a two-core machine
const RUNS = 5;
const STEP_TIMEOUT_MS = 30_000;
// once the network is idle, long tasks and late requests (idle prefetch) still count for this long
const SETTLE_MS = 1_500;
const CPU_SLOWDOWN = 4;
const NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };

const LUMEN = 'lumen/core/lumen';
const BLAME_FILE = 'src/text/glyph_table.rs';
const BLAME_LINE = 40_000;

interface Screen {
  name: string;
  path: string;
  target: Target;
  goals: { lcp?: number; firstPaint: number; tbt: number; kb?: number };
  /** The list's request: given, the floor of this screen is measured too (floor.ts). */
  request?: RegExp;
  /** The screen's largest text, which React renders with the rows on the floor of the console's stack. */
  heading?: string;
}

interface ColdLoad {
  lcp: number;
  firstPaint: number;
  tbt: number;
  bytes: number;
  requests: number;
  /** What fetching ahead while idle added: scripts that neither the page listed nor the screen asked for before its first row. */
  prefetchBytes: number;
  /** The code (scripts and styles) asked for before the first row entered the document. */
  codeBytes: number;
  listUrl?: string;
}

/** One cold load of `screen`: a fresh context, throttled, until the page has been quiet for a while. */
async function coldLoad(browser: Browser, baseURL: string, storage: Record<string, string>, screen: Screen): Promise<ColdLoad> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 } });
  try {
    await withSession(context, storage);
    await addPaintClock(context, screen.target);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    let bytes = 0;
    let requests = 0;
    const urls = new Map<string, string>();
    let listUrl: string | undefined;
    const scriptBytes = new Map<string, number>();
    let firstRowPainted = false;
    const beforeFirstRow = new Set<string>();
    // the code's requests, by when they were sent (ms since the epoch) and their size on the wire
    const codeRequests = new Map<string, { sentAt: number; bytes: number }>();
    cdp.on('Network.requestWillBeSent', (event: { requestId: string; request: { url: string }; wallTime: number }) => {
      const url = new URL(event.request.url).pathname;
      urls.set(event.requestId, url);
      if (!listUrl && screen.request?.test(url)) listUrl = event.request.url;
      if (!firstRowPainted) beforeFirstRow.add(event.requestId);
      if (/\.(?:js|css)$/.test(url)) codeRequests.set(event.requestId, { sentAt: event.wallTime * 1000, bytes: 0 });
    });
    cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
      bytes += event.encodedDataLength;
      requests++;
      const url = urls.get(event.requestId);
      if (url?.endsWith('.js') && !beforeFirstRow.has(event.requestId)) scriptBytes.set(url, event.encodedDataLength);
      const code = codeRequests.get(event.requestId);
      if (code) code.bytes = event.encodedDataLength;
    });
    await clockSession(page);
    await page.goto(screen.path, { waitUntil: 'commit' });
    const first = await painted(page, STEP_TIMEOUT_MS);
    firstRowPainted = true;
    await page.waitForLoadState('networkidle');
    await settle(page);
    const clock = await readClock(page);
    // what the first row needed: code asked for after it was in the document (a dialog loaded ahead, an idle prefetch) is not
    const insertedAt = (await page.evaluate(() => performance.timeOrigin)) + first.insertedAt;
    const codeBytes = [...codeRequests.values()].filter((code) => code.sentAt < insertedAt).reduce((sum, code) => sum + code.bytes, 0);
    const fcp = clock.fcp >= 0 ? clock.fcp : first.at;
    const tbt = clock.longTasks.filter((task) => task.start >= fcp).reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0);
    // as served: at run time Vite adds a modulepreload link for every chunk it imports
    const html = await (await fetch(new URL(screen.path, baseURL))).text();
    const listed = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]));
    const prefetchBytes = [...scriptBytes].filter(([url]) => !listed.has(url)).reduce((sum, [, size]) => sum + size, 0);
    return { lcp: clock.lcp, firstPaint: first.at, tbt, bytes, requests, prefetchBytes, codeBytes, listUrl };
  } finally {
    await context.close();
  }
}

/** Waits SETTLE_MS more, then until the network is idle again (a late prefetch finishes). */
async function settle(page: Page): Promise<void> {
  await page.waitForTimeout(SETTLE_MS);
  await page.waitForLoadState('networkidle');
}

export async function coldFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken };
    const { id: group, full_name: groupName } = await demoObject<{ id: number; full_name: string }>(server, 'groups', DEMO_PATHS.bigGroup);
    const lumen = await demoId(server, 'projects', LUMEN);
    // the lumen repository is built on first use, and its blame computed once per commit: not timed
    const warm = await fetch(`${server.baseURL}/api/v4/projects/${lumen}/repository/files/${encodeURIComponent(BLAME_FILE)}/blame?ref=main&range[start]=1&range[end]=1`, { headers });
    if (!warm.ok) throw new Error(`warming the blame answered ${warm.status}`);

    const screens: Screen[] = [
      { name: 'members', path: `/groups/${group}/members`, target: { caption: 'members$' }, goals: { lcp: 1600, firstPaint: 1800, tbt: 200, kb: 250 }, request: /^\/api\/v4\/groups\/\d+\/members$/, heading: `Members of ${groupName}` },
      { name: 'files', path: `/projects/${lumen}/tree/`, target: { caption: '^Files' }, goals: { lcp: 1600, firstPaint: 1800, tbt: 200 } },
      { name: 'runners', path: '/admin/runners', target: { caption: '^Runners$' }, goals: { lcp: 1600, firstPaint: 1800, tbt: 200 } },
      { name: 'blame_line', path: `/projects/${lumen}/blame/${BLAME_FILE}?ref=main#L${BLAME_LINE}`, target: { selector: `a[aria-label="Line ${BLAME_LINE}"]`, byFrame: true }, goals: { firstPaint: 2200, tbt: 200 } },
    ];
    const storage = await signedInStorage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS);
    const list = (values: number[]) => values.map((value) => round(value, 0)).join(', ');
    // BENCH_COLD_SCREENS=members,files measures only those (while working on one screen)
    const wanted = process.env.BENCH_COLD_SCREENS?.split(',');
    for (const screen of screens.filter((candidate) => !wanted || wanted.includes(candidate.name))) {
      const loads: ColdLoad[] = [];
      for (let run = 0; run < RUNS; run++) loads.push(await coldLoad(browser, server.baseURL, storage, screen));
      log(`cold ${screen.path}: LCP ${list(loads.map((load) => load.lcp))} ms; first ${screen.target.caption ? 'row' : 'line'} painted ${list(loads.map((load) => load.firstPaint))} ms; TBT ${list(loads.map((load) => load.tbt))} ms; ${list(loads.map((load) => load.bytes / 1000))} KB in ${list(loads.map((load) => load.requests))} requests, of which idle prefetch ${list(loads.map((load) => load.prefetchBytes / 1000))} KB`);
      const prefix = `console.cold.${screen.name}`;
      emit({ name: `${prefix}.lcp_ms`, value: round(median(loads.map((load) => load.lcp)), 0), unit: 'ms', goal: screen.goals.lcp });
      emit({ name: `${prefix}.${screen.target.caption ? 'first_row' : 'painted'}_ms`, value: round(median(loads.map((load) => load.firstPaint)), 0), unit: 'ms', goal: screen.goals.firstPaint });
      emit({ name: `${prefix}.tbt_ms`, value: round(median(loads.map((load) => load.tbt)), 0), unit: 'ms', goal: screen.goals.tbt });
      // the screen's bytes: all but the other screens' code fetched ahead once it is idle, given beside it
      emit({ name: `${prefix}.transferred_kb`, value: round(median(loads.map((load) => load.bytes - load.prefetchBytes)) / 1000, 1), unit: 'KB', goal: screen.goals.kb });
      emit({ name: `${prefix}.transferred_kb.with_idle_prefetch`, value: round(median(loads.map((load) => load.bytes)) / 1000, 1), unit: 'KB' });
      const listUrl = loads[0].listUrl;
      if (screen.request && listUrl) {
        const codeBytes = median(loads.map((load) => load.codeBytes));
        const floorPages = [
          { requestAtOnce: false, name: `${prefix}.floor`, how: "code that does nothing, then the list's request, its rows written by hand" },
          { requestAtOnce: true, name: `${prefix}.floor_request_at_once`, how: "code that does nothing, the list's request sent at once beside it, its rows written by hand" },
          ...(screen.heading ? [{ requestAtOnce: true, react: { heading: screen.heading }, name: `${prefix}.floor_react`, how: 'React and ReactDOM padded to that size, the request sent at once beside them, the heading and rows rendered by React' }] : []),
        ];
        for (const { name, how, ...variant } of floorPages) {
          const floors: FloorLoad[] = [];
          for (let run = 0; run < RUNS; run++) floors.push(await floorLoad(browser, server.baseURL, server.adminToken, { codeBytes, listUrl, caption: screen.target.caption!, ...variant }, { network: NETWORK, cpuSlowdown: CPU_SLOWDOWN }));
          log(`cold floor of ${screen.name} (${round(codeBytes / 1000, 1)} KB: ${how}): LCP ${list(floors.map((load) => load.lcp))} ms; first row painted ${list(floors.map((load) => load.firstPaint))} ms`);
          emit({ name: `${name}.lcp_ms`, value: round(median(floors.map((load) => load.lcp)), 0), unit: 'ms' });
          emit({ name: `${name}.first_row_ms`, value: round(median(floors.map((load) => load.firstPaint)), 0), unit: 'ms' });
        }
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
}
