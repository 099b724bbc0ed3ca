import { DEMO_PIPELINES } from '../sandbox/seed/pipelines.ts';
import { axeViolations } from './axe.ts';
import { jobNamed, newCiProject, settledPipeline, type JobAnswer, type PipelineAnswer } from './ci.ts';
import { applyAdminSession, DEMO_TOKENS, expect, test, type Api } from './fixtures.ts';
import { apiAnswers } from './api-answers.ts';
import { renderedLines } from './rendered-lines.ts';
import { JobPage, PipelinePage } from './pages/jobs.ts';
import { expectNoScriptRan, XSS_CORPUS } from './xss.ts';

test.describe.configure({ mode: 'parallel' });

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const XSS_JOB = XSS_CORPUS[0];

/**
 * A CI file whose pipeline fails in `test` (a failing job with a JUnit report), keeps a manual
 * `deploy` waiting, and writes coloured log lines around markup; the job names and the report
 * carry the XSS corpus.
 */
function ciFile(): string {
  // echo -e turns \e into ESC; the texts hold no single quote; a JSON string is a YAML scalar
  const echoes = XSS_CORPUS.map((text) => `    - ${JSON.stringify(`echo -e '\\e[31;1m${text}\\e[0m'`)}`).join('\n');
  return `stages: [build, test, deploy]

build:
  stage: build
  script:
    - echo "building"
${echoes}

${JSON.stringify(XSS_JOB)}:
  stage: test
  needs: [build]
  script:
    - echo "one test fails"
    - exit 1
  artifacts:
    reports:
      junit: report.xml

deploy:
  stage: deploy
  needs: [build]
  when: manual
  script:
    - echo "deployed to $TARGET"
`;
}

