import { RE2JS } from 're2js';
import type { Actor, Sandbox } from '../context.ts';
import type { Db } from '../db.ts';
import { forbidden, notFound, paramError } from '../http/errors.ts';
import { AccessLevel, effectiveRole, findReadableProject, type ProjectRow } from './access.ts';
import { projectSettings } from './entities.ts';
import { planCleanup, type CleanupTag, type CompiledRules } from '../../src/lib/registry-cleanup.ts';

export { re2Error } from './registry-policy.ts';

/**
 * The container registry's store: repositories of a project (the root image has the name ''),
 * their tags, tag protection rules and the project's cleanup policy, with the entities the
 * platform answers (lib/api/entities/container_registry.rb).
 */

export type RepositoryStatus = 'delete_scheduled' | 'delete_ongoing' | 'delete_failed';

export interface ContainerRepositoryRow {
  id: number;
  project_id: number;
  name: string;
  created_at: string;
  status: RepositoryStatus | null;
  status_reason: string | null;
  cleanup_policy_started_at: string | null;
  last_bulk_delete_at: string | null;
}

export interface ContainerTagRow {
  repository_id: number;
  name: string;
  digest: string;
  revision: string;
  total_size: number;
  created_at: string | null;
}

export interface TagProtectionRuleRow {
  id: number;
  project_id: number;
  tag_name_pattern: string;
  minimum_access_level_for_push: number;
  minimum_access_level_for_delete: number;
}

// -- access

/** What a caller wants to do: read images, delete one tag (Developer), or administer (Maintainer: delete repositories, bulk delete, rules). */
export type RegistryPermission = 'read' | 'destroy' | 'admin';

export interface RegistryAccess {
  project: ProjectRow;
  /** The caller's role on the project; administrators count as 60 (the `admin` level of protection rules). */
  role: number;
}

/** The caller's role as protection rules compare it: administrators rank above owners. */
export function registryRole(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  if (actor.user?.is_admin) return AccessLevel.ADMIN;
  return effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
}

/**
 * ProjectPolicy's container image abilities: `container_registry_access_level` disabled refuses
 * everyone, private lets Reporters and up read, enabled lets whoever reads the project read;
 * deleting a tag needs Developer, administering (repository delete, bulk delete, rules) Maintainer.
 * A job token reaches its own project's registry only.
 */
export function registryAccess(sandbox: Sandbox, actor: Actor, idOrPath: string, now: Date, permission: RegistryPermission): RegistryAccess {
  const { db } = sandbox;
  const project = findReadableProject(db, actor, idOrPath, now);
  if (actor.via === 'job_token' && actor.jobProjectId !== project.id) throw notFound('Project');
  const role = registryRole(db, actor, project, now);
  if (!canAccessRegistry(project, role, permission)) throw forbidden();
  return { project, role };
}

export function canAccessRegistry(project: ProjectRow, role: number, permission: RegistryPermission): boolean {
  const level = projectSettings(project).container_registry_access_level;
  if (level === 'disabled') return false;
  if (permission === 'admin') return role >= AccessLevel.MAINTAINER;
  if (permission === 'destroy') return role >= AccessLevel.DEVELOPER;
  return level !== 'private' || role >= AccessLevel.REPORTER;
}

// -- paths and entities

export function registryHost(sandbox: Sandbox): string {
  return new URL(sandbox.config.externalUrl).host;
}

/** `group/project` for the root image, `group/project/name` for a named one; lower case as image paths are. */
export function repositoryPath(project: Pick<ProjectRow, 'path_with_namespace'>, name: string): string {
  return (name ? `${project.path_with_namespace}/${name}` : project.path_with_namespace).toLowerCase();
}

export function findProjectRow(db: Db, id: number): ProjectRow {
  return db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow;
}

export function tagEntity(host: string, path: string, tag: Pick<ContainerTagRow, 'name'>) {
  return { name: tag.name, path: `${path}:${tag.name}`, location: `${host}/${path}:${tag.name}` };
}

export function tagDetailsEntity(host: string, path: string, tag: ContainerTagRow) {
  return {
    ...tagEntity(host, path, tag),
    revision: tag.revision,
    short_revision: tag.revision.slice(0, 9),
    digest: tag.digest,
    created_at: tag.created_at,
    total_size: tag.total_size,
  };
}

export interface RepositoryEntityOptions {
  tags?: boolean;
  tagsCount?: boolean;
  size?: boolean;
  /** Set when the caller may delete the repository (`delete_api_path`). */
  deleteApiPath?: boolean;
}

export function repositoryEntity(sandbox: Sandbox, project: ProjectRow, repository: ContainerRepositoryRow, options: RepositoryEntityOptions = {}) {
  const { db } = sandbox;
  const host = registryHost(sandbox);
  const path = repositoryPath(project, repository.name);
  return {
    id: repository.id,
    name: repository.name,
    path,
    project_id: repository.project_id,
    location: `${host}/${path}`,
    created_at: repository.created_at,
    cleanup_policy_started_at: repository.cleanup_policy_started_at,
    ...(options.tagsCount ? { tags_count: countTags(db, repository.id) } : {}),
    ...(options.tags
      ? { tags: (db.prepare('SELECT name FROM container_tags WHERE repository_id = ? ORDER BY name').all(repository.id) as Array<{ name: string }>).map((tag) => tagEntity(host, path, tag)) }
      : {}),
    ...(options.deleteApiPath ? { delete_api_path: `${sandbox.config.externalUrl}/api/v4/projects/${project.id}/registry/repositories/${repository.id}` } : {}),
    ...(options.size ? { size: repositorySize(db, repository.id) } : {}),
    status: repository.status,
  };
}

