import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { commitFiles, onlineRunner, projectWithFiles, settle } from './pipelines-fixtures.ts';
import { ciWorker } from '../ci/worker.ts';

let h: Harness;
let project: { id: number; path_with_namespace: string };
let developer: ReturnType<Harness['user']>;
let reporter: ReturnType<Harness['user']>;
let maintainer: ReturnType<Harness['user']>;
let guest: ReturnType<Harness['user']>;
const ids: Record<string, number> = {};

const CI = `
build:
  script: [echo "$CI_COMMIT_REF_NAME"]
broken:
  rules:
    - if: $BREAK == "yes"
  script: [exit 1]
`;

beforeAll(async () => {
  h = createHarness();
  h.sandbox.config.ciTimeScale = 0;
  await onlineRunner(h);
  developer = h.user();
  reporter = h.user();
  maintainer = h.user();
  guest = h.user();
  project = await projectWithFiles(h, 'ci list', { '.gitlab-ci.yml': CI }, { message: 'CI [skip ci]' });
  for (const [user, level] of [[developer, 30], [reporter, 20], [maintainer, 40], [guest, 10]] as const) {
    expect((await h.post(`/projects/${project.id}/members`, { user_id: user.id, access_level: level })).status).toBe(201);
  }
  await commitFiles(h, project.id, { 'feature.txt': 'x' }, 'Feature work [skip ci]', 'feature');
  await ciWorker(h.sandbox).idle();
  const run = async (name: string, body: Record<string, unknown>, token?: string) => {
    const answer = await h.post(`/projects/${project.id}/pipeline`, body, token ? { token } : undefined);
    expect(answer.status, answer.text).toBe(201);
    ids[name] = answer.body.id;
    await settle(h, project.id, answer.body.id);
  };
  await run('first', { ref: 'main' });
  await run('failed', { ref: 'main', variables: [{ key: 'BREAK', value: 'yes' }] }, maintainer.token);
  await run('feature', { ref: 'feature' }, developer.token);
});

afterAll(() => h.close());

const list = async (query: string, token?: string) => {
  const answer = await h.get(`/projects/${project.id}/pipelines${query}`, token ? { token } : undefined);
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as Array<{ id: number }>).map((pipeline) => pipeline.id);
};

