/**
 * The sandbox's CI worker, one per Sandbox (like the storage move worker): creates pipelines from
 * the CI file at their sha, moves jobs through the platform's statuses, lets an online runner pick
 * each pending job, interprets the job in a workspace of the repository at the sha, keeps its log,
 * coverage and JUnit reports, and on start resumes or fails whatever a stopped sandbox left in flight.
 * Every state change is one SQLite transaction; the interpreter's awaits happen between them.
 */
import type { Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import type { ProjectRow } from '../model/access.ts';
import { groupChain } from '../model/access.ts';
import { ProjectProtections } from '../model/protected-branches.ts';
import { onlineDeadline } from '../model/runners.ts';
import {
  COMPLETED_STATUSES, appendTrace, nextPipelineIid, pipelineById,
  type JobRow, type PipelineRow,
} from '../model/pipelines.ts';
import { GitError, gitSync } from '../git/exec.ts';
import { ZERO_SHA, branchHead, existingRepository, isSafeRevision, readCommit, resolveCommit } from '../git/repository.ts';
import { buildPendingRepository } from '../seed/repositories.ts';
import { configVariables, jobEnvironment, jobVariables, planPipeline, predefinedVariables, type JobPlan } from './config.ts';
import { allowedToFail, nextSteps, pipelineStatus, shouldRetry, type JobState, type JobStatus as GraphStatus } from './graph.ts';
import { extractCoverage, matchArtifacts, runJob, type Workspace } from './script.ts';
import { parseJunit } from './junit.ts';

export const CI_CONFIG_PATH = '.gitlab-ci.yml';
/** The platform's default job timeout (a project's `build_timeout`): one hour. */
const DEFAULT_TIMEOUT_SECONDS = 3600;
/** How often a job's log is written while it runs (a polling client sees it grow). */
const TRACE_FLUSH_MS = 100;
const TRACE_FLUSH_BYTES = 64 * 1024;
/** How often pending jobs look for a runner again, as polling runners would ask for work. */
const RUNNER_POLL_MS = 3000;
/** The platform drops a job pending this long (a day), or stuck without any runner this long (an hour). */
const STUCK_PENDING_MS = 24 * 3_600_000;
const STUCK_NO_RUNNER_MS = 3_600_000;

export type VariableType = 'env_var' | 'file';
export interface PipelineVariableInput {
  key: string;
  value: string;
  variable_type: VariableType;
}

export interface CreatePipelineInput {
  project: ProjectRow;
  ref: string;
  user: UserRow | null;
  source: string;
  variables?: PipelineVariableInput[];
  inputs?: Record<string, unknown>;
  /** A push names the commit it brought and the one before; otherwise the ref's head. */
  sha?: string;
  beforeSha?: string;
  /** Push pipelines keep an invalid CI file as a failed pipeline; the API answers 400 instead. */
  saveOnErrors: boolean;
  parentPipelineId?: number;
  /** A child pipeline: the trigger job that starts it, and its CI file (the parent's `trigger:include`). */
  sourceJobId?: number;
  ciYaml?: string;
}

export type CreatePipelineResult = { ok: true; pipeline: PipelineRow } | { ok: false; errors: string[]; skipped?: boolean };

/** `--ci-time-scale` / SANDBOX_CI_TIME_SCALE: a number of 0 or more; undefined when not given. */
export function parseCiTimeScale(text: string | undefined, fail: (message: string) => never): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) fail(`--ci-time-scale must be a number of 0 or more, not ${JSON.stringify(text)}`);
  return value;
}

// -- repository access

function repositoryOf(sandbox: Sandbox, project: ProjectRow): string | null {
  buildPendingRepository(sandbox, project);
  return existingRepository(sandbox, project);
}

