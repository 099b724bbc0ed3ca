import type { Actor, Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { AccessLevel, effectiveRole, type ProjectRow } from './access.ts';
import { projectIdentity, projectSettings, userBasic } from './entities.ts';
import { findRunner, loadRunnerRelations, runnerEntity } from './runners.ts';
import { detailedStatus } from '../ci/graph.ts';

/** Ci::HasStatus::AVAILABLE_STATUSES: the statuses of pipelines and jobs (spec 3, 2.5). */
export const PIPELINE_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

/** Ci::Build's statuses: the pipeline's plus the two transient ones jobs pass through. */
export const JOB_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success',
  'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Statuses a pipeline or job never leaves by itself (Ci::HasStatus::COMPLETED_STATUSES). */
export const COMPLETED_STATUSES: readonly string[] = ['success', 'failed', 'canceled', 'skipped'];
/** Statuses that count as "in flight" for the worker (ACTIVE_STATUSES plus the ones waiting for a trigger). */
export const ACTIVE_STATUSES: readonly string[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'canceling'];

/** Ci::Pipeline.sources: every value the `source` filter accepts. */
export const PIPELINE_SOURCES = [
  'unknown', 'push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event',
  'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation',
  'security_orchestration_policy', 'container_registry_push', 'duo_workflow', 'pipeline_execution_policy_schedule',
] as const;

export interface PipelineRow {
  id: number;
  iid: number;
  project_id: number;
  status: PipelineStatus;
  source: string;
  ref: string;
  tag: number;
  sha: string;
  before_sha: string;
  name: string | null;
  user_id: number | null;
  yaml_errors: string | null;
  failure_reason: string | null;
  parent_pipeline_id: number | null;
  source_job_id: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  commit_message: string;
  commit_author_name: string | null;
  commit_author_email: string | null;
  /** JSON: the CI file's global variables. */
  config_variables: string;
  duration: number | null;
  queued_duration: number | null;
  coverage: number | null;
}

export interface JobRow {
  id: number;
  project_id: number;
  runner_id: number | null;
  system_id: string | null;
  pipeline_id: number | null;
  pipeline_iid: number | null;
  user_id: number | null;
  name: string;
  stage: string;
  status: JobStatus;
  ref: string;
  tag: number;
  sha: string;
  commit_title: string;
  coverage: number | null;
  allow_failure: number;
  failure_reason: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  stage_idx: number;
  job_when: string;
  /** JSON array of job names, or null: the job waits for the earlier stages. */
  needs: string | null;
  retried: number;
  retry_count: number;
  scheduled_at: string | null;
  queued_at: string | null;
  updated_at: string | null;
  /** JSON array. */
  tag_list: string;
  /** The JobPlan (sandbox/ci/config.ts) as JSON; null for jobs the sandbox never runs itself (the seeded fleet's). */
  plan: string | null;
  /** JSON array of {key, value} given when a manual job was played. */
  job_variables: string;
  erased_at: string | null;
  type: 'Ci::Build' | 'Ci::Bridge';
}

// -- reading rights

/**
 * Pipelines and jobs are readable by Reporters, and by anyone who sees a public or internal
 * project whose CI/CD visibility (`public_jobs`) is on; the CI/CD feature off hides them (404).
 */
export function requirePipelineRead(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  const settings = projectSettings(project) as Record<string, unknown>;
  if (settings.builds_access_level === 'disabled') throw notFound();
  const role = effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
  if (role >= AccessLevel.REPORTER) return role;
  if (project.visibility !== 'private' && settings.public_jobs !== false && settings.builds_access_level !== 'private') return role;
  throw forbidden();
}

// -- lookups

export function findPipeline(db: Db, projectId: number, id: number): PipelineRow {
  const row = db.prepare('SELECT * FROM ci_pipelines WHERE id = ? AND project_id = ?').get(id, projectId) as PipelineRow | undefined;
  if (!row) throw notFound();
  return row;
}

/** A job (Ci::Build) of the project; trigger jobs are bridges, not found here (as on the platform). */
export function findJob(db: Db, projectId: number, id: number): JobRow {
  const row = db.prepare("SELECT * FROM ci_builds WHERE id = ? AND project_id = ? AND type = 'Ci::Build'").get(id, projectId) as JobRow | undefined;
  if (!row) throw notFound();
  return row;
}

export function pipelineById(db: Db, id: number): PipelineRow | undefined {
  return db.prepare('SELECT * FROM ci_pipelines WHERE id = ?').get(id) as PipelineRow | undefined;
}

/** The next iid of a project's pipelines: iids are never reused, even after a delete. */
export function nextPipelineIid(db: Db, projectId: number): number {
  const row = db.prepare(
    `INSERT INTO ci_pipeline_iids (project_id, last_iid) VALUES (?, coalesce((SELECT max(iid) FROM ci_pipelines WHERE project_id = ?), 0) + 1)
     ON CONFLICT (project_id) DO UPDATE SET last_iid = last_iid + 1 RETURNING last_iid`,
  ).get(projectId, projectId) as { last_iid: number };
  return row.last_iid;
}

// -- job logs

/** Appends text to a job's log: one row per append, so a growing log is never rewritten. */
export function appendTrace(db: Db, jobId: number, text: string): void {
  if (!text) return;
  db.prepare(
    'INSERT INTO ci_build_trace_chunks (build_id, chunk_index, data) VALUES (?, coalesce((SELECT max(chunk_index) + 1 FROM ci_build_trace_chunks WHERE build_id = ?), 0), ?)',
  ).run(jobId, jobId, text);
}

/** The whole log of a job, its chunks in order. */
export function readTrace(db: Db, jobId: number): string {
  const chunks = db.prepare('SELECT data FROM ci_build_trace_chunks WHERE build_id = ? ORDER BY chunk_index').pluck().all(jobId) as string[];
  return chunks.join('');
}

// -- entities

/** Gitlab::Ci::Status::Pipeline: the status as the platform's UI draws it (passed with warnings when an allowed failure failed). */
export function pipelineDetailedStatus(sandbox: Sandbox, project: ProjectRow, pipeline: PipelineRow) {
  const warnings = pipeline.status === 'success' && Boolean(
    sandbox.db.prepare("SELECT 1 FROM ci_builds WHERE pipeline_id = ? AND retried = 0 AND allow_failure = 1 AND status IN ('failed', 'canceled') LIMIT 1").get(pipeline.id),
  );
  return detailedStatus('pipeline', pipeline.status, { warnings, detailsPath: `/${project.path_with_namespace}/-/pipelines/${pipeline.id}` });
}

const pipelineWebUrl = (sandbox: Sandbox, project: ProjectRow, id: number) => `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/pipelines/${id}`;

/** PipelineBasic: the list item (spec 3, 2.5). */
export function pipelineBasic(sandbox: Sandbox, project: ProjectRow, pipeline: PipelineRow) {
  return {
    id: pipeline.id,
    iid: pipeline.iid,
    project_id: pipeline.project_id,
    sha: pipeline.sha,
    ref: pipeline.ref,
    status: pipeline.status,
    source: pipeline.source,
    created_at: pipeline.created_at,
    updated_at: pipeline.updated_at,
    web_url: pipelineWebUrl(sandbox, project, pipeline.id),
    name: pipeline.name,
  };
}

const userById = (db: Db, id: number | null) => (id === null ? undefined : (db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined));

/** A running pipeline's duration so far is not stored: the platform shows null until it finishes. */
export function pipelineEntity(sandbox: Sandbox, project: ProjectRow, pipeline: PipelineRow) {
  const user = userById(sandbox.db, pipeline.user_id);
  return {
    ...pipelineBasic(sandbox, project, pipeline),
    before_sha: pipeline.before_sha,
    tag: Boolean(pipeline.tag),
    yaml_errors: pipeline.yaml_errors,
    user: user ? userBasic(sandbox, user) : null,
    started_at: pipeline.started_at,
    finished_at: pipeline.finished_at,
    committed_at: pipeline.committed_at,
    duration: pipeline.duration,
    queued_duration: pipeline.queued_duration,
    // the platform sends coverage as a string ("78.50"), or null
    coverage: pipeline.coverage === null ? null : pipeline.coverage.toFixed(2),
    detailed_status: pipelineDetailedStatus(sandbox, project, pipeline),
  };
}

const seconds = (from: string | null, to: string | null) => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null);

