import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { mapWithConcurrency } from '../src/lib/concurrency.ts';
import { connectedPage } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';
import { watchRequests } from './watch-requests.ts';

/**
 * The merge request board of a project with 500 open requests (made through the API in a project
 * of the bench's own: a branch with a commit and a request from it, every fifth a draft), in a
 * real browser: from a full load to the first paint of the board (its columns with the first
 * page's cards), to every page of requests loaded, the approvals asked for meanwhile (cards
 * in view only) and the most elements the document holds.
 */

const REQUESTS = 500;
const SETUP_IN_FLIGHT = 4;
const RUNS = 5;
const STEP_TIMEOUT_MS = 60_000;

interface BoardClock {
  paintedAt: number;
  loadedAt: number;
}

/**
 * Installed before any script of every document: the frame after the board first painted its
 * columns with cards (the first page: the others are still coming), and the frame after its status
 * says every page is in.
 */
function installMergeRequestBoardClock(): void {
  const clock: BoardClock = { paintedAt: -1, loadedAt: -1 };
  (window as unknown as { mrBoardClock: BoardClock }).mrBoardClock = clock;
  const observer = new MutationObserver(() => {
    const board = document.querySelector('.mr-board');
    if (!board) return;
    if (clock.paintedAt < 0) {
      // the board is there with the first page's cards: every column shows a card, says it has none, or that more are coming
      const columns = [...board.querySelectorAll('.board-column')];
      const painted = columns.length > 0 && board.querySelector('.board-card') && columns.every((column) => column.querySelector('.board-card') || /No merge requests|Loading/.test(column.textContent ?? ''));
      if (painted) {
        clock.paintedAt = 0;
        requestAnimationFrame(() => (clock.paintedAt = performance.now()));
      }
    }
    const status = board.querySelector('[role="status"]')?.textContent ?? '';
    if (clock.loadedAt < 0 && /^[\d,]+ open merge requests?$/.test(status)) {
      clock.loadedAt = 0;
      requestAnimationFrame(() => (clock.loadedAt = performance.now()));
    }
    if (clock.paintedAt > 0 && clock.loadedAt > 0) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function boardClock(page: Page): Promise<BoardClock> {
  await page.waitForFunction(() => {
    const clock = (window as unknown as { mrBoardClock?: BoardClock }).mrBoardClock;
    return Boolean(clock && clock.paintedAt > 0 && clock.loadedAt > 0);
  }, undefined, { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(() => (window as unknown as { mrBoardClock: BoardClock }).mrBoardClock);
}

/** A project of the bench's own with `count` open requests, each from its own branch with one commit. */
async function projectWithRequests(baseURL: string, token: string, count: number): Promise<number> {
  const call = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const answer = await fetch(`${baseURL}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
    return (await answer.json()) as T;
  };
  const tag = Date.now().toString(36);
  const project = await call<{ id: number }>('POST', '/projects', { name: `Review board ${tag}`, path: `review-board-${tag}`, initialize_with_readme: true });
  const started = performance.now();
  const made = await mapWithConcurrency([...Array(count).keys()], SETUP_IN_FLIGHT, async (index) => {
    const branch = `review/${index}`;
    await call('POST', `/projects/${project.id}/repository/commits`, {
      branch, start_branch: 'main', commit_message: `Change ${index}`, actions: [{ action: 'create', file_path: `changes/${index}.txt`, content: `${index}\n` }],
    });
    const title = `${index % 5 === 0 ? 'Draft: ' : ''}Change number ${index} to the review board bench`;
    await call('POST', `/projects/${project.id}/merge_requests`, { source_branch: branch, target_branch: 'main', title, reviewer_ids: [1] });
  });
  const failed = made.filter((result) => !result.ok);
  if (failed.length) throw new Error(`${failed.length} requests could not be made: ${String((failed[0] as { error: unknown }).error)}`);
  log(`merge request board: ${count} requests made in ${round((performance.now() - started) / 1000, 1)} s`);
  return project.id;
}

export async function mergeRequestBoardFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const projectId = await projectWithRequests(server.baseURL, server.adminToken, REQUESTS);
    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS, { clock: installMergeRequestBoardClock, viewport: { width: 1400, height: 900 } });
    const boardPath = `/projects/${projectId}/merge-request-board`;
    const load = async () => {
      await page.goto('/');
      await new Shell(page).areas.waitFor();
      const approvals = watchRequests(page, (request) => /\/merge_requests\/\d+\/approvals$/.test(new URL(request.url()).pathname));
      await page.goto(boardPath);
      const clock = await boardClock(page);
      await page.waitForLoadState('networkidle');
      approvals.stop();
      const nodes = await page.evaluate(() => document.querySelectorAll('*').length);
      return { ...clock, approvals: approvals.seen.count, approvalsInFlight: approvals.seen.maxInFlight, nodes };
    };
    // one load first, not counted: the browser fetches the route's chunks once
    await load();
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await load());
    const shown = await page.getByRole('status').filter({ hasText: /open merge requests?$/ }).textContent();
    log(`merge request board: ${shown}; first paint ${runs.map((run) => round(run.paintedAt, 1)).join(', ')} ms; every page ${runs.map((run) => round(run.loadedAt, 1)).join(', ')} ms; approvals asked ${runs.map((run) => run.approvals).join(', ')} (at most ${Math.max(...runs.map((run) => run.approvalsInFlight))} at once); elements ${runs.map((run) => run.nodes).join(', ')}`);
    emit({ name: 'console.merge_request_board_first_paint_ms', value: round(median(runs.map((run) => run.paintedAt)), 1), unit: 'ms' });
    emit({ name: 'console.merge_request_board_all_loaded_ms', value: round(median(runs.map((run) => run.loadedAt)), 1), unit: 'ms' });
    emit({ name: 'console.merge_request_board_approval_requests', value: Math.max(...runs.map((run) => run.approvals)), unit: 'count' });
    emit({ name: 'console.merge_request_board_approvals_in_flight', value: Math.max(...runs.map((run) => run.approvalsInFlight)), unit: 'count' });
    emit({ name: 'console.merge_request_board_dom_nodes', value: Math.max(...runs.map((run) => run.nodes)), unit: 'count' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
