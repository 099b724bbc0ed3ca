import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { RunnerFleetPage, RunnerPage } from './pages/runners.ts';
import { apiAnswers } from './api-answers.ts';

interface RunnerAnswer {
  id: number;
  paused: boolean;
  tag_list?: string[];
  run_untagged?: boolean;
  maintenance_note?: string | null;
}

/** One search param of the page's URL, for `expect.poll`: retried until it matches. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

/** `x-total` of a one-row page of the instance fleet with these filters, straight from the API. */
async function fleetTotal(api: Api, query: string): Promise<number> {
  const answer = await api.call('GET', `/runners/all?per_page=1${query ? `&${query}` : ''}`);
  expect(answer.status).toBe(200);
  return Number(answer.headers.get('x-total'));
}

/** Instance runners made for one test, all carrying a tag no other runner has; deleted after it. */
async function taggedRunners(api: Api, count: number, options: { description?: string } = {}) {
  const tag = `e2e-${randomBytes(4).toString('hex')}`;
  const ids: number[] = [];
  for (let index = 0; index < count; index++) {
    const created = await api.post<{ id: number }>('/user/runners', {
      runner_type: 'instance_type',
      description: options.description ? `${options.description} ${index + 1}` : `E2E runner ${tag} ${index + 1}`,
      tag_list: [tag],
    });
    api.deleteAfter(`/runners/${created.id}`);
    ids.push(created.id);
  }
  return { tag, ids };
}

const tagSearch = (tag: string) => `?tag_list=${encodeURIComponent(JSON.stringify([tag]))}`;

// each test makes or reads its own objects and each worker has its own sandbox: the file's tests spread over both workers
test.describe.configure({ mode: 'parallel' });

