import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { commitFiles, jobsOf, onlineRunner, projectWithFiles, settle, statusesOf } from './pipelines-fixtures.ts';

let h: Harness;

const CI = `
stages: [build, test, deploy]
variables:
  GREETING: hello
build:
  stage: build
  script:
    - echo "$GREETING from $CI_JOB_NAME"
    - echo built > out.txt
test:
  stage: test
  script:
    - echo "testing"
deploy:
  stage: deploy
  script: echo deploying
`;

beforeAll(async () => {
  h = createHarness();
  h.sandbox.config.ciTimeScale = 0;
  await onlineRunner(h);
});

afterAll(() => h.close());

describe('creating a pipeline', () => {
  it('runs the jobs stage by stage to success and lists them', async () => {
    const project = await projectWithFiles(h, 'ci basic', { '.gitlab-ci.yml': CI });
    const created = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: 'EXTRA', value: 'x' }] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ iid: expect.any(Number), project_id: project.id, ref: 'main', source: 'api', tag: false, yaml_errors: null });
    const pipeline = await settle(h, project.id, created.body.id);
    expect(pipeline.status).toBe('success');
    expect(pipeline.detailed_status).toMatchObject({ group: 'success', icon: 'status_success' });
    expect(pipeline.duration).toEqual(expect.any(Number));
    expect(pipeline.finished_at).toEqual(expect.any(String));
    const jobs = await jobsOf(h, project.id, pipeline.id);
    expect(statusesOf(jobs)).toEqual({ build: 'success', test: 'success', deploy: 'success' });
    const trace = await h.get(`/projects/${project.id}/jobs/${jobs[0].id}/trace`);
    expect(trace.status).toBe(200);
    expect(trace.headers.get('content-type')).toContain('text/plain');
    expect(trace.text).toContain('hello from build');
    const variables = await h.get(`/projects/${project.id}/pipelines/${pipeline.id}/variables`);
    expect(variables.body).toEqual([{ variable_type: 'env_var', key: 'EXTRA', value: 'x' }]);
    const list = await h.get(`/projects/${project.id}/pipelines`);
    expect(list.status).toBe(200);
    expect(list.body.some((item: { id: number }) => item.id === pipeline.id)).toBe(true);
    expect(list.headers.get('x-total')).toEqual(expect.any(String));
  });

  it('answers 400 with the platform messages', async () => {
    const project = await projectWithFiles(h, 'ci errors', { 'README.md': 'hi' });
    expect((await h.post(`/projects/${project.id}/pipeline`, {})).body).toEqual({ error: 'ref is missing' });
    expect((await h.post(`/projects/${project.id}/pipeline`, { ref: 'nope' })).body).toEqual({ message: { base: ['Reference not found'] } });
    expect((await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' })).body).toEqual({ message: { base: ['Missing CI config file'] } });
    await commitFiles(h, project.id, { '.gitlab-ci.yml': 'build:\n  script: []\n' });
    const invalid = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message.base[0]).toMatch(/script/);
    const badVariable = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: 'A', value: 'b', variable_type: 'secret' }] });
    expect(badVariable.body).toEqual({ error: 'variables[0][variable_type] does not have a valid value' });
  });
});

describe('bad input', () => {
  it('answers 4xx with a message for malformed bodies and ids, never 500', async () => {
    const project = await projectWithFiles(h, 'ci fuzz', { '.gitlab-ci.yml': CI }, { message: 'CI [skip ci]' });
    const cases: Array<[string, string, unknown]> = [
      ['POST', `/projects/${project.id}/pipeline`, { ref: ['main'] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', variables: 'A=1' }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', variables: [1, 2] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: { a: 1 }, value: 'x' }] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: 'A B', value: 'x' }] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', variables: [{ key: 'A', value: 'x' }, { key: 'A', value: 'y' }] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: 'main', inputs: [1] }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: '../../etc' }],
      ['POST', `/projects/${project.id}/pipeline`, { ref: '-x' }],
      ['GET', `/projects/${project.id}/pipelines/-1`, undefined],
      ['GET', `/projects/${project.id}/pipelines/99999999999999999999`, undefined],
      ['GET', `/projects/${project.id}/jobs/1/trace?x=%`, undefined],
      ['POST', `/projects/${project.id}/jobs/999/play`, { job_variables_attributes: 'nope' }],
      ['GET', `/projects/${project.id}/pipelines?scope[]=running`, undefined],
      ['GET', `/projects/${project.id}/pipelines?per_page=abc`, undefined],
      ['GET', `/projects/${project.id}/pipelines?username[]=x`, undefined],
    ];
    for (const [method, url, json] of cases) {
      const answer = await h.call(method, url, json === undefined ? {} : { json });
      expect(answer.status, `${method} ${url} ${JSON.stringify(json)}: ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${url}`).toBeLessThan(500);
      expect(answer.body.message ?? answer.body.error, url).toBeTruthy();
    }
  });
});