describe('listing pipelines', () => {
  it('filters by status, ref, sha, source, username, scope, and sorts', async () => {
    // the two [skip ci] pushes made skipped pipelines, as the platform does
    const [skipFeature, skipMain] = await list('?status=skipped');
    expect(await list('')).toEqual([ids.feature, ids.failed, ids.first, skipFeature, skipMain]);
    expect(await list('?sort=asc')).toEqual([skipMain, skipFeature, ids.first, ids.failed, ids.feature]);
    expect(await list('?status=failed')).toEqual([ids.failed]);
    expect(await list('?ref=feature')).toEqual([ids.feature, skipFeature]);
    expect(await list(`?username=${developer.username}`)).toEqual([ids.feature]);
    expect(await list(`?username=${maintainer.username}`)).toEqual([ids.failed]);
    expect(await list('?source=api')).toEqual([ids.feature, ids.failed, ids.first]);
    expect(await list('?source=push')).toEqual([skipFeature, skipMain]);
    expect(await list('?scope=finished')).toHaveLength(5);
    expect(await list('?scope=running')).toEqual([]);
    expect(await list('?scope=branches')).toEqual([ids.feature, ids.failed]);
    expect(await list('?scope=tags')).toEqual([]);
    expect(await list('?order_by=ref&sort=asc')).toEqual([skipFeature, ids.feature, skipMain, ids.first, ids.failed]);
    const sha = (await h.get(`/projects/${project.id}/pipelines/${ids.feature}`)).body.sha;
    expect(await list(`?sha=${sha}`)).toEqual([ids.feature, skipFeature]);
    expect(await list('?updated_after=2000-01-01T00:00:00Z&updated_before=2999-01-01')).toHaveLength(5);
    expect(await list('?updated_before=2000-01-01')).toEqual([]);
    expect(await list('?per_page=1&page=2')).toEqual([ids.failed]);
  });

  it('answers 400 for bad filters, never 500', async () => {
    for (const [query, error] of [
      ['?status=done', 'status does not have a valid value'],
      ['?scope=all', 'scope does not have a valid value'],
      ['?order_by=name', 'order_by does not have a valid value'],
      ['?updated_after=yesterday', 'updated_after is invalid'],
      ['?yaml_errors=maybe', 'yaml_errors is invalid'],
      ['?source=nowhere', 'source does not have a valid value'],
    ]) {
      const answer = await h.get(`/projects/${project.id}/pipelines${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual({ error });
    }
    expect((await h.get(`/projects/${project.id}/pipelines/abc`)).body).toEqual({ error: 'pipeline_id is invalid' });
    expect((await h.get(`/projects/${project.id}/pipelines/999999`)).status).toBe(404);
  });

  it('answers the latest pipeline of a ref, and 403 when its head commit has none', async () => {
    expect((await h.get(`/projects/${project.id}/pipelines/latest`)).body.id).toBe(ids.failed);
    expect((await h.get(`/projects/${project.id}/pipelines/latest?ref=feature`)).body.id).toBe(ids.feature);
    await commitFiles(h, project.id, { 'later.txt': 'x' }, 'Later [skip ci]', 'feature');
    // a push's pipeline is made after the write answers, as the platform's post-receive makes it
    await ciWorker(h.sandbox).idle();
    const skipped = await h.get(`/projects/${project.id}/pipelines/latest?ref=feature`);
    // the [skip ci] push made a skipped pipeline for the new head
    expect(skipped.body.status).toBe('skipped');
    expect((await h.get(`/projects/${project.id}/pipelines/latest?ref=nowhere`)).status).toBe(403);
  });
});

describe('roles', () => {
  it('lets Reporters read, not Guests of a private project; variables are the Developers\'', async () => {
    expect((await h.get(`/projects/${project.id}/pipelines`, { token: reporter.token })).status).toBe(200);
    expect((await h.get(`/projects/${project.id}/pipelines`, { token: guest.token })).status).toBe(403);
    expect((await h.get(`/projects/${project.id}/pipelines`, { token: h.user().token })).status).toBe(404);
    expect((await h.get(`/projects/${project.id}/pipelines/${ids.failed}/variables`, { token: reporter.token })).status).toBe(403);
    expect((await h.get(`/projects/${project.id}/pipelines/${ids.failed}/variables`, { token: developer.token })).body).toEqual([{ variable_type: 'env_var', key: 'BREAK', value: 'yes' }]);
  });

  it('lets Developers run, retry and cancel, and only Owners delete', async () => {
    expect((await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' }, { token: reporter.token })).status).toBe(403);
    expect((await h.post(`/projects/${project.id}/pipelines/${ids.failed}/retry`, {}, { token: reporter.token })).status).toBe(403);
    expect((await h.post(`/projects/${project.id}/pipelines/${ids.failed}/cancel`, {}, { token: reporter.token })).status).toBe(403);
    // main is protected (Maintainers only), the feature branch is not
    expect((await h.post(`/projects/${project.id}/pipelines/${ids.failed}/retry`, {}, { token: developer.token })).status).toBe(403);
    const retried = await h.post(`/projects/${project.id}/pipelines/${ids.failed}/retry`, {}, { token: maintainer.token });
    expect(retried.status).toBe(201);
    expect(['created', 'running', 'pending']).toContain(retried.body.status);
    const after = await settle(h, project.id, ids.failed);
    expect(after.status).toBe('failed');
    expect((await h.delete(`/projects/${project.id}/pipelines/${ids.feature}`, { token: maintainer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${project.id}/pipelines/${ids.feature}`)).status).toBe(204);
    expect((await h.get(`/projects/${project.id}/pipelines/${ids.feature}`)).status).toBe(404);
    expect(h.sandbox.db.prepare('SELECT count(*) FROM ci_builds WHERE pipeline_id = ?').pluck().get(ids.feature)).toBe(0);
  });

  it('refuses a run on a protected branch to a Developer who may neither push nor merge there', async () => {
    const protection = await h.get(`/projects/${project.id}/protected_branches/main`);
    expect(protection.status, protection.text).toBe(200);
    const refused = await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' }, { token: developer.token });
    expect(refused.status).toBe(400);
    expect(refused.body.message.base[0]).toContain("You do not have sufficient permission to run a pipeline on 'main'");
    expect((await h.post(`/projects/${project.id}/pipeline`, { ref: 'main' }, { token: maintainer.token })).status).toBe(201);
    expect((await h.post(`/projects/${project.id}/pipeline`, { ref: 'feature' }, { token: developer.token })).status).toBe(201);
  });
});

describe('pipeline triggers', () => {
  it('creates a trigger token and starts a pipeline with it (source trigger), refusing unknown tokens', async () => {
    expect((await h.post(`/projects/${project.id}/triggers`, { description: 'deploy bot' }, { token: developer.token })).status).toBe(403);
    const trigger = await h.post(`/projects/${project.id}/triggers`, { description: 'deploy bot' }, { token: maintainer.token });
    expect(trigger.status, trigger.text).toBe(201);
    expect(trigger.body).toMatchObject({ description: 'deploy bot', token: expect.stringMatching(/^glptt-/), owner: { id: maintainer.id } });
    const listed = await h.get(`/projects/${project.id}/triggers`);
    expect(listed.body[0].token).toHaveLength(4);
    const started = await h.post(`/projects/${project.id}/trigger/pipeline`, { token: trigger.body.token, ref: 'main', variables: { BREAK: 'no' } }, { token: null });
    expect(started.status, started.text).toBe(201);
    expect(started.body).toMatchObject({ source: 'trigger', ref: 'main', user: { id: maintainer.id } });
    expect((await h.get(`/projects/${project.id}/pipelines/${started.body.id}/variables`)).body).toEqual([{ variable_type: 'env_var', key: 'BREAK', value: 'no' }]);
    expect((await h.post(`/projects/${project.id}/trigger/pipeline`, { token: 'glptt-nope', ref: 'main' }, { token: null })).status).toBe(404);
    expect((await h.post(`/projects/${project.id}/trigger/pipeline`, { token: trigger.body.token }, { token: null })).body).toEqual({ error: 'ref is missing' });
    expect((await h.delete(`/projects/${project.id}/triggers/${trigger.body.id}`, { token: maintainer.token })).status).toBe(204);
    expect((await h.post(`/projects/${project.id}/trigger/pipeline`, { token: trigger.body.token, ref: 'main' }, { token: null })).status).toBe(404);
  });
});
