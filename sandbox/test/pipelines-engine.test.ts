import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { jobsOf, onlineRunner, projectWithFiles, settle, statusesOf } from './pipelines-fixtures.ts';
import { createApp } from '../app.ts';
import { prepareSandbox } from '../server.ts';
import { ciWorker } from '../ci/worker.ts';

let h: Harness;

beforeAll(async () => {
  h = createHarness();
  h.sandbox.config.ciTimeScale = 0;
  await onlineRunner(h);
});

afterAll(() => h.close());

async function run(name: string, ci: string, body: Record<string, unknown> = {}, files: Record<string, string> = {}) {
  // the push of the first commit skips its pipeline: each test starts its own
  const project = await projectWithFiles(h, name, { '.gitlab-ci.yml': ci, ...files }, { message: 'Initial commit [skip ci]' });
  const created = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main', ...body });
  expect(created.status, created.text).toBe(201);
  return { project, pipelineId: created.body.id as number };
}

const startOf = (jobs: Array<{ name: string; [key: string]: any }>, name: string) => Date.parse(jobs.find((job) => job.name === name)!.started_at!);
const endOf = (jobs: Array<{ name: string; [key: string]: any }>, name: string) => Date.parse(jobs.find((job) => job.name === name)!.finished_at!);

describe('the engine, end to end', () => {
  it('runs a DAG: a job starts once its needs are done, not its whole stage', async () => {
    const { project, pipelineId } = await run('dag', `
stages: [build, test]
slow:
  stage: build
  script: [sleep 1]
fast:
  stage: build
  script: [echo fast]
after-fast:
  stage: test
  needs: [fast]
  script: [echo next]
after-all:
  stage: test
  script: [echo last]
`);
    h.sandbox.config.ciTimeScale = 0.3;
    const pipeline = await settle(h, project.id, pipelineId);
    h.sandbox.config.ciTimeScale = 0;
    expect(pipeline.status).toBe('success');
    const jobs = await jobsOf(h, project.id, pipelineId);
    expect(startOf(jobs, 'after-fast')).toBeLessThan(endOf(jobs, 'slow'));
    expect(startOf(jobs, 'after-all')).toBeGreaterThanOrEqual(endOf(jobs, 'slow'));
  });

  it('applies rules with variables given to the pipeline, and skips on_success jobs after a failure', async () => {
    const ci = `
build:
  stage: build
  script: [echo "mode $MODE", exit 3]
notify:
  stage: test
  when: on_failure
  script: [echo failed]
deploy:
  stage: deploy
  script: [echo deploy]
only-fast:
  stage: test
  rules:
    - if: $MODE == "fast"
  script: [echo fast]
`;
    const { project, pipelineId } = await run('rules', ci, { variables: [{ key: 'MODE', value: 'fast' }] });
    const pipeline = await settle(h, project.id, pipelineId);
    expect(pipeline.status).toBe('failed');
    const jobs = await jobsOf(h, project.id, pipelineId);
    expect(statusesOf(jobs)).toEqual({ build: 'failed', notify: 'success', deploy: 'skipped', 'only-fast': 'skipped' });
    expect(jobs.find((job) => job.name === 'build')!.failure_reason).toBe('script_failure');
    const trace = await h.get(`/projects/${project.id}/jobs/${jobs[0].id}/trace`);
    expect(trace.text).toContain('mode fast');
    expect(trace.text).toContain('exit code 3');
    const without = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' });
    await settle(h, project.id, without.body.id);
    expect((await jobsOf(h, project.id, without.body.id)).map((job) => job.name)).toEqual(['build', 'notify', 'deploy']);
  });

  it('passes with warnings when an allowed failure fails, and retries a job per retry:', async () => {
    const { project, pipelineId } = await run('warnings', `
lint:
  allow_failure: true
  script: [exit 1]
flaky:
  retry: 2
  script: [exit 1]
`);
    const pipeline = await settle(h, project.id, pipelineId);
    expect(pipeline.status).toBe('failed');
    const all = await jobsOf(h, project.id, pipelineId, '&include_retried=true');
    expect(all.filter((job) => job.name === 'flaky')).toHaveLength(3);
    const latest = await jobsOf(h, project.id, pipelineId);
    expect(latest.filter((job) => job.name === 'flaky')).toHaveLength(1);
    const { project: ok, pipelineId: okId } = await run('warnings ok', 'lint:\n  allow_failure: true\n  script: [exit 1]\ntest:\n  script: [echo ok]\n');
    const passed = await settle(h, ok.id, okId);
    expect(passed.status).toBe('success');
    expect(passed.detailed_status).toMatchObject({ group: 'success-with-warnings', icon: 'status_warning' });
  });

  it('blocks on a manual job until it is played with variables, and runs a delayed job at its time', async () => {
    const { project, pipelineId } = await run('manual', `
stages: [build, deploy]
build:
  stage: build
  script: [echo built]
deploy:
  stage: deploy
  when: manual
  allow_failure: false
  script: [echo "to $TARGET"]
later:
  stage: deploy
  when: delayed
  start_in: 2 seconds
  script: [echo later]
`);
    h.sandbox.config.ciTimeScale = 0.1;
    const blocked = await settle(h, project.id, pipelineId, (p) => p.status === 'manual');
    expect(blocked.detailed_status.group).toBe('manual');
    const jobs = await jobsOf(h, project.id, pipelineId);
    const deploy = jobs.find((job) => job.name === 'deploy')!;
    expect(deploy.status).toBe('manual');
    const unplayable = await h.post(`/projects/${project.id}/jobs/${jobs[0].id}/play`);
    expect(unplayable.status).toBe(400);
    expect(unplayable.body).toEqual({ message: '400 Bad request - Unplayable Job' });
    const played = await h.post(`/projects/${project.id}/jobs/${deploy.id}/play`, { job_variables_attributes: [{ key: 'TARGET', value: 'staging' }] });
    expect(played.status, played.text).toBe(200);
    expect(played.body.status).toBe('pending');
    const done = await settle(h, project.id, pipelineId, (p) => p.status === 'success');
    h.sandbox.config.ciTimeScale = 0;
    expect(done.status).toBe('success');
    const trace = await h.get(`/projects/${project.id}/jobs/${deploy.id}/trace`);
    expect(trace.text).toContain('to staging');
    const after = await jobsOf(h, project.id, pipelineId);
    expect(after.find((job) => job.name === 'later')!.status).toBe('success');
  });

  it('cancels a running pipeline: the running job stops, the rest is canceled', async () => {
    const { project, pipelineId } = await run('cancel', 'stages: [a, b]\nlong:\n  stage: a\n  script: [echo started, sleep 30, echo never]\nnext:\n  stage: b\n  script: [echo next]\n');
    h.sandbox.config.ciTimeScale = 1;
    const running = await settle(h, project.id, pipelineId, (p) => p.status === 'running');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const canceled = await h.post(`/projects/${project.id}/pipelines/${running.id}/cancel`);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    await ciWorker(h.sandbox).idle();
    h.sandbox.config.ciTimeScale = 0;
    expect(statusesOf(await jobsOf(h, project.id, pipelineId))).toEqual({ long: 'canceled', next: 'canceled' });
    const trace = await h.get(`/projects/${project.id}/jobs/${(await jobsOf(h, project.id, pipelineId))[0].id}/trace`);
    expect(trace.text).toContain('started');
    expect(trace.text).not.toContain('never');
    const retried = await h.post(`/projects/${project.id}/pipelines/${pipelineId}/retry`);
    expect(retried.status).toBe(201);
    expect((await settle(h, project.id, pipelineId)).status).toBe('success');
  });

  it('keeps a job pending and stuck without a runner that has its tags', async () => {
    const { project, pipelineId } = await run('stuck', 'gpu:\n  tags: [gpu]\n  script: [echo hi]\n');
    await ciWorker(h.sandbox).idle();
    const jobs = await jobsOf(h, project.id, pipelineId);
    expect(jobs[0].status).toBe('pending');
    expect((await h.get(`/projects/${project.id}/pipelines/${pipelineId}`)).body.status).toBe('pending');
    const { jobStuck } = await import('../ci/worker.ts');
    const row = h.sandbox.db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(jobs[0].id) as never;
    expect(jobStuck(h.sandbox, row)).toBe(true);
    await onlineRunner(h, { tag_list: ['gpu'], run_untagged: false });
    ciWorker(h.sandbox).process(pipelineId);
    expect((await settle(h, project.id, pipelineId)).status).toBe('success');
    expect(jobStuck(h.sandbox, h.sandbox.db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(jobs[0].id) as never)).toBe(false);
  });

  it('reads JUnit reports from the workspace into the test report and its summary', async () => {
    const xml = '<testsuite name="unit"><testcase classname="a" name="passes" time="0.5"/><testcase classname="a" name="breaks" time="0.1"><failure message="boom">trace here</failure></testcase></testsuite>';
    const { project, pipelineId } = await run('junit', 'test:\n  script:\n    - cat fixtures/report.xml > report.xml\n  artifacts:\n    reports:\n      junit: report.xml\n', {}, { 'fixtures/report.xml': xml });
    await settle(h, project.id, pipelineId);
    const summary = await h.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report_summary`);
    expect(summary.body.total).toMatchObject({ count: 2, success: 1, failed: 1 });
    expect(summary.body.test_suites[0]).toMatchObject({ name: 'test', build_ids: [expect.any(Number)] });
    const report = await h.get(`/projects/${project.id}/pipelines/${pipelineId}/test_report`);
    expect(report.body).toMatchObject({ total_count: 2, failed_count: 1 });
    expect(report.body.test_suites[0].test_cases[0]).toMatchObject({ status: 'failed', name: 'breaks' });
  });
});

describe('timeouts and names', () => {
  it('fails a job past its timeout with job_execution_timeout, and names the pipeline from workflow:name', async () => {
    const { project, pipelineId } = await run('timeout', 'workflow:\n  name: "Nightly for $CI_COMMIT_REF_NAME"\nslow:\n  timeout: 10 minutes\n  script: [echo start, sleep 900, echo never]\n');
    h.sandbox.config.ciTimeScale = 0.0005;
    const pipeline = await settle(h, project.id, pipelineId);
    h.sandbox.config.ciTimeScale = 0;
    expect(pipeline).toMatchObject({ status: 'failed', name: 'Nightly for main' });
    const [job] = await jobsOf(h, project.id, pipelineId);
    expect(job).toMatchObject({ status: 'failed', failure_reason: 'job_execution_timeout' });
    expect((await h.get(`/projects/${project.id}/pipelines?name=${encodeURIComponent('Nightly for main')}`)).body.map((p: { id: number }) => p.id)).toEqual([pipelineId]);
    expect((await h.get(`/projects/${project.id}/pipelines?name=Nightly`)).body).toEqual([]);
  });
});

describe('child pipelines', () => {
  it('starts a child pipeline from a trigger job (source parent_pipeline), listed only when asked for, mirrored with strategy: depend', async () => {
    const parentCi = `
stages: [build, downstream]
build:
  stage: build
  script: [echo build]
child:
  stage: downstream
  variables:
    COMPONENT: api
  trigger:
    include: ci/child.yml
    strategy: depend
`;
    const childCi = 'child-test:\n  script: [echo "testing $COMPONENT"]\n';
    const { project, pipelineId } = await run('children', parentCi, {}, { 'ci/child.yml': childCi });
    const parent = await settle(h, project.id, pipelineId);
    expect(parent.status).toBe('success');
    const listed = await h.get(`/projects/${project.id}/pipelines`);
    const children = await h.get(`/projects/${project.id}/pipelines?source=parent_pipeline`);
    expect(children.body).toHaveLength(1);
    expect(listed.body.some((p: { id: number }) => p.id === children.body[0].id)).toBe(false);
    const bridges = await h.get(`/projects/${project.id}/pipelines/${pipelineId}/bridges`);
    expect(bridges.body).toHaveLength(1);
    expect(bridges.body[0]).toMatchObject({ name: 'child', status: 'success', downstream_pipeline: { id: children.body[0].id, source: 'parent_pipeline', status: 'success' } });
    expect((await jobsOf(h, project.id, pipelineId)).map((job) => job.name)).toEqual(['build']);
    expect((await h.get(`/projects/${project.id}/jobs/${bridges.body[0].id}`)).status).toBe(404);
    const [childJob] = await jobsOf(h, project.id, children.body[0].id);
    expect((await h.get(`/projects/${project.id}/jobs/${childJob.id}/trace`)).text).toContain('testing api');
  });
});

describe('retry on exit codes', () => {
  it('retries a job only for the exit codes retry:exit_codes names', async () => {
    const { project, pipelineId } = await run('retry codes', 'flaky:\n  retry:\n    max: 2\n    exit_codes: [137]\n  script: [exit 137]\nbroken:\n  retry:\n    max: 2\n    exit_codes: [137]\n  script: [exit 1]\n');
    await settle(h, project.id, pipelineId);
    const all = await jobsOf(h, project.id, pipelineId, '&include_retried=true');
    expect(all.filter((job) => job.name === 'flaky')).toHaveLength(3);
    expect(all.filter((job) => job.name === 'broken')).toHaveLength(1);
  });
});

describe('restart', () => {
  it('fails a job that was running with a system failure and carries on with the rest', async () => {
    h.sandbox.config.ciTimeScale = 1;
    const { project, pipelineId } = await run('restart', 'stages: [a, b]\nlong:\n  stage: a\n  script: [sleep 60]\nwaiting:\n  stage: a\n  tags: [nowhere]\n  script: [echo hi]\nlater:\n  stage: b\n  when: always\n  script: [echo after]\n');
    await settle(h, project.id, pipelineId, (p) => p.status === 'running');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // a second sandbox on the same data directory, as after a kill: the first one's worker is gone
    ciWorker(h.sandbox).stop();
    h.sandbox.config.ciTimeScale = 0;
    const again = prepareSandbox({ dataDir: h.dataDir, seed: 'empty', config: { rateLimitPerMinute: 0, ciTimeScale: 0 } });
    const app = createApp(again.sandbox);
    await ciWorker(again.sandbox).idle();
    const get = async (url: string) => (await (await app.request(`http://localhost/api/v4${url}`, { headers: { 'PRIVATE-TOKEN': h.adminToken } })).json()) as any;
    const jobs = await get(`/projects/${project.id}/pipelines/${pipelineId}/jobs`);
    const byName = Object.fromEntries(jobs.map((job: { name: string }) => [job.name, job]));
    expect(byName.long).toMatchObject({ status: 'failed', failure_reason: 'runner_system_failure' });
    expect(byName.waiting.status).toBe('pending');
    const trace = await (await app.request(`http://localhost/api/v4/projects/${project.id}/jobs/${byName.long.id}/trace`, { headers: { 'PRIVATE-TOKEN': h.adminToken } })).text();
    expect(trace).toContain('system failure');
    ciWorker(again.sandbox).stop();
    again.db.close();
    expect(fs.existsSync(h.dataDir)).toBe(true);
  });
});