test.describe('runner fleet (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('counts by status and type are the API’s x-total of each filter', async ({ page, api }) => {
    const fleet = new RunnerFleetPage(page);
    const statuses = { Online: 'online', Offline: 'offline', Stale: 'stale', 'Never contacted': 'never_contacted' };
    // a status follows the clock (a runner goes offline two hours after its last contact): the
    // screen's count is the API's at some moment between these two readings
    const totalsBefore = await Promise.all(Object.values(statuses).map((status) => fleetTotal(api, `status=${status}`)));
    await fleet.goto();
    await expect(fleet.heading('Runner fleet')).toBeVisible();
    for (const [index, [label, status]] of Object.entries(statuses).entries()) {
      await expect(fleet.count('Runners by status', label)).toHaveAccessibleName(new RegExp(`^${label}: \\d+ runners$`));
      const totalAfter = await fleetTotal(api, `status=${status}`);
      const shown = Number(/: (\d+) runners$/.exec((await fleet.count('Runners by status', label).getAttribute('aria-label')) ?? '')?.[1]);
      expect(shown, label).toBeGreaterThanOrEqual(Math.min(totalsBefore[index], totalAfter));
      expect(shown, label).toBeLessThanOrEqual(Math.max(totalsBefore[index], totalAfter));
    }
    const types = { Instance: 'instance_type', Group: 'group_type', Project: 'project_type' };
    let sum = 0;
    for (const [label, type] of Object.entries(types)) {
      const total = await fleetTotal(api, `type=${type}`);
      sum += total;
      await expect(fleet.count('Runners by type', label)).toHaveAccessibleName(`${label}: ${total} runners`);
    }
    // the seeded fleet is at least 2,500 runners, and the counts did not load it
    expect(sum).toBeGreaterThanOrEqual(2500);
    // a count is a link to the filtered list
    await fleet.count('Runners by status', 'Stale').click();
    await expect.poll(param(page, 'status')).toBe('stale');
  });

  test('every filter lives in the URL and survives a reload', async ({ page, api }) => {
    const fleet = new RunnerFleetPage(page);
    await fleet.goto();
    await fleet.type.selectOption({ label: 'Project' });
    await expect.poll(param(page, 'type')).toBe('project_type');
    await fleet.status.selectOption({ label: 'Offline' });
    await expect.poll(param(page, 'status')).toBe('offline');
    // the status and type counts are filter chips: the ones in force are marked, whatever else is filtered
    await expect(fleet.count('Runners by status', 'Offline')).toHaveAttribute('aria-current', 'page');
    await expect(fleet.count('Runners by type', 'Project')).toHaveAttribute('aria-current', 'page');
    await expect(fleet.count('Runners by status', 'Online')).not.toHaveAttribute('aria-current');
    await fleet.paused.selectOption({ label: 'Not paused' });
    await expect.poll(param(page, 'paused')).toBe('false');
    await fleet.tags.fill('docker');
    await fleet.tags.press('Enter');
    await expect.poll(param(page, 'tag_list')).toBe('["docker"]');
    await fleet.versionPrefix.fill('17');
    await fleet.versionPrefix.press('Enter');
    // the router writes a numeric-looking string as JSON, so it reads back as text
    await expect.poll(param(page, 'version_prefix')).toBe('"17"');

    const total = await fleetTotal(api, 'type=project_type&status=offline&paused=false&tag_list=docker&version_prefix=17');
    expect(total).toBeGreaterThan(0);
    const shown = page.getByRole('status', { name: /^Shown: / });
    await expect(shown).toHaveAccessibleName(new RegExp(` of ${total}$`));

    await page.reload();
    await expect(fleet.type).toHaveValue('project_type');
    await expect(fleet.status).toHaveValue('offline');
    await expect(fleet.paused).toHaveValue('false');
    await expect(fleet.tags).toHaveValue('docker');
    await expect(fleet.versionPrefix).toHaveValue('17');
    await expect(shown).toHaveAccessibleName(new RegExp(` of ${total}$`));
  });

  test('select a page of runners, pause them, then resume them', async ({ page, api }) => {
    const { tag, ids } = await taggedRunners(api, 2);
    const fleet = new RunnerFleetPage(page);
    await fleet.goto(tagSearch(tag));
    await expect(fleet.rows).toHaveCount(2);
    await fleet.selectPage.check();
    for (const id of ids) await expect(fleet.select(id)).toBeChecked();
    await expect(fleet.toolbar.getByRole('status')).toHaveText('2 selected');

    await fleet.action('Pause selected').click();
    await expect(fleet.outcome('Paused 2 runners.')).toBeVisible();
    for (const id of ids) expect((await api.get<RunnerAnswer>(`/runners/${id}`)).paused).toBe(true);
    for (const id of ids) await expect(fleet.row(id).getByText('Paused', { exact: true })).toBeVisible();

    for (const id of ids) await fleet.select(id).check();
    await fleet.action('Resume selected').click();
    await expect(fleet.outcome('Resumed 2 runners.')).toBeVisible();
    for (const id of ids) expect((await api.get<RunnerAnswer>(`/runners/${id}`)).paused).toBe(false);
    for (const id of ids) await expect(fleet.row(id).getByText('Paused', { exact: true })).toHaveCount(0);
  });

  test('pausing runners again after someone else resumed them is sent, not taken for a repeat', async ({ page, api }) => {
    const { tag, ids } = await taggedRunners(api, 2);
    const fleet = new RunnerFleetPage(page);
    await fleet.goto(tagSearch(tag));
    await fleet.selectPage.check();
    await fleet.action('Pause selected').click();
    await expect(fleet.outcome('Paused 2 runners.')).toBeVisible();

    for (const id of ids) await api.put(`/runners/${id}`, { paused: false });
    // the screen stays mounted: a filter shows the runners as they are now
    await fleet.paused.selectOption({ label: 'Not paused' });
    for (const id of ids) await expect(fleet.row(id)).toBeVisible();
    await fleet.selectPage.check();
    // a press within a double click's span of the first answer is its repeat: pressed again until past it
    await expect(async () => {
      await fleet.action('Pause selected').click();
      for (const id of ids) await expect.poll(async () => (await api.get<RunnerAnswer>(`/runners/${id}`)).paused, { timeout: 1000 }).toBe(true);
    }).toPass({ timeout: 10_000 });
  });

  test('export the filtered fleet as CSV, every page of it', async ({ page, api }) => {
    const { ids } = await taggedRunners(api, 1, { description: 'E2E, "quoted"' });
    const fleet = new RunnerFleetPage(page);
    // instance runners: more than two pages of 100, so the export follows pages
    await fleet.goto('?type=instance_type');
    await expect(fleet.rows.first()).toBeVisible();
    const total = await fleetTotal(api, 'type=instance_type');
    expect(total).toBeGreaterThan(200);

    const download = page.waitForEvent('download');
    await fleet.action('Export CSV').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^runners-instance-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await file.path(), 'utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('id,description,name,runner_type,status,paused,online,is_shared,job_execution_status,created_at,created_by');
    // a record per runner plus the header; the last CRLF leaves an empty tail
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 2).toBe(total);
    // RFC 4180: the description with a comma and quotes is quoted, its quotes doubled
    expect(text).toContain(`${ids[0]},"E2E, ""quoted"" 1",`);
    expect(lines.slice(1, -1).every((line) => line.split(',')[3] === 'instance_type' || line.includes('"'))).toBe(true);
  });

  test('edit a runner: the note counter, a server error kept on its field, then a save', async ({ page, api }) => {
    const { tag, ids: [id] } = await taggedRunners(api, 1);
    const runner = new RunnerPage(page);
    await runner.goto(id);
    await expect(runner.heading(id)).toBeVisible();
    await runner.button('Edit settings').click();
    await expect(runner.editDialog).toBeVisible();
    await expect(runner.field('Tags')).toHaveValue(tag);

    const note = runner.field('Maintenance note');
    await expect(note).toHaveAccessibleDescription('0 / 1024 characters');
    await note.fill('Disk almost full');
    await expect(note).toHaveAccessibleDescription('16 / 1024 characters');

    // the API's rules run in the form first
    const timeout = runner.field('Maximum job timeout (seconds)');
    await timeout.fill('300');
    await runner.editDialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(timeout).toHaveAccessibleDescription(/At least 600 seconds/);
    await timeout.fill('');

    // meanwhile someone stops the runner from taking untagged jobs: no tags is now invalid on the server
    await api.put(`/runners/${id}`, { run_untagged: false });
    await runner.field('Tags').fill('');
    await runner.editDialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(runner.field('Tags')).toHaveAttribute('aria-invalid', 'true');
    await expect(runner.field('Tags')).toHaveAccessibleDescription(/can not be empty when runner is not allowed to pick untagged jobs/);
    // what was typed stays
    await expect(note).toHaveValue('Disk almost full');
    expect((await api.get<RunnerAnswer>(`/runners/${id}`)).tag_list).toEqual([tag]);

    await runner.field('Tags').fill(`${tag}, gpu`);
    await runner.editDialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(runner.editDialog).toBeHidden();
    await expect(runner.section('Settings')).toContainText(`${tag}, gpu`);
    await expect(runner.section('Settings')).toContainText('Disk almost full');
    const saved = await api.get<RunnerAnswer>(`/runners/${id}`);
    expect(saved.tag_list).toEqual([tag, 'gpu']);
    expect(saved.maintenance_note).toBe('Disk almost full');
    expect(saved.run_untagged).toBe(false);
  });

  test('a job row names the job without a link to the sandbox, which has no web pages', async ({ page, api }) => {
    // the demo seed's docker autoscaler 0011, on the fleet's first page, ran a few jobs
    const runner = (await api.get<Array<{ id: number; description: string }>>('/runners/all?per_page=20')).find((item) => item.description === 'shared-docker-autoscaler-linux-0011')!;
    const [job] = await api.get<Array<{ id: number; name: string; web_url: string }>>(`/runners/${runner.id}/jobs?sort=desc`);
    expect(job.web_url).toMatch(/^http/);
    const runnerPage = new RunnerPage(page);
    await runnerPage.goto(runner.id);
    const jobs = runnerPage.section('Jobs');
    await expect(jobs.getByRole('row').filter({ hasText: `#${job.id} ${job.name}` })).toBeVisible();
    await expect(jobs.getByRole('link', { name: `#${job.id} ${job.name}` })).toHaveCount(0);
  });

  test('the pause toggle and the jobs filters of a runner page', async ({ page, api }) => {
    const { ids: [id] } = await taggedRunners(api, 1);
    const runner = new RunnerPage(page);
    await runner.goto(id);
    await runner.button('Pause runner').click();
    await expect(runner.button('Resume runner')).toBeVisible();
    expect((await api.get<RunnerAnswer>(`/runners/${id}`)).paused).toBe(true);
    await runner.button('Resume runner').click();
    await expect(runner.button('Pause runner')).toBeVisible();

    await runner.jobFilters.getByRole('combobox', { name: 'Job status' }).selectOption('failed');
    await expect.poll(param(page, 'status')).toBe('failed');
    await runner.jobFilters.getByRole('combobox', { name: 'Order' }).selectOption({ label: 'Oldest first' });
    await expect.poll(param(page, 'sort')).toBe('asc');
    await page.reload();
    await expect(runner.jobFilters.getByRole('combobox', { name: 'Job status' })).toHaveValue('failed');
    await expect(runner.section('Jobs').getByRole('status', { name: 'No failed jobs on this runner.' })).toBeVisible();
  });
});

