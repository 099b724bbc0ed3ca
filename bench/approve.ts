import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { press } from './click.ts';
import { addPaintClock, arm, painted } from './paint-clock.ts';
import { signedInStorage, withSession } from './session.ts';
import { emit, log, median, round } from './report.ts';

/**
 * The approve round trip on loopback: a pointer press on Approve in a merge request's approval
 * panel, to the frame that paints "Approved by you" (Element Timing). Against it, the same
 * POST .../approve made raw from the same page with fetch. Each run starts from a fresh document
 * with the approval withdrawn through the API; the reviewer is the administrator, the author a Developer.
 */

const RUNS = 10;
const STEP_TIMEOUT_MS = 20_000;

export async function approveFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const api = async <T>(method: string, path: string, body?: unknown, token = server.adminToken): Promise<T> => {
      const answer = await fetch(`${server.baseURL}/api/v4${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!answer.ok) throw new Error(`${method} ${path} answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
      return (await answer.json()) as T;
    };
    const tag = Date.now().toString(36);
    const project = await api<{ id: number }>('POST', '/projects', { name: `bench-approve-${tag}`, initialize_with_readme: true });
    const author = await api<{ id: number }>('POST', '/users', {
      username: `bench-author-${tag}`,
      name: 'Bench Author',
      email: `bench-author-${tag}@example.com`,
      password: `pw-${tag}-bench`,
      skip_confirmation: true,
    });
    const authorToken = (await api<{ token: string }>('POST', `/users/${author.id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] })).token;
    await api('POST', `/projects/${project.id}/members`, { user_id: author.id, access_level: 30 });
    await api('POST', `/projects/${project.id}/approval_rules`, { name: 'Reviewers', approvals_required: 1 });
    await api('POST', `/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' });
    await api(
      'POST',
      `/projects/${project.id}/repository/commits`,
      { branch: 'feature', commit_message: 'Work', actions: [{ action: 'create', file_path: 'work.txt', content: 'bench\n' }] },
      authorToken,
    );
    const request = await api<{ iid: number; sha: string }>(
      'POST',
      `/projects/${project.id}/merge_requests`,
      { source_branch: 'feature', target_branch: 'main', title: 'Bench: approve me' },
      authorToken,
    );
    const requestPath = `/projects/${project.id}/merge_requests/${request.iid}`;

    const context = await browser.newContext({ baseURL: server.baseURL });
    await withSession(context, await signedInStorage(browser, server.baseURL, server.adminToken, STEP_TIMEOUT_MS));
    await addPaintClock(context);
    const page = await context.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const approveButton = page.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Approve', exact: true });

    const run = async () => {
      await page.goto(`/projects/${project.id}/merge-requests/${request.iid}`);
      await approveButton.waitFor();
      await page.waitForLoadState('networkidle');
      await arm(page, { selector: 'section p', text: 'Approved by you' });
      await press(page, approveButton);
      const shown = await painted(page, STEP_TIMEOUT_MS);
      await page.waitForLoadState('networkidle');
      // the same write, raw from the same page: withdrawn first, then timed
      await api('POST', `${requestPath}/unapprove`);
      const raw = await page.evaluate(
        async ({ url, token, sha }) => {
          const started = performance.now();
          const answer = await fetch(url, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: JSON.stringify({ sha }) });
          await answer.json();
          return performance.now() - started;
        },
        { url: `${server.baseURL}/api/v4${requestPath}/approve`, token: server.adminToken, sha: request.sha },
      );
      await api('POST', `${requestPath}/unapprove`);
      return { painted: shown.at - shown.pressAt, raw };
    };
    // one run first, not counted: the browser fetches the route's chunks once
    await run();
    const runs: Array<{ painted: number; raw: number }> = [];
    for (let index = 0; index < RUNS; index++) runs.push(await run());
    const list = (values: number[]) => values.map((ms) => round(ms, 1)).join(', ');
    log(`approve: press to "Approved by you" painted ${list(runs.map((r) => r.painted))} ms; raw POST .../approve ${list(runs.map((r) => r.raw))} ms`);
    emit({ name: 'console.approve.round_trip_painted_ms', value: round(median(runs.map((r) => r.painted)), 1), unit: 'ms' });
    emit({ name: 'console.approve.raw_post_ms', value: round(median(runs.map((r) => r.raw)), 1), unit: 'ms' });
    emit({ name: 'console.approve.overhead_ms', value: round(median(runs.map((r) => r.painted - r.raw)), 1), unit: 'ms' });
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
