import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { axeViolations } from './axe.ts';
import { applyAdminSession, expect, test, type Api } from './fixtures.ts';
import { PipelinesPage, RunPipelinePage } from './pages/pipelines.ts';
import { XSS_CORPUS, expectNoScriptRan } from './xss.ts';

interface PipelineAnswer {
  id: number;
  status: string;
  ref: string;
}

const unique = () => randomBytes(4).toString('hex');
const utcDay = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

/**
 * A CI file with variables the run form prefills (described: one free, one with options) and plain ones it does not, a build
 * of BUILD_SECONDS, and jobs that variables switch on: SLOW=yes one that runs a minute, FAIL=yes
 * one that fails after two seconds.
 */
function ciFile(name: string, xss: string) {
  return `workflow:
  name: ${JSON.stringify(name)}
variables:
  SLOW: "no"
  FAIL: "no"
  BUILD_SECONDS: "1"
  EXTRA: ""
  GREETING:
    value: ${JSON.stringify(`hello${xss}`)}
    description: ${JSON.stringify(`What the job says${xss}`)}
  DEPLOY_ENV:
    value: staging
    options: [staging, production]
    description: Where to deploy
stages: [build, test]
build:
  stage: build
  script:
    - echo "$GREETING to $DEPLOY_ENV with $EXTRA"
    - sleep $BUILD_SECONDS
slow:
  stage: build
  rules:
    - if: '$SLOW == "yes"'
  script:
    - sleep 60
test:
  stage: test
  script:
    - echo done
fail:
  stage: test
  rules:
    - if: '$FAIL == "yes"'
  script:
    - sleep 2
    - exit 3
`;
}