test('a non-administrator sees no instance fleet and the console does not ask for it', async ({ page, connectAs }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/v4/runners/all')) asked.push(request.url());
  });
  await connectAs(page, DEMO_TOKENS.developer.secret);
  const fleet = new RunnerFleetPage(page);
  await fleet.goto();
  await expect(fleet.heading('Runner fleet')).toBeVisible();
  await expect(fleet.notice(/for administrators only/)).toBeVisible();
  await expect(fleet.table).toHaveCount(0);
  await expect(fleet.countList('Runners by status')).toHaveCount(0);
  expect(asked).toEqual([]);
});

test('a Developer on an instance runner’s page is told its jobs are for administrators, and they are not asked for', async ({ page, api, connectAs }) => {
  const [instanceRunner] = await api.get<Array<{ id: number }>>('/runners/all?type=instance_type&per_page=1');
  await connectAs(page, DEMO_TOKENS.developer.secret);
  const answers = apiAnswers(page);
  await page.goto(`/runners/${instanceRunner.id}`);
  const jobs = page.getByRole('region', { name: 'Jobs' });
  await expect(jobs.getByRole('note')).toHaveText('The jobs of an instance runner are shown to administrators only.');
  await expect(jobs.getByRole('table')).toHaveCount(0);
  // the platform would refuse them (403) on every visit
  expect(answers.filter((answer) => answer.includes(`/runners/${instanceRunner.id}/jobs`))).toEqual([]);
});

