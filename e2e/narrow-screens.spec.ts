import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, type Api } from './fixtures.ts';
import { watchApiRequests } from './api-settled.ts';
import { DEMO_MERGE_REQUESTS, DEMO_REGISTRY } from '../sandbox/seed/demo.ts';
import { DEMO_PIPELINES } from '../sandbox/seed/pipelines.ts';
import { DEMO_PACKAGES } from '../sandbox/seed/packages.ts';

/**
 * No screen scrolls sideways on a phone (390 px): every route file in src/routes is visited with
 * demo params, as the administrator (who may open them all). A new route fails this test until it
 * has an address here.
 */
const ROUTES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'routes');
const WEB_APP = 'acme-engineering/frontend/web-app';

function routeFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), relative);
    return /\.tsx?$/.test(entry.name) && !entry.name.startsWith('__') ? [relative] : [];
  });
}

interface DemoIds {
  group: number;
  project: number;
  user: number;
  runner: number;
  hook: number;
  sha: string;
  groupAccount: number;
  instanceAccount: number;
  /** The demo project with pipelines (the API gateway's 5,000). */
  pipelines: number;
  /** Its job with the 100,000-line log. */
  bigLogJob: number;
  /** Its newest package (the project also holds the demo's 5,000 packages). */
  package: number;
  /** The demo project with a package protection rule. */
  protectedPackages: number;
  /** The demo project whose image has 10,000 tags. */
  registry: number;
}

async function demoIds(api: Api): Promise<DemoIds> {
  const group = await api.groupId(DEMO_PATHS.bigGroup);
  const project = await api.projectId(WEB_APP);
  const first = async <T>(listPath: string) => {
    const [item] = await api.get<T[]>(listPath);
    expect(item, `the demo has something at ${listPath}`).toBeDefined();
    return item;
  };
  // the demo has no system hook and no service account: one of each for their own screens
  const hook = await api.post<{ id: number }>('/hooks', { url: 'http://127.0.0.1:9/narrow-screens' });
  api.deleteAfter(`/hooks/${hook.id}`);
  const tag = Date.now().toString(36);
  const groupAccount = await api.post<{ id: number }>(`/groups/${group}/service_accounts`, { name: `Narrow bot ${tag}`, username: `narrow-${tag}` });
  api.deleteAfter(`/groups/${group}/service_accounts/${groupAccount.id}?hard_delete=true`);
  const pipelines = await api.projectId(DEMO_PIPELINES.project);
  const instanceAccount = await api.post<{ id: number }>('/service_accounts', { name: `Narrow instance bot ${tag}`, username: `narrow-instance-${tag}` });
  api.deleteAfter(`/users/${instanceAccount.id}?hard_delete=true`);
  return {
    group,
    project,
    user: (await api.userByUsername('maya.chen')).id,
    runner: (await first<{ id: number }>('/runners/all?per_page=1')).id,
    hook: hook.id,
    sha: (await first<{ id: string }>(`/projects/${project}/repository/commits?per_page=1`)).id,
    groupAccount: groupAccount.id,
    instanceAccount: instanceAccount.id,
    pipelines,
    registry: await api.projectId(DEMO_REGISTRY.bigProject),
    bigLogJob: (await api.get<Array<{ id: number; name: string }>>(`/projects/${pipelines}/pipelines/${DEMO_PIPELINES.bigLogId}/jobs?per_page=100`)).find((job) => job.name === DEMO_PIPELINES.bigLogJob)!.id,
    package: (await first<{ id: number }>(`/projects/${pipelines}/packages?per_page=1&order_by=created_at&sort=desc`)).id,
    protectedPackages: await api.projectId(DEMO_PACKAGES.protectedProject),
  };
}

