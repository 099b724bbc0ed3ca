import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { connectedPage } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';
import { watchRequests } from './watch-requests.ts';

/**
 * The issue board of the demo tracker (3,000 issues) in a real browser: a full load of the board
 * to every column painted (its first card, or its empty note), the most elements the document
 * holds while the biggest column (Closed) is scrolled through, and a card moved by keyboard to the
 * next list and within a list: the requests each drop sends and the time to settle.
 */

const RUNS = 5;
const STEP_TIMEOUT_MS = 30_000;
const SCROLL_STEPS = 30;

interface BoardClock {
  paintedAt: number;
}

/**
 * Installed before any script of every document: the animation frame after the change that made
 * every column of the board show a card or say it has none. performance.now() counts from the navigation's start.
 */
function installBoardClock(): void {
  const clock: BoardClock = { paintedAt: -1 };
  (window as unknown as { boardClock: BoardClock }).boardClock = clock;
  const observer = new MutationObserver(() => {
    const columns = [...document.querySelectorAll('.board-column')];
    const ready = columns.length > 0 && columns.every((column) => column.querySelector('.board-card') || /No issues/.test(column.textContent ?? ''));
    if (!ready) return;
    observer.disconnect();
    requestAnimationFrame(() => (clock.paintedAt = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function paintedAt(page: Page): Promise<number> {
  await page.waitForFunction(() => (window as unknown as { boardClock?: BoardClock }).boardClock!.paintedAt >= 0, undefined, { timeout: STEP_TIMEOUT_MS });
  return page.evaluate(() => (window as unknown as { boardClock: BoardClock }).boardClock.paintedAt);
}

const domNodes = (page: Page) => page.evaluate(() => document.querySelectorAll('*').length);

/** The issue writes of the page from now on: edits and reorders. */
const watchWrites = (page: Page) =>
  watchRequests(page, (request) => request.method() === 'PUT' && /\/api\/v4\/projects\/\d+\/issues\/\d+(\/reorder)?$/.test(new URL(request.url()).pathname));

/**
 * Picks up the first card of `column` by keyboard, presses `keys`, drops it; the ms from the drop
 * to the board at rest (the card's move answered and both columns refetched, no card busy).
 */
async function keyboardMove(page: Page, column: string, keys: string[]) {
  const list = page.getByRole('list', { name: `${column} issues`, exact: true });
  const handle = list.getByRole('button', { name: /^Move #/ }).first();
  await handle.focus();
  const name = await handle.getAttribute('aria-label');
  const ref = /^Move (\S+)/.exec(name ?? '')?.[1];
  await page.keyboard.press('Space');
  await page.getByRole('status').filter({ hasText: `${ref} is over ${ref} in` }).waitFor({ state: 'attached' });
  // the card's drag copy is drawn the frame after the pick-up: the arrows move from it
  await page.waitForTimeout(100);
  for (const key of keys) {
    await page.keyboard.press(key);
    await page.waitForTimeout(100);
  }
  const writes = watchWrites(page);
  const dropped = performance.now();
  await page.keyboard.press('Space');
  await page.getByRole('status').filter({ hasText: `${ref} moved` }).waitFor();
  await page.waitForFunction(() => !document.querySelector('.board-card[aria-busy="true"]'));
  await page.waitForLoadState('networkidle');
  const settled = performance.now() - dropped;
  writes.stop();
  const reorders = writes.seen.urls.filter((url) => url.endsWith('/reorder')).length;
  return { settled, edits: writes.seen.count - reorders, reorders };
}

export async function boardFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken };
    const projectAnswer = await fetch(`${server.baseURL}/api/v4/projects/${encodeURIComponent(DEMO_PATHS.issueTracker)}`, { headers });
    if (!projectAnswer.ok) throw new Error(`GET /projects/${DEMO_PATHS.issueTracker} answered ${projectAnswer.status}`);
    const project = (await projectAnswer.json()) as { id: number; open_issues_count: number };
    const boardsAnswer = await fetch(`${server.baseURL}/api/v4/projects/${project.id}/boards`, { headers });
    const [board] = (await boardsAnswer.json()) as Array<{ id: number; name: string; lists: Array<{ label: { name: string } | null }> }>;
    if (!board) throw new Error(`${DEMO_PATHS.issueTracker} has no board`);
    const lists = board.lists.map((list) => list.label?.name ?? '');
    log(`board: ${board.name} of ${DEMO_PATHS.issueTracker} (${project.open_issues_count} open issues), lists ${lists.join(', ')}`);

    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS, { clock: installBoardClock, viewport: { width: 1400, height: 900 } });
    const boardPath = `/projects/${project.id}/boards?board=${board.id}`;
    const load = async () => {
      await page.goto('/');
      await new Shell(page).areas.waitFor();
      await page.goto(boardPath);
      const painted = await paintedAt(page);
      await page.waitForLoadState('networkidle');
      return painted;
    };
    // one load first, not counted: the browser fetches the route's chunks once
    await load();
    const painted: number[] = [];
    for (let run = 0; run < RUNS; run++) painted.push(await load());
    const atRest = await domNodes(page);

    // Closed holds most of the 3,000 (the seed's open issues all have a workflow list): scroll it down, pages loading as it goes
    const closed = page.getByRole('list', { name: 'Closed issues', exact: true });
    await closed.hover();
    const pages = watchRequests(page, (request) => /\/issues\?/.test(request.url()) && new URL(request.url()).searchParams.get('state') === 'closed');
    let most = atRest;
    for (let step = 0; step < SCROLL_STEPS; step++) {
      await page.mouse.wheel(0, 3_000);
      await page.waitForTimeout(80);
      most = Math.max(most, await domNodes(page));
    }
    await page.waitForLoadState('networkidle');
    most = Math.max(most, await domNodes(page));
    const loadedCards = await closed.getByRole('listitem').count();
    pages.stop();
    log(`board: full load to every column painted ${painted.map((ms) => round(ms, 1)).join(', ')} ms; ${atRest} elements at rest, at most ${most} while scrolling Closed through ${pages.seen.count} more pages (${loadedCards} cards in the DOM at the end)`);

    // a move from the first list to the next (onto its first card), then one within that list (below its next card)
    await load();
    const across = await keyboardMove(page, lists[0], ['ArrowRight']);
    const within = await keyboardMove(page, lists[1], ['ArrowDown']);
    log(`board: a card to another column: ${across.edits} edit, ${across.reorders} reorder, settled in ${round(across.settled, 1)} ms; within a column: ${within.edits} edit, ${within.reorders} reorder, settled in ${round(within.settled, 1)} ms`);

    emit({ name: 'console.board_columns_painted_ms', value: round(median(painted), 1), unit: 'ms' });
    emit({ name: 'console.board_dom_nodes', value: most, unit: 'count' });
    emit({ name: 'console.board_move_requests', value: across.edits + across.reorders, unit: 'count' });
    emit({ name: 'console.board_move_settled_ms', value: round(across.settled, 1), unit: 'ms' });
    emit({ name: 'console.board_reorder_requests', value: within.edits + within.reorders, unit: 'count' });
    emit({ name: 'console.board_reorder_settled_ms', value: round(within.settled, 1), unit: 'ms' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