export function countTags(db: Db, repositoryId: number): number {
  return (db.prepare('SELECT count(*) AS n FROM container_tags WHERE repository_id = ?').get(repositoryId) as { n: number }).n;
}

/** The deduplicated size: a manifest several tags point at is counted once. */
export function repositorySize(db: Db, repositoryId: number): number {
  return (db.prepare('SELECT coalesce(sum(total_size), 0) AS n FROM (SELECT DISTINCT digest, total_size FROM container_tags WHERE repository_id = ?)').get(repositoryId) as { n: number }).n;
}

// -- queries

export function findRepository(db: Db, id: number): ContainerRepositoryRow | undefined {
  return db.prepare('SELECT * FROM container_repositories WHERE id = ?').get(id) as ContainerRepositoryRow | undefined;
}

/** `:repository_id` of the project's registry: Grape's Integer coercion (400), then `find` (404). */
export function projectRepository(db: Db, project: ProjectRow, raw: string): ContainerRepositoryRow {
  const id = integerParam('repository_id', raw);
  const repository = findRepository(db, id);
  if (!repository || repository.project_id !== project.id) throw notFound();
  return repository;
}

export function integerParam(name: string, raw: string): number {
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError(`${name} is invalid`);
  return Number(raw);
}

export function findTag(db: Db, repositoryId: number, name: string): ContainerTagRow | undefined {
  return db.prepare('SELECT * FROM container_tags WHERE repository_id = ? AND name = ?').get(repositoryId, name) as ContainerTagRow | undefined;
}

/** Finds or creates a repository of a project (a push of its first tag creates it on the platform). */
export function ensureRepository(db: Db, projectId: number, name: string, createdAt: string): ContainerRepositoryRow {
  db.prepare('INSERT OR IGNORE INTO container_repositories (project_id, name, created_at) VALUES (?, ?, ?)').run(projectId, name, createdAt);
  return db.prepare('SELECT * FROM container_repositories WHERE project_id = ? AND name = ?').get(projectId, name) as ContainerRepositoryRow;
}

// -- tag protection

const ACCESS_LEVEL_NAMES = { maintainer: AccessLevel.MAINTAINER, owner: AccessLevel.OWNER, admin: AccessLevel.ADMIN } as const;
export type ProtectionLevelName = keyof typeof ACCESS_LEVEL_NAMES;
export const PROTECTION_LEVELS = Object.keys(ACCESS_LEVEL_NAMES) as ProtectionLevelName[];

export function protectionLevelValue(name: ProtectionLevelName): number {
  return ACCESS_LEVEL_NAMES[name];
}

export function protectionLevelName(value: number): ProtectionLevelName {
  return PROTECTION_LEVELS.find((name) => ACCESS_LEVEL_NAMES[name] === value) ?? 'admin';
}

export function tagRules(db: Db, projectId: number): TagProtectionRuleRow[] {
  return db.prepare('SELECT * FROM container_tag_protection_rules WHERE project_id = ? ORDER BY id').all(projectId) as TagProtectionRuleRow[];
}

/**
 * Tells whether a tag is protected from deletion for a role: TagRule#matches_tag_name? is an
 * unanchored RE2 match (anchor the pattern with ^...$ for a whole name), and a rule restricts
 * delete when its minimum level is above the role. Administrators are never restricted.
 */
export function deleteProtection(db: Db, projectId: number, role: number): (name: string) => boolean {
  if (role >= AccessLevel.ADMIN) return () => false;
  const patterns = tagRules(db, projectId)
    .filter((rule) => rule.minimum_access_level_for_delete > role)
    .map((rule) => RE2JS.compile(rule.tag_name_pattern));
  if (!patterns.length) return () => false;
  return (name) => patterns.some((pattern) => pattern.test(name));
}

// -- cleanup: the bulk tag delete and the cleanup policy share one planner

/**
 * Plans a cleanup of one repository with the shared rules module (the console's preview runs the
 * same code) and stores the tags to delete as a job for the worker. Returns the job id and the plan.
 */
export function scheduleCleanup(db: Db, repositoryId: number, rules: CompiledRules, isProtected: (name: string) => boolean, now: Date) {
  const rows = db.prepare('SELECT name, created_at FROM container_tags WHERE repository_id = ? ORDER BY name').all(repositoryId) as Array<{ name: string; created_at: string | null }>;
  const tags: CleanupTag[] = rows.map((row) => ({ name: row.name, createdAt: row.created_at, protected: isProtected(row.name) }));
  const decisions = planCleanup(tags, rules, now.getTime());
  const doomed = decisions.filter((decision) => decision.deleted).map((decision) => decision.name);
  const stamp = now.toISOString();
  const jobId = Number(
    db.prepare("INSERT INTO container_cleanup_jobs (repository_id, state, pending, created_at, updated_at) VALUES (?, 'scheduled', ?, ?, ?)")
      .run(repositoryId, JSON.stringify(doomed), stamp, stamp).lastInsertRowid,
  );
  return { jobId, decisions };
}