/** Each route file's address with demo params. */
const ADDRESSES: Record<string, (ids: DemoIds) => string> = {
  'index.tsx': () => '/',
  'connect.tsx': () => '/connect',
  'access-tokens/expiry.tsx': () => '/access-tokens/expiry',
  'access-tokens/self.tsx': () => '/access-tokens/self',
  'admin/deploy-keys.tsx': () => '/admin/deploy-keys',
  'admin/hooks/index.tsx': () => '/admin/hooks',
  'admin/hooks/new.tsx': () => '/admin/hooks/new',
  'admin/hooks/$hookId.tsx': (ids) => `/admin/hooks/${ids.hook}`,
  'admin/runners.tsx': () => '/admin/runners',
  'admin/runners_.$runnerId.tsx': (ids) => `/admin/runners/${ids.runner}`,
  'admin/service-accounts.tsx': () => '/admin/service-accounts',
  'admin/service-accounts_.$userId.tokens.tsx': (ids) => `/admin/service-accounts/${ids.instanceAccount}/tokens`,
  'admin/storage-moves/index.tsx': () => '/admin/storage-moves',
  'groups/index.tsx': () => '/groups',
  'issues/index.tsx': () => '/issues?scope=all',
  'merge-requests/index.tsx': () => '/merge-requests?whose=created_by_me&state=all',
  'merge-requests/board.tsx': () => '/merge-requests/board',
  // a group's and a project's own addresses open their members (the redirect is followed)
  'groups/$groupId/index.tsx': (ids) => `/groups/${ids.group}`,
  'projects/$projectId/index.tsx': (ids) => `/projects/${ids.project}`,
  'groups/$groupId/access-tokens.tsx': (ids) => `/groups/${ids.group}/access-tokens`,
  'groups/$groupId/boards.tsx': (ids) => `/groups/${ids.group}/boards`,
  'groups/$groupId/issues.tsx': (ids) => `/groups/${ids.group}/issues`,
  'groups/$groupId/merge-requests.tsx': (ids) => `/groups/${ids.group}/merge-requests?state=all`,
  'groups/$groupId/merge-request-board.tsx': (ids) => `/groups/${ids.group}/merge-request-board`,
  'groups/$groupId/billable-members.tsx': (ids) => `/groups/${ids.group}/billable-members`,
  'groups/$groupId/members.tsx': (ids) => `/groups/${ids.group}/members?tab=all`,
  'groups/$groupId/runners.tsx': (ids) => `/groups/${ids.group}/runners`,
  'groups/$groupId/packages.tsx': (ids) => `/groups/${ids.group}/packages`,
  'groups/$groupId/service-accounts.tsx': (ids) => `/groups/${ids.group}/service-accounts`,
  'groups/$groupId/service-accounts_.$userId.tokens.tsx': (ids) => `/groups/${ids.group}/service-accounts/${ids.groupAccount}/tokens`,
  'projects/index.tsx': () => '/projects',
  'projects/$projectId/approval-settings.tsx': (ids) => `/projects/${ids.project}/approval-settings`,
  // the API gateway holds the demo's alerts (DEMO_ALERTS.project) and its integrations of both kinds
  'projects/$projectId/alerts/index.tsx': (ids) => `/projects/${ids.pipelines}/alerts?tab=all`,
  'projects/$projectId/alerts/$alertIid.tsx': (ids) => `/projects/${ids.pipelines}/alerts/1`,
  'projects/$projectId/alerts/tester.tsx': (ids) => `/projects/${ids.pipelines}/alerts/tester`,
  'projects/$projectId/settings/alerts.tsx': (ids) => `/projects/${ids.pipelines}/settings/alerts`,
  'projects/$projectId/blame.$.tsx': (ids) => `/projects/${ids.project}/blame/README.md`,
  'projects/$projectId/blob.$.tsx': (ids) => `/projects/${ids.project}/blob/src/components/Order%20Summary.tsx`,
  'projects/$projectId/boards.tsx': (ids) => `/projects/${ids.project}/boards`,
  'projects/$projectId/issues/index.tsx': (ids) => `/projects/${ids.project}/issues`,
  'projects/$projectId/merge-requests/index.tsx': (ids) => `/projects/${ids.project}/merge-requests?state=all`,
  // the demo's requests in every state, with reviewers' names on the cards
  'projects/$projectId/merge-request-board.tsx': (ids) => `/projects/${ids.project}/merge-request-board`,
  // the demo's merge request of 100 files (its branches' names are the longest)
  'projects/$projectId/merge-requests/$mergeRequestIid/route.tsx': (ids) => `/projects/${ids.project}/merge-requests/${DEMO_MERGE_REQUESTS.big}`,
  'projects/$projectId/merge-requests/$mergeRequestIid/index.tsx': (ids) => `/projects/${ids.project}/merge-requests/${DEMO_MERGE_REQUESTS.awaitingReview}`,
  'projects/$projectId/merge-requests/$mergeRequestIid/commits.tsx': (ids) => `/projects/${ids.project}/merge-requests/${DEMO_MERGE_REQUESTS.unresolvedThreads}/commits`,
  'projects/$projectId/merge-requests/$mergeRequestIid/changes.tsx': (ids) => `/projects/${ids.project}/merge-requests/${DEMO_MERGE_REQUESTS.big}/changes?view=parallel`,
  'projects/$projectId/branches.tsx': (ids) => `/projects/${ids.project}/branches`,
  'projects/$projectId/changes.tsx': (ids) => `/projects/${ids.project}/changes`,
  'projects/$projectId/commit.$sha.tsx': (ids) => `/projects/${ids.project}/commit/${ids.sha}`,
  'projects/$projectId/commits.tsx': (ids) => `/projects/${ids.project}/commits`,
  'projects/$projectId/deploy-keys.tsx': (ids) => `/projects/${ids.project}/deploy-keys`,
  'projects/$projectId/edit.$.tsx': (ids) => `/projects/${ids.project}/edit/README.md`,
  'projects/$projectId/members.tsx': (ids) => `/projects/${ids.project}/members`,
  // the demo tracker's first issue: a description with a task list, code, a table and a thread
  'projects/$projectId/issues/$issueIid.tsx': (ids) => `/projects/${ids.project}/issues/1`,
  'projects/$projectId/new.$.tsx': (ids) => `/projects/${ids.project}/new/src`,
  // the demo's pipelines: the list, the run form with the CI file's variables, and main's durations
  'projects/$projectId/pipelines/index.tsx': (ids) => `/projects/${ids.pipelines}/pipelines`,
  'projects/$projectId/pipelines/new.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/new`,
  'projects/$projectId/pipelines/charts.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/charts`,
  // the demo's failed pipeline (its graph, test report and 100,000-line log) and its 200-job pipeline
  'projects/$projectId/pipelines/$pipelineId/route.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/${DEMO_PIPELINES.blockedId}`,
  'projects/$projectId/pipelines/$pipelineId/index.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/${DEMO_PIPELINES.bigLogId}`,
  'projects/$projectId/pipelines/$pipelineId/jobs.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/${DEMO_PIPELINES.bigGraphId}/jobs`,
  'projects/$projectId/pipelines/$pipelineId/test-report.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/${DEMO_PIPELINES.bigLogId}/test-report`,
  'projects/$projectId/pipelines/$pipelineId/variables.tsx': (ids) => `/projects/${ids.pipelines}/pipelines/${DEMO_PIPELINES.runningId}/variables`,
  // the demo's 5,000 packages, and the newest of them (its files, install steps and pipelines)
  'projects/$projectId/packages/index.tsx': (ids) => `/projects/${ids.pipelines}/packages`,
  'projects/$projectId/packages/$packageId.tsx': (ids) => `/projects/${ids.pipelines}/packages/${ids.package}`,
  // the demo's protected payments service: its rule for com/acme/payments/*
  'projects/$projectId/packages-and-registries.tsx': (ids) => `/projects/${ids.protectedPackages}/packages-and-registries`,
  'projects/$projectId/jobs/$jobId.tsx': (ids) => `/projects/${ids.pipelines}/jobs/${ids.bigLogJob}`,
  'projects/$projectId/runners.tsx': (ids) => `/projects/${ids.project}/runners`,
  // the demo's image of 10,000 tags, its project's images and cleanup policy, and the group's images
  'projects/$projectId/registry/index.tsx': (ids) => `/projects/${ids.registry}/registry`,
  'projects/$projectId/registry/$repositoryId.tsx': (ids) => `/projects/${ids.registry}/registry/${DEMO_REGISTRY.bigRepositoryId}`,
  'projects/$projectId/registry/cleanup-policy.tsx': (ids) => `/projects/${ids.registry}/registry/cleanup-policy`,
  'groups/$groupId/registry.tsx': (ids) => `/groups/${ids.group}/registry`,
  'projects/$projectId/tree.$.tsx': (ids) => `/projects/${ids.project}/tree/src`,
  'runners/$runnerId.tsx': (ids) => `/runners/${ids.runner}`,
  'users/index.tsx': () => '/users',
  'users/$userId.tsx': (ids) => `/users/${ids.user}`,
};