test('owners see their group’s fleet; a Maintainer who is not Owner is told why not, and the list is not asked for', async ({ page, api, connectAs }) => {
  const backend = await api.groupId('acme-engineering/backend');
  const owner = await api.createUser();
  await api.post(`/groups/${backend}/members`, { user_id: owner.id, access_level: 50 });
  api.cleanup(() => api.call('DELETE', `/groups/${backend}/members/${owner.id}`));

  await connectAs(page, owner.token);
  await page.goto(`/groups/${backend}/runners`);
  const fleet = new RunnerFleetPage(page);
  await expect(fleet.heading('Runners of Acme Engineering / Backend')).toBeVisible();
  const groupTotal = Number((await api.call('GET', `/groups/${backend}/runners?per_page=1&type=group_type`, { token: owner.token })).headers.get('x-total'));
  await expect(fleet.count('Runners by type', 'Group')).toHaveAccessibleName(`Group: ${groupTotal} runners`);
  await expect(fleet.notice(/only administrators can pause them/)).toBeVisible();
  await expect(fleet.rows.first()).toBeVisible();

  await page.goto('/connect');
  await connectAs(page, DEMO_TOKENS.maintainer.secret);
  const answers = apiAnswers(page);
  // a deep link: the boot script's early requests, then the loader's
  await page.goto(`/groups/${backend}/runners`);
  await expect(fleet.notice(/Only Owners of this group and administrators/)).toBeVisible();
  await expect(fleet.table).toHaveCount(0);
  await page.reload();
  await expect(fleet.notice(/Only Owners of this group and administrators/)).toBeVisible();
  // the role is read first: the list the platform would refuse (403) is never asked for
  expect(answers.filter((answer) => answer.endsWith(`/groups/${backend}/runners`))).toEqual([]);
});