describe('pipelines of pushes', () => {
  it('starts a push pipeline on every commit through the API and names it on the commit', async () => {
    const project = await projectWithFiles(h, 'ci push', { '.gitlab-ci.yml': CI });
    const { ciWorker } = await import('../ci/worker.ts');
    await ciWorker(h.sandbox).idle();
    const pushed = await commitFiles(h, project.id, { 'README.md': 'second' }, 'Second commit');
    await ciWorker(h.sandbox).idle();
    const list = await h.get(`/projects/${project.id}/pipelines?source=push`);
    expect(list.body).toHaveLength(2);
    const latest = list.body[0];
    expect(latest).toMatchObject({ sha: pushed.id, ref: 'main', source: 'push' });
    const single = await h.get(`/projects/${project.id}/pipelines/${latest.id}`);
    expect(single.body.before_sha).not.toBe('0000000000000000000000000000000000000000');
    await settle(h, project.id, latest.id);
    const commit = await h.get(`/projects/${project.id}/repository/commits/${pushed.id}`);
    expect(commit.body.last_pipeline).toMatchObject({ id: latest.id, sha: pushed.id, ref: 'main', status: 'success' });
    expect(commit.body.status).toBe('success');
    const skipped = await commitFiles(h, project.id, { 'README.md': 'third' }, 'Docs only [skip ci]');
    await ciWorker(h.sandbox).idle();
    const skippedCommit = await h.get(`/projects/${project.id}/repository/commits/${skipped.id}`);
    expect(skippedCommit.body.last_pipeline).toMatchObject({ status: 'skipped' });
  });

  it('keeps an invalid CI file of a push as a failed pipeline with yaml_errors', async () => {
    const project = await projectWithFiles(h, 'ci invalid push', { '.gitlab-ci.yml': 'build:\n  stage: build\n  scrpt: echo\n' });
    const { ciWorker } = await import('../ci/worker.ts');
    await ciWorker(h.sandbox).idle();
    const list = await h.get(`/projects/${project.id}/pipelines?yaml_errors=true`);
    expect(list.body).toHaveLength(1);
    const pipeline = await h.get(`/projects/${project.id}/pipelines/${list.body[0].id}`);
    expect(pipeline.body.status).toBe('failed');
    expect(pipeline.body.yaml_errors).toMatch(/unknown keys|script/);
    expect((await h.get(`/projects/${project.id}/pipelines?yaml_errors=false`)).body).toHaveLength(0);
  });
});

describe('GraphQL: ciConfigVariables and a job being stuck', () => {
  const query = (fullPath: string, ref: string) => ({
    query: 'query ($fullPath: ID!, $ref: String!) { project(fullPath: $fullPath) { ciConfigVariables(ref: $ref) { key value valueOptions description } } }',
    variables: { fullPath, ref },
  });

  it('answers the CI file variables with descriptions and options at a ref, as the platform names them', async () => {
    const ci = 'variables:\n  PLAIN: one\n  ENV:\n    value: staging\n    options: [staging, production]\n    description: Where to deploy\nbuild:\n  script: [echo]\n';
    const project = await projectWithFiles(h, 'ci graphql', { '.gitlab-ci.yml': ci }, { message: 'CI [skip ci]' });
    const answer = await h.post('http://localhost/api/graphql', query(project.path_with_namespace, 'main'));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ data: { project: { ciConfigVariables: [
      { key: 'PLAIN', value: 'one', valueOptions: [], description: null },
      { key: 'ENV', value: 'staging', valueOptions: ['staging', 'production'], description: 'Where to deploy' },
    ] } } });
    expect((await h.post('http://localhost/api/graphql', query(project.path_with_namespace, 'nope'))).body.data.project.ciConfigVariables).toEqual([]);
    // a reader may not run pipelines: null; a stranger does not see the project
    const reporter = h.user();
    await h.post(`/projects/${project.id}/members`, { user_id: reporter.id, access_level: 20 });
    expect((await h.post('http://localhost/api/graphql', query(project.path_with_namespace, 'main'), { token: reporter.token })).body.data.project.ciConfigVariables).toBeNull();
    expect((await h.post('http://localhost/api/graphql', query(project.path_with_namespace, 'main'), { token: h.user().token })).body.data.project).toBeNull();
    expect((await h.post('http://localhost/api/graphql', query(project.path_with_namespace, 'main'), { token: 'glpat-wrong' })).status).toBe(401);
    expect((await h.post('http://localhost/api/graphql', { query: '{ nope }' })).body.errors[0].message).toMatch(/nope/);
  });

  it('says a pending job without a runner for its tags is stuck', async () => {
    const project = await projectWithFiles(h, 'ci stuck gql', { '.gitlab-ci.yml': 'arm:\n  tags: [arm64-only]\n  script: [echo]\n' });
    const { ciWorker } = await import('../ci/worker.ts');
    await ciWorker(h.sandbox).idle();
    const [pipeline] = (await h.get(`/projects/${project.id}/pipelines`)).body;
    const [job] = await jobsOf(h, project.id, pipeline.id);
    const answer = await h.post('http://localhost/api/graphql', {
      query: 'query ($path: ID!, $id: ID!) { project(fullPath: $path) { job(id: $id) { id status stuck } } }',
      variables: { path: project.path_with_namespace, id: `gid://gitlab/Ci::Build/${job.id}` },
    });
    expect(answer.body).toEqual({ data: { project: { job: { id: `gid://gitlab/Ci::Build/${job.id}`, status: 'PENDING', stuck: true } } } });
  });
});