test.describe.configure({ mode: 'parallel' });

test('every route has an address here', () => {
  expect(Object.keys(ADDRESSES).sort()).toEqual(routeFiles(ROUTES_DIR).sort());
});

/** Each refused API answer, console error and uncaught error from now on, with the address being visited: a request refused on every visit is a defect. */
function recordFailures(page: Page): { failing: string[]; visiting: (address: string) => void } {
  let at = '';
  const failing: string[] = [];
  page.on('response', (response) => void (response.status() >= 400 && failing.push(`${at}: ${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`)));
  page.on('console', (message) => void (message.type() === 'error' && failing.push(`${at}: ${message.text()}`)));
  page.on('pageerror', (error) => failing.push(`${at}: ${error.message}`));
  return { failing, visiting: (address) => void (at = address) };
}

// the screens in two halves, one per worker: a visit is a few seconds and there are over seventy
const SHARDS = 2;
for (let shard = 0; shard < SHARDS; shard++) test(`no screen scrolls sideways at 390 px (wide content scrolls in its own box), and at 1440 px nothing needs to nor names a field only by its placeholder; no screen's request is refused nor logs an error (part ${shard + 1} of ${SHARDS})`, async ({ page, api, connectAs, consoleServer }) => {
  test.setTimeout(300_000);
  const ids = await demoIds(api);
  const wider: string[] = [];
  const failures = recordFailures(page);
  const apiSettled = watchApiRequests(page);
  const check = async (address: string) => {
    failures.visiting(address);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(address);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await apiSettled();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) wider.push(`${address}: ${overflow} px too wide`);
    // the same screen on a desktop: its tables fit, so no action button hides behind a scroll
    await page.setViewportSize({ width: 1440, height: 900 });
    const hidden = await page.evaluate(() => {
      const found: string[] = [];
      for (const table of document.querySelectorAll('main table')) {
        const box = table.parentElement!;
        if (box.scrollWidth > box.clientWidth + 1) found.push(`the table "${table.querySelector('caption')?.textContent ?? ''}" scrolls ${box.scrollWidth - box.clientWidth} px`);
      }
      for (const control of document.querySelectorAll('main button, main a[href]')) {
        // an issue board's columns scroll sideways in their own box by design, as the platform's do
        if (control.closest('[role="group"][aria-label^="Board "]')) continue;
        // so do a pipeline graph's stages, one column each
        if (control.closest('[role="region"][aria-label="Pipeline graph"]')) continue;
        const { right, width } = control.getBoundingClientRect();
        if (width > 0 && right > innerWidth) found.push(`"${control.textContent}" ends past the window`);
      }
      // every field says what it is in words on screen, not only in a placeholder or to a screen reader
      const shown = (text: Node) => {
        const range = document.createRange();
        range.selectNodeContents(text);
        const { width, height } = range.getBoundingClientRect();
        return Boolean(text.textContent?.trim()) && width > 2 && height > 2;
      };
      const showsText = (label: Element, control: Element) => {
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode(); text; text = walker.nextNode()) if (!control.contains(text) && shown(text)) return true;
        return false;
      };
      for (const control of document.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('main input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]), main select, main textarea')) {
        if (!control.getBoundingClientRect().width) continue;
        const labelledBy = (control.getAttribute('aria-labelledby') ?? '').split(/\s+/).flatMap((id) => document.getElementById(id) ?? []);
        if (![...(control.labels ?? []), ...labelledBy].some((label) => showsText(label, control))) found.push(`the field "${control.getAttribute('aria-label') ?? control.getAttribute('placeholder') ?? control.name}" has no label on screen`);
      }
      return found;
    });
    wider.push(...hidden.map((what) => `${address} at 1440 px: ${what}`));
  };
  if (shard === 0) await check('/connect');
  await connectAs(page, consoleServer.adminToken);
  for (const [index, [file, address]] of Object.entries(ADDRESSES).entries()) {
    if (file !== 'connect.tsx' && index % SHARDS === shard) await check(address(ids));
  }
  expect(wider).toEqual([]);
  expect(failures.failing).toEqual([]);
});

// those who meet the refusals: a Developer (a member, below Maintainer) and the read-only user (no member of most
// of the demo, a token without api); each screen says why from the role, and asks for nothing the platform refuses
const CALLERS = [['a Developer', DEMO_TOKENS.developer.secret], ['a read-only user who is no member', DEMO_TOKENS.readonly.secret]] as const;
for (const [who, token] of CALLERS) {
  for (let shard = 0; shard < SHARDS; shard++) test(`as ${who}, no screen's request is refused nor logs an error (part ${shard + 1} of ${SHARDS})`, async ({ page, api, connectAs }) => {
    test.setTimeout(300_000);
    const ids = await demoIds(api);
    await connectAs(page, token);
    const failures = recordFailures(page);
    const apiSettled = watchApiRequests(page);
    for (const [index, [file, address]] of Object.entries(ADDRESSES).entries()) {
      if (file === 'connect.tsx' || index % SHARDS !== shard) continue;
      failures.visiting(address(ids));
      await page.goto(address(ids));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await apiSettled();
    }
    expect(failures.failing).toEqual([]);
  });
}
