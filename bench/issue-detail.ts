import { chromium, type Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { connectedPage } from './page-clock.ts';
import { emit, log, median, round } from './report.ts';

/**
 * An issue with a 500-note thread in a real browser: from the navigation to its page (a new
 * document, the tab signed in) to the first timeline entry on screen, and to every note loaded.
 * The notes are made through the API by two people, as the platform throttles note creation per
 * user and minute (300 by default).
 */

const NOTES = 500;
const RUNS = 5;
const STEP_TIMEOUT_MS = 60_000;
const BATCH = 10;

async function timeFirstPaint(page: Page, path: string): Promise<{ first: number; all: number; shown: number }> {
  await page.goto(path);
  // polled every animation frame: the first frame whose document holds an entry
  const first = await (await page.waitForFunction(() => (document.querySelector('ol[aria-label="Activity entries"] > li') ? performance.now() : 0), undefined, { polling: 'raf' })).jsonValue();
  const all = await (
    await page.waitForFunction(() => (![...document.querySelectorAll('[role="status"]')].some((node) => node.textContent?.startsWith('Loading more comments')) && document.querySelector('ol[aria-label="Activity entries"] > li') ? performance.now() : 0), undefined, { polling: 'raf' })
  ).jsonValue();
  const shown = await page.evaluate(() => document.querySelectorAll('ol[aria-label="Activity entries"] > li').length);
  return { first, all, shown };
}

export async function issueDetailFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const api = async <T>(method: string, path: string, body: unknown, token = server.adminToken): Promise<T> => {
      const answer = await fetch(`${server.baseURL}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
      return (await answer.json()) as T;
    };
    const project = await api<{ id: number }>('GET', `/projects/${encodeURIComponent(DEMO_PATHS.issueTracker)}`, undefined);
    const issue = await api<{ iid: number }>('POST', `/projects/${project.id}/issues`, { title: 'Bench: a 500-note thread', description: '- [ ] read every note' });
    const started = performance.now();
    for (let made = 0; made < NOTES; made += BATCH) {
      await Promise.all(
        Array.from({ length: Math.min(BATCH, NOTES - made) }, (_, index) => {
          const number = made + index + 1;
          // half by the administrator, half by the maintainer: each under the per-minute throttle
          const token = number % 2 ? server.adminToken : DEMO_TOKENS.maintainer.secret;
          return api('POST', `/projects/${project.id}/issues/${issue.iid}/notes`, { body: `Note ${number}: a **short** comment with \`code\` and a [link](https://example.com/${number}).` }, token);
        }),
      );
    }
    log(`made ${NOTES} notes in ${round(performance.now() - started)} ms`);
    const path = `/projects/${project.id}/issues/${issue.iid}`;
    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS);
    // one run first, not counted: the browser fetches the route's chunks (and Markdown's) once
    const warmup = await timeFirstPaint(page, path);
    const runs: Array<{ first: number; all: number; shown: number }> = [];
    for (let run = 0; run < RUNS; run++) runs.push(await timeFirstPaint(page, path));
    log(`500-note timeline, navigation to first entry: ${runs.map((r) => round(r.first, 1)).join(', ')} ms; to every note loaded: ${runs.map((r) => round(r.all, 1)).join(', ')} ms; entries rendered ${runs[0]?.shown} (warm-up ${round(warmup.first, 1)} ms)`);
    emit({ name: 'console.issue_timeline_500_first_paint_ms', value: round(median(runs.map((r) => r.first)), 1), unit: 'ms' });
    emit({ name: 'console.issue_timeline_500_all_loaded_ms', value: round(median(runs.map((r) => r.all)), 1), unit: 'ms' });
    emit({ name: 'console.issue_timeline_500_entries_rendered', value: runs[0]?.shown ?? 0, unit: 'count' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
