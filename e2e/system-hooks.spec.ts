import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { test, expect, DEMO_PATHS, applyAdminSession } from './fixtures.ts';
import { SystemHooksPage } from './pages/system-hooks.ts';

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver on a free loopback port that records every POST and answers 200. */
async function startReceiver(): Promise<{ port: number; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface HookAnswer {
  id: number;
  merge_requests_events: boolean;
  push_events: boolean;
  branch_filter_strategy: string;
  push_events_branch_filter: string | null;
  url_variables: Array<{ key: string }>;
}

test.describe('system hooks', () => {
  test('an administrator adds a hook with a URL variable and a secret, tests it, edits it and deletes it', async ({ page, context, api, adminSession }) => {
    const receiver = await startReceiver();
    api.cleanup(receiver.close);
    const tag = randomBytes(4).toString('hex');
    const name = `Audit receiver ${tag}`;
    const pathValue = `route-${randomBytes(6).toString('hex')}`;
    const secret = `shh-${randomBytes(8).toString('hex')}`;
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);

    await hooks.gotoList();
    await expect(hooks.heading('System hooks')).toBeVisible();
    await hooks.addHook.click();
    await expect(page).toHaveURL(/\/admin\/hooks\/new$/);
    const add = hooks.form('add');
    await add.url.fill(`http://127.0.0.1:${receiver.port}/{path}/events`);
    await add.name.fill(name);
    await add.secretToken.fill(secret);
    await add.event('Push').check();
    await expect(add.event('Repository update')).toBeChecked();
    await expect(add.verifyTls).toBeChecked();
    // the URL names {path}: without its variable the form refuses
    await add.submit('Add system hook').click();
    await expect(add.url).toHaveAttribute('aria-invalid', 'true');
    await expect(add.root.getByText('Add a URL variable for {path}')).toBeVisible();
    await add.addVariable.click();
    await add.variableKey(1).fill('path');
    await add.variableValue(1).fill(pathValue);
    await expect(add.variableValue(1)).toHaveAttribute('type', 'password');
    await add.submit('Add system hook').click();

    await expect(page).toHaveURL(/\/admin\/hooks\/\d+$/);
    const hookId = Number(new URL(page.url()).pathname.split('/').pop());
    api.deleteAfter(`/hooks/${hookId}`);
    await expect(hooks.heading(`System hook ${name}`)).toBeVisible();
    // keys shown, the value and the secret never
    await expect(hooks.variableKeys.getByRole('listitem')).toHaveCount(1);
    await expect(hooks.variableKeys).toContainText('path');
    await expect(page.getByText(pathValue)).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);
    const edit = hooks.form('edit');
    await expect(edit.secretToken).toHaveValue('');
    await expect(edit.root.getByText('Leave empty to keep the current token.', { exact: false })).toBeVisible();

    await hooks.testHook.click();
    await expect(hooks.testAnswer).toContainText('"event_name": "project_create"');
    await expect(page.getByRole('region', { name: 'Test' }).getByRole('status')).toHaveText('Delivered: the receiver answered 200.');
    await expect.poll(() => receiver.received.length).toBeGreaterThan(0);
    const [delivery] = receiver.received;
    expect(delivery.url).toBe(`/${pathValue}/events`);
    expect(delivery.headers['x-gitlab-token']).toBe(secret);
    expect(JSON.parse(delivery.body)).toMatchObject({ event_name: 'project_create' });
    await expect(hooks.deliveries.getByRole('row').filter({ hasText: '200' })).toHaveCount(1);

    // edit: events and branch strategy; the filter field follows the strategy
    await edit.event('Merge request').check();
    await edit.strategy('Regular expression').check();
    await edit.branchFilter.fill('^(main|release/.*)$');
    await edit.submit('Save changes').click();
    await expect.poll(async () => (await api.get<HookAnswer>(`/hooks/${hookId}`)).branch_filter_strategy).toBe('regex');
    const saved = await api.get<HookAnswer>(`/hooks/${hookId}`);
    expect(saved).toMatchObject({ merge_requests_events: true, push_events: true, push_events_branch_filter: '^(main|release/.*)$', url_variables: [{ key: 'path' }] });
    await expect(edit.strategy('Regular expression')).toBeChecked();
    await edit.strategy('All branches').check();
    await expect(edit.branchFilter).toHaveCount(0);
    await edit.submit('Save changes').click();
    await expect.poll(async () => (await api.get<HookAnswer>(`/hooks/${hookId}`)).branch_filter_strategy).toBe('all_branches');
    // the secret survived the edits: a second test still carries it. A press within 800 ms of the
    // first test's answer counts as its double click (useWrite), which a quick run of the edits can be
    await expect(async () => {
      await hooks.testHook.click();
      await expect.poll(() => receiver.received.length, { timeout: 2_000 }).toBe(2);
    }).toPass({ timeout: 10_000 });
    expect(receiver.received[1].headers['x-gitlab-token']).toBe(secret);

    // a variable the URL still uses cannot go
    await hooks.deleteVariable('path').click();
    await expect(page.getByRole('main').getByRole('alert').filter({ hasText: 'Could not unset variable' })).toBeVisible();

    await hooks.deleteHook.click();
    const confirm = hooks.confirmDelete(`Delete ${name}?`);
    await expect(confirm.root).toContainText('removed for good');
    await confirm.confirm.click();
    await expect(page).toHaveURL(/\/admin\/hooks$/);
    await expect(hooks.heading('System hooks')).toBeVisible();
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
    expect((await api.call('GET', `/hooks/${hookId}`)).status).toBe(404);
  });

  test('a hook added for push events receives a commit made through the API, and lists the delivery', async ({ page, context, api, adminSession }) => {
    const receiver = await startReceiver();
    api.cleanup(receiver.close);
    const name = `Push receiver ${randomBytes(4).toString('hex')}`;
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const project = await api.get<{ default_branch: string }>(`/projects/${projectId}`);
    const branch = project.default_branch;
    // a markdown body is not JSON, so the helper hands it back as text
    const original = await api.get<string>(`/projects/${projectId}/repository/files/README.md/raw?ref=${encodeURIComponent(branch)}`);
    expect(original).toContain('# Payments Service');
    // the demo README comes back once the hook is gone (cleanups run newest first)
    api.cleanup(() => api.post(`/projects/${projectId}/repository/commits`, { branch, commit_message: 'Restore README', actions: [{ action: 'update', file_path: 'README.md', content: original }] }));
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);

    await hooks.gotoList();
    await hooks.addHook.click();
    const add = hooks.form('add');
    await add.url.fill(`http://127.0.0.1:${receiver.port}/push`);
    await add.name.fill(name);
    await add.event('Push').check();
    await add.submit('Add system hook').click();
    await expect(page).toHaveURL(/\/admin\/hooks\/\d+$/);
    const hookId = Number(new URL(page.url()).pathname.split('/').pop());
    api.deleteAfter(`/hooks/${hookId}`);
    await expect(hooks.heading(`System hook ${name}`)).toBeVisible();
    expect(await api.get(`/hooks/${hookId}`)).toMatchObject({ push_events: true });

    const commit = await api.post<{ id: string }>(`/projects/${projectId}/repository/commits`, {
      branch,
      commit_message: `Hook check ${name}`,
      actions: [{ action: 'update', file_path: 'README.md', content: `${original}\n${name}\n` }],
    });

    // the screen polls the delivery log: the push shows up without a reload
    const pushDelivery = hooks.deliveries.getByRole('row').filter({ has: page.getByRole('cell', { name: 'push_hooks', exact: true }) });
    await expect(pushDelivery).toHaveCount(1);
    await expect(pushDelivery.getByRole('cell', { name: '200', exact: true })).toBeVisible();
    const pushes = () => receiver.received.filter((delivery) => (JSON.parse(delivery.body) as { event_name?: string }).event_name === 'push');
    await expect.poll(() => pushes().length).toBe(1);
    const [push] = pushes();
    expect(push.url).toBe('/push');
    expect(push.headers['x-gitlab-event']).toBe('System Hook');
    expect(JSON.parse(push.body)).toMatchObject({ object_kind: 'push', ref: `refs/heads/${branch}`, after: commit.id, project_id: projectId, total_commits_count: 1 });
  });

  test('a URL variable set, deleted and set again: each press is sent', async ({ page, context, api, adminSession }) => {
    const name = `Variables ${randomBytes(4).toString('hex')}`;
    const hook = await api.post<{ id: number }>('/hooks', { url: 'https://receiver.invalid/in', name });
    api.deleteAfter(`/hooks/${hook.id}`);
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);
    await page.goto(`/admin/hooks/${hook.id}`);
    const setExtra = async () => {
      await hooks.variableForm.getByLabel('Variable key', { exact: true }).fill('extra');
      await hooks.variableForm.getByLabel('Variable value', { exact: true }).fill('one');
      await hooks.variableForm.getByRole('button', { name: 'Save variable', exact: true }).click();
      await expect(hooks.variableKeys).toContainText('extra', { timeout: 2_000 });
    };
    await setExtra();
    await hooks.deleteVariable('extra').click();
    await expect(hooks.variableKeys).toHaveCount(0);
    // the same key and value as the first press: a new press once a double click's span is over
    await expect(setExtra).toPass({ timeout: 10_000 });
    expect((await api.get<HookAnswer>(`/hooks/${hook.id}`)).url_variables).toEqual([{ key: 'extra' }]);
  });

  test('the list shows a hook’s events and TLS setting, and deletes it after confirmation', async ({ page, context, api, adminSession }) => {
    const name = `Listed ${randomBytes(4).toString('hex')}`;
    const hook = await api.post<{ id: number }>('/hooks', { url: 'https://receiver.invalid/{who}', name, tag_push_events: true, enable_ssl_verification: false, url_variables: [{ key: 'who', value: 'x' }] });
    api.deleteAfter(`/hooks/${hook.id}`);
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);
    await hooks.gotoList();
    const row = hooks.row(name);
    await expect(row).toContainText('https://receiver.invalid/{who}');
    await expect(row).toContainText('Tag push, Repository update');
    await expect(row).toContainText('Disabled');
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = hooks.confirmDelete(`Delete ${name}?`);
    await confirm.confirm.click();
    await expect(confirm.root).toBeHidden();
    await expect(row).toHaveCount(0);
  });

  test('where the instance keeps no delivery log, the hook screen says so and still works', async ({ page, context, api, adminSession }) => {
    const name = `No log ${randomBytes(4).toString('hex')}`;
    const hook = await api.post<{ id: number }>('/hooks', { url: 'https://receiver.invalid/in', name });
    api.deleteAfter(`/hooks/${hook.id}`);
    // a real instance answers this sandbox-only path with its HTML 404 page
    await page.route('**/-/sandbox/hooks/*/deliveries', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><h1>404</h1>' }));
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);
    await page.goto(`/admin/hooks/${hook.id}`);
    await expect(hooks.heading(`System hook ${name}`)).toBeVisible();
    await expect(hooks.notice('Recent deliveries are not available on this instance')).toBeVisible();
    await expect(hooks.deliveries).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await hooks.testHook.click();
    await expect(hooks.testAnswer).toContainText('"owner_email": "example@gitlabhq.com"');
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: 'does not report whether the receiver accepted it' })).toBeVisible();
  });

  test('a test whose delivery is refused says it failed beside the button, not only in the log', async ({ page, context, api, adminSession }) => {
    // a port that was free a moment ago: nothing listens there
    const closed = await startReceiver();
    await closed.close();
    const name = `Refused ${randomBytes(4).toString('hex')}`;
    const hook = await api.post<{ id: number }>('/hooks', { url: `http://127.0.0.1:${closed.port}/in`, name, description: 'Audit trail' });
    api.deleteAfter(`/hooks/${hook.id}`);
    const hooks = new SystemHooksPage(page);
    await applyAdminSession(context, adminSession);
    await page.goto(`/admin/hooks/${hook.id}`);
    await hooks.testHook.click();
    const test = page.getByRole('region', { name: 'Test' });
    await expect(test.getByRole('alert')).toContainText(/The delivery failed: .*ECONNREFUSED/);
    await expect(test.getByRole('status')).toHaveCount(0);

    // the edit form shows the name and description the add form set, and why they stay
    const edit = hooks.form('edit');
    await expect(edit.name).toHaveValue(name);
    await expect(edit.name).not.toBeEditable();
    await expect(edit.root.getByLabel('Description', { exact: true })).toHaveValue('Audit trail');
    await expect(edit.root.getByLabel('Description', { exact: true })).toHaveAccessibleDescription(/the platform’s update does not change them/);
  });

  test('a non-administrator is told system hooks are for administrators', async ({ page, api, connectAs }) => {
    const user = await api.createUser();
    const hooks = new SystemHooksPage(page);
    await connectAs(page, user.token);
    await hooks.gotoList();
    await expect(hooks.heading('System hooks')).toBeVisible();
    await expect(hooks.notice('administrators only')).toBeVisible();
    await expect(hooks.table).toHaveCount(0);
    await page.goto('/admin/hooks/new');
    await expect(hooks.notice('administrators only')).toBeVisible();
  });
});