/**
 * The platform's Job entity (Entities::Ci::Job), with the commit and pipeline it ran for; `withProject`
 * adds the project as JobBasicWithProject does (a runner's jobs).
 */
/** What the jobs of one page share (their project, users, pipelines, runners): each looked up once per page. */
export class JobEntityCache {
  private readonly memo = new Map<string, unknown>();
  get<T>(key: string, load: () => T): T {
    if (!this.memo.has(key)) this.memo.set(key, load());
    return this.memo.get(key) as T;
  }
}

export function jobEntity(sandbox: Sandbox, job: JobRow, now: Date, options: { withProject?: boolean; cache?: JobEntityCache } = {}) {
  const { db, config } = sandbox;
  const cache = options.cache ?? new JobEntityCache();
  const project = cache.get(`project:${job.project_id}`, () => db.prepare('SELECT * FROM projects WHERE id = ?').get(job.project_id) as ProjectRow);
  const user = cache.get(`user:${job.user_id}`, () => userById(db, job.user_id));
  const projectUrl = `${config.externalUrl}/${project.path_with_namespace}`;
  const running = job.status === 'running' || job.status === 'canceling';
  const pipeline = job.pipeline_id === null ? undefined : cache.get(`pipeline:${job.pipeline_id}`, () => pipelineById(db, job.pipeline_id!));
  const runnerJson = job.runner_id === null ? null : cache.get(`runner:${job.runner_id}`, () => {
    const runner = findRunner(db, job.runner_id!);
    return runner ? runnerEntity(sandbox, runner, now, loadRunnerRelations(db, [runner])) : null;
  });
  const committed = pipeline?.committed_at ?? job.created_at;
  const message = pipeline?.commit_message || job.commit_title;
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: Boolean(job.tag),
    coverage: job.coverage,
    allow_failure: Boolean(job.allow_failure),
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    erased_at: job.erased_at,
    duration: seconds(job.started_at, job.finished_at ?? (running ? now.toISOString() : null)),
    queued_duration: seconds(job.queued_at ?? job.created_at, job.started_at ?? (job.status === 'pending' ? now.toISOString() : null)),
    user: user ? userBasic(sandbox, user) : null,
    commit: {
      id: job.sha,
      short_id: job.sha.slice(0, 8),
      created_at: committed,
      parent_ids: [],
      title: job.commit_title,
      message,
      author_name: pipeline?.commit_author_name ?? user?.name ?? null,
      author_email: pipeline?.commit_author_email ?? user?.email ?? null,
      authored_date: committed,
      committer_name: pipeline?.commit_author_name ?? user?.name ?? null,
      committer_email: pipeline?.commit_author_email ?? user?.email ?? null,
      committed_date: committed,
      trailers: {},
      extended_trailers: {},
      web_url: `${projectUrl}/-/commit/${job.sha}`,
    },
    // a job row written without its pipeline (older data directories) still names the pipeline it had
    pipeline: pipeline ? cache.get(`pipelineBasic:${pipeline.id}`, () => pipelineBasic(sandbox, project, pipeline)) : job.pipeline_id === null ? null : {
      id: job.pipeline_id, iid: job.pipeline_iid, project_id: job.project_id, sha: job.sha, ref: job.ref, status: job.status, source: 'push',
      created_at: job.created_at, updated_at: job.finished_at ?? job.started_at ?? job.created_at, web_url: `${projectUrl}/-/pipelines/${job.pipeline_id}`, name: null,
    },
    failure_reason: job.status === 'failed' ? job.failure_reason : undefined,
    web_url: `${projectUrl}/-/jobs/${job.id}`,
    project: options.withProject ? cache.get(`projectIdentity:${project.id}`, () => projectIdentity(sandbox, project)) : { ci_job_token_scope_enabled: false },
    artifacts: [],
    runner: runnerJson,
    runner_manager: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: JSON.parse(job.tag_list) as string[],
  };
}

/** Entities::Ci::Bridge: a trigger job, with the child pipeline it started. */
export function bridgeEntity(sandbox: Sandbox, job: JobRow, now: Date, cache?: JobEntityCache) {
  const { runner: _runner, runner_manager: _manager, artifacts: _artifacts, artifacts_expire_at: _expire, tag_list: _tags, archived: _archived, ...rest } = jobEntity(sandbox, job, now, { cache });
  const child = sandbox.db.prepare('SELECT * FROM ci_pipelines WHERE source_job_id = ? ORDER BY id DESC LIMIT 1').get(job.id) as PipelineRow | undefined;
  const project = sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(job.project_id) as ProjectRow;
  return { ...rest, downstream_pipeline: child ? pipelineBasic(sandbox, project, child) : null };
}
