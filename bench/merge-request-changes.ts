import { chromium, type Page } from '@playwright/test';
import { DEMO_MERGE_REQUESTS, DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { firstPaints } from './paint-clock.ts';
import { emit, log, median, round } from './report.ts';

/**
 * The Changes tab of the demo's 5,000-line merge request (100 files of 50 added lines) in a real
 * browser on loopback: a full load of the tab to the first file's first line painted, and the
 * most elements the document holds while its list is scrolled from the top to the end.
 */

const RUNS = 5;
const STEP_TIMEOUT_MS = 30_000;
const FIRST_FILE = 'src/tokens/token000.ts';
const WHEEL_STEP = 1_500;
const MAX_STEPS = 400;

// the first line row of the first file's table, timed by the first frame that shows it
const FIRST_LINE = { selector: `[role="table"][aria-label="Lines of ${FIRST_FILE}"] [role="row"]`, byFrame: true };

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

/** Wheels the list from the top to its end; the most elements seen, and the steps it took. */
async function maxNodesWhileScrolling(page: Page): Promise<{ most: number; steps: number }> {
  const list = page.getByRole('region', { name: 'Changes, file by file' });
  await list.hover();
  let most = await domNodes(page);
  let steps = 0;
  for (; steps < MAX_STEPS; steps++) {
    await page.mouse.wheel(0, WHEEL_STEP);
    // one frame for the virtualizer to draw the rows now in view
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    most = Math.max(most, await domNodes(page));
    const atEnd = await list.evaluate((element) => element.scrollTop + element.clientHeight >= element.scrollHeight - 1);
    if (atEnd) break;
  }
  // the last file's last line is there at the end
  await list.getByRole('group', { name: 'src/tokens/token099.ts', exact: true }).getByRole('row').filter({ hasText: '};' }).waitFor();
  return { most: Math.max(most, await domNodes(page)), steps };
}

export async function mergeRequestChangesFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken };
    const projectAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_PATHS.mergeRequests)}`, { headers });
    if (!projectAnswer.ok) throw new Error(`GET /projects/${DEMO_PATHS.mergeRequests} answered ${projectAnswer.status}`);
    const project = (await projectAnswer.json()) as { id: number };
    // the demo's repositories are built on first use: not timed
    const warmStarted = performance.now();
    const warm = await fetch(`${server.baseURL}/api/v4/projects/${project.id}/merge_requests/${DEMO_MERGE_REQUESTS.big}/diffs?per_page=100`, { headers });
    if (!warm.ok) throw new Error(`warming the diffs answered ${warm.status}`);
    const files = ((await warm.json()) as unknown[]).length;
    log(`merge request changes: ${files} files, repository built and diffed once in ${round(performance.now() - warmStarted, 0)} ms (not counted)`);

    const changesPath = `/projects/${project.id}/merge-requests/${DEMO_MERGE_REQUESTS.big}/changes`;
    // each run a full load of the tab: nothing of the previous run is in the page's caches
    const { runs, page, context } = await firstPaints(browser, server.baseURL, server.adminToken, changesPath, FIRST_LINE, { runs: RUNS, timeoutMs: STEP_TIMEOUT_MS });
    const { most, steps } = await maxNodesWhileScrolling(page);
    log(`changes of !${DEMO_MERGE_REQUESTS.big}: full load to ${FIRST_FILE}'s first line painted ${runs.map((ms) => round(ms, 1)).join(', ')} ms`);
    log(`changes of !${DEMO_MERGE_REQUESTS.big}: most elements in the document over ${steps} wheel steps of ${WHEEL_STEP} px to the end: ${most}`);
    emit({ name: 'console.merge_request_changes_first_file_ms', value: round(median(runs), 1), unit: 'ms' });
    emit({ name: 'console.merge_request_changes_dom_nodes', value: most, unit: 'count' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