/** A file of the repository at a commit, or null (read synchronously: the CI file's `include: local`). */
function readRepositoryFile(repo: string, sha: string, path: string): string | null {
  const clean = path.replace(/^\.?\/+/, '');
  if (!clean || !isSafeRevision(clean) || clean.includes('..')) return null;
  try {
    return gitSync(repo, ['cat-file', 'blob', `${sha}:${clean}`]).toString('utf8');
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

function listRepositoryFiles(repo: string, sha: string): string[] {
  try {
    return gitSync(repo, ['ls-tree', '-r', '--name-only', '-z', sha]).toString('utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

// -- creation

const namespacePath = (project: ProjectRow) => project.path_with_namespace.slice(0, project.path_with_namespace.length - project.path.length - 1);

function predefinedFor(sandbox: Sandbox, project: ProjectRow, pipeline: PipelineRow, user: UserRow | null): Record<string, string> {
  return predefinedVariables({
    serverUrl: sandbox.config.externalUrl,
    project: {
      id: project.id,
      pathWithNamespace: project.path_with_namespace,
      path: project.path,
      name: project.name,
      namespace: namespacePath(project),
      namespaceId: project.namespace_id,
      defaultBranch: project.default_branch,
      visibility: project.visibility,
    },
    pipeline: { id: pipeline.id, iid: pipeline.iid, source: pipeline.source, createdAt: pipeline.created_at, name: pipeline.name },
    ref: pipeline.ref,
    tag: Boolean(pipeline.tag),
    sha: pipeline.sha,
    beforeSha: pipeline.before_sha,
    refProtected: !pipeline.tag && new ProjectProtections(sandbox.db, project.id).isProtected(pipeline.ref),
    commit: pipeline.committed_at
      ? { message: pipeline.commit_message, timestamp: pipeline.committed_at, authorName: pipeline.commit_author_name ?? '', authorEmail: pipeline.commit_author_email ?? '' }
      : null,
    user: user ? { id: user.id, username: user.username, name: user.name, email: user.email } : null,
    configPath: CI_CONFIG_PATH,
  });
}

const pipelineVariablesOf = (db: Db, pipelineId: number) =>
  db.prepare('SELECT key, value, variable_type FROM ci_pipeline_variables WHERE pipeline_id = ? ORDER BY id').all(pipelineId) as PipelineVariableInput[];

/**
 * Ci::CreatePipelineService: the ref's commit, the CI file there, the plan; then the pipeline and
 * its jobs in one transaction. Errors come back with the platform's messages; with `saveOnErrors`
 * an invalid CI file still makes a failed pipeline carrying `yaml_errors`.
 */
export async function createPipeline(sandbox: Sandbox, input: CreatePipelineInput): Promise<CreatePipelineResult> {
  const { db } = sandbox;
  const { project } = input;
  const repo = repositoryOf(sandbox, project);
  const [branchSha, tagSha] = repo && input.ref
    ? await Promise.all([branchHead(repo, input.ref), isSafeRevision(input.ref) ? resolveCommit(repo, `refs/tags/${input.ref}`) : null])
    : [null, null];
  if (!repo || (!branchSha && !tagSha)) return { ok: false, errors: ['Reference not found'] };
  if (branchSha && tagSha) return { ok: false, errors: ['Ref is ambiguous'] };
  const tag = !branchSha;
  const sha = input.sha ?? (branchSha ?? tagSha)!;
  const commit = await readCommit(repo, sha);
  if (!commit) return { ok: false, errors: ['Commit not found'] };
  const ciYaml = input.ciYaml ?? readRepositoryFile(repo, sha, CI_CONFIG_PATH);
  if (ciYaml === null) return { ok: false, errors: ['Missing CI config file'], skipped: true };
  const skip = input.source === 'push' && SKIP_CI.test(commit.message);

  const stamp = sandbox.now().toISOString();
  const created = db.transaction((): CreatePipelineResult => {
    const iid = nextPipelineIid(db, project.id);
    const id = Number(db.prepare(
      `INSERT INTO ci_pipelines (iid, project_id, status, source, ref, tag, sha, before_sha, user_id, parent_pipeline_id, source_job_id, created_at, updated_at,
         committed_at, commit_message, commit_author_name, commit_author_email)
       VALUES (?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(iid, project.id, input.source, input.ref, tag ? 1 : 0, sha, input.beforeSha ?? ZERO_SHA, input.user?.id ?? null,
      input.parentPipelineId ?? null, input.sourceJobId ?? null, stamp, stamp, commit.committedDate, commit.message, commit.authorName, commit.authorEmail).lastInsertRowid);
    if (skip) {
      db.prepare("UPDATE ci_pipelines SET status = 'skipped', finished_at = ?, updated_at = ? WHERE id = ?").run(stamp, stamp, id);
      return { ok: true, pipeline: pipelineById(db, id)! };
    }
    const insertVariable = db.prepare('INSERT INTO ci_pipeline_variables (pipeline_id, key, value, variable_type) VALUES (?, ?, ?, ?)');
    for (const variable of input.variables ?? []) insertVariable.run(id, variable.key, variable.value, variable.variable_type);
    const pipeline = pipelineById(db, id)!;
    const variables = { ...predefinedFor(sandbox, project, pipeline, input.user), ...Object.fromEntries((input.variables ?? []).map((v) => [v.key, v.value])) };
    const result = planPipeline(ciYaml, { variables, readFile: (path) => readRepositoryFile(repo, sha, path), inputs: input.inputs });
    if (!result.ok) {
      if (!input.saveOnErrors) throw new PlanRefused(result.errors);
      db.prepare("UPDATE ci_pipelines SET status = 'failed', yaml_errors = ?, failure_reason = 'config_error', finished_at = ?, updated_at = ? WHERE id = ?")
        .run(result.errors.join(', '), stamp, stamp, id);
      return { ok: true, pipeline: pipelineById(db, id)! };
    }
    const { plan } = result;
    if (plan.jobs.length === 0) throw new PlanRefused([plan.notRunReason ?? 'Pipeline will not run for the selected trigger. The rules configuration prevented any jobs from being added to the pipeline.'], true);
    db.prepare('UPDATE ci_pipelines SET name = ?, config_variables = ? WHERE id = ?').run(plan.name, JSON.stringify(plan.variables), id);
    insertJobs(db, pipelineById(db, id)!, plan.jobs, commit.message.split('\n', 1)[0] ?? '', stamp);
    return { ok: true, pipeline: pipelineById(db, id)! };
  });
  let result: CreatePipelineResult;
  try {
    result = created();
  } catch (error) {
    if (error instanceof PlanRefused) return { ok: false, errors: error.errors, skipped: error.skipped };
    throw error;
  }
  if (result.ok) ciWorker(sandbox).process(result.pipeline.id);
  return result;
}

/** A push's commit message can skip its pipeline: `[ci skip]` or `[skip ci]` (any case, `-` or `_` between). */
const SKIP_CI = /\[(ci[ _-]skip|skip[ _-]ci)\]/i;

/**
 * Every branch or tag a push created or moved gets a pipeline (source `push`), as the platform's
 * post-receive does; a ref without a CI file gets none. Runs after the write, never failing it.
 */
export function startPushPipelines(sandbox: Sandbox, project: ProjectRow, user: UserRow, changes: ReadonlyArray<{ ref: string; before: string; after: string }>): void {
  const worker = ciWorker(sandbox);
  for (const change of changes) {
    if (change.after === ZERO_SHA) continue;
    const ref = change.ref.replace(/^refs\/(heads|tags)\//, '');
    worker.track(createPipeline(sandbox, { project, ref, user, source: 'push', sha: change.after, beforeSha: change.before, saveOnErrors: true }).then(() => undefined));
  }
}

/** The CI file's variables at a ref (GraphQL `ciConfigVariables`): empty when the ref or the file is missing. */
export async function configVariablesAt(sandbox: Sandbox, project: ProjectRow, ref: string) {
  const repo = repositoryOf(sandbox, project);
  const sha = repo && ref ? (await branchHead(repo, ref)) ?? (isSafeRevision(ref) ? await resolveCommit(repo, `refs/tags/${ref}`) : null) : null;
  if (!repo || !sha) return [];
  const ciYaml = readRepositoryFile(repo, sha, CI_CONFIG_PATH);
  if (ciYaml === null) return [];
  return configVariables(ciYaml, { variables: {}, readFile: (path) => readRepositoryFile(repo, sha, path) });
}

class PlanRefused extends Error {
  constructor(readonly errors: string[], readonly skipped = false) {
    super(errors.join(', '));
  }
}

function insertJobs(db: Db, pipeline: PipelineRow, jobs: readonly JobPlan[], commitTitle: string, stamp: string): void {
  const insert = db.prepare(
    `INSERT INTO ci_builds (project_id, pipeline_id, pipeline_iid, user_id, name, stage, stage_idx, status, ref, tag, sha, commit_title,
       allow_failure, job_when, needs, tag_list, plan, created_at, updated_at, type)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'created', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const job of jobs) {
    insert.run(pipeline.project_id, pipeline.id, pipeline.iid, pipeline.user_id, job.name, job.stage, job.stageIndex, pipeline.ref, pipeline.tag, pipeline.sha,
      commitTitle, job.allowFailure && job.allowFailureExitCodes.length === 0 ? 1 : 0, job.when, job.needs === null ? null : JSON.stringify(job.needs),
      JSON.stringify(job.tags), JSON.stringify(job), stamp, stamp, job.trigger ? 'Ci::Bridge' : 'Ci::Build');
  }
}

// -- the worker

interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
}

/** Test seams: hold a job before it runs, or see what the worker did. */
export interface CiWorkerControl {
  beforeRun?: (job: JobRow) => Promise<void>;
}

export class CiWorker {
  control: CiWorkerControl = {};
  private readonly running = new Map<number, RunningJob>();
  private readonly queued = new Set<number>();
  private readonly background = new Set<Promise<void>>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private poller: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly sandbox: Sandbox) {}

  /** Parsed plans by job id: a job's plan never changes, and every step of its pipeline reads them all. */
  private readonly plans = new Map<number, JobPlan>();

  private planOf(job: JobRow): JobPlan {
    let plan = this.plans.get(job.id);
    if (!plan) {
      if (this.plans.size >= 20_000) this.plans.clear();
      plan = JSON.parse(job.plan!) as JobPlan;
      this.plans.set(job.id, plan);
    }
    return plan;
  }

  private get db(): Db {
    return this.sandbox.db;
  }

  private get timeScale(): number {
    return this.sandbox.config.ciTimeScale ?? 1;
  }

  private alive(): boolean {
    return !this.stopped && this.db.open;
  }

  /** Advances a pipeline after the current transaction has committed. */
  process(pipelineId: number): void {
    if (this.queued.has(pipelineId)) return;
    this.queued.add(pipelineId);
    if (!this.flushing) {
      this.flushing = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.flushing = null;
        const ids = [...this.queued];
        this.queued.clear();
        for (const id of ids) this.advanceSafely(id);
      });
    }
  }

  /** Keeps background work (a push's pipelines) in what `idle()` waits for. */
  track(work: Promise<void>): void {
    const job = work.catch((error: unknown) => {
      if (this.alive()) console.error('sandbox: CI work failed:', error);
    });
    this.background.add(job);
    void job.finally(() => this.background.delete(job));
  }

  /** Resolves once nothing is queued or running (delayed jobs and jobs waiting for a runner are not waited for). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.background.size) await Promise.allSettled([...this.background]);
      else if (this.flushing) await this.flushing;
      else if (this.running.size) await Promise.allSettled([...this.running.values()].map((job) => job.done));
      else return;
    }
  }

  /** Stops every running job and timer (the sandbox is closing). */
  stop(): void {
    this.stopped = true;
    for (const job of this.running.values()) job.controller.abort();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
  }

  /**
   * On start: a job that was running when the sandbox stopped failed with the runner's system
   * failure (its runner is gone); everything else in flight carries on, delayed jobs at their time.
   */
  resume(): void {
    const { db } = this;
    const stamp = this.sandbox.now().toISOString();
    const interrupted = db.prepare("SELECT * FROM ci_builds WHERE status IN ('running', 'canceling') AND plan IS NOT NULL AND pipeline_id IS NOT NULL").all() as JobRow[];
    const pipelines = new Set<number>();
    db.transaction(() => {
      for (const job of interrupted) {
        appendTrace(db, job.id, '\n\x1b[31;1mERROR: Job failed (system failure): the sandbox stopped while the job was running\x1b[0;m\n');
        this.finishJob(job, job.status === 'canceling' ? 'canceled' : 'failed', job.status === 'canceling' ? null : 'runner_system_failure', stamp);
        pipelines.add(job.pipeline_id!);
      }
    })();
    const active = db.prepare(`SELECT id FROM ci_pipelines WHERE status IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled', 'manual')`).pluck().all() as number[];
    for (const id of active) pipelines.add(id);
    for (const id of pipelines) this.process(id);
    this.dropStuck();
    const scheduled = db.prepare("SELECT * FROM ci_builds WHERE status = 'scheduled' AND plan IS NOT NULL").all() as JobRow[];
    for (const job of scheduled) this.armSchedule(job);
  }

  private advanceSafely(pipelineId: number): void {
    if (!this.alive()) return;
    try {
      this.advance(pipelineId);
    } catch (error) {
      if (this.alive()) console.error(`sandbox: CI pipeline ${pipelineId} could not advance:`, error);
    }
  }

  /** One step of Ci::ProcessPipelineService: statuses from the graph, runners for pending jobs, the pipeline's status. */
  private advance(pipelineId: number): void {
    const { db } = this;
    const toStart: JobRow[] = [];
    const toTrigger: JobRow[] = [];
    db.transaction(() => {
      const pipeline = pipelineById(db, pipelineId);
      if (!pipeline) return;
      const stamp = this.sandbox.now().toISOString();
      // nextSteps cascades within one call (a skipped job skips the jobs after it)
      const jobs = latestJobs(db, pipelineId).filter((job) => job.plan !== null);
      const byName = new Map(jobs.map((job) => [job.name, job]));
      for (const step of nextSteps(jobs.map((job) => this.planOf(job)), statesOf(jobs))) {
        const job = byName.get(step.name);
        if (job?.status === 'created') this.enqueue(job, step.status, stamp);
      }
      for (const job of db.prepare("SELECT * FROM ci_builds WHERE pipeline_id = ? AND retried = 0 AND status = 'pending' AND plan IS NOT NULL ORDER BY id").all(pipelineId) as JobRow[]) {
        if (job.type === 'Ci::Bridge') {
          // a trigger job needs no runner: it starts its child pipeline
          db.prepare("UPDATE ci_builds SET status = 'running', started_at = ?, updated_at = ? WHERE id = ?").run(stamp, stamp, job.id);
          toTrigger.push(job);
        } else if (this.assignRunner(job, pipeline, stamp)) {
          toStart.push({ ...job, status: 'running' });
        }
      }
      this.updatePipelineStatus(pipelineId, stamp);
    })();
    for (const job of toStart) this.start(job.id);
    for (const job of toTrigger) this.track(this.triggerChild(job));
    this.watchPending();
  }

  /** A created job whose turn came: pending, manual, scheduled (delayed) or skipped. */
  private enqueue(job: JobRow, status: string, stamp: string): void {
    const { db } = this;
    if (status === 'scheduled') {
      const plan = JSON.parse(job.plan!) as JobPlan;
      const at = new Date(this.sandbox.now().getTime() + (plan.startInSeconds ?? 0) * 1000 * this.timeScale).toISOString();
      db.prepare("UPDATE ci_builds SET status = 'scheduled', scheduled_at = ?, updated_at = ? WHERE id = ?").run(at, stamp, job.id);
      this.armSchedule({ ...job, scheduled_at: at });
      return;
    }
    if (status === 'pending') {
      db.prepare("UPDATE ci_builds SET status = 'pending', queued_at = ?, updated_at = ? WHERE id = ?").run(stamp, stamp, job.id);
      return;
    }
    db.prepare('UPDATE ci_builds SET status = ?, updated_at = ? WHERE id = ?').run(status, stamp, job.id);
  }

  /** A delayed job becomes pending at its time. */
  private armSchedule(job: JobRow): void {
    const existing = this.timers.get(job.id);
    if (existing) clearTimeout(existing);
    const wait = Math.max(0, Date.parse(job.scheduled_at ?? '') - this.sandbox.now().getTime()) || 0;
    const timer = setTimeout(() => {
      this.timers.delete(job.id);
      if (!this.alive()) return;
      const stamp = this.sandbox.now().toISOString();
      const changed = this.db.prepare("UPDATE ci_builds SET status = 'pending', queued_at = ?, updated_at = ? WHERE id = ? AND status = 'scheduled'").run(stamp, stamp, job.id).changes;
      if (changed) this.process(job.pipeline_id!);
    }, wait);
    timer.unref();
    this.timers.set(job.id, timer);
  }

  /**
   * The runner that picks a pending job: online, not paused, of the project, one of its groups or
   * the instance (when the project allows shared runners), protected refs only for protected-ref
   * runners, and whose tags cover the job's (untagged jobs need run_untagged). Project runners first.
   */
  private assignRunner(job: JobRow, pipeline: PipelineRow, stamp: string): boolean {
    const runner = findRunnerFor(this.sandbox, job, pipeline);
    if (!runner) return false;
    const { db } = this;
    db.prepare("UPDATE ci_builds SET status = 'running', runner_id = ?, system_id = ?, started_at = ?, updated_at = ? WHERE id = ?")
      .run(runner.id, runner.system_id, stamp, stamp, job.id);
    db.prepare('UPDATE ci_runners SET contacted_at = ? WHERE id = ?').run(stamp, runner.id);
    return true;
  }

  /** While jobs wait for a runner, look again now and then (a paused runner may come back). */
  private watchPending(): void {
    if (this.poller || !this.alive()) return;
    const hasPending = this.db.prepare("SELECT 1 FROM ci_builds WHERE status = 'pending' AND plan IS NOT NULL LIMIT 1").get();
    if (!hasPending) return;
    this.poller = setInterval(() => {
      if (!this.alive()) return this.stop();
      this.dropStuck();
      const ids = this.db.prepare("SELECT DISTINCT pipeline_id FROM ci_builds WHERE status = 'pending' AND plan IS NOT NULL").pluck().all() as number[];
      if (!ids.length) {
        clearInterval(this.poller!);
        this.poller = null;
        return;
      }
      for (const id of ids) this.process(id);
    }, RUNNER_POLL_MS);
    this.poller.unref();
  }

  /**
   * Ci::StuckBuilds::DropPendingService: a job pending for a day, or stuck (no runner can take it)
   * for an hour, fails with `stuck_or_timeout_failure`.
   */
  dropStuck(): void {
    const { db } = this;
    const now = this.sandbox.now();
    const stamp = now.toISOString();
    const pending = db.prepare("SELECT * FROM ci_builds WHERE status = 'pending' AND plan IS NOT NULL AND type = 'Ci::Build'").all() as JobRow[];
    const dropped = new Set<number>();
    db.transaction(() => {
      for (const job of pending) {
        const waited = now.getTime() - Date.parse(job.queued_at ?? job.created_at);
        if (!(waited > STUCK_PENDING_MS || (waited > STUCK_NO_RUNNER_MS && jobStuck(this.sandbox, job)))) continue;
        appendTrace(db, job.id, '\x1b[31;1mERROR: Job failed (system failure): the job was stuck waiting for a runner and timed out\x1b[0;m\n');
        this.finishJob(job, 'failed', 'stuck_or_timeout_failure', stamp);
        dropped.add(job.pipeline_id!);
      }
    })();
    for (const id of dropped) this.process(id);
  }

  private start(jobId: number): void {
    const controller = new AbortController();
    const done = this.execute(jobId, controller).catch((error: unknown) => {
      if (this.alive()) console.error(`sandbox: CI job ${jobId} failed to run:`, error);
    }).finally(() => this.running.delete(jobId));
    this.running.set(jobId, { controller, done });
  }

  /** Aborts a running job's interpreter (cancel); its status is written by the caller. */
  abort(jobId: number): void {
    this.running.get(jobId)?.controller.abort();
  }

  private async execute(jobId: number, controller: AbortController): Promise<void> {
    const { db } = this;
    const job = db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(jobId) as JobRow | undefined;
    if (!job || job.status !== 'running') return;
    await this.control.beforeRun?.(job);
    const pipeline = pipelineById(db, job.pipeline_id!)!;
    const project = db.prepare('SELECT * FROM projects WHERE id = ?').get(job.project_id) as ProjectRow;
    const plan = JSON.parse(job.plan!) as JobPlan;
    const user = job.user_id === null ? null : (db.prepare('SELECT * FROM users WHERE id = ?').get(job.user_id) as UserRow | null);
    const repo = repositoryOf(this.sandbox, project);
    const runner = db.prepare('SELECT id, description, maximum_timeout FROM ci_runners WHERE id = ?').get(job.runner_id) as { id: number; description: string | null; maximum_timeout: number | null } | undefined;
    const runnerTags = runner ? db.prepare('SELECT name FROM ci_runner_taggings WHERE runner_id = ? ORDER BY name').pluck().all(runner.id) as string[] : [];
    const timeoutSeconds = Math.min(plan.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, runner?.maximum_timeout ?? Infinity);

    const predefined = predefinedFor(this.sandbox, project, pipeline, user);
    const projectDir = predefined.CI_PROJECT_DIR;
    const files = new Map<string, string>();
    const variables = [...pipelineVariablesOf(db, pipeline.id), ...(JSON.parse(job.job_variables) as Array<{ key: string; value: string }>).map((v) => ({ ...v, variable_type: 'env_var' as const }))];
    const pipelineVariables: Record<string, string> = {};
    for (const variable of variables) {
      if (variable.variable_type === 'file') {
        // the runner writes a file variable's value to a file and passes its path
        const path = `${projectDir}.tmp/${variable.key}`;
        files.set(path, variable.value);
        pipelineVariables[variable.key] = path;
      } else {
        pipelineVariables[variable.key] = variable.value;
      }
    }
    const env = jobEnvironment({
      plan: { stages: [], variables: JSON.parse(pipeline.config_variables) as Record<string, string>, jobs: [], name: pipeline.name, notRunReason: null },
      job: plan,
      predefined,
      jobPredefined: jobVariables({
        job: plan,
        id: job.id,
        url: `${predefined.CI_PROJECT_URL}/-/jobs/${job.id}`,
        startedAt: job.started_at,
        runner: runner ? { id: runner.id, description: runner.description ?? '', tags: runnerTags } : null,
        timeoutSeconds,
      }),
      pipelineVariables,
    });
    const relative = (path: string) => (path.startsWith(`${projectDir}/`) ? path.slice(projectDir.length + 1) : path).replace(/^\.\//, '');
    let repositoryFiles: string[] | null = null;
    const workspace: Workspace = {
      read: (path) => files.get(path) ?? files.get(relative(path)) ?? (repo ? readRepositoryFile(repo, job.sha, relative(path)) : null),
      write: (path, text, append) => {
        const key = files.has(path) ? path : relative(path);
        files.set(key, append ? (workspace.read(key) ?? '') + text : text);
      },
      list: () => {
        repositoryFiles ??= repo ? listRepositoryFiles(repo, job.sha) : [];
        return [...new Set([...repositoryFiles, ...files.keys()])];
      },
    };

    // the log: written in chunks while the job runs, so a reader sees it grow
    let buffer = '';
    let log = '';
    const flush = () => {
      if (!buffer || !db.open) return;
      appendTrace(db, job.id, buffer);
      buffer = '';
    };
    const flusher = setInterval(flush, TRACE_FLUSH_MS);
    flusher.unref();
    let outcome: { exitCode: number; canceled: boolean; timedOut: boolean };
    try {
      outcome = await runJob({ ...plan, timeoutSeconds }, env, workspace, {
        sleep: (ms) => abortableSleep(ms, controller.signal),
        timeScale: this.timeScale,
        signal: controller.signal,
        now: () => this.sandbox.now().getTime(),
        runner: runner ? { description: runner.description ?? '', shortToken: `t${runner.id}` } : null,
        defaultTimeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
        ref: pipeline.ref,
        sha: pipeline.sha,
        onLog: (chunk) => {
          buffer += chunk;
          if (plan.coverageRegex) log += chunk;
          if (buffer.length >= TRACE_FLUSH_BYTES) flush();
        },
      });
    } finally {
      clearInterval(flusher);
    }
    if (!this.alive()) return;
    const stamp = this.sandbox.now().toISOString();
    db.transaction(() => {
      flush();
      const current = db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(job.id) as JobRow | undefined;
      // canceled (or deleted) meanwhile: the cancel already wrote the status
      if (!current || current.status !== 'running') return;
      const coverage = plan.coverageRegex ? extractCoverage(log, plan.coverageRegex) : null;
      if (coverage !== null) db.prepare('UPDATE ci_builds SET coverage = ? WHERE id = ?').run(coverage, job.id);
      if (plan.junitPaths.length) storeTestReport(db, job, plan.junitPaths, workspace);
      if (outcome.canceled) {
        this.finishJob(current, 'canceled', null, stamp);
      } else if (outcome.timedOut) {
        this.finishJob(current, 'failed', 'job_execution_timeout', stamp);
      } else if (outcome.exitCode === 0) {
        this.finishJob(current, 'success', null, stamp);
      } else {
        if (allowedToFail(plan, outcome.exitCode)) db.prepare('UPDATE ci_builds SET allow_failure = 1 WHERE id = ?').run(job.id);
        this.finishJob(current, 'failed', 'script_failure', stamp, outcome.exitCode);
      }
    })();
    this.process(job.pipeline_id!);
  }

  /** A job's end; a failure its `retry` covers makes a new try of the job (the failed one stays, retried). */
  private finishJob(job: JobRow, status: 'success' | 'failed' | 'canceled', reason: string | null, stamp: string, exitCode: number | null = null): void {
    const { db } = this;
    db.prepare('UPDATE ci_builds SET status = ?, failure_reason = ?, finished_at = ?, updated_at = ?, started_at = coalesce(started_at, ?) WHERE id = ?')
      .run(status, reason, stamp, stamp, stamp, job.id);
    if (status !== 'failed' || !job.plan) return;
    const plan = JSON.parse(job.plan) as JobPlan;
    if (shouldRetry(plan, { reason: reason ?? 'unknown_failure', attempts: job.retry_count + 1, exitCode })) cloneJob(db, job, { status: 'pending', retryCount: job.retry_count + 1, userId: job.user_id, stamp });
  }

  /** The pipeline's status from its latest jobs, with its start, end, durations and coverage. */
  updatePipelineStatus(pipelineId: number, stamp: string): void {
    const { db } = this;
    const pipeline = pipelineById(db, pipelineId);
    if (!pipeline || pipeline.yaml_errors) return;
    const jobs = latestJobs(db, pipelineId);
    if (!jobs.length) return;
    const status = pipelineStatus(statesOf(jobs).values());
    const startedAt = jobs.map((job) => job.started_at).filter((at): at is string => Boolean(at)).sort()[0] ?? null;
    const completed = COMPLETED_STATUSES.includes(status);
    const finishedAt = completed ? pipeline.finished_at && pipeline.status === status ? pipeline.finished_at : stamp : null;
    const coverages = jobs.map((job) => job.coverage).filter((value): value is number => value !== null);
    const coverage = coverages.length ? coverages.reduce((a, b) => a + b, 0) / coverages.length : null;
    const duration = completed ? busySeconds(db, pipelineId) : null;
    const queued = startedAt ? Math.max(0, Math.round((Date.parse(startedAt) - Date.parse(pipeline.created_at)) / 1000)) : null;
    if (status === pipeline.status && finishedAt === pipeline.finished_at && startedAt === pipeline.started_at && coverage === pipeline.coverage && duration === pipeline.duration) return;
    db.prepare('UPDATE ci_pipelines SET status = ?, started_at = ?, finished_at = ?, duration = ?, queued_duration = ?, coverage = ?, updated_at = ? WHERE id = ?')
      .run(status, startedAt, finishedAt, duration, queued, coverage, stamp, pipelineId);
    if (pipeline.source_job_id !== null && completed) this.finishBridge(pipeline.source_job_id, status, stamp);
  }

  /** Starts a trigger job's child pipeline (source parent_pipeline) from its `trigger:include` files. */
  private async triggerChild(bridge: JobRow): Promise<void> {
    const { db } = this;
    const plan = JSON.parse(bridge.plan!) as JobPlan;
    const parent = pipelineById(db, bridge.pipeline_id!);
    const project = db.prepare('SELECT * FROM projects WHERE id = ?').get(bridge.project_id) as ProjectRow | undefined;
    if (!parent || !project || !plan.trigger) return;
    const user = bridge.user_id === null ? null : (db.prepare('SELECT * FROM users WHERE id = ?').get(bridge.user_id) as UserRow | null);
    const forward = plan.trigger.forward;
    const variables: PipelineVariableInput[] = [
      ...(forward.yamlVariables ? Object.entries({ ...(JSON.parse(parent.config_variables) as Record<string, string>), ...plan.variables }).map(([key, value]) => ({ key, value, variable_type: 'env_var' as const })) : []),
      ...(forward.pipelineVariables ? pipelineVariablesOf(db, parent.id) : []),
    ];
    const unique = [...new Map(variables.map((variable) => [variable.key, variable])).values()];
    const ciYaml = `include:\n${plan.trigger.include.map((file) => `  - local: ${JSON.stringify(file)}`).join('\n')}\n`;
    const result = await createPipeline(this.sandbox, {
      project, ref: parent.ref, user, source: 'parent_pipeline', sha: parent.sha, variables: unique, saveOnErrors: true,
      parentPipelineId: parent.id, sourceJobId: bridge.id, ciYaml,
    });
    if (!this.alive()) return;
    const stamp = this.sandbox.now().toISOString();
    db.transaction(() => {
      if (!result.ok) this.finishBridge(bridge.id, 'failed', stamp, 'downstream_pipeline_creation_failed');
      // without strategy: depend the trigger job passes once its child exists
      else if (plan.trigger!.strategy !== 'depend' || COMPLETED_STATUSES.includes(result.pipeline.status)) this.finishBridge(bridge.id, plan.trigger!.strategy === 'depend' ? result.pipeline.status : 'success', stamp);
    })();
    this.process(bridge.pipeline_id!);
  }

  /** A trigger job's end: with strategy: depend it takes its child pipeline's status. */
  private finishBridge(bridgeId: number, status: string, stamp: string, reason: string | null = null): void {
    const bridge = this.db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(bridgeId) as JobRow | undefined;
    if (!bridge || bridge.status !== 'running') return;
    const final = status === 'success' || status === 'failed' || status === 'canceled' ? status : status === 'skipped' ? 'skipped' : 'failed';
    this.db.prepare('UPDATE ci_builds SET status = ?, failure_reason = ?, finished_at = ?, updated_at = ? WHERE id = ?')
      .run(final, final === 'failed' ? reason ?? 'downstream_pipeline_failed' : null, stamp, stamp, bridge.id);
    this.process(bridge.pipeline_id!);
  }

  // -- actions (called inside the request's transaction)

  /** Ci::CancelPipelineService: running jobs stop, every cancelable job is canceled; manual jobs stay. */
  cancelPipeline(pipelineId: number): void {
    const stamp = this.sandbox.now().toISOString();
    const jobs = this.db.prepare(`SELECT * FROM ci_builds WHERE pipeline_id = ? AND retried = 0 AND status IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled')`).all(pipelineId) as JobRow[];
    for (const job of jobs) this.cancelJob(job, stamp);
    // child pipelines stop with their parent
    for (const child of this.db.prepare('SELECT id FROM ci_pipelines WHERE parent_pipeline_id = ?').pluck().all(pipelineId) as number[]) this.cancelPipeline(child);
    this.updatePipelineStatus(pipelineId, stamp);
    this.process(pipelineId);
  }

  cancelJob(job: JobRow, stamp = this.sandbox.now().toISOString()): void {
    this.db.prepare("UPDATE ci_builds SET status = 'canceled', finished_at = ?, updated_at = ? WHERE id = ?").run(stamp, stamp, job.id);
    if (job.status === 'running') {
      // the interpreter writes the cancel into the log as it stops
      const running = this.running.get(job.id);
      // after the transaction: the interpreter sees the abort and finds the job canceled
      if (running) setImmediate(() => running.controller.abort());
    }
    const timer = this.timers.get(job.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(job.id);
    if (job.pipeline_id !== null) this.process(job.pipeline_id);
  }

  /** Ci::RetryPipelineService: failed and canceled jobs run again, skipped ones are processed again. */
  retryPipeline(pipelineId: number, user: UserRow): void {
    const { db } = this;
    const stamp = this.sandbox.now().toISOString();
    const jobs = latestJobs(db, pipelineId).filter((job) => job.plan !== null);
    for (const job of jobs) {
      if (job.status === 'failed' || job.status === 'canceled') cloneJob(db, job, { status: 'created', retryCount: job.retry_count, userId: user.id, stamp });
      else if (job.status === 'skipped') db.prepare("UPDATE ci_builds SET status = 'created', updated_at = ? WHERE id = ?").run(stamp, job.id);
    }
    db.prepare("UPDATE ci_pipelines SET status = 'running', finished_at = NULL, duration = NULL, updated_at = ? WHERE id = ?").run(stamp, pipelineId);
    this.process(pipelineId);
  }

  /** Ci::RetryJobService: a new try of the job; later skipped jobs are processed again. */
  retryJob(job: JobRow, user: UserRow): JobRow {
    const { db } = this;
    const stamp = this.sandbox.now().toISOString();
    const clone = cloneJob(db, job, { status: 'created', retryCount: job.retry_count, userId: user.id, stamp });
    db.prepare("UPDATE ci_builds SET status = 'created', updated_at = ? WHERE pipeline_id = ? AND retried = 0 AND status = 'skipped' AND stage_idx >= ?").run(stamp, job.pipeline_id, job.stage_idx);
    db.prepare("UPDATE ci_pipelines SET status = 'running', finished_at = NULL, duration = NULL, updated_at = ? WHERE id = ?").run(stamp, job.pipeline_id);
    this.process(job.pipeline_id!);
    return clone;
  }

  /** Plays a manual job (or starts a delayed one now): pending, by the player, with the variables given. */
  playJob(job: JobRow, user: UserRow, variables: Array<{ key: string; value: string }>): void {
    const stamp = this.sandbox.now().toISOString();
    this.db.prepare("UPDATE ci_builds SET status = 'pending', queued_at = ?, updated_at = ?, user_id = ?, job_variables = ?, scheduled_at = NULL WHERE id = ?")
      .run(stamp, stamp, user.id, JSON.stringify(variables), job.id);
    const timer = this.timers.get(job.id);
    if (timer) clearTimeout(timer);
    this.timers.delete(job.id);
    this.db.prepare("UPDATE ci_pipelines SET finished_at = NULL, updated_at = ? WHERE id = ?").run(stamp, job.pipeline_id);
    this.process(job.pipeline_id!);
  }
}

const workers = new WeakMap<Sandbox, CiWorker>();

export function ciWorker(sandbox: Sandbox): CiWorker {
  let worker = workers.get(sandbox);
  if (!worker) {
    worker = new CiWorker(sandbox);
    workers.set(sandbox, worker);
  }
  return worker;
}

// -- helpers

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The pipeline's jobs that count: the latest try of each. */
export function latestJobs(db: Db, pipelineId: number): JobRow[] {
  return db.prepare('SELECT * FROM ci_builds WHERE pipeline_id = ? AND retried = 0 ORDER BY stage_idx, id').all(pipelineId) as JobRow[];
}

/** Each job's state as graph.ts sees it (the transient `canceling` counts as canceled). */
function statesOf(jobs: readonly JobRow[]): Map<string, JobState> {
  return new Map(jobs.map((job) => [job.name, {
    status: (job.status === 'canceling' ? 'canceled' : job.status === 'waiting_for_callback' ? 'running' : job.status) as GraphStatus,
    allowFailure: Boolean(job.allow_failure),
  }]));
}

/** Marks a job retried and inserts its next try (same plan, same place in the pipeline). */
function cloneJob(db: Db, job: JobRow, options: { status: string; retryCount: number; userId: number | null; stamp: string }): JobRow {
  db.prepare('UPDATE ci_builds SET retried = 1, updated_at = ? WHERE id = ?').run(options.stamp, job.id);
  const plan = job.plan ? (JSON.parse(job.plan) as JobPlan) : null;
  const id = Number(db.prepare(
    `INSERT INTO ci_builds (project_id, pipeline_id, pipeline_iid, user_id, name, stage, stage_idx, status, ref, tag, sha, commit_title,
       allow_failure, job_when, needs, tag_list, plan, job_variables, retry_count, queued_at, created_at, updated_at, type)
     SELECT project_id, pipeline_id, pipeline_iid, ?, name, stage, stage_idx, ?, ref, tag, sha, commit_title,
       ?, job_when, needs, tag_list, plan, job_variables, ?, ?, ?, ?, type FROM ci_builds WHERE id = ?`,
  ).run(options.userId, options.status, plan && plan.allowFailure && plan.allowFailureExitCodes.length === 0 ? 1 : 0, options.retryCount,
    options.status === 'pending' ? options.stamp : null, options.stamp, options.stamp, job.id).lastInsertRowid);
  return db.prepare('SELECT * FROM ci_builds WHERE id = ?').get(id) as JobRow;
}

/** Seconds some job of the pipeline was running: the union of the jobs' running periods (the platform's duration). */
function busySeconds(db: Db, pipelineId: number): number | null {
  const periods = (db.prepare('SELECT started_at, finished_at FROM ci_builds WHERE pipeline_id = ? AND started_at IS NOT NULL AND finished_at IS NOT NULL ORDER BY started_at').all(pipelineId) as Array<{ started_at: string; finished_at: string }>)
    .map((row) => [Date.parse(row.started_at), Date.parse(row.finished_at)] as const);
  if (!periods.length) return null;
  let total = 0;
  let [from, to] = periods[0];
  for (const [start, end] of periods.slice(1)) {
    if (start > to) {
      total += to - from;
      [from, to] = [start, end];
    } else if (end > to) {
      to = end;
    }
  }
  total += to - from;
  return Math.round(total / 1000);
}

interface RunnerChoice {
  id: number;
  system_id: string | null;
}

/** The runner that would pick a job now, or null: the job is stuck. */
export function findRunnerFor(sandbox: Sandbox, job: Pick<JobRow, 'tag_list' | 'project_id' | 'ref' | 'tag'>, pipeline?: Pick<PipelineRow, 'ref' | 'tag'>): RunnerChoice | null {
  const { db } = sandbox;
  const project = db.prepare('SELECT * FROM projects WHERE id = ?').get(job.project_id) as ProjectRow | undefined;
  if (!project) return null;
  const tags = JSON.parse(job.tag_list) as string[];
  const settings = JSON.parse(project.settings || '{}') as Record<string, unknown>;
  const shared = settings.shared_runners_enabled !== false;
  const groups = groupChain(db, project.namespace_id);
  const ref = pipeline ?? job;
  const protectedRef = !ref.tag && new ProjectProtections(db, project.id).isProtected(ref.ref);
  const rows = db.prepare(
    `SELECT r.id, r.system_id, r.runner_type FROM ci_runners r
     WHERE r.active = 1 AND r.contacted_at > ?
       AND (? = 1 OR r.access_level = 'not_protected')
       AND (${tags.length ? '1' : 'r.run_untagged = 1'})
       AND (SELECT count(*) FROM ci_runner_taggings t WHERE t.runner_id = r.id AND t.name IN (SELECT value FROM json_each(?))) = ?
       AND (
         (r.runner_type = 'project_type' AND EXISTS (SELECT 1 FROM ci_runner_projects p WHERE p.runner_id = r.id AND p.project_id = ?))
         OR (r.runner_type = 'group_type' AND EXISTS (SELECT 1 FROM ci_runner_namespaces n WHERE n.runner_id = r.id AND n.namespace_id IN (SELECT value FROM json_each(?))))
         OR (r.runner_type = 'instance_type' AND ? = 1)
       )
     ORDER BY CASE r.runner_type WHEN 'project_type' THEN 0 WHEN 'group_type' THEN 1 ELSE 2 END, r.contacted_at DESC, r.id
     LIMIT 1`,
  ).all(onlineDeadline(sandbox.now()), protectedRef ? 1 : 0, JSON.stringify(tags), tags.length, project.id, JSON.stringify(groups), shared ? 1 : 0) as Array<RunnerChoice>;
  return rows[0] ?? null;
}

/** A pending job no runner can pick (the platform's `stuck?`). */
export function jobStuck(sandbox: Sandbox, job: JobRow): boolean {
  return job.status === 'pending' && findRunnerFor(sandbox, job) === null;
}

// -- test reports

/** artifacts:reports:junit: the named files (globs allowed) from the workspace, parsed and kept with the job. */
function storeTestReport(db: Db, job: JobRow, paths: readonly string[], workspace: Workspace): void {
  const suites = [];
  for (const pattern of paths) {
    for (const file of matchArtifacts(pattern, workspace)) {
      const xml = workspace.read(file);
      if (xml !== null) suites.push(...parseJunit(xml));
    }
  }
  db.prepare('INSERT INTO ci_test_reports (build_id, pipeline_id, suites) VALUES (?, ?, ?) ON CONFLICT (build_id) DO UPDATE SET suites = excluded.suites')
    .run(job.id, job.pipeline_id, JSON.stringify(suites));
}