test('a Maintainer whose role cannot be read is told so, with a retry, and is not told the fleet is for Owners until it is read', async ({ page, api, connectAs }) => {
  const tag = randomBytes(4).toString('hex');
  const group = await api.post<{ id: number }>('/groups', { name: `Unread role ${tag}`, path: `unread-role-${tag}` });
  const maintainer = await api.createUser();
  await api.post(`/groups/${group.id}/members`, { user_id: maintainer.id, access_level: 40 });
  const heal = await api.injectFault({ path: `/api/v4/groups/${group.id}/members/all`, methods: ['GET'], error_rate: 1, error_status: 503 });
  await connectAs(page, maintainer.token);
  await page.goto(`/groups/${group.id}/runners`);
  const fleet = new RunnerFleetPage(page);
  const unread = fleet.notice(/Your role here could not be read \(.+\), so the runners are not shown\./);
  // the read is retried (about 3.5 s) before the failure is said
  await expect(unread).toBeVisible({ timeout: 15_000 });
  await expect(fleet.notice(/Only Owners of this group/)).toHaveCount(0);
  await heal();
  await unread.getByRole('button', { name: 'Try again' }).click();
  await expect(fleet.notice(/Only Owners of this group and administrators/)).toBeVisible();
  await expect(unread).toHaveCount(0);
});

test('a runner of two projects is its owners’ in either: a Maintainer of the second may change it and see its jobs; a Developer of both is told why not, and nothing is refused', async ({ page, api, connectAs }) => {
  const tag = randomBytes(4).toString('hex');
  const first = await api.post<{ id: number }>('/projects', { name: `runner-first-${tag}` });
  const second = await api.post<{ id: number }>('/projects', { name: `runner-second-${tag}` });
  api.deleteAfter(`/projects/${first.id}`);
  api.deleteAfter(`/projects/${second.id}`);
  const runner = await api.post<{ id: number }>('/user/runners', { runner_type: 'project_type', project_id: first.id, description: `Shared ${tag}` });
  await api.post(`/projects/${second.id}/runners`, { runner_id: runner.id });
  const maintainer = await api.createUser();
  await api.post(`/projects/${first.id}/members`, { user_id: maintainer.id, access_level: 30 });
  await api.post(`/projects/${second.id}/members`, { user_id: maintainer.id, access_level: 40 });
  const developer = await api.createUser();
  for (const project of [first, second]) await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });

  await connectAs(page, maintainer.token);
  const answers = apiAnswers(page);
  await page.goto(`/runners/${runner.id}`);
  const detail = new RunnerPage(page);
  await expect(detail.button('Edit settings')).toBeVisible();
  // the platform deletes a runner of several projects for administrators only: the keyboard reaches
  // the button, which says why, and a press tells it on screen without asking to delete
  const why = 'The runner serves several projects: unassign it from the others first, or ask an administrator to delete it.';
  await expect(detail.button('Delete runner')).toBeDisabled();
  await expect(detail.button('Delete runner')).toHaveAccessibleDescription(why);
  await detail.button('Delete runner').focus();
  await expect(detail.button('Delete runner')).toBeFocused();
  await expect(page.getByText(why, { exact: true })).toBeHidden();
  await page.keyboard.press('Enter');
  await expect(page.getByText(why, { exact: true })).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByText(why, { exact: true })).toBeHidden();
  await expect(detail.section('Jobs').getByRole('note')).toHaveCount(0);
  await expect(detail.section('Jobs').getByText('This runner has run no jobs you can see.')).toBeVisible();

  await page.goto('/connect');
  await connectAs(page, developer.token);
  answers.length = 0;
  await page.goto(`/runners/${runner.id}`);
  await expect(detail.section('Jobs').getByRole('note')).toHaveText('Only Maintainers of one of the runner’s projects can see its jobs.');
  await expect(page.getByRole('main').getByRole('note').filter({ hasText: 'Only Maintainers of one of the runner’s projects can change it.' })).toBeVisible();
  await expect(detail.button('Edit settings')).toHaveCount(0);
  // the platform would refuse the jobs (403): they are not asked for
  expect(answers.filter((answer) => answer.includes(`/runners/${runner.id}/jobs`))).toEqual([]);
  expect(answers.filter((answer) => /^(4|5)\d\d /.test(answer))).toEqual([]);
});

