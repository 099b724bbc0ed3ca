import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { connectedPage } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';
import { watchRequests } from './watch-requests.ts';

/**
 * The blame of the demo's 50,000-line file (lumen/core/lumen, src/text/glyph_table.rs) in a real
 * browser: a full load of the blame page to its first line painted; a full load of the `#L40000`
 * deep link to line 40,000 painted, and the blame requests that link costs; the most elements the
 * document holds while the list is scrolled through.
 */

const RUNS = 5;
const STEP_TIMEOUT_MS = 30_000;
const PROJECT = 'lumen/core/lumen';
const FILE = 'src/text/glyph_table.rs';
const DEEP_LINE = 40_000;
const SCROLL_STEPS = 40;

interface BlameClock {
  /** The accessible name of the line link awaited on this load: "Line 1", or the hash's line. */
  target: string;
  insertedAt: number;
  paintedAt: number;
}

/**
 * Installed before any script of every document: when the awaited line's link enters the DOM, and
 * the next animation frame after it (the frame that paints it). performance.now() counts from the
 * navigation's start. The list is drawn only once its first lines are in, so the link means a painted line.
 */
function installBlameClock(): void {
  const line = /^#L(\d+)/.exec(location.hash)?.[1] ?? '1';
  const clock: BlameClock = { target: `Line ${line}`, insertedAt: -1, paintedAt: -1 };
  (window as unknown as { blameClock: BlameClock }).blameClock = clock;
  const selector = `a[aria-label="${clock.target}"]`;
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element) || !(node.matches(selector) || node.querySelector(selector))) continue;
        clock.insertedAt = performance.now();
        observer.disconnect();
        requestAnimationFrame(() => (clock.paintedAt = performance.now()));
        return;
      }
    }
  });
  observer.observe(document, { childList: true, subtree: true });
}

async function paintedAt(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as unknown as { blameClock?: BlameClock }).blameClock!.paintedAt >= 0, undefined, { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(() => (window as unknown as { blameClock: BlameClock }).blameClock.paintedAt);
}

/** Blame requests of the page from now on, and the most in flight at once. */
const watchBlameRequests = (page: Page) => watchRequests(page, (request) => /\/repository\/files\/[^/]+\/blame\?/.test(request.url()));

const domNodes = (page: Page) => page.evaluate(() => document.querySelectorAll('*').length);

/** Scrolls the blame list down in wheel steps, then jumps about with the wheel; the most elements seen. */
async function maxNodesWhileScrolling(page: Page): Promise<number> {
  const table = page.getByRole('table', { name: `Blame of ${FILE}`, exact: true });
  await table.hover();
  let most = await domNodes(page);
  for (let step = 0; step < SCROLL_STEPS; step++) {
    // small steps read the file; every fifth a long throw across several ranges
    await page.mouse.wheel(0, step % 5 === 4 ? 200_000 : 2_000);
    await page.waitForTimeout(50);
    most = Math.max(most, await domNodes(page));
  }
  await page.waitForLoadState('networkidle');
  return Math.max(most, await domNodes(page));
}

export async function blameFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken };
    const projectAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(PROJECT)}`, { headers });
    if (!projectAnswer.ok) throw new Error(`GET /projects/${PROJECT} answered ${projectAnswer.status}`);
    const project = (await projectAnswer.json()) as { id: number };
    // the lumen repository is built on first use, and its blame computed once per commit: not timed
    const warmStarted = performance.now();
    const warm = await fetch(`${server.baseURL}/api/v4/projects/${project.id}/repository/files/${encodeURIComponent(FILE)}/blame?ref=main&range[start]=1&range[end]=1`, { headers });
    if (!warm.ok) throw new Error(`warming the blame answered ${warm.status}`);
    log(`blame: lumen repository built and blamed once in ${round(performance.now() - warmStarted, 0)} ms (not counted)`);

    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS, { clock: installBlameClock, viewport: { width: 1400, height: 900 } });

    const blamePath = `/projects/${project.id}/blame/${FILE}?ref=main`;
    // each run a full load: nothing of the previous run is in the page's caches
    const load = async (hash = '') => {
      // from another screen, so that a deep link on the same path is a full load too
      await page.goto('/');
      await new Shell(page).areas.waitFor();
      const requests = watchBlameRequests(page);
      await page.goto(`${blamePath}${hash}`);
      const painted = await paintedAt(page);
      await page.waitForLoadState('networkidle');
      requests.stop();
      return { painted, requests: requests.seen };
    };

    // one load first, not counted: the browser fetches the route's chunks once
    await load();
    const firstLines: number[] = [];
    for (let run = 0; run < RUNS; run++) firstLines.push((await load()).painted);
    const nodes = await maxNodesWhileScrolling(page);

    const deepLinks: Array<Awaited<ReturnType<typeof load>>> = [];
    for (let run = 0; run < RUNS; run++) deepLinks.push(await load(`#L${DEEP_LINE}`));
    const deepNodes = await maxNodesWhileScrolling(page);
    const deepRequests = Math.max(...deepLinks.map((run) => run.requests.count));
    const maxInFlight = Math.max(...deepLinks.map((run) => run.requests.maxInFlight));

    const list = (values: number[]) => values.map((ms) => round(ms, 1)).join(', ');
    log(`blame of ${FILE}: full load to line 1 painted ${list(firstLines)} ms`);
    log(`blame deep link #L${DEEP_LINE}: to the line painted ${list(deepLinks.map((run) => run.painted))} ms; blame requests ${deepLinks.map((run) => run.requests.count).join(', ')}, at most ${maxInFlight} in flight`);
    log(`blame: most elements in the document while scrolling ${nodes} (from the top), ${deepNodes} (from line ${DEEP_LINE})`);
    emit({ name: 'console.blame_first_line_ms', value: round(median(firstLines), 1), unit: 'ms' });
    emit({ name: 'console.blame_line_40000_ms', value: round(median(deepLinks.map((run) => run.painted)), 1), unit: 'ms' });
    emit({ name: 'console.blame_dom_nodes', value: Math.max(nodes, deepNodes), unit: 'count' });
    emit({ name: 'console.blame_requests', value: deepRequests, unit: 'count' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
