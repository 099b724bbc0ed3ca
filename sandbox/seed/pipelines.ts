/**
 * The demo's pipelines: the API gateway gets a real repository with a `.gitlab-ci.yml` (variables
 * with descriptions and options, a DAG, a manual production deploy on tags, JUnit and coverage)
 * and six months of pipelines (5,000, for the list's figures): pushes, nightly schedules, web and
 * API runs; passed, failed, canceled, blocked and one still running that the worker picks up on
 * start. Besides: a pipeline of 10 stages and 200 jobs with needs, a job log of 100,000 lines and
 * a test report of 2,000 cases. Rows are precomputed and written in the demo seed's transaction:
 * the engine plans (pure, fast) but never runs at seed time. The runner fleet's jobs get real
 * pipelines too.
 */
import type { Sandbox } from '../context.ts';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db.ts';
import type { ProjectRow } from '../model/access.ts';
import { nextPipelineIid } from '../model/pipelines.ts';
import { gitSync } from '../git/exec.ts';
import { ensureRepository } from '../git/repository.ts';
import { planPipeline, predefinedVariables, type JobPlan } from '../ci/config.ts';
import type { TestCase, TestSuite } from '../ci/junit.ts';
import { History, people } from './repositories.ts';
import { generator, type Random } from './random.ts';
import { timestampAt } from '../model/time.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Where the demo's pipelines are; the ids are the gateway's iids (its pipelines are the first the store holds). */
export const DEMO_PIPELINES = {
  project: 'acme-engineering/backend/api-gateway',
  /** How many pipelines the gateway has (the list's bench figure). */
  count: 5000,
  /** Still running at start: its tests are pending and the worker runs them. */
  runningId: 5000,
  /** 10 stages, 200 jobs with needs, on its own branch. */
  bigGraphId: 4999,
  bigGraphRef: 'perf/matrix-build',
  /** A failed pipeline whose `unit-tests` job has a 100,000-line log and a 2,000-case test report. */
  bigLogId: 4998,
  bigLogJob: 'unit-tests',
  bigLogLines: 100_000,
  bigReportCases: 2000,
  /** A tag pipeline blocked on its manual production deploy. */
  blockedId: 4997,
} as const;

export const GATEWAY_CI = `# CI of the API gateway: build, test, deploy to staging from main, production by hand from tags
stages: [build, test, deploy]

variables:
  GO_VERSION:
    value: "1.22"
    description: "Go toolchain that builds and tests the gateway."
  DEPLOY_ENVIRONMENT:
    value: staging
    options: [staging, production]
    description: "Where deploy jobs ship the gateway."
  LOG_LEVEL:
    value: info
    options: [debug, info, warn]
    description: "Log level of the deployed gateway."
  RATE_LIMIT_RPS:
    value: "200"
    description: "Requests per second a client may send before 429."

build:
  stage: build
  script:
    - echo "Building the gateway with Go $GO_VERSION"
    - sleep 2
    - echo "$CI_COMMIT_SHORT_SHA" > VERSION
    - cat VERSION

unit-tests:
  stage: test
  needs: [build]
  script:
    - echo "go test ./..."
    - sleep 4
    - cat reports/unit.xml > junit.xml
    - 'echo "coverage: 81.4% of statements"'
  coverage: '/coverage: (\\d+\\.\\d+)% of statements/'
  artifacts:
    reports:
      junit: junit.xml

lint:
  stage: test
  needs: [build]
  allow_failure: true
  rules:
    - if: $CI_PIPELINE_SOURCE != "schedule"
  script:
    - echo "golangci-lint run ./..."
    - sleep 1

deploy-staging:
  stage: deploy
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH && $CI_PIPELINE_SOURCE != "schedule"
  script:
    - echo "Deploying $CI_COMMIT_SHORT_SHA to $DEPLOY_ENVIRONMENT (log level $LOG_LEVEL)"
    - sleep 2

deploy-production:
  stage: deploy
  rules:
    - if: $CI_COMMIT_TAG
      when: manual
      allow_failure: false
  script:
    - echo "Deploying $CI_COMMIT_TAG to production"
`;