test('a Maintainer assigns their project runner to another project they maintain, then unassigns it; the project it was made for keeps it', async ({ page, api, connectAs }) => {
  const tag = randomBytes(4).toString('hex');
  const [home, second, third] = [await api.post<{ id: number; name: string }>('/projects', { name: `runner-home-${tag}` }), await api.post<{ id: number; name: string }>('/projects', { name: `runner-second-${tag}` }), await api.post<{ id: number; name: string }>('/projects', { name: `runner-third-${tag}` })];
  for (const project of [home, second, third]) api.deleteAfter(`/projects/${project.id}`);
  const runner = await api.post<{ id: number }>('/user/runners', { runner_type: 'project_type', project_id: home.id, description: `Home ${tag}` });
  const maintainer = await api.createUser();
  await api.post(`/projects/${home.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await api.post(`/projects/${second.id}/members`, { user_id: maintainer.id, access_level: 40 });
  await api.post(`/projects/${third.id}/members`, { user_id: maintainer.id, access_level: 30 });

  await connectAs(page, maintainer.token);
  await page.goto(`/runners/${runner.id}`);
  const owners = page.getByRole('list', { name: 'Runner owners' });
  await expect(owners.getByRole('link', { name: new RegExp(home.name) })).toBeVisible();
  // the project it was made for keeps it: nothing to unassign while it serves one project
  await expect(owners.getByRole('button')).toHaveCount(0);
  await page.getByRole('button', { name: 'Assign to a project…', exact: true }).click();
  const dialog = page.getByRole('alertdialog', { name: `Assign runner #${runner.id} to a project` });
  // only projects where the caller is Maintainer, and not the one it serves already
  await expect(dialog.getByRole('radio', { name: new RegExp(second.name) })).toBeVisible();
  await expect(dialog.getByRole('radio')).toHaveCount(1);
  await dialog.getByRole('button', { name: 'Assign runner', exact: true }).click();
  await expect(dialog.getByText('Pick the project first.')).toBeVisible();
  await dialog.getByRole('radio', { name: new RegExp(second.name) }).check();
  await dialog.getByRole('button', { name: 'Assign runner', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Runner #${runner.id} now serves` })).toBeVisible();
  await expect(owners.getByRole('link', { name: new RegExp(second.name) })).toBeVisible();
  expect((await api.get<{ projects: Array<{ id: number }> }>(`/runners/${runner.id}`)).projects.map((project) => project.id)).toEqual([home.id, second.id]);

  await expect(owners.getByRole('button', { name: new RegExp(`Unassign from .*${home.name}`) })).toHaveCount(0);
  await owners.getByRole('button', { name: new RegExp(`Unassign from .*${second.name}`) }).click();
  await page.getByRole('alertdialog', { name: new RegExp(`^Unassign runner #${runner.id} from`) }).getByRole('button', { name: 'Unassign runner', exact: true }).click();
  await expect(owners.getByRole('link', { name: new RegExp(second.name) })).toHaveCount(0);
  expect((await api.get<{ projects: Array<{ id: number }> }>(`/runners/${runner.id}`)).projects.map((project) => project.id)).toEqual([home.id]);
});

test('a project’s Maintainer assigns there a project runner they own elsewhere, from the project’s runners page', async ({ page, api, connectAs }) => {
  const tag = randomBytes(4).toString('hex');
  const [home, second] = [await api.post<{ id: number }>('/projects', { name: `owned-home-${tag}` }), await api.post<{ id: number }>('/projects', { name: `owned-second-${tag}` })];
  for (const project of [home, second]) api.deleteAfter(`/projects/${project.id}`);
  const runner = await api.post<{ id: number }>('/user/runners', { runner_type: 'project_type', project_id: home.id, description: `Owned ${tag}` });
  const maintainer = await api.createUser();
  for (const project of [home, second]) await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });

  await connectAs(page, maintainer.token);
  await page.goto(`/projects/${second.id}/runners`);
  const fleet = new RunnerFleetPage(page);
  const others = page.getByRole('region', { name: 'Your other project runners' });
  await expect(others.getByRole('listitem').filter({ hasText: `#${runner.id} Owned ${tag}` })).toBeVisible();
  await others.getByRole('button', { name: `Assign runner #${runner.id} Owned ${tag} to this project` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Runner #${runner.id} Owned ${tag} now serves this project.` })).toBeVisible();
  await expect(others.getByRole('button', { name: new RegExp(`^Assign runner #${runner.id} `) })).toHaveCount(0);
  await expect(others.getByText(/^None: every project runner you own already serves this project/)).toBeVisible();
  await page.goto(`/projects/${second.id}/runners?type=project_type`);
  await expect(fleet.row(runner.id)).toBeVisible();
  expect((await api.get<{ projects: Array<{ id: number }> }>(`/runners/${runner.id}`)).projects.map((project) => project.id)).toEqual([home.id, second.id]);
});

test('a Maintainer who owns hundreds of project runners is offered them a hundred at a time, and reads on with Load more', async ({ page, api, connectAs }) => {
  const project = await api.projectId(DEMO_PATHS.inheritedProject);
  const secondPage = await api.get<Array<{ id: number }>>('/runners?type=project_type&per_page=100&page=2', { token: DEMO_TOKENS.maintainer.secret });
  const serving = new Set((await api.get<Array<{ id: number }>>(`/projects/${project}/runners?type=project_type&per_page=100`)).map((runner) => runner.id));
  const later = secondPage.find((runner) => !serving.has(runner.id));
  expect(later, 'a runner of the second page that does not serve the project').toBeDefined();

  await connectAs(page, DEMO_TOKENS.maintainer.secret);
  await page.goto(`/projects/${project}/runners`);
  const others = page.getByRole('region', { name: 'Your other project runners' });
  const offeredLater = others.getByRole('button', { name: new RegExp(`^Assign runner #${later!.id}( |$)`) });
  await expect(others.getByRole('status')).toHaveAccessibleName('Shown: 100 of your project runners read');
  await expect(offeredLater).toHaveCount(0);
  await others.getByRole('button', { name: 'Load more' }).click();
  await expect(others.getByRole('status')).toHaveAccessibleName('Shown: 200 of your project runners read');
  await expect(offeredLater).toBeVisible();
});

test('in a project’s fleet an instance runner’s box says why a Maintainer may not choose it, to the keyboard and the pointer, and stays clear; their own runner is chosen', async ({ page, api, connectAs }) => {
  const tag = randomBytes(4).toString('hex');
  const project = await api.post<{ id: number }>('/projects', { name: `fleet-refusal-${tag}` });
  api.deleteAfter(`/projects/${project.id}`);
  const own = await api.post<{ id: number }>('/user/runners', { runner_type: 'project_type', project_id: project.id, description: `Own ${tag}` });
  const maintainer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });

  await connectAs(page, maintainer.token);
  await page.goto(`/projects/${project.id}/runners?type=%22instance_type%22`);
  const fleet = new RunnerFleetPage(page);
  const why = 'Instance runners are managed by administrators.';
  const [first, second] = [fleet.rows.nth(0).getByRole('checkbox'), fleet.rows.nth(1).getByRole('checkbox')];
  // each refused box holds its reason, shown once pressed
  const told = fleet.table.getByText(why, { exact: true }).filter({ visible: true });
  await expect(first).toBeDisabled();
  await expect(first).toHaveAccessibleDescription(why);
  await expect(told).toHaveCount(0);
  // the keyboard reaches each (a disabled box could not take the focus), and Space tells why instead of ticking it
  await second.focus();
  await expect(second).toBeFocused();
  await page.keyboard.press('Space');
  await expect(told).toHaveCount(1);
  await expect(second).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(told).toHaveCount(0);
  // a pointer's press, the same
  await first.click({ force: true });
  await expect(told).toHaveCount(1);
  await expect(first).not.toBeChecked();
  await expect(fleet.selectPage).toBeDisabled();

  await page.goto(`/projects/${project.id}/runners?type=%22project_type%22`);
  await fleet.selectPage.check();
  await expect(fleet.select(own.id)).toBeChecked();
  await expect(fleet.toolbar.getByRole('button', { name: /^Pause/ })).toBeEnabled();
});
