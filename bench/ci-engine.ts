import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { prepareSandbox } from '../sandbox/server.ts';
import { createApp } from '../sandbox/app.ts';
import { ciWorker } from '../sandbox/ci/worker.ts';
import { emit, log, round } from './report.ts';

/** The bench's CI file: 20 jobs in 4 stages, each job after the stage before needing two of it, a few lines of script each. */
function twentyJobs(): string {
  const lines = ['stages: [build, test, package, deploy]', ''];
  const stages = ['build', 'test', 'package', 'deploy'];
  stages.forEach((stage, s) => {
    for (let j = 1; j <= 5; j++) {
      lines.push(`${stage}-${j}:`, `  stage: ${stage}`);
      if (s > 0) lines.push(`  needs: [${stages[s - 1]}-${j}, ${stages[s - 1]}-${(j % 5) + 1}]`);
      lines.push('  script:', `    - echo "step $CI_JOB_NAME"`, '    - echo done > out.txt', '    - cat out.txt', '    - sleep 1', '');
    }
  });
  return lines.join('\n');
}

const PIPELINES = 60;
const TIMEOUT_MS = 120_000;

/**
 * The CI engine's throughput: pipelines of 20 jobs completed per second, sleep scaled to zero, in
 * one in-process sandbox (the HTTP create, the planner, the graph, runner picks, the interpreter,
 * logs and statuses in SQLite). All pipelines are created at once and the clock stops when the
 * last one has finished.
 */
export async function ciEngineFigures(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-ci-'));
  const { sandbox, adminToken, db } = prepareSandbox({ dataDir, seed: 'empty', config: { rateLimitPerMinute: 0, ciTimeScale: 0 } });
  const app = createApp(sandbox);
  const call = async (method: string, url: string, body?: unknown) => {
    const answer = await app.request(`http://localhost/api/v4${url}`, {
      method, headers: { 'PRIVATE-TOKEN': adminToken, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await answer.json()) as Record<string, unknown>;
    if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  try {
    const project = await call('POST', '/projects', { name: 'bench ci' });
    await call('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main', commit_message: 'CI [skip ci]', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: twentyJobs() }],
    });
    const runner = await call('POST', '/user/runners', { runner_type: 'instance_type' });
    db.prepare('UPDATE ci_runners SET contacted_at = ? WHERE id = ?').run(new Date().toISOString(), runner.id);
    // one pipeline first: the code paths warmed up, as the others will find them
    const warm = await call('POST', `/projects/${project.id}/pipeline`, { ref: 'main' });
    await ciWorker(sandbox).idle();
    const warmStatus = (await call('GET', `/projects/${project.id}/pipelines/${warm.id}`)).status;
    if (warmStatus !== 'success') throw new Error(`the warm-up pipeline ended ${String(warmStatus)}`);
    const started = performance.now();
    const ids: number[] = [];
    for (let n = 0; n < PIPELINES; n++) ids.push((await call('POST', `/projects/${project.id}/pipeline`, { ref: 'main' })).id as number);
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      await ciWorker(sandbox).idle();
      const open = db.prepare("SELECT count(*) FROM ci_pipelines WHERE id IN (SELECT value FROM json_each(?)) AND status NOT IN ('success', 'failed', 'canceled', 'skipped')").pluck().get(JSON.stringify(ids)) as number;
      if (open === 0) break;
      if (Date.now() > deadline) throw new Error(`${open} pipelines still open after ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const seconds = (performance.now() - started) / 1000;
    const failed = db.prepare("SELECT count(*) FROM ci_pipelines WHERE id IN (SELECT value FROM json_each(?)) AND status != 'success'").pluck().get(JSON.stringify(ids)) as number;
    if (failed) throw new Error(`${failed} of ${PIPELINES} pipelines did not succeed`);
    log(`ci engine: ${PIPELINES} pipelines of 20 jobs in ${round(seconds, 2)} s`);
    emit({ name: 'sandbox.ci_engine.pipelines_of_20_jobs', value: round(PIPELINES / seconds, 2), unit: 'pipelines/s' });
  } finally {
    ciWorker(sandbox).stop();
    db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
