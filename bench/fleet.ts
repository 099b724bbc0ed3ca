import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, expect, type Locator, type Page } from '@playwright/test';
import { exportRunners, type Runner } from '../src/api/runners.ts';
import { toCsv } from '../src/lib/csv.ts';
import { DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { RunnerFleetPage } from '../e2e/pages/runners.ts';
import { Shell } from '../e2e/pages/shell.ts';
import { keepAliveClient, type KeepAliveClient } from './http-client.ts';
import { connectedPage, settledAfterClick } from './page-clock.ts';
import { emit, log, median, percentile, round } from './report.ts';
import { startSandboxProcess } from './sandbox-child.ts';

/**
 * The runner fleet of the demo seed (about 2,600 runners): the fleet screen in a real browser,
 * timed from an in-app navigation to its counts and to its first row; the CSV export of the whole
 * fleet through the console's own code; and the p50 of a commit request with and without system
 * hooks that receive its push events.
 */

const RUNS = 5;
const STEP_TIMEOUT_MS = 20_000;
const STATUS_LABELS = ['Online', 'Offline', 'Stale', 'Never contacted'];
const TYPE_LABELS = ['Instance', 'Group', 'Project'];

/** Count links whose accessible name carries a total, e.g. "Online: 912 runners". */
function countedLinks(fleet: RunnerFleetPage, list: 'Runners by status' | 'Runners by type'): Locator {
  return fleet.countList(list).getByRole('link', { name: /^[^:]+: \d+ runners$/ });
}

/** Home, then a click on "Runners" in the instance areas; ms from the click to every count, and to the first row. */
async function timeFleetNavigation(page: Page): Promise<{ counts: number; firstRow: number; total: number }> {
  const fleet = new RunnerFleetPage(page);
  await page.goto('/');
  const link = new Shell(page).areas.getByRole('group', { name: 'Admin' }).getByRole('link', { name: 'Runners', exact: true });
  await link.waitFor({ timeout: STEP_TIMEOUT_MS });
  // the home screen's own requests are over before the clock starts
  await page.waitForLoadState('networkidle');
  // a click event without a hover first: the router gets no head start from preloading on intent
  await link.dispatchEvent('click');

  const firstRow = fleet.rows.first();
  await firstRow.waitFor({ timeout: STEP_TIMEOUT_MS });
  await expect(countedLinks(fleet, 'Runners by status')).toHaveCount(STATUS_LABELS.length, { timeout: STEP_TIMEOUT_MS });
  await expect(countedLinks(fleet, 'Runners by type')).toHaveCount(TYPE_LABELS.length, { timeout: STEP_TIMEOUT_MS });

  const countLinks = fleet.page.getByRole('list', { name: /^Runners by (status|type)$/ }).getByRole('link');
  const seen = await countLinks.count();
  if (seen !== STATUS_LABELS.length + TYPE_LABELS.length) throw new Error(`expected ${STATUS_LABELS.length + TYPE_LABELS.length} count links, saw ${seen}`);
  const counts = await settledAfterClick(countLinks);
  const firstRowAt = await settledAfterClick(firstRow);

  const typeNames = await countedLinks(fleet, 'Runners by type').evaluateAll((links) => links.map((element) => element.getAttribute('aria-label') ?? ''));
  const total = typeNames.reduce((sum, name) => sum + Number(/: (\d+) runners$/.exec(name)?.[1] ?? 0), 0);
  return { counts, firstRow: firstRowAt, total };
}

/** The same columns as the screen's export (fleet-screen.tsx), so the CSV costs what the user's does. */
const CSV_HEADER = ['id', 'description', 'name', 'runner_type', 'status', 'paused', 'online', 'is_shared', 'job_execution_status', 'created_at', 'created_by'];
const csvRows = (runners: Runner[]) =>
  runners.map((runner) => [
    runner.id, runner.description, runner.name, runner.runner_type, runner.status, runner.paused, runner.online, runner.is_shared,
    runner.job_execution_status, runner.created_at, runner.created_by?.username,
  ]);

/** The whole instance fleet through exportRunners, the function the screen's "Export CSV" calls, then its CSV text. */
async function csvExportFigure(baseURL: string, adminToken: string): Promise<void> {
  let announcedTotal: number | null = null;
  const started = performance.now();
  const runners = await exportRunners({ instanceUrl: baseURL, token: adminToken }, 'instance', {}, { onProgress: (_done, total) => (announcedTotal = total) });
  const csv = toCsv(CSV_HEADER, csvRows(runners));
  const elapsed = performance.now() - started;
  if (announcedTotal === null || runners.length !== announcedTotal) throw new Error(`the export returned ${runners.length} runners, x-total said ${announcedTotal}`);
  if (new Set(runners.map((runner) => runner.id)).size !== runners.length) throw new Error('the export returned a runner twice');
  log(`fleet CSV export: ${runners.length} rows, ${round(Buffer.byteLength(csv) / 1024, 1)} KB, ${round(elapsed, 1)} ms`);
  emit({ name: 'console.fleet_csv_export_ms', value: round(elapsed, 1), unit: 'ms' });
}

export async function fleetFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    await csvExportFigure(server.baseURL, server.adminToken);

    const { context, page } = await connectedPage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS);

    // one run first, not counted: the browser fetches the route's chunks once
    const warmup = await timeFleetNavigation(page);
    const runs: Array<{ counts: number; firstRow: number }> = [];
    for (let run = 0; run < RUNS; run++) runs.push(await timeFleetNavigation(page));
    const list = (values: number[]) => values.map((ms) => round(ms, 1)).join(', ');
    log(`fleet screen (${warmup.total} runners) as the administrator: click to all counts ${list(runs.map((run) => run.counts))} ms, to first row ${list(runs.map((run) => run.firstRow))} ms (first, uncounted: ${round(warmup.counts, 1)} / ${round(warmup.firstRow, 1)} ms)`);
    emit({ name: 'console.fleet_counts_ms', value: round(median(runs.map((run) => run.counts)), 1), unit: 'ms' });
    emit({ name: 'console.fleet_first_page_ms', value: round(median(runs.map((run) => run.firstRow)), 1), unit: 'ms' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

// -- commits with and without system hooks

const COMMIT_WARMUP = 10;
const COMMIT_REQUESTS = 60;
const HOOKS = 3;
const RECEIVER_DELAY_MS = 200;
const REQUEST_TIMEOUT_MS = 10_000;
const DELIVERIES_TIMEOUT_MS = 60_000;

const p50 = (sorted: readonly number[]) => percentile(sorted, 0.5);

/** Records the `ref` of every push it receives, answering each after RECEIVER_DELAY_MS. */
async function startSlowReceiver(): Promise<{ url: string; pushRefs: string[]; close: () => Promise<void> }> {
  const pushRefs: string[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event_name?: string; ref?: string };
        if (event.event_name === 'push' && event.ref) pushRefs.push(event.ref);
      } catch {
        // not JSON: not a push, nothing to record
      }
      setTimeout(() => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'), RECEIVER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pushRefs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Api = KeepAliveClient;

/** Warm-ups then timed commits, each updating one small file on a branch made for this round. */
async function commitRound(api: Api, projectId: number, defaultBranch: string, branch: string): Promise<number[]> {
  await api.expectOk('POST', `/projects/${projectId}/repository/branches`, { branch, ref: defaultBranch });
  const samples: number[] = [];
  for (let index = 0; index < COMMIT_WARMUP + COMMIT_REQUESTS; index++) {
    const body = { branch, commit_message: `Bench commit ${index}`, actions: [{ action: 'update', file_path: 'README.md', content: `# Payments Service\n\nBench revision ${index} on ${branch}.\n` }] };
    const started = performance.now();
    const answer = await api.call('POST', `/projects/${projectId}/repository/commits`, body);
    const elapsed = performance.now() - started;
    if (answer.status !== 201) throw new Error(`POST /projects/${projectId}/repository/commits answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    if (index >= COMMIT_WARMUP) samples.push(elapsed);
  }
  return samples.sort((a, b) => a - b);
}

export async function commitHookFigures(): Promise<void> {
  const sandbox = await startSandboxProcess();
  const api = keepAliveClient(sandbox.apiUrl, sandbox.adminToken, { maxSockets: 1, timeoutMs: REQUEST_TIMEOUT_MS });
  const receiver = await startSlowReceiver();
  try {
    const project = await api.expectOk<{ id: number; default_branch: string }>('GET', `/projects/${encodeURIComponent(DEMO_PATHS.inheritedProject)}`);
    const stamp = Date.now().toString(36);
    const plain = await commitRound(api, project.id, project.default_branch, `bench/commits-plain-${stamp}`);

    for (let index = 0; index < HOOKS; index++) {
      await api.expectOk('POST', '/hooks', { url: `${receiver.url}/hook-${index}`, name: `Bench receiver ${index}`, push_events: true, repository_update_events: false });
    }
    const hookedBranch = `bench/commits-hooked-${stamp}`;
    const hooked = await commitRound(api, project.id, project.default_branch, hookedBranch);
    // the figure means nothing unless the hooks really received the pushes: one per hook, commit and branch creation
    const expected = HOOKS * (1 + COMMIT_WARMUP + COMMIT_REQUESTS);
    const deadline = performance.now() + DELIVERIES_TIMEOUT_MS;
    const arrived = () => receiver.pushRefs.filter((ref) => ref === `refs/heads/${hookedBranch}`).length;
    while (arrived() < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    if (arrived() < expected) throw new Error(`the receiver got ${arrived()} of ${expected} push events within ${DELIVERIES_TIMEOUT_MS / 1000} s`);

    const describe = (samples: number[]) => `p50 ${round(p50(samples), 2)} ms, min ${round(samples[0], 2)} ms, max ${round(samples[samples.length - 1], 2)} ms`;
    log(`commits on ${DEMO_PATHS.inheritedProject}: ${COMMIT_REQUESTS} sequential after ${COMMIT_WARMUP} warm-ups; without hooks ${describe(plain)}; with ${HOOKS} push hooks answering after ${RECEIVER_DELAY_MS} ms ${describe(hooked)}; ${arrived()} pushes received`);
    emit({ name: 'sandbox.commit_p50_ms', value: round(p50(plain), 2), unit: 'ms' });
    emit({ name: 'sandbox.commit_p50_with_hooks_ms', value: round(p50(hooked), 2), unit: 'ms' });
    emit({ name: 'sandbox.commit_hook_overhead_ratio', value: round(p50(hooked) / p50(plain), 3), unit: 'ratio' });
  } finally {
    api.close();
    await sandbox.stop();
    await receiver.close();
  }
}