/** A project of this test's own with the CI file on main. */
async function ciProject(api: Api, options: { name?: string; xss?: string } = {}) {
  const project = await api.post<{ id: number; name_with_namespace: string; path_with_namespace: string }>('/projects', { name: `e2e-pipelines-${unique()}` });
  await api.post(`/projects/${project.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Add the CI file',
    actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: ciFile(options.name ?? 'Checks', options.xss ?? '') }],
  });
  return project;
}

/** A pipeline through the API (not the screen under test), with variables. */
function runThroughApi(api: Api, projectId: number, variables: Record<string, string> = {}, ref = 'main') {
  return api.post<PipelineAnswer>(`/projects/${projectId}/pipeline`, { ref, variables: Object.entries(variables).map(([key, value]) => ({ key, value })) });
}

async function waitForStatus(api: Api, projectId: number, pipelineId: number, statuses: string[]) {
  await expect
    .poll(async () => (await api.get<PipelineAnswer>(`/projects/${projectId}/pipelines/${pipelineId}`)).status, { timeout: 30_000 })
    .toMatch(new RegExp(`^(${statuses.join('|')})$`));
}

test.describe('pipelines (administrator)', () => {
  test.describe.configure({ mode: 'parallel' });
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('run a pipeline with variables prefilled from the CI file, and watch it finish live', async ({ page, api }) => {
    const project = await ciProject(api);
    const run = new RunPipelinePage(page);
    await run.goto(project.id);
    await expect(page.getByRole('heading', { level: 1, name: `Run a pipeline of ${project.name_with_namespace}` })).toBeVisible();
    await expect(run.ref).toHaveValue('main');
    // the file's variables, with their descriptions and options
    // the file's described variables (only those: as the platform's form), with their options
    await expect(run.key(1)).toHaveValue('GREETING');
    await expect(run.form.getByRole('group', { name: 'Variable 1 GREETING' })).toContainText('What the job says');
    await expect(run.value(1)).toHaveValue('hello');
    await expect(run.key(2)).toHaveValue('DEPLOY_ENV');
    await expect(run.value(2)).toHaveValue('staging');
    await expect(run.key(3)).toHaveValue('');
    await run.value(2).selectOption('production');
    await run.key(3).fill('EXTRA');
    await run.value(3).fill('from the form');
    // long enough for the list to be seen running
    await run.addVariable.click();
    await run.key(4).fill('BUILD_SECONDS');
    await run.value(4).fill('6');
    // a bad key is refused before anything is sent, and the input stays
    await run.addVariable.click();
    await run.key(5).fill('NOT OK');
    await run.value(5).fill('x');
    const mark = await api.requestMark();
    await run.submit.click();
    await expect(run.form.getByText('Only letters, digits and _ (no spaces)')).toBeVisible();
    await expect(run.key(5)).toHaveValue('NOT OK');
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4/projects/${project.id}/pipeline` })).toEqual([]);
    await run.key(5).fill('EXTRA_NOTE');
    await run.type(5).selectOption('file');
    await run.submit.click();

    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/pipelines/(\\d+)$`));
    const pipelineId = Number(/pipelines\/(\d+)$/.exec(page.url())![1]);
    const variables = await api.get<Array<{ key: string; value: string; variable_type: string }>>(`/projects/${project.id}/pipelines/${pipelineId}/variables`);
    expect(variables).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'EXTRA', value: 'from the form' }),
        expect.objectContaining({ key: 'DEPLOY_ENV', value: 'production' }),
        expect.objectContaining({ key: 'EXTRA_NOTE', value: 'x', variable_type: 'file' }),
      ]),
    );

    // the list follows it without a reload: running, then passed
    const list = new PipelinesPage(page);
    await list.goto(project.id, '?source=api');
    await expect(list.row(pipelineId).getByText(/^(Pending|Running|Created)$/)).toBeVisible();
    await expect(list.row(pipelineId).getByText('Passed', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(list.row(pipelineId)).toContainText('@root');
    await expect(list.row(pipelineId)).toContainText(/\ds/);
  });

  test('a refused run keeps the input and says why', async ({ page, api }) => {
    const project = await ciProject(api);
    await api.post(`/projects/${project.id}/repository/branches`, { branch: 'no-ci', ref: 'main' });
    await api.post(`/projects/${project.id}/repository/commits`, { branch: 'no-ci', commit_message: 'No CI here', actions: [{ action: 'delete', file_path: '.gitlab-ci.yml' }] });
    const run = new RunPipelinePage(page);
    await run.goto(project.id, '?ref=no-ci');
    await expect(run.ref).toHaveValue('no-ci');
    await run.key(1).fill('KEEP_ME');
    await run.value(1).fill('typed');
    await run.submit.click();
    await expect(run.form.getByRole('alert')).toBeVisible();
    await expect(run.key(1)).toHaveValue('KEEP_ME');
    await expect(run.value(1)).toHaveValue('typed');
    await expect(page).toHaveURL(/\/pipelines\/new/);
  });

  test("the CI file's variables arriving while the user types keep the row and its focus", async ({ page, api }) => {
    const project = await ciProject(api);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/graphql', async (route) => {
      if (route.request().postData()?.includes('ciConfigVariables')) await held;
      await route.fallback();
    });
    const run = new RunPipelinePage(page);
    await run.goto(project.id);
    await expect(run.form.getByText('Reading the variables the CI file defines for this ref…')).toBeVisible();
    await run.key(1).click();
    await page.keyboard.type('KEEP');
    release();
    await expect(run.key(1)).toHaveValue('GREETING');
    await page.keyboard.type('_ME');
    await expect(run.key(3)).toHaveValue('KEEP_ME');
    await expect(run.key(3)).toBeFocused();
    await expect(run.key(4)).toHaveValue('');
  });

  test('cancel a running pipeline from the list', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id, { SLOW: 'yes' });
    await waitForStatus(api, project.id, pipeline.id, ['running']);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.row(pipeline.id).getByText('Running', { exact: true })).toBeVisible();
    await list.action(pipeline.id, 'Cancel').click();
    await expect(list.row(pipeline.id).getByText('Canceled', { exact: true })).toBeVisible();
    await expect(list.action(pipeline.id, 'Cancel')).toHaveCount(0);
    await expect(list.action(pipeline.id, 'Retry')).toBeVisible();
    expect((await api.get<PipelineAnswer>(`/projects/${project.id}/pipelines/${pipeline.id}`)).status).toBe('canceled');
  });

  test('retry a failed pipeline: it runs again and the list follows', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id, { FAIL: 'yes' });
    await waitForStatus(api, project.id, pipeline.id, ['failed']);
    const list = new PipelinesPage(page);
    await list.goto(project.id, '?status=failed');
    await expect(list.row(pipeline.id).getByText('Failed', { exact: true })).toBeVisible();
    const mark = await api.requestMark();
    await list.action(pipeline.id, 'Retry').click();
    await expect(page.getByRole('status').filter({ hasText: `Retried pipeline #${pipeline.id}.` })).toBeVisible();
    expect(await api.requestsSince(mark, { method: 'POST', path: `/api/v4/projects/${project.id}/pipelines/${pipeline.id}/retry` })).toHaveLength(1);
    // the status filter is the URL's: the retried pipeline leaves the failed list while it runs, and comes back
    await list.goto(project.id);
    await expect(list.row(pipeline.id).getByText('Failed', { exact: true })).toBeVisible({ timeout: 30_000 });
  });

  test('delete a pipeline after confirming', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id);
    await waitForStatus(api, project.id, pipeline.id, ['success']);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await list.action(pipeline.id, 'Delete').click();
    const dialog = page.getByRole('alertdialog', { name: `Delete pipeline #${pipeline.id}?` });
    await expect(dialog).toContainText('cannot be undone');
    await dialog.getByRole('button', { name: 'Delete pipeline' }).click();
    await expect(dialog).toBeHidden();
    await expect(list.row(pipeline.id)).toHaveCount(0);
    expect((await api.call('GET', `/projects/${project.id}/pipelines/${pipeline.id}`)).status).toBe(404);
  });

  test('filter by a date range and jump to a date; every filter is in the URL', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id);
    await waitForStatus(api, project.id, pipeline.id, ['success']);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.row(pipeline.id)).toBeVisible();

    await list.openMoreFilters();
    await list.updatedFrom.fill(utcDay(1));
    await expect.poll(param(page, 'updated_after')).toBe(utcDay(1));
    await expect(page.getByRole('status', { name: 'No pipeline matches these filters.' })).toBeVisible();
    await list.updatedFrom.fill(utcDay(-1));
    await expect(list.row(pipeline.id)).toBeVisible();

    // jump to yesterday: nothing of this project yet; to today: the pipeline, newest update first
    await list.jumpForm.getByLabel('Jump to date').fill(utcDay(-1));
    await list.jumpForm.getByRole('button', { name: 'Jump' }).click();
    await expect.poll(param(page, 'updated_before')).toBe(utcDay(-1));
    expect(param(page, 'updated_after')()).toBeNull();
    expect(param(page, 'order_by')()).toBe('updated_at');
    await expect(page.getByRole('status', { name: 'No pipeline matches these filters.' })).toBeVisible();
    await list.jumpForm.getByLabel('Jump to date').fill(utcDay());
    await list.jumpForm.getByRole('button', { name: 'Jump' }).click();
    await expect(list.row(pipeline.id)).toBeVisible();
    await expect(list.updatedUntil).toHaveValue(utcDay());

    // a bookmarked view opens as it was left
    await list.goto(project.id, `?status=success&source=api&ref=main&scope=branches&updated_before=${utcDay()}&order_by=updated_at&sort=asc`);
    await expect(list.status).toHaveValue('success');
    await expect(list.ref).toHaveValue('main');
    await expect(list.tab('Branches')).toHaveAttribute('aria-current', 'page');
    await expect(list.row(pipeline.id)).toBeVisible();
    await list.status.selectOption('failed');
    await expect.poll(param(page, 'status')).toBe('failed');
    await expect(list.row(pipeline.id)).toHaveCount(0);
  });

  test('on a phone the filters fold away, closed unless one is set, so the list comes first', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id);
    await page.setViewportSize({ width: 390, height: 844 });
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.row(pipeline.id)).toBeInViewport();
    await expect(list.filters).toBeHidden();
    await page.getByText('Filters', { exact: true }).click();
    await list.status.selectOption('failed');
    await expect.poll(param(page, 'status')).toBe('failed');
    await expect(page.getByText('Filters (1 set)', { exact: true })).toBeVisible();
    // opened with a filter set, they show it
    await page.reload();
    await expect(list.status).toHaveValue('failed');
    // a wide window shows them as they are
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(page.getByText('Filters (1 set)', { exact: true })).toHaveCount(0);
    await expect(list.status).toBeVisible();
  });

  test('no accessibility violations on the list and the run form', async ({ page, api }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id);
    await waitForStatus(api, project.id, pipeline.id, ['success']);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.row(pipeline.id).getByText('Passed', { exact: true })).toBeVisible();
    await list.openMoreFilters();
    const violations = await axeViolations(page, 'pipelines list');
    const run = new RunPipelinePage(page);
    await run.goto(project.id);
    await expect(run.key(1)).toHaveValue('GREETING');
    violations.push(...(await axeViolations(page, 'run form')));
    expect(violations).toEqual([]);
  });

  test('user text in refs, pipeline names and variables renders as text', async ({ page, api }) => {
    const xss = XSS_CORPUS.join(' ');
    const project = await ciProject(api, { name: `Nightly ${xss}`, xss: ` ${XSS_CORPUS[0]}` });
    // a ref may hold < > " = and /
    const ref = `xss/<svg/onload=window.__xss=true>`;
    await api.post(`/projects/${project.id}/repository/branches`, { branch: ref, ref: 'main' });
    const pipeline = await runThroughApi(api, project.id, { EXTRA: XSS_CORPUS[1] }, ref);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.row(pipeline.id)).toContainText(ref);
    await expect(list.row(pipeline.id)).toContainText(XSS_CORPUS[0]);
    await expectNoScriptRan(page);

    const run = new RunPipelinePage(page);
    await run.goto(project.id, `?ref=${encodeURIComponent(ref)}`);
    await expect(run.ref).toHaveValue(ref);
    await expect(run.form.getByRole('group', { name: 'Variable 1 GREETING' })).toContainText(XSS_CORPUS[0]);
    await expect(run.value(1)).toHaveValue(`hello ${XSS_CORPUS[0]}`);
    await expectNoScriptRan(page);
  });

  test('the durations chart of a ref has its figures in words and in a table', async ({ page, api }) => {
    const project = await ciProject(api);
    for (const extra of ['first', 'second']) {
      const pipeline = await runThroughApi(api, project.id, { EXTRA: extra });
      await waitForStatus(api, project.id, pipeline.id, ['success']);
    }
    await page.goto(`/projects/${project.id}/pipelines/charts?ref=main&count=20`);
    await expect(page.getByRole('status', { name: 'Durations summary' })).toContainText('Median duration');
    await page.getByText('The same figures as a table').click();
    await expect(page.getByRole('table', { name: 'Durations of the last pipelines on main' }).getByRole('row')).not.toHaveCount(1);
    expect(await axeViolations(page, 'durations chart')).toEqual([]);
  });
});

test.describe('pipelines (developer and reporter)', () => {
  test('a Developer retries but does not delete; a Reporter only reads, and is told why', async ({ page, api, connectAs }) => {
    const project = await ciProject(api);
    const pipeline = await runThroughApi(api, project.id, { FAIL: 'yes' });
    await waitForStatus(api, project.id, pipeline.id, ['failed']);
    const developer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await connectAs(page, developer.token);
    const list = new PipelinesPage(page);
    await list.goto(project.id);
    await expect(list.action(pipeline.id, 'Retry')).toBeVisible();
    await expect(list.action(pipeline.id, 'Delete')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Run pipeline' })).toBeVisible();

    const reporter = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await connectAs(page, reporter.token);
    await list.goto(project.id);
    await expect(list.row(pipeline.id).getByText('Failed', { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByRole('note')).toContainText('Only Developers, Maintainers and Owners of this project can run, retry and cancel pipelines.');
    await expect(list.action(pipeline.id, 'Retry')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Run pipeline' })).toHaveCount(0);
  });
});
