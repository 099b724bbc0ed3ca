import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { XSS_CORPUS, expectNoScriptRan } from './xss.ts';

interface Project {
  id: number;
  name_with_namespace: string;
  path_with_namespace: string;
}

interface Integration {
  id: string;
  type: string;
  name: string | null;
  token: string;
  url: string;
}

const unique = () => randomBytes(4).toString('hex');

async function newProject(api: Api): Promise<Project> {
  const project = await api.post<Project>('/projects', { name: `e2e-alerts-${unique()}` });
  api.deleteAfter(`/projects/${project.id}`);
  return project;
}

/** The platform's GraphQL as the administrator: the setup of a test, not the code under test. */
async function gql<T>(baseURL: string, token: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await fetch(`${baseURL}/api/graphql`, { method: 'POST', headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const body = (await response.json()) as { data: T; errors?: unknown };
  if (body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function newIntegration(baseURL: string, token: string, projectPath: string, kind: 'http' | 'prometheus', name = `Hook ${unique()}`): Promise<Integration> {
  const fields = 'id type name token url';
  if (kind === 'prometheus') {
    const data = await gql<{ prometheusIntegrationCreate: { integration: Integration } }>(baseURL, token, `mutation($input: PrometheusIntegrationCreateInput!) { prometheusIntegrationCreate(input: $input) { errors integration { ${fields} } } }`, { input: { projectPath, active: true } });
    return data.prometheusIntegrationCreate.integration;
  }
  const data = await gql<{ httpIntegrationCreate: { integration: Integration } }>(baseURL, token, `mutation($input: HttpIntegrationCreateInput!) { httpIntegrationCreate(input: $input) { errors integration { ${fields} } } }`, { input: { projectPath, name, active: true } });
  return data.httpIntegrationCreate.integration;
}

/** What a monitoring tool does: POST the payload to the integration's URL (on the console's origin) with its key. */
async function notify(integration: Integration, payload: unknown): Promise<Response> {
  return fetch(integration.url, { method: 'POST', headers: { Authorization: `Bearer ${integration.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(payload) });
}

/**
 * On a phone nothing scrolls sideways but the tables' own boxes; on a desktop no table needs to
 * scroll. Each width is a fresh load, as a phone opens the screen (a resize mid-transition measures
 * a layout on its way).
 */
async function expectFits(page: Page, screen: string) {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const wider = await page.evaluate((desktop) => {
      const root = document.documentElement;
      const found: string[] = [];
      if (root.scrollWidth > root.clientWidth + 1) {
        // the outermost elements that stick out, to say what widens the page
        const sticks = (element: Element) => element.getBoundingClientRect().right > root.clientWidth + 1 && !element.closest('table');
        const out = [...document.querySelectorAll('body *')].filter((element) => sticks(element) && ![...element.children].some(sticks));
        found.push(`page ${root.scrollWidth - root.clientWidth} px: ${out.slice(0, 4).map((element) => `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').slice(0, 24)}"`).join(', ')}`);
      }
      if (desktop) for (const table of document.querySelectorAll('main table')) if (table.parentElement!.scrollWidth > table.parentElement!.clientWidth + 1) found.push(`table ${table.querySelector('caption')?.textContent ?? ''}`);
      return found;
    }, width === 1440);
    expect(wider, `${screen} at ${width} px`).toEqual([]);
  }
}

async function expectNoAxeViolations(page: Page, screen: string) {
  await page.waitForLoadState('networkidle');
  expect(await axeViolations(page, screen)).toEqual([]);
}

const previewItem = (page: Page, index: number) => page.getByRole('list', { name: 'Alerts of the payload' }).getByRole('listitem').nth(index);

// every test makes its own project, and each worker has its own sandbox
test.describe.configure({ mode: 'parallel' });
test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

test('an HTTP endpoint: add it, copy its URL and key, test it with Bearer and Basic as previewed, reset its key and see the old one refused', async ({ page, context, api, baseURL, knownSecrets }) => {
  const project = await newProject(api);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.goto(`/projects/${project.id}/settings/alerts`);
  await expect(page.getByRole('heading', { level: 1, name: `Alert integrations of ${project.name_with_namespace}` })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Alert integrations', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('status', { name: 'This project has no alert integrations.' })).toBeVisible();

  const add = page.getByRole('form', { name: 'Add an alert integration' });
  await add.getByRole('button', { name: 'Add integration' }).click();
  await expect(add.getByText('Enter a name.')).toBeVisible();
  await add.getByLabel('Integration name').fill('Ops hook');
  await add.getByRole('button', { name: 'Add integration' }).click();
  const row = page.getByRole('table', { name: 'Alert integrations' }).getByRole('row').filter({ hasText: 'Ops hook' });
  await expect(row).toContainText('Active');
  await expect(add.getByLabel('Integration name')).toHaveValue('');

  await row.getByRole('button', { name: 'Copy URL of Ops hook' }).click();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(new RegExp(`^${baseURL}/${project.path_with_namespace}/alerts/notify/[\\w-]+/\\w+\\.json$`));
  await expect(row).toContainText(url);

  // the key is hidden until revealed
  await expect(row).toContainText('hidden');
  await row.getByRole('button', { name: 'Copy key of Ops hook' }).click();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  knownSecrets.add(key);
  await expect(row).not.toContainText(key);
  await row.getByRole('button', { name: 'Reveal key of Ops hook' }).click();
  await expect(row).toContainText(key);
  await expectNoAxeViolations(page, 'alert integrations');
  await expectFits(page, 'alert integrations');

  await page.getByRole('link', { name: 'Alert tester', exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: `Alert tester of ${project.name_with_namespace}` })).toBeVisible();
  await expect(page.getByLabel('Integration')).toHaveValue(/HttpIntegration/);
  const payload = page.getByLabel('Payload', { exact: true });
  await expect(payload).toHaveValue(/High CPU usage on web-1/);
  await expect(previewItem(page, 0)).toContainText('High CPU usage on web-1');
  await expect(previewItem(page, 0)).toContainText('High');
  await expect(previewItem(page, 0)).toContainText('Opens a new alert');

  // invalid JSON: where it breaks, and nothing can be sent
  await payload.fill('{\n  "title": "x",\n}');
  await expect(page.getByText(/^Line 3, column 1:/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send test alert' })).toBeDisabled();
  await page.getByRole('button', { name: 'Use the HTTP template' }).click();
  await expect(page.getByLabel('Authorization key')).toHaveValue(key);
  await expectNoAxeViolations(page, 'alert tester');
  await expectFits(page, 'alert tester');

  await page.getByRole('button', { name: 'Send test alert' }).click();
  await expect(page.getByRole('heading', { name: 'The instance answered 200' })).toBeVisible();
  const made = page.getByRole('list', { name: 'Resulting alerts' }).getByRole('link', { name: 'Alert #1: High CPU usage on web-1' });
  await expect(made).toBeVisible();
  // the alert is open now: the same payload would add an event to it
  await expect(previewItem(page, 0)).toContainText('Adds an event to open alert #1');

  await page.getByRole('radio', { name: 'Basic' }).check();
  await page.getByRole('button', { name: 'Send test alert' }).click();
  await expect(page.getByRole('list', { name: 'Resulting alerts' }).getByRole('link', { name: 'Alert #1: High CPU usage on web-1' })).toBeVisible();

  await made.click();
  await expect(page.getByRole('heading', { level: 1, name: 'High CPU usage on web-1' })).toBeVisible();
  const details = page.getByRole('definition');
  await expect(details.filter({ hasText: /High$/ })).toHaveCount(1);
  // two events: the Bearer one opened it, the Basic one was grouped on it
  await expect(details.filter({ hasText: /^2$/ })).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Alert payload' })).toContainText('"monitoring_tool": "Datadog"');
  await expectNoAxeViolations(page, 'alert detail');
  await expectFits(page, 'alert detail');

  // a new key: the old one is refused from then on
  await page.goto(`/projects/${project.id}/settings/alerts`);
  await row.getByRole('button', { name: 'Reset key of Ops hook' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Reset the key of Ops hook?' });
  await expect(confirm).toContainText('The current key stops working at once');
  await confirm.getByRole('button', { name: 'Reset key' }).click();
  await expect(confirm).toHaveCount(0);
  await row.getByRole('button', { name: 'Reveal key of Ops hook' }).click();
  await expect(row).not.toContainText(key);
  await page.goto(`/projects/${project.id}/alerts/tester`);
  await expect(page.getByLabel('Authorization key')).not.toHaveValue(key);
  await page.getByLabel('Authorization key').fill(key);
  await page.getByRole('button', { name: 'Send test alert' }).click();
  await expect(page.getByRole('heading', { name: 'The instance answered 401' })).toBeVisible();
});

test('the tester names each integration once: a name that is its type is not followed by the type again', async ({ page, api, baseURL, consoleServer }) => {
  const project = await newProject(api);
  await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http', 'HTTP endpoint');
  await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http', 'Queue monitor');
  await page.goto(`/projects/${project.id}/alerts/tester`);
  await expect(page.getByLabel('Integration').getByRole('option')).toHaveText(['HTTP endpoint', 'Queue monitor (HTTP endpoint)']);
});

test('map custom fields from a sample payload, and the tester previews and sends with the mapping', async ({ page, api, baseURL, consoleServer }) => {
  const project = await newProject(api);
  const integration = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http', 'Queue monitor');
  await page.goto(`/projects/${project.id}/settings/alerts`);
  await page.getByRole('button', { name: 'Field mapping of Queue monitor' }).click();
  const editor = page.getByRole('form', { name: 'Field mapping of Queue monitor' });
  await editor.getByLabel('Sample payload').fill(JSON.stringify({ alert: { name: 'Queue backlog', level: 'low' }, queue: 'mail' }, null, 2));
  await editor.getByLabel('Title from').selectOption({ label: 'alert.name (string)' });
  await editor.getByLabel('Severity from').selectOption({ label: 'alert.level (string)' });
  await expect(editor.getByRole('group', { name: 'The sample as an alert' })).toContainText('Queue backlog');
  await expect(editor.getByRole('group', { name: 'The sample as an alert' })).toContainText('Low');
  await expectNoAxeViolations(page, 'field mapping');
  await editor.getByRole('button', { name: 'Save mapping' }).click();
  await expect(editor).toHaveCount(0);

  await page.goto(`/projects/${project.id}/alerts/tester?integration=${encodeURIComponent(integration.id)}`);
  await page.getByLabel('Payload', { exact: true }).fill(JSON.stringify({ alert: { name: 'Queue backlog', level: 'low' }, queue: 'mail' }));
  await expect(previewItem(page, 0)).toContainText('Queue backlog');
  await expect(previewItem(page, 0)).toContainText('Low');
  await page.getByRole('button', { name: 'Send test alert' }).click();
  await page.getByRole('link', { name: 'Alert #1: Queue backlog' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Queue backlog' })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /Low$/ })).toHaveCount(1);
});

test('resolve an open alert by payload, as previewed; the metrics format from its template', async ({ page, api, baseURL, consoleServer }) => {
  const project = await newProject(api);
  const http = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http', 'Disk monitor');
  const metrics = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'prometheus');
  expect((await notify(http, { title: 'Disk full', fingerprint: 'disk-1', severity: 'medium' })).status).toBe(200);

  await page.goto(`/projects/${project.id}/alerts/tester?integration=${encodeURIComponent(http.id)}`);
  await page.getByLabel('Payload', { exact: true }).fill(JSON.stringify({ title: 'Disk full', fingerprint: 'disk-1', end_time: '2026-11-26T12:00:00Z' }));
  await expect(previewItem(page, 0)).toContainText('Resolves open alert #1');
  await page.getByRole('button', { name: 'Send test alert' }).click();
  await expect(page.getByRole('heading', { name: 'The instance answered 200' })).toBeVisible();
  await page.goto(`/projects/${project.id}/alerts/1`);
  await expect(page.getByRole('definition').filter({ hasText: 'Resolved' })).toHaveCount(1);

  await page.goto(`/projects/${project.id}/alerts/tester`);
  await page.getByLabel('Integration').selectOption(metrics.id);
  await expect(page.getByLabel('Payload', { exact: true })).toHaveValue(/"alerts"/);
  await expect(previewItem(page, 0)).toContainText('API latency above 500 ms');
  await expect(previewItem(page, 0)).toContainText('Opens a new alert');
  await page.getByRole('button', { name: 'Send test alert' }).click();
  await expect(page.getByRole('heading', { name: /^The instance answered 2\d\d$/ })).toBeVisible();
  await page.goto(`/projects/${project.id}/alerts`);
  await expect(page.getByRole('table', { name: 'Alerts' })).toContainText('API latency above 500 ms');
});

test('the alert list: tabs with counts, search and sort in the URL; alert text from payloads renders as text', async ({ page, api, baseURL, consoleServer }) => {
  const project = await newProject(api);
  const http = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http');
  for (const text of XSS_CORPUS) {
    expect((await notify(http, { title: text, description: text, hosts: [text], service: text, [text]: text, extra: { [text]: text } })).status).toBe(200);
  }
  expect((await notify(http, { title: 'Plain alert', severity: 'low' })).status).toBe(200);
  expect((await notify(http, { title: 'Done alert', fingerprint: 'done' })).status).toBe(200);
  expect((await notify(http, { title: 'Done alert', fingerprint: 'done', end_time: '2026-11-26T12:00:00Z' })).status).toBe(200);

  const mark = await api.requestMark();
  await page.goto(`/projects/${project.id}/alerts`);
  await expect(page.getByRole('heading', { level: 1, name: `Alerts of ${project.name_with_namespace}` })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: 'Alert statuses' });
  const open = XSS_CORPUS.length + 1;
  await expect(tabs.getByRole('link', { name: `Open ${open}` })).toBeVisible();
  // the list's query went out with the boot script, and the screen took its answer: asked once
  await page.waitForLoadState('networkidle');
  expect(await api.requestsSince(mark, { method: 'POST', path: '/api/graphql' })).toHaveLength(1);
  await expect(tabs.getByRole('link', { name: 'Resolved 1' })).toBeVisible();
  await expect(tabs.getByRole('link', { name: `All ${open + 1}` })).toBeVisible();
  const table = page.getByRole('table', { name: 'Alerts' });
  await expect(table.getByRole('row')).toHaveCount(open + 1);
  await expectNoScriptRan(page);
  await expectNoAxeViolations(page, 'alert list');
  await expectFits(page, 'alert list');

  await tabs.getByRole('link', { name: 'Resolved 1' }).click();
  await expect(page).toHaveURL(/[?&]tab=resolved/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Done alert');

  await tabs.getByRole('link', { name: `All ${open + 1}` }).click();
  await page.getByRole('searchbox', { name: 'Search alerts' }).fill('Plain');
  await expect(page).toHaveURL(/[?&]search=Plain/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await page.getByLabel('Sort by').selectOption('SEVERITY_DESC');
  await expect(page).toHaveURL(/[?&]sort=SEVERITY_DESC/);
  await page.reload();
  await expect(page.getByRole('searchbox', { name: 'Search alerts' })).toHaveValue('Plain');
  await expect(page.getByLabel('Sort by')).toHaveValue('SEVERITY_DESC');
  await expect(table.getByRole('row').nth(1)).toContainText('Plain alert');
  // a search that finds nothing says so, without two dead page buttons under it
  await page.getByRole('searchbox', { name: 'Search alerts' }).fill('no alert is called this');
  await expect(page.getByText('No alerts match “no alert is called this”.')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Alert pages' })).toHaveCount(0);

  // an alert made of the corpus: its page shows every field and the payload as text
  await page.goto(`/projects/${project.id}/alerts/1`);
  await expect(page.getByRole('heading', { level: 1, name: XSS_CORPUS[0] })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Alert payload' })).toContainText('extra');
  await expectNoScriptRan(page);
});

test("an alert's page: its status and assignees change, and the list shows them", async ({ page, api, baseURL, consoleServer }) => {
  const project = await newProject(api);
  const member = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: member.id, access_level: 30 });
  const http = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http');
  expect((await notify(http, { title: 'Triage me', severity: 'info' })).status).toBe(200);

  await page.goto(`/projects/${project.id}/alerts/1`);
  await expect(page.getByRole('heading', { level: 1, name: 'Triage me' })).toBeVisible();
  await page.getByLabel('Change status').selectOption('ACKNOWLEDGED');
  await expect(page.getByRole('definition').filter({ hasText: /^Acknowledged$/ })).toHaveCount(1);
  await page.getByLabel('Find a project member to assign').fill(member.username);
  await page.getByRole('button', { name: new RegExp(`^Assign .*@${member.username}`) }).click();
  await expect(page.getByRole('list', { name: 'Assignees' })).toContainText(member.name);

  await page.goto(`/projects/${project.id}/alerts`);
  const row = page.getByRole('table', { name: 'Alerts' }).getByRole('row').filter({ hasText: 'Triage me' });
  await expect(row).toContainText('Acknowledged');
  await expect(row).toContainText(`@${member.username}`);
  await expect(row).toContainText('Info');
});

test('an endpoint deactivated refuses alerts with 403 until activated again, and a deleted one is gone from the list and refuses too', async ({ page, api, baseURL, consoleServer, knownSecrets }) => {
  const project = await newProject(api);
  const integration = await newIntegration(baseURL!, consoleServer.adminToken, project.path_with_namespace, 'http', 'Pager hook');
  knownSecrets.add(integration.token);
  await page.goto(`/projects/${project.id}/settings/alerts`);
  const row = page.getByRole('table', { name: 'Alert integrations' }).getByRole('row').filter({ hasText: 'Pager hook' });
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: 'Deactivate Pager hook' }).click();
  await expect(row).toContainText('Inactive');
  expect((await notify(integration, { title: 'While paused' })).status).toBe(403);

  await row.getByRole('button', { name: 'Activate Pager hook' }).click();
  await expect(row.getByRole('button', { name: 'Deactivate Pager hook' })).toBeVisible();
  expect((await notify(integration, { title: 'After resuming' })).status).toBe(200);

  await row.getByRole('button', { name: 'Delete Pager hook' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete Pager hook?' });
  await confirm.getByRole('button', { name: 'Delete integration' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toHaveCount(0);
  expect((await notify(integration, { title: 'After deleting' })).status).toBe(403);
});

test('an endpoint added, deleted and added again under the same name: the second add is sent', async ({ page, api }) => {
  const project = await newProject(api);
  await page.goto(`/projects/${project.id}/settings/alerts`);
  const add = page.getByRole('form', { name: 'Add an alert integration' });
  const row = page.getByRole('table', { name: 'Alert integrations' }).getByRole('row').filter({ hasText: 'Relay' });
  const addRelay = async () => {
    await add.getByLabel('Integration name').fill('Relay');
    await add.getByRole('button', { name: 'Add integration' }).click();
    await expect(row).toContainText('Active', { timeout: 2_000 });
  };
  await addRelay();
  await row.getByRole('button', { name: 'Delete Relay' }).click();
  await page.getByRole('alertdialog', { name: 'Delete Relay?' }).getByRole('button', { name: 'Delete integration' }).click();
  await expect(row).toHaveCount(0);
  // the same input as the first add: a new press once a double click's span is over
  await expect(addRelay).toPass({ timeout: 10_000 });
});
