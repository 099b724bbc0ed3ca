import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { jobsOf, onlineRunner, projectWithFiles, settle } from './pipelines-fixtures.ts';
import { ciWorker } from '../ci/worker.ts';

let h: Harness;
let project: { id: number; path_with_namespace: string };
let pipelineId: number;
let reporter: ReturnType<Harness['user']>;

const CI = `
stages: [test, deploy]
unit:
  stage: test
  coverage: '/Total: (\\d+\\.\\d+)%/'
  script:
    - 'echo "Total: 87.50%"'
flaky:
  stage: test
  allow_failure: true
  script: [exit 2]
deploy:
  stage: deploy
  when: manual
  script: [echo deploy]
`;

beforeAll(async () => {
  h = createHarness();
  h.sandbox.config.ciTimeScale = 0;
  await onlineRunner(h);
  reporter = h.user();
  project = await projectWithFiles(h, 'ci jobs', { '.gitlab-ci.yml': CI }, { message: 'CI [skip ci]' });
  await h.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
  const created = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' });
  expect(created.status, created.text).toBe(201);
  pipelineId = created.body.id;
  await settle(h, project.id, pipelineId);
});

afterAll(() => h.close());

describe('jobs', () => {
  it('gets a job with the platform fields: coverage, runner, pipeline, commit, tag_list', async () => {
    const jobs = await jobsOf(h, project.id, pipelineId);
    const unit = jobs.find((job) => job.name === 'unit')!;
    const answer = await h.get(`/projects/${project.id}/jobs/${unit.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: unit.id, name: 'unit', stage: 'test', status: 'success', ref: 'main', tag: false, coverage: 87.5, allow_failure: false,
      pipeline: { id: pipelineId, project_id: project.id, ref: 'main', status: 'success', source: 'api' },
      commit: { title: 'CI [skip ci]' }, runner: { runner_type: 'instance_type' }, tag_list: [], artifacts: [], archived: false,
      web_url: expect.stringContaining(`/-/jobs/${unit.id}`),
    });
    expect(answer.body.duration).toEqual(expect.any(Number));
    expect(answer.body.queued_duration).toEqual(expect.any(Number));
    expect(answer.body).not.toHaveProperty('failure_reason');
    const flaky = await h.get(`/projects/${project.id}/jobs/${jobs.find((job) => job.name === 'flaky')!.id}`);
    expect(flaky.body).toMatchObject({ status: 'failed', failure_reason: 'script_failure', allow_failure: true });
    expect((await h.get(`/projects/${project.id}/jobs/999999`)).status).toBe(404);
    expect((await h.get(`/projects/${project.id}/jobs/x1`)).body).toEqual({ error: 'job_id is invalid' });
  });

  it('lists the project\'s jobs newest first, by one scope or several', async () => {
    const all = await h.get(`/projects/${project.id}/jobs`);
    expect(all.status).toBe(200);
    expect(all.body.map((job: { name: string }) => job.name)).toEqual(['deploy', 'flaky', 'unit']);
    const manual = await h.get(`/projects/${project.id}/jobs?scope=manual`);
    expect(manual.body.map((job: { name: string }) => job.name)).toEqual(['deploy']);
    const several = await h.get(`/projects/${project.id}/jobs?scope[]=success&scope[]=failed`);
    expect(several.body.map((job: { name: string }) => job.name)).toEqual(['flaky', 'unit']);
    expect((await h.get(`/projects/${project.id}/jobs?scope[]=done`)).body).toEqual({ error: 'scope does not have a valid value' });
    expect((await h.get(`/projects/${project.id}/pipelines/${pipelineId}/jobs?scope=manual`)).body).toHaveLength(1);
  });

  it('retries a finished job as a new job, refuses a job that cannot be retried', async () => {
    const flaky = (await jobsOf(h, project.id, pipelineId)).find((job) => job.name === 'flaky')!;
    expect((await h.post(`/projects/${project.id}/jobs/${flaky.id}/retry`, {}, { token: reporter.token })).status).toBe(403);
    const retried = await h.post(`/projects/${project.id}/jobs/${flaky.id}/retry`);
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body.id).not.toBe(flaky.id);
    expect(retried.body.name).toBe('flaky');
    await settle(h, project.id, pipelineId);
    const again = await h.post(`/projects/${project.id}/jobs/${flaky.id}/retry`);
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ message: '403 Forbidden - Job is not retryable' });
    const withRetried = await jobsOf(h, project.id, pipelineId, '&include_retried=true');
    expect(withRetried.filter((job) => job.name === 'flaky')).toHaveLength(2);
  });

  it('cancels a pending job and answers it; plays a manual job once', async () => {
    const stuck = await projectWithFiles(h, 'ci cancel job', { '.gitlab-ci.yml': 'wait:\n  tags: [absent]\n  script: [echo]\n' }, { message: 'CI [skip ci]' });
    const created = await h.post(`/projects/${stuck.id}/pipeline`, { ref: 'main' });
    await ciWorker(h.sandbox).idle();
    const [job] = await jobsOf(h, stuck.id, created.body.id);
    expect(job.status).toBe('pending');
    const canceled = await h.post(`/projects/${stuck.id}/jobs/${job.id}/cancel`);
    expect(canceled.status).toBe(201);
    expect(canceled.body.status).toBe('canceled');
    await ciWorker(h.sandbox).idle();
    expect((await h.get(`/projects/${stuck.id}/pipelines/${created.body.id}`)).body.status).toBe('canceled');
    const deploy = (await jobsOf(h, project.id, pipelineId)).find((row) => row.name === 'deploy')!;
    expect((await h.post(`/projects/${project.id}/jobs/${deploy.id}/play`, { job_variables_attributes: [{ value: 'no key' }] })).body).toEqual({ error: 'job_variables_attributes[0][key] is missing' });
    const played = await h.post(`/projects/${project.id}/jobs/${deploy.id}/play`);
    expect(played.status).toBe(200);
    await ciWorker(h.sandbox).idle();
    expect((await h.post(`/projects/${project.id}/jobs/${deploy.id}/play`)).status).toBe(400);
  });

  it('serves a log as it grows and lets Reporters read it', async () => {
    const slow = await projectWithFiles(h, 'ci live log', { '.gitlab-ci.yml': 'live:\n  script:\n    - echo first\n    - sleep 2\n    - echo second\n' }, { message: 'CI [skip ci]' });
    await h.post(`/projects/${slow.id}/members`, { user_id: reporter.id, access_level: 20 });
    h.sandbox.config.ciTimeScale = 0.5;
    const created = await h.post(`/projects/${slow.id}/pipeline`, { ref: 'main' });
    const [job] = await jobsOf(h, slow.id, created.body.id);
    let partial = '';
    for (let i = 0; i < 100 && !partial.includes('first'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      partial = (await h.get(`/projects/${slow.id}/jobs/${job.id}/trace`, { token: reporter.token })).text;
    }
    expect(partial).toContain('first');
    expect(partial).not.toContain('second');
    await settle(h, slow.id, created.body.id);
    h.sandbox.config.ciTimeScale = 0;
    const full = await h.get(`/projects/${slow.id}/jobs/${job.id}/trace`, { token: reporter.token });
    expect(full.text).toContain('second');
    expect(full.text).toContain('Job succeeded');
  });
});

describe('stuck jobs and inputs', () => {
  it('fails a job stuck without a runner for an hour with stuck_or_timeout_failure', async () => {
    let clock = new Date();
    const timed = createHarness({ now: () => clock });
    timed.sandbox.config.ciTimeScale = 0;
    try {
      const stuck = await projectWithFiles(timed, 'ci stuck timeout', { '.gitlab-ci.yml': 'wait:\n  tags: [nowhere]\n  script: [echo]\n' }, { message: 'CI [skip ci]' });
      const created = await timed.post(`/projects/${stuck.id}/pipeline`, { ref: 'main' });
      await ciWorker(timed.sandbox).idle();
      ciWorker(timed.sandbox).dropStuck();
      expect((await jobsOf(timed, stuck.id, created.body.id))[0].status).toBe('pending');
      clock = new Date(clock.getTime() + 61 * 60_000);
      ciWorker(timed.sandbox).dropStuck();
      await ciWorker(timed.sandbox).idle();
      const [job] = await jobsOf(timed, stuck.id, created.body.id);
      expect(job).toMatchObject({ status: 'failed', failure_reason: 'stuck_or_timeout_failure' });
      expect((await timed.get(`/projects/${stuck.id}/pipelines/${created.body.id}`)).body.status).toBe('failed');
    } finally {
      ciWorker(timed.sandbox).stop();
      timed.close();
    }
  });

  it('passes inputs to a CI file with a spec:inputs header, and refuses unknown ones', async () => {
    const ci = 'spec:\n  inputs:\n    environment:\n      default: staging\n---\ndeploy:\n  script:\n    - echo "to $[[ inputs.environment ]]"\n';
    const withInputs = await projectWithFiles(h, 'ci inputs', { '.gitlab-ci.yml': ci }, { message: 'CI [skip ci]' });
    const created = await h.post(`/projects/${withInputs.id}/pipeline`, { ref: 'main', inputs: { environment: 'production' } });
    expect(created.status, created.text).toBe(201);
    await settle(h, withInputs.id, created.body.id);
    const [job] = await jobsOf(h, withInputs.id, created.body.id);
    expect((await h.get(`/projects/${withInputs.id}/jobs/${job.id}/trace`)).text).toContain('to production');
    const unknown = await h.post(`/projects/${withInputs.id}/pipeline`, { ref: 'main', inputs: { region: 'eu' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message.base[0]).toMatch(/region/);
    expect((await h.post(`/projects/${withInputs.id}/pipeline`, { ref: 'main', inputs: 'x' })).body).toEqual({ error: 'inputs is invalid' });
  });
});
