import { chromium, type Page } from '@playwright/test';
import { LUMEN_LONG_BRANCH, LUMEN_LONG_COMMITS } from '../sandbox/seed/repositories.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { CommitHistoryPage, CommitPage } from '../e2e/pages/commits.ts';
import { connectedPage, settledAfterClick } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';

/**
 * The commit history of Lumen's 5,000-commit branch in a real browser: from a click on the
 * branch's link (on its head commit's page) to the first page of the history on screen.
 */

const LUMEN = 'lumen/core/lumen';
const RUNS = 5;
const PER_PAGE = 20;
const STEP_TIMEOUT_MS = 30_000;

/** The branch's head commit page (fresh document, empty cache), then a click on the branch in "Branches". */
async function timeHistoryNavigation(page: Page, projectId: number, headSha: string, headTitle: string): Promise<number> {
  const commit = new CommitPage(page);
  const history = new CommitHistoryPage(page);
  await commit.goto(projectId, headSha);
  const link = commit.ref('Branches', LUMEN_LONG_BRANCH);
  await link.waitFor({ timeout: STEP_TIMEOUT_MS });
  // the commit page's own requests (diff, refs) are over before the clock starts
  await page.waitForLoadState('networkidle');
  // a click event without a hover first: the router gets no head start from preloading on intent
  await link.dispatchEvent('click');
  const rows = history.commitLinks();
  await history.commitLink(headTitle).waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.waitForFunction((count) => document.querySelectorAll('main section[aria-label^="Commits on "] li a').length >= count, PER_PAGE, { timeout: STEP_TIMEOUT_MS });
  const shown = await rows.count();
  if (shown !== PER_PAGE) throw new Error(`the first page showed ${shown} commits, expected ${PER_PAGE}`);
  return settledAfterClick(rows);
}

export async function historyFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken, Accept: 'application/json' };
    const apiUrl = `${server.baseURL}/api/v4/projects/${encodeURIComponent(LUMEN)}`;
    const project = (await (await fetch(apiUrl, { headers })).json()) as { id: number };
    // the first repository read builds Lumen (seconds): not part of any figure
    const headAnswer = await fetch(`${apiUrl}/repository/commits/${encodeURIComponent(LUMEN_LONG_BRANCH)}`, { headers });
    if (!headAnswer.ok) throw new Error(`GET the head of ${LUMEN_LONG_BRANCH} answered ${headAnswer.status}`);
    const head = (await headAnswer.json()) as { id: string; title: string };
    const sequence = (await (await fetch(`${apiUrl}/repository/commits/${head.id}/sequence`, { headers })).json()) as { count: number };
    if (sequence.count < LUMEN_LONG_COMMITS) throw new Error(`${LUMEN_LONG_BRANCH} has ${sequence.count} commits, expected at least ${LUMEN_LONG_COMMITS}`);

    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS);

    // one run first, not counted: the browser fetches the route's chunks once
    const warmup = await timeHistoryNavigation(page, project.id, head.id, head.title);
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run++) runs.push(await timeHistoryNavigation(page, project.id, head.id, head.title));
    log(`history of ${LUMEN} ${LUMEN_LONG_BRANCH} (${sequence.count} commits), click to first page of ${PER_PAGE}: ${runs.map((ms) => round(ms, 1)).join(', ')} ms (first, uncounted: ${round(warmup, 1)} ms)`);
    emit({ name: 'console.history_first_page_ms', value: round(median(runs), 1), unit: 'ms' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