/** A JUnit report with one failing case per XSS text (names and output), and one passing case. */
function junitReport(): string {
  const cases = XSS_CORPUS.map(
    (text, index) => `    <testcase classname="xss.Case${index}" name="${xml(text)}" time="0.01"><failure message="boom">${xml(`expected no script: ${text}`)}</failure><system-out>${xml(`output ${index}: ${text}`)}</system-out></testcase>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="xss-suite" tests="${XSS_CORPUS.length + 1}" failures="${XSS_CORPUS.length}">
    <testcase classname="math.Adder" name="adds two numbers" time="0.002"/>
${cases}
  </testsuite>
</testsuites>
`;
}

/** A settled pipeline of the CI file above, in a project of its own. */
async function failedPipeline(api: Api): Promise<{ projectId: number; pipeline: PipelineAnswer; jobs: JobAnswer[] }> {
  const projectId = await newCiProject(api, { '.gitlab-ci.yml': ciFile(), 'report.xml': junitReport() });
  return { projectId, ...(await settledPipeline(api, projectId)) };
}

test.describe('pipeline detail and jobs', () => {
  test('a failed job’s log shows its coloured lines as text, and Retry runs it again', async ({ page, context, api, adminSession }) => {
    const { projectId, pipeline, jobs } = await failedPipeline(api);
    expect(pipeline.status).toBe('failed');
    const failed = jobNamed(jobs, XSS_JOB);
    const build = jobNamed(jobs, 'build');
    expect(failed.status).toBe('failed');
    await applyAdminSession(context, adminSession);

    // the build log: every XSS text, in red, as text
    const jobPage = new JobPage(page);
    await jobPage.goto(projectId, build.id);
    await expect(jobPage.heading('build')).toBeVisible();
    const log = jobPage.logLines('build');
    for (const text of XSS_CORPUS) await expect(log.getByText(text, { exact: true })).toBeVisible();
    await expectNoScriptRan(page);

    // the failed job: from the graph to its log, then Retry
    const pipelinePage = new PipelinePage(page);
    await pipelinePage.goto(projectId, pipeline.id);
    await expect(pipelinePage.heading(pipeline.id)).toBeVisible();
    await pipelinePage.graphJob(XSS_JOB).getByRole('link', { name: XSS_JOB, exact: true }).click();
    await expect(jobPage.heading(XSS_JOB)).toBeVisible();
    await expect(page.getByText('Failed: The script failed')).toBeVisible();
    await expect(jobPage.logLines(XSS_JOB).getByText('one test fails', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: `Retry ${XSS_JOB}`, exact: true }).click();
    // the retry is a new job: the page moves to it
    await expect(page).not.toHaveURL(new RegExp(`/jobs/${failed.id}$`));
    await expect(jobPage.heading(XSS_JOB)).toBeVisible();
    const retried = await api.get<JobAnswer[]>(`/projects/${projectId}/pipelines/${pipeline.id}/jobs?include_retried=true&per_page=100`);
    expect(retried.filter((job) => job.name === XSS_JOB)).toHaveLength(2);
    await expectNoScriptRan(page);
  });

  test('a manual job is played from the graph', async ({ page, context, api, adminSession }) => {
    const { projectId, pipeline, jobs } = await failedPipeline(api);
    const deploy = jobNamed(jobs, 'deploy');
    expect(deploy.status).toBe('manual');
    await applyAdminSession(context, adminSession);
    const pipelinePage = new PipelinePage(page);
    await pipelinePage.goto(projectId, pipeline.id);
    const box = pipelinePage.graphJob('deploy');
    await expect(box.getByText('Manual')).toBeVisible();
    await pipelinePage.jobAction('Run', 'deploy').click();
    // live: the box follows the job until it has passed
    await expect(box.getByText(/Passed/)).toBeVisible({ timeout: 30_000 });
    expect((await api.get<JobAnswer>(`/projects/${projectId}/jobs/${deploy.id}`)).status).toBe('success');
  });

  test('a manual job runs from its page with a variable for this run; a bad key keeps what was typed', async ({ page, context, api, adminSession }) => {
    const { projectId, jobs } = await failedPipeline(api);
    const deploy = jobNamed(jobs, 'deploy');
    await applyAdminSession(context, adminSession);
    const jobPage = new JobPage(page);
    await jobPage.goto(projectId, deploy.id);
    const form = page.getByRole('form', { name: 'Run this manual job' });
    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByLabel('Key of variable 1').fill('bad-key');
    await form.getByLabel('Value of variable 1').fill('eu-west');
    await form.getByRole('button', { name: 'Run job' }).click();
    await expect(form.getByText('Letters, digits and _ only')).toBeVisible();
    await expect(form.getByLabel('Key of variable 1')).toHaveValue('bad-key');
    await expect(form.getByLabel('Value of variable 1')).toHaveValue('eu-west');
    await form.getByLabel('Key of variable 1').fill('TARGET');
    await form.getByRole('button', { name: 'Run job' }).click();
    // live: the job runs and its log says where it went
    await expect(jobPage.logLines('deploy').getByText('deployed to eu-west', { exact: true })).toBeVisible({ timeout: 30_000 });
    expect((await api.get<JobAnswer>(`/projects/${projectId}/jobs/${deploy.id}`)).status).toBe('success');
  });

  test('the test report finds a case and shows a failure’s output as text', async ({ page, context, api, adminSession }) => {
    const { projectId, pipeline } = await failedPipeline(api);
    await applyAdminSession(context, adminSession);
    const pipelinePage = new PipelinePage(page);
    await pipelinePage.goto(projectId, pipeline.id);
    await pipelinePage.tab('Test report').click();
    // the platform names a report's suites after the jobs that reported them
    await expect(page.getByRole('table', { name: 'Test suites' }).getByRole('link', { name: `Cases of suite ${XSS_JOB}`, exact: true })).toBeVisible();
    await pipelinePage.searchCases.fill('adds two');
    await expect(page).toHaveURL(/search=adds/);
    await expect(pipelinePage.casesTable.getByRole('row')).toHaveCount(2);
    await expect(pipelinePage.casesTable.getByRole('cell', { name: 'adds two numbers' })).toBeVisible();
    await pipelinePage.searchCases.fill('');
    for (const text of XSS_CORPUS) await expect(pipelinePage.casesTable.getByText(text, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: `View output of ${XSS_CORPUS[0]}`, exact: true }).click();
    await expect(pipelinePage.outputDialog.getByText(`output 0: ${XSS_CORPUS[0]}`)).toBeVisible();
    await expect(pipelinePage.outputDialog.getByText(`expected no script: ${XSS_CORPUS[0]}`, { exact: true })).toBeVisible();
    await pipelinePage.outputDialog.getByRole('button', { name: 'Close' }).click();
    await expectNoScriptRan(page);
  });

  test('the 200-job graph shows its 10 stages and 200 jobs, each with its status', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    await applyAdminSession(context, adminSession);
    const pipelinePage = new PipelinePage(page);
    await pipelinePage.goto(projectId, DEMO_PIPELINES.bigGraphId);
    await expect(pipelinePage.heading(DEMO_PIPELINES.bigGraphId)).toBeVisible();
    await expect(pipelinePage.graph.getByRole('listitem')).toHaveCount(200);
    await expect(pipelinePage.graph.getByRole('heading', { level: 2 })).toHaveCount(10);
    await expect(pipelinePage.graph.getByRole('listitem').filter({ hasText: 'Passed' })).toHaveCount(200);
  });

  test('on a phone the jobs table keeps each job and stage name on one line and scrolls in its box', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    await applyAdminSession(context, adminSession);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/projects/${projectId}/pipelines/${DEMO_PIPELINES.bigGraphId}/jobs`);
    const table = page.getByRole('table', { name: 'Jobs of the pipeline' });
    const job = table.getByRole('link', { name: 's1-job-1', exact: true });
    // squeezed to a few letters' width it stood as "s1-" / "job" / "-1"
    expect(await job.evaluate(renderedLines)).toEqual(['s1-job-1']);
    expect(await table.getByRole('cell', { name: 'stage-1', exact: true }).first().evaluate(renderedLines)).toEqual(['stage-1']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  // The REST job has no `needs`; the console reads them as the platform's own graph does, over
  // GraphQL (project.pipeline(iid).jobs.nodes.needs)
  test('the 200-job graph draws its needs links', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    await applyAdminSession(context, adminSession);
    const pipelinePage = new PipelinePage(page);
    await pipelinePage.goto(projectId, DEMO_PIPELINES.bigGraphId);
    await expect(pipelinePage.needsLinks).toHaveAccessibleName(/^[1-9]\d* needs links?$/);
  });

  test('the demo’s 2,000-test report counts with thousands separators, as every count of the console does', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    await applyAdminSession(context, adminSession);
    await new PipelinePage(page).goto(projectId, DEMO_PIPELINES.bigLogId, 'test-report');
    await expect(page.getByLabel('Totals')).toContainText('2,000 tests');
    await expect(page.getByRole('table', { name: 'Test suites' }).getByRole('cell', { name: '2,000', exact: true })).toBeVisible();
  });

  test('a 100,000-line log opens at a linked line with its section open, rendering only lines in view', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    const jobs = await api.get<JobAnswer[]>(`/projects/${projectId}/pipelines/${DEMO_PIPELINES.bigLogId}/jobs?per_page=100`);
    const job = jobNamed(jobs, DEMO_PIPELINES.bigLogJob);
    await applyAdminSession(context, adminSession);
    const jobPage = new JobPage(page);
    await jobPage.goto(projectId, job.id, 54_321);
    const log = jobPage.logLines(job.name);
    await expect(log.getByRole('link', { name: '54321', exact: true })).toBeVisible();
    // the lines holding only a section's end marker are not lines of their own
    const count = Number((await page.getByText(/^[\d,]+ lines$/).textContent())!.replace(/\D/g, ''));
    expect(count).toBeGreaterThan(95_000);
    expect(count).toBeLessThanOrEqual(DEMO_PIPELINES.bigLogLines);
    // only the rows in view (and a few around them) are in the page
    expect(await log.getByRole('link').count()).toBeLessThan(200);
    await jobPage.lineLink(54_322).click();
    await expect(page).toHaveURL(/#L54322$/);
  });

  test('a running job’s log grows live and follows its end, until the reader scrolls up', async ({ page, context, api, adminSession }) => {
    const echoes = (from: number) => Array.from({ length: 80 }, (_, index) => `    - echo "line ${from + index}"`).join('\n');
    const projectId = await newCiProject(api, { '.gitlab-ci.yml': `slow:\n  script:\n${echoes(1)}\n    - sleep 4\n${echoes(81)}\n    - sleep 2\n    - echo "last line"\n` });
    const created = await api.post<PipelineAnswer>(`/projects/${projectId}/pipeline`, { ref: 'main' });
    await expect.poll(async () => (await api.get<JobAnswer[]>(`/projects/${projectId}/pipelines/${created.id}/jobs`))[0]?.status, { timeout: 30_000 }).toBe('running');
    const [job] = await api.get<JobAnswer[]>(`/projects/${projectId}/pipelines/${created.id}/jobs`);
    await applyAdminSession(context, adminSession);
    const jobPage = new JobPage(page);
    await jobPage.goto(projectId, job.id);
    const log = jobPage.logLines('slow');
    await expect(page.getByText('Following the log as it grows')).toBeVisible();
    await expect(log.getByText('line 80', { exact: true })).toBeVisible({ timeout: 30_000 });
    // scrolling up stops following: the lines that come next stay out of view
    await log.hover();
    await page.mouse.wheel(0, -5000);
    await expect(page.getByText('Not following: scroll to the end to follow')).toBeVisible();
    await expect.poll(async () => (await api.call<string>('GET', `/projects/${projectId}/jobs/${job.id}/trace`)).body, { timeout: 30_000 }).toContain('line 160');
    await expect(log.getByText('line 1', { exact: true })).toBeVisible();
    await expect(log.getByText('line 160', { exact: true })).toHaveCount(0);
    // back to the end: it follows again, to the job's last line
    await page.getByRole('button', { name: 'Scroll to end', exact: true }).click();
    await expect(page.getByText('Following the log as it grows')).toBeVisible();
    await expect(log.getByText('last line', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Passed', { exact: true })).toBeVisible({ timeout: 30_000 });
  });

  test('detail, log and test report pass axe', async ({ page, context, api, adminSession }) => {
    const { projectId, pipeline, jobs } = await failedPipeline(api);
    await applyAdminSession(context, adminSession);
    const pipelinePage = new PipelinePage(page);
    const violations: string[] = [];
    await pipelinePage.goto(projectId, pipeline.id);
    await expect(pipelinePage.needsLinks).toBeVisible();
    violations.push(...(await axeViolations(page, 'pipeline graph')));
    await pipelinePage.tab('Jobs').click();
    await expect(page.getByRole('table', { name: 'Jobs of the pipeline' })).toBeVisible();
    violations.push(...(await axeViolations(page, 'pipeline jobs')));
    await pipelinePage.tab('Test report').click();
    await expect(pipelinePage.casesTable).toBeVisible();
    violations.push(...(await axeViolations(page, 'test report')));
    await pipelinePage.tab('Variables').click();
    await expect(page.getByRole('status', { name: 'No variables' })).toBeVisible();
    violations.push(...(await axeViolations(page, 'pipeline variables')));
    const jobPage = new JobPage(page);
    await jobPage.goto(projectId, jobNamed(jobs, 'build').id);
    await expect(jobPage.logLines('build')).toBeVisible();
    violations.push(...(await axeViolations(page, 'job log')));
    expect(violations).toEqual([]);
  });

  test('someone who is no Developer of the project is told why a pipeline’s variables are not shown, and they are not asked for', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PIPELINES.project);
    const [pipeline] = await api.get<PipelineAnswer[]>(`/projects/${projectId}/pipelines?per_page=1`);
    // the demo's read-only user is no member of the gateway, which the instance can see
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    const answers = apiAnswers(page);
    await new PipelinePage(page).goto(projectId, pipeline.id, 'variables');
    await expect(page.getByRole('note')).toHaveText('Only Developers, Maintainers and Owners of this project can see the variables a pipeline ran with.');
    await expect(page.getByRole('table', { name: 'Variables of the pipeline' })).toHaveCount(0);
    // the platform would refuse them (403); a non-member's role is read without a 404
    expect(answers.filter((answer) => answer.includes('/variables') || !answer.startsWith('200'))).toEqual([]);
  });
});
