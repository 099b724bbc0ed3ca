import type { Actor, Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { ProjectProtections, canAccessBranch, protectDefaultBranch } from '../model/protected-branches.ts';
import { timestamp } from '../model/time.ts';
import { pipelineBasic, type PipelineRow } from '../model/pipelines.ts';
import type { CommitStats, RawCommit, TagEntry } from './repository.ts';

/** `full_title`: the first line of the message. */
export function commitTitle(message: string): string {
  return message.split(/\r?\n|\r/, 1)[0] ?? '';
}

function trailerObjects(commit: RawCommit, include: boolean) {
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  if (include) {
    for (const [key, value] of commit.trailers) {
      // duplicate keys: the last value wins in `trailers`, all are kept in `extended_trailers`
      trailers[key] = value;
      (extended[key] ??= []).push(value);
    }
  }
  return { trailers, extended_trailers: extended };
}

export function commitWebUrl(sandbox: Sandbox, project: ProjectRow, sha: string): string {
  return `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/commit/${sha}`;
}

/** The platform's Commit entity (spec 3, 2.1), field order as it sends them. */
export function commitEntity(sandbox: Sandbox, project: ProjectRow, commit: RawCommit, options: { trailers?: boolean } = {}) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 11),
    created_at: commit.committedDate,
    parent_ids: commit.parentIds,
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: commit.authoredDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: commit.committedDate,
    ...trailerObjects(commit, options.trailers ?? true),
    web_url: commitWebUrl(sandbox, project, commit.id),
  };
}

/** CommitDetail: the commit with stats (when asked), status, project and last pipeline. */
export function commitDetailEntity(sandbox: Sandbox, project: ProjectRow, commit: RawCommit, stats: CommitStats | null) {
  return {
    ...commitEntity(sandbox, project, commit),
    ...(stats ? { stats } : {}),
    status: null as string | null,
    project_id: project.id,
    last_pipeline: null as ReturnType<typeof pipelineBasic> | null,
    ...commitPipelineFields(sandbox, project, commit.id),
  };
}

/** A commit's `status` and `last_pipeline`: its latest pipeline (child pipelines aside), or null without one. */
function commitPipelineFields(sandbox: Sandbox, project: ProjectRow, sha: string) {
  const pipeline = sandbox.db.prepare("SELECT * FROM ci_pipelines WHERE project_id = ? AND sha = ? AND source != 'parent_pipeline' ORDER BY id DESC LIMIT 1")
    .get(project.id, sha) as PipelineRow | undefined;
  return pipeline ? { status: pipeline.status as string, last_pipeline: pipelineBasic(sandbox, project, pipeline) } : {};
}

/** The platform's Branch entity (spec 3, 2.2). */
export function branchEntity(
  sandbox: Sandbox,
  project: ProjectRow,
  actor: Actor,
  branch: { name: string; commit: RawCommit },
  context: { merged: boolean; protections: ProjectProtections; now: Date },
) {
  const { protections, now } = context;
  return {
    name: branch.name,
    commit: commitEntity(sandbox, project, branch.commit),
    merged: context.merged,
    protected: protections.isProtected(branch.name),
    developers_can_push: protections.developersCan('push', branch.name),
    developers_can_merge: protections.developersCan('merge', branch.name),
    can_push: canAccessBranch(sandbox.db, actor, project, branch.name, 'push', now, protections),
    default: project.default_branch === branch.name,
    web_url: `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/tree/${encodeURI(branch.name)}`,
  };
}

export function tagEntity(sandbox: Sandbox, project: ProjectRow, tag: TagEntry, commit: RawCommit | null) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: commit ? commitEntity(sandbox, project, commit) : null,
    release: null,
    protected: false,
    created_at: tag.taggerDate,
  };
}

/**
 * After git moved a branch: the project's activity time, and on the very first branch of an
 * empty repository the default-branch protection the instance applies (fully protected).
 */
export function recordPush(sandbox: Sandbox, project: ProjectRow, branch: string, options: { firstBranch: boolean }): void {
  const stamp = timestamp(sandbox.now());
  sandbox.db.transaction(() => {
    sandbox.db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(stamp, project.id);
    if (options.firstBranch && branch === project.default_branch) protectDefaultBranch(sandbox.db, project.id, branch, stamp);
  })();
}