const UNIT_REPORT = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="gateway" tests="4" failures="0" time="0.42">
    <testcase classname="router" name="routes /health" file="router/router_test.go" time="0.01"/>
    <testcase classname="router" name="strips the /api prefix" file="router/router_test.go" time="0.02"/>
    <testcase classname="auth" name="rejects an expired token" file="auth/token_test.go" time="0.31"/>
    <testcase classname="ratelimit" name="answers 429 past the limit" file="ratelimit/limit_test.go" time="0.08"/>
  </testsuite>
</testsuites>
`;

/** The 200-job file: 10 stages of 20 jobs, each job needing two of the stage before. */
export function bigGraphCi(): string {
  const stages = Array.from({ length: 10 }, (_, index) => `stage-${index + 1}`);
  const lines = [`stages: [${stages.join(', ')}]`, ''];
  for (let stage = 0; stage < 10; stage++) {
    for (let job = 0; job < 20; job++) {
      lines.push(`s${stage + 1}-job-${job + 1}:`, `  stage: ${stages[stage]}`);
      if (stage > 0) lines.push(`  needs: [s${stage}-job-${job + 1}, s${stage}-job-${((job + 7) % 20) + 1}]`);
      lines.push('  script:', `    - echo "step ${stage + 1}.${job + 1}"`, '');
    }
  }
  return lines.join('\n');
}

// -- logs, as a runner writes them

const ESC = '\x1b';
const section = (at: number, name: string, header: string, body: string[]) => [
  `${ESC}[0Ksection_start:${Math.floor(at / 1000)}:${name}\r${ESC}[0K${ESC}[36;1m${header}${ESC}[0;m`,
  ...body,
  `${ESC}[0Ksection_end:${Math.floor(at / 1000) + 1}:${name}\r${ESC}[0K`,
];

function shortLog(status: string, at: number, runner: string, lines: string[]): string {
  const out = [
    `${ESC}[0KRunning with gitlab-runner 17.5.0 (a1b2c3d4)${ESC}[0;m`,
    `${ESC}[0K  on ${runner}${ESC}[0;m`,
    ...section(at, 'prepare_executor', 'Preparing the "docker" executor', ['Using Docker executor with image golang:1.22 ...']),
    ...section(at + 2000, 'get_sources', 'Getting source from Git repository', ['Fetching changes with git depth set to 20...', 'Checking out the commit']),
    ...section(at + 4000, 'step_script', 'Executing "step_script" stage of the job script', lines),
    status === 'success' ? `${ESC}[32;1mJob succeeded${ESC}[0;m` : `${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m`,
  ];
  return `${out.join('\n')}\n`;
}

/** 100,000 lines: one section per package, verbose test output, colours, the failure at the end. */
function hugeLog(at: number, lines: number): string[] {
  const chunks: string[] = [];
  let chunk: string[] = [`${ESC}[0KRunning with gitlab-runner 17.5.0 (a1b2c3d4)${ESC}[0;m`, `${ESC}[32;1m$ go test -v ./...${ESC}[0;m`];
  let count = 2;
  let pkg = 0;
  while (count < lines - 2) {
    pkg++;
    const name = `pkg_${pkg}`;
    chunk.push(`${ESC}[0Ksection_start:${Math.floor(at / 1000) + pkg}:${name}\r${ESC}[0K${ESC}[36;1mgateway/internal/${name}${ESC}[0;m`);
    count++;
    for (let test = 0; test < 96 && count < lines - 3; test++, count++) {
      const failed = pkg % 97 === 13 && test === 7;
      chunk.push(failed
        ? `${ESC}[31;1m--- FAIL: TestHandler${test} (0.0${test % 10}s)${ESC}[0;m    handler_test.go:${40 + test}: expected 200, got 502`
        : `=== RUN   TestHandler${test}\n--- ${ESC}[32mPASS${ESC}[0m: TestHandler${test} (0.00s)`.split('\n')[test % 2]);
    }
    chunk.push(`${ESC}[0Ksection_end:${Math.floor(at / 1000) + pkg + 1}:${name}\r${ESC}[0K`);
    count++;
    if (chunk.length >= 2000) {
      chunks.push(`${chunk.join('\n')}\n`);
      chunk = [];
    }
  }
  chunk.push('FAIL', `${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m`);
  chunks.push(`${chunk.join('\n')}\n`);
  return chunks;
}

/** A report of `count` cases in 20 suites (as parsed JUnit files), some failing with their output. */
function bigReport(count: number, random: Random): TestSuite[] {
  const suites: TestSuite[] = [];
  const perSuite = Math.ceil(count / 20);
  for (let s = 0; s < 20 && count > 0; s++) {
    const cases: TestCase[] = [];
    for (let c = 0; c < perSuite && count > 0; c++, count--) {
      const roll = random.next();
      const status = roll < 0.006 ? 'failed' : roll < 0.008 ? 'error' : roll < 0.02 ? 'skipped' : 'success';
      cases.push({
        status,
        name: `handles case ${c + 1} of suite ${s + 1}`,
        classname: `gateway.internal.suite${s + 1}`,
        file: `internal/suite${s + 1}/suite_test.go`,
        executionTime: Math.round(random.between(0.001, 0.4) * 1000) / 1000,
        systemOutput: status === 'failed' || status === 'error' ? `expected status 200, got 502\nupstream: dial tcp 10.0.3.${c}:8080: connect: connection refused` : null,
        stackTrace: status === 'failed' || status === 'error' ? `suite_test.go:${c + 10}: assertion failed\n\tat TestSuite${s + 1}/case_${c + 1}` : null,
        attachment: null,
      });
    }
    suites.push({ name: `suite ${s + 1}`, cases, error: null });
  }
  return suites;
}

// -- the rows

interface Writer {
  db: Db;
  /** The gateway's iids are counted here and stored once at the end. */
  lastIid: number;
  project: ProjectRow;
  insertPipeline: Statement<unknown[]>;
  insertJob: Statement<unknown[]>;
  insertTrace: Statement<unknown[]>;
  insertReport: Statement<unknown[]>;
}

interface CommitInfo {
  sha: string;
  before: string;
  message: string;
  at: number;
  author: { name: string; email: string };
}

type Outcome = 'success' | 'failed' | 'canceled' | 'running';

interface PipelineSpec {
  ref: string;
  tag: boolean;
  source: string;
  commit: CommitInfo;
  createdAt: number;
  userId: number;
  outcome: Outcome;
  /** Jobs the pipeline has (planned from the CI file for its ref and source). */
  jobs: JobPlan[];
  withLogs: boolean;
  /** Keep the plan (retry needs it); older jobs are archived as the platform archives old jobs. */
  keepPlans: boolean;
}

const iso = timestampAt;

/** What every pipeline of a plan repeats, computed once per job of the plan: its dependencies and its JSON columns. */
const preparedJobs = new WeakMap<JobPlan, { deps: string[]; needsJson: string | null; tagsJson: string; planJson: string }>();
function prepared(jobs: readonly JobPlan[], job: JobPlan) {
  let entry = preparedJobs.get(job);
  if (!entry) {
    entry = {
      deps: job.needs ?? jobs.filter((other) => other.stageIndex < job.stageIndex).map((other) => other.name),
      needsJson: job.needs === null ? null : JSON.stringify(job.needs),
      tagsJson: JSON.stringify(job.tags),
      planJson: JSON.stringify(job),
    };
    preparedJobs.set(job, entry);
  }
  return entry;
}

/** Writes one pipeline and its jobs with times that follow the DAG; answers the pipeline id. */
function writePipeline(w: Writer, spec: PipelineSpec, random: Random, runners: number[]): { id: number; jobIds: Map<string, number> } {
  const { project } = w;
  const iid = ++w.lastIid;
  const created = spec.createdAt;
  // job times: each job starts once its needs (or the earlier stages) are done
  const done = new Map<string, number>();
  const status = new Map<string, string>();
  const failing = spec.outcome === 'failed' ? 'unit-tests' : null;
  const canceling = spec.outcome === 'canceled' ? 'unit-tests' : null;
  let stopped = false;
  let firstStart: number | null = null;
  let lastEnd = created;
  const rows: Array<{ plan: JobPlan; status: string; started: number | null; finished: number | null; reason: string | null; coverage: number | null; allow: boolean }> = [];
  for (const job of spec.jobs) {
    const { deps } = prepared(spec.jobs, job);
    const ready = Math.max(created, ...deps.map((name) => done.get(name) ?? created));
    const depStatuses = deps.map((name) => status.get(name));
    let jobStatus: string;
    if (spec.outcome === 'running' && job.stageIndex > 0) jobStatus = job.stageIndex === 1 ? 'pending' : 'created';
    else if (job.when === 'manual') jobStatus = depStatuses.some((s) => s !== 'success') ? 'skipped' : 'manual';
    else if (stopped || depStatuses.some((s) => s === 'failed' || s === 'skipped')) jobStatus = stopped && spec.outcome === 'canceled' ? 'canceled' : 'skipped';
    else if (job.name === failing) jobStatus = 'failed';
    else if (job.name === canceling) jobStatus = 'canceled';
    else if (job.allowFailure && random.chance(0.12)) jobStatus = 'failed';
    else jobStatus = 'success';
    if (jobStatus === 'canceled' && job.name === canceling) stopped = true;
    const ran = ['success', 'failed', 'canceled'].includes(jobStatus) && !(jobStatus === 'canceled' && job.name !== canceling);
    const started = ran ? ready + random.int(2, 40) * 1000 : null;
    const finished = ran ? started! + random.int(20, job.name === 'unit-tests' ? 400 : 150) * 1000 : null;
    if (started !== null) firstStart = Math.min(firstStart ?? started, started);
    if (finished !== null) lastEnd = Math.max(lastEnd, finished);
    done.set(job.name, finished ?? ready);
    status.set(job.name, jobStatus);
    rows.push({
      plan: job,
      status: jobStatus,
      started,
      finished,
      reason: jobStatus === 'failed' ? 'script_failure' : null,
      coverage: job.name === 'unit-tests' && jobStatus === 'success' ? Math.round(random.between(78, 84) * 10) / 10 : null,
      allow: job.allowFailure && job.allowFailureExitCodes.length === 0,
    });
  }
  const pipelineStatus = spec.outcome === 'running' ? 'running'
    : spec.outcome === 'failed' ? 'failed'
      : spec.outcome === 'canceled' ? 'canceled'
        : rows.some((row) => row.status === 'manual' && !row.allow) ? 'manual' : 'success';
  const finishedAt = ['success', 'failed', 'canceled'].includes(pipelineStatus) ? lastEnd : null;
  const coverages = rows.map((row) => row.coverage).filter((value): value is number => value !== null);
  const title = spec.commit.message.split('\n', 1)[0];
  const id = Number(w.insertPipeline.run(
    iid, project.id, pipelineStatus, spec.source, spec.ref, spec.tag ? 1 : 0, spec.commit.sha, spec.source === 'push' ? spec.commit.before : '0000000000000000000000000000000000000000',
    spec.userId, iso(created), iso(finishedAt ?? Math.max(lastEnd, created)), firstStart === null ? null : iso(firstStart), finishedAt === null ? null : iso(finishedAt),
    iso(spec.commit.at), spec.commit.message, spec.commit.author.name, spec.commit.author.email,
    finishedAt === null || firstStart === null ? null : Math.round((finishedAt - firstStart) / 1000),
    firstStart === null ? null : Math.round((firstStart - created) / 1000),
    coverages.length ? coverages[0] : null,
  ).lastInsertRowid);
  const jobIds = new Map<string, number>();
  for (const row of rows) {
    const runner = row.started === null ? null : random.pick(runners);
    const jobId = Number(w.insertJob.run(
      project.id, runner, id, iid, spec.userId, row.plan.name, row.plan.stage, row.plan.stageIndex, row.status, spec.ref, spec.tag ? 1 : 0, spec.commit.sha, title,
      row.coverage, row.allow ? 1 : 0, row.reason, iso(created), row.started === null ? null : iso(row.started), row.finished === null ? null : iso(row.finished),
      row.plan.when, prepared(spec.jobs, row.plan).needsJson, row.status === 'pending' ? iso(created) : null, iso(row.finished ?? created),
      prepared(spec.jobs, row.plan).tagsJson, spec.keepPlans ? prepared(spec.jobs, row.plan).planJson : null,
    ).lastInsertRowid);
    jobIds.set(row.plan.name, jobId);
    if (spec.withLogs && row.started !== null) {
      const lines = [`${ESC}[32;1m$ ${row.plan.script[0] ?? 'true'}${ESC}[0;m`, row.plan.name === 'unit-tests' ? 'ok  \tgateway/internal/router\t0.412s' : `${row.plan.name}: done`];
      w.insertTrace.run(jobId, 0, shortLog(row.status, row.started, `shared-docker-linux-${runner}`, lines));
    }
    if (spec.withLogs && row.plan.name === 'unit-tests' && row.status === 'success') {
      w.insertReport.run(jobId, id, JSON.stringify([{ name: 'gateway', cases: UNIT_CASES, error: null }]));
    }
  }
  return { id, jobIds };
}

const UNIT_CASES: TestCase[] = [
  ['router', 'routes /health', 0.01], ['router', 'strips the /api prefix', 0.02], ['auth', 'rejects an expired token', 0.31], ['ratelimit', 'answers 429 past the limit', 0.08],
].map(([classname, name, time]) => ({ status: 'success', name: name as string, classname: classname as string, file: null, executionTime: time as number, systemOutput: null, stackTrace: null, attachment: null }));

/** Plans the CI file as a pipeline of this ref and source would see it (rules decide the jobs). */
function planFor(sandbox: Sandbox, project: ProjectRow, ciYaml: string, ref: string, tag: boolean, source: string, sha: string): JobPlan[] {
  const variables = predefinedVariables({
    serverUrl: sandbox.config.externalUrl,
    project: { id: project.id, pathWithNamespace: project.path_with_namespace, path: project.path, name: project.name, namespace: project.path_with_namespace.slice(0, -project.path.length - 1), defaultBranch: project.default_branch, visibility: project.visibility },
    pipeline: { id: 0, iid: 0, source, createdAt: new Date(0).toISOString() },
    ref,
    tag,
    sha,
  });
  const result = planPipeline(ciYaml, { variables, readFile: () => null });
  if (!result.ok) throw new Error(`demo seed: the CI file does not plan: ${result.errors.join(', ')}`);
  return result.plan.jobs;
}

export function seedDemoPipelines(sandbox: Sandbox, gateway: ProjectRow, anchor: Date): void {
  const { db } = sandbox;
  const random = generator(0xc1_2026);
  const now = sandbox.now().getTime();
  const team = people(sandbox, ['maya.chen', 'hiroshi.tanaka', 'tom.becker', 'diego.ramirez']);
  const userIds = db.prepare('SELECT id FROM users WHERE username IN (?, ?, ?, ?) ORDER BY id').pluck().all('maya.chen', 'hiroshi.tanaka', 'tom.becker', 'diego.ramirez') as number[];
  const runners = db.prepare("SELECT id FROM ci_runners WHERE runner_type = 'instance_type' AND active = 1 AND run_untagged = 1 ORDER BY id LIMIT 8").pluck().all() as number[];
  if (!runners.length || !userIds.length) return;

  // -- the repository: ~6 months of commits on main, two tags, a feature branch, the big-graph branch
  const history = new History();
  const marks: Array<{ mark: number; branch: string; at: number; message: string; author: { name: string; email: string } }> = [];
  const start = anchor.getTime() - 180 * DAY_MS;
  // commits and their pipelines end before the special pipelines (3 days ago and later), so ids follow creation times as on the platform
  const historyDays = 175;
  const commits = 240;
  const goFile = (n: number) => `package main\n\nimport "net/http"\n\n// version ${n}\nfunc main() {\n\thttp.ListenAndServe(":8080", router())\n}\n`;
  for (let n = 0; n < commits; n++) {
    const at = start + Math.floor((n / commits) * historyDays * DAY_MS) + random.int(9, 17) * 3_600_000;
    const author = team[n % team.length];
    const message = n === 0 ? 'Gateway skeleton with CI' : random.pick(['Tune the rate limiter', 'Log upstream latency', 'Retry idempotent requests', 'Bump Go to 1.22', 'Add request ids', 'Handle upstream timeouts', 'Cache JWKS keys', 'Trim allocations in the router']);
    const files: Record<string, string> = n === 0
      ? { '.gitlab-ci.yml': GATEWAY_CI, 'reports/unit.xml': UNIT_REPORT, 'go.mod': 'module gateway\n\ngo 1.22\n', 'README.md': '# API Gateway\n\nEdge routing, authentication and rate limits.\n', 'main.go': goFile(0) }
      : { 'main.go': goFile(n) };
    const mark = history.commit({ branch: 'main', author, at: new Date(at), message, files });
    marks.push({ mark, branch: 'main', at, message, author });
  }
  history.tag('v1.0.0', marks[120].mark, team[0], new Date(marks[120].at + 3_600_000), 'Gateway 1.0');
  history.tag('v1.1.0', marks[commits - 6].mark, team[0], new Date(marks[commits - 6].at + 3_600_000), 'Gateway 1.1');
  history.branchAt('feature/ip-allowlist', marks[commits - 10].mark);
  const featureAt = marks[commits - 3].at;
  history.commit({ branch: 'feature/ip-allowlist', author: team[2], at: new Date(featureAt), message: 'Allow-list client IPs per route', files: { 'allowlist.go': 'package main\n' } });
  history.branchAt(DEMO_PIPELINES.bigGraphRef, marks[commits - 2].mark);
  const bigCi = bigGraphCi();
  const bigAt = marks[commits - 2].at + 2 * 3_600_000;
  history.commit({ branch: DEMO_PIPELINES.bigGraphRef, author: team[1], at: new Date(bigAt), message: 'Try a 200-job matrix build', files: { '.gitlab-ci.yml': bigCi } });
  const repo = ensureRepository(sandbox, gateway);
  history.write(repo);
  // the shas of every commit, oldest first on main, then the two branch commits
  const shas = gitSync(repo, ['rev-list', '--reverse', '--first-parent', 'main']).toString('utf8').trim().split('\n');
  // one git call for the other refs' commits
  const [featureSha, bigSha, v100Sha, v110Sha] = gitSync(repo, ['rev-parse', 'feature/ip-allowlist', DEMO_PIPELINES.bigGraphRef, 'v1.0.0^{commit}', 'v1.1.0^{commit}'])
    .toString('utf8').trim().split('\n');
  const commitInfos: CommitInfo[] = marks.map((mark, index) => ({ sha: shas[index], before: index ? shas[index - 1] : '0000000000000000000000000000000000000000', message: mark.message, at: mark.at, author: mark.author }));

  const w: Writer = {
    db,
    lastIid: 0,
    project: gateway,
    insertPipeline: db.prepare(
      `INSERT INTO ci_pipelines (iid, project_id, status, source, ref, tag, sha, before_sha, user_id, created_at, updated_at, started_at, finished_at,
         committed_at, commit_message, commit_author_name, commit_author_email, duration, queued_duration, coverage, config_variables)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{"GO_VERSION":"1.22","DEPLOY_ENVIRONMENT":"staging","LOG_LEVEL":"info","RATE_LIMIT_RPS":"200"}')`,
    ),
    insertJob: db.prepare(
      `INSERT INTO ci_builds (project_id, runner_id, pipeline_id, pipeline_iid, user_id, name, stage, stage_idx, status, ref, tag, sha, commit_title,
         coverage, allow_failure, failure_reason, created_at, started_at, finished_at, job_when, needs, queued_at, updated_at, tag_list, plan)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertTrace: db.prepare('INSERT INTO ci_build_trace_chunks (build_id, chunk_index, data) VALUES (?, ?, ?)'),
    insertReport: db.prepare('INSERT INTO ci_test_reports (build_id, pipeline_id, suites) VALUES (?, ?, ?)'),
  };

  const plans = new Map<string, JobPlan[]>();
  const planOf = (ref: string, tag: boolean, source: string, sha: string) => {
    const key = `${ref}|${tag}|${source}|${sha === bigSha}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = planFor(sandbox, gateway, sha === bigSha ? bigCi : GATEWAY_CI, ref, tag, source, sha);
      plans.set(key, plan);
    }
    return plan;
  };

  // -- the history: each commit's push pipeline, nightly and hourly schedules, a few web and API runs
  const specialCount = 4;
  const total = DEMO_PIPELINES.count - specialCount;
  const events: Array<{ at: number; commit: CommitInfo; source: string; ref: string; tag: boolean }> = [];
  for (const commit of commitInfos) events.push({ at: commit.at + 20_000, commit, source: 'push', ref: 'main', tag: false });
  events.push({ at: featureAt + 20_000, commit: { sha: featureSha, before: commitInfos[commits - 10].sha, message: 'Allow-list client IPs per route', at: featureAt, author: team[2] }, source: 'push', ref: 'feature/ip-allowlist', tag: false });
  const v100 = commitInfos[120];
  events.push({ at: v100.at + 3_700_000, commit: { ...v100, sha: v100Sha }, source: 'push', ref: 'v1.0.0', tag: true });
  const remaining = total - events.length;
  // from the first commit on: a pipeline runs a commit that exists
  const firstAt = commitInfos[0].at;
  const lastAt = start + historyDays * DAY_MS;
  for (let n = 0; n < remaining; n++) {
    const at = firstAt + Math.floor(((n + 0.5) / remaining) * (lastAt - firstAt));
    const head = [...commitInfos].reverse().find((commit) => commit.at <= at) ?? commitInfos[0];
    const source = random.weighted([['schedule', 80], ['web', 12], ['api', 6], ['trigger', 2]] as const);
    events.push({ at, commit: head, source, ref: 'main', tag: false });
  }
  events.sort((a, b) => a.at - b.at);
  const recentFrom = events.length - 150;
  events.forEach((event, index) => {
    const outcome = random.weighted([['success', 78], ['failed', 15], ['canceled', 7]] as const);
    writePipeline(w, {
      ref: event.ref, tag: event.tag, source: event.source, commit: event.commit, createdAt: event.at, userId: random.pick(userIds), outcome,
      jobs: planOf(event.ref, event.tag, event.source, event.commit.sha), withLogs: index >= recentFrom, keepPlans: index >= recentFrom,
    }, random, runners);
  });

  // -- the special ones, newest: blocked tag pipeline, the big log, the big graph, the running one
  const latest = commitInfos[commits - 1];
  const v110 = { ...commitInfos[commits - 6], sha: v110Sha };
  writePipeline(w, { ref: 'v1.1.0', tag: true, source: 'push', commit: v110, createdAt: now - 3 * DAY_MS, userId: userIds[0], outcome: 'success', jobs: planOf('v1.1.0', true, 'push', v110.sha), withLogs: true, keepPlans: true }, random, runners);
  const failed = writePipeline(w, { ref: 'main', tag: false, source: 'web', commit: latest, createdAt: now - 2 * DAY_MS, userId: userIds[1], outcome: 'failed', jobs: planOf('main', false, 'web', latest.sha), withLogs: true, keepPlans: true }, random, runners);
  const logJob = failed.jobIds.get(DEMO_PIPELINES.bigLogJob)!;
  db.prepare('DELETE FROM ci_build_trace_chunks WHERE build_id = ?').run(logJob);
  hugeLog(now - 2 * DAY_MS, DEMO_PIPELINES.bigLogLines).forEach((chunk, index) => w.insertTrace.run(logJob, index, chunk));
  w.insertReport.run(logJob, failed.id, JSON.stringify(bigReport(DEMO_PIPELINES.bigReportCases, random)));
  const bigCommit: CommitInfo = { sha: bigSha, before: latest.sha, message: 'Try a 200-job matrix build', at: bigAt, author: team[1] };
  writePipeline(w, { ref: DEMO_PIPELINES.bigGraphRef, tag: false, source: 'push', commit: bigCommit, createdAt: now - DAY_MS, userId: userIds[1], outcome: 'success', jobs: planOf(DEMO_PIPELINES.bigGraphRef, false, 'push', bigSha), withLogs: false, keepPlans: true }, random, runners);
  const running = { ref: 'main', tag: false, source: 'push', commit: latest, createdAt: now - 4 * MINUTE_MS, userId: userIds[0], outcome: 'running', jobs: planOf('main', false, 'push', latest.sha), withLogs: true, keepPlans: true } as const;
  writePipeline(w, running, random, runners);
  db.prepare('INSERT INTO ci_pipeline_iids (project_id, last_iid) VALUES (?, ?)').run(gateway.id, w.lastIid);
}

/**
 * The runner fleet's seeded jobs name pipelines that did not exist: each gets a real pipeline of
 * its project (one job, the pipeline's status the job's), so every job belongs to one.
 */
export function seedFleetPipelines(sandbox: Sandbox): void {
  const { db } = sandbox;
  const jobs = db.prepare('SELECT * FROM ci_builds WHERE pipeline_id IS NOT NULL AND pipeline_id NOT IN (SELECT id FROM ci_pipelines) ORDER BY id').all() as Array<{
    id: number; project_id: number; user_id: number | null; status: string; ref: string; tag: number; sha: string; commit_title: string; created_at: string; started_at: string | null; finished_at: string | null; coverage: number | null;
  }>;
  const insert = db.prepare(
    `INSERT INTO ci_pipelines (iid, project_id, status, source, ref, tag, sha, user_id, created_at, updated_at, started_at, finished_at, committed_at, commit_message, duration, queued_duration, coverage)
     VALUES (?, ?, ?, 'push', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const update = db.prepare('UPDATE ci_builds SET pipeline_id = ?, pipeline_iid = ?, updated_at = ? WHERE id = ?');
  const seconds = (from: string | null, to: string | null) => (from && to ? Math.round((Date.parse(to) - Date.parse(from)) / 1000) : null);
  for (const job of jobs) {
    const iid = nextPipelineIid(db, job.project_id);
    const updated = job.finished_at ?? job.started_at ?? job.created_at;
    const id = Number(insert.run(iid, job.project_id, job.status, job.ref, job.tag, job.sha, job.user_id, job.created_at, updated, job.started_at, job.finished_at,
      job.created_at, job.commit_title, seconds(job.started_at, job.finished_at), seconds(job.created_at, job.started_at), job.coverage).lastInsertRowid);
    update.run(id, iid, updated, job.id);
  }
}
