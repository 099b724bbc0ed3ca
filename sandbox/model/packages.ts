import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db.ts';
import type { Actor, Sandbox, UserRow } from '../context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { AccessLevel, effectiveRole, type ProjectRow } from './access.ts';
import { avatarUrl } from './entities.ts';
import { pipelineBasic, type PipelineRow } from './pipelines.ts';

/** Package types of spec 3, 2.6, plus the generic packages the upload API makes. */
export const PACKAGE_TYPES = ['maven', 'npm', 'conan', 'nuget', 'pypi', 'composer', 'generic', 'golang', 'helm', 'terraform_module'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];

export const PACKAGE_STATUSES = ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** What lists show when no status is asked for (spec 3, 4.6: default, deprecated and error). */
export const DISPLAYABLE_STATUSES: readonly PackageStatus[] = ['default', 'deprecated', 'error'];
/** What a single get answers and what package managers install from. */
export const DETAIL_STATUSES: readonly PackageStatus[] = ['default', 'deprecated'];
/** What the generic and npm download endpoints serve (hidden packages are downloadable by name). */
export const INSTALLABLE_STATUSES: readonly PackageStatus[] = ['default', 'deprecated', 'hidden'];

export interface PackageRow {
  id: number;
  project_id: number;
  name: string;
  version: string | null;
  package_type: PackageType;
  status: PackageStatus;
  conan_package_name: string | null;
  /** Type-specific metadata as JSON (the npm version's package.json, a maven path...). */
  metadata: string | null;
  creator_id: number | null;
  created_at: string;
  updated_at: string;
  last_downloaded_at: string | null;
}

export interface PackageFileRow {
  id: number;
  package_id: number;
  file_name: string;
  size: number;
  file_md5: string;
  file_sha1: string;
  file_sha256: string;
  status: 'default' | 'pending_destruction';
  pipeline_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProtectionRuleRow {
  id: number;
  project_id: number;
  package_name_pattern: string;
  package_type: PackageType;
  minimum_access_level_for_push: number | null;
  minimum_access_level_for_delete: number | null;
  created_at: string;
  updated_at: string;
}

// -- access (the platform's read_package, create_package, destroy_package, admin_package)

/** The caller's role in the project; administrators outrank owners (protection rules' `admin`). */
export function packageRole(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  if (actor.user?.is_admin) return AccessLevel.ADMIN;
  return effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
}

/** A job token reaches the registry of its own project only. */
function checkJobToken(actor: Actor, project: ProjectRow): void {
  if (actor.via === 'job_token' && actor.jobProjectId !== project.id) throw forbidden();
}

/** Packages of public and internal projects are readable by whoever sees the project; private ones from Reporter up. */
export function canReadPackages(db: Db, actor: Actor, project: ProjectRow, now: Date): boolean {
  if (project.visibility !== 'private') return true;
  return packageRole(db, actor, project, now) >= AccessLevel.REPORTER;
}

/** Read check of every package endpoint, after the project lookup; returns the caller's role. */
export function requirePackageRead(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  checkJobToken(actor, project);
  if (!canReadPackages(db, actor, project, now)) throw forbidden();
  return packageRole(db, actor, project, now);
}

/** Uploading (create_package): Developers and up. */
export function requirePackageWrite(db: Db, actor: Actor, project: ProjectRow, now: Date): number {
  checkJobToken(actor, project);
  const role = packageRole(db, actor, project, now);
  if (role < AccessLevel.DEVELOPER) throw forbidden();
  return role;
}

/** destroy_package: Maintainers and up. */
export const canDestroyPackages = (role: number) => role >= AccessLevel.MAINTAINER;

// -- protection rules

export const PUSH_LEVELS = { maintainer: AccessLevel.MAINTAINER, owner: AccessLevel.OWNER, admin: AccessLevel.ADMIN } as const;
export const DELETE_LEVELS = { owner: AccessLevel.OWNER, admin: AccessLevel.ADMIN } as const;
const LEVEL_NAMES: Record<number, string> = { [AccessLevel.MAINTAINER]: 'maintainer', [AccessLevel.OWNER]: 'owner', [AccessLevel.ADMIN]: 'admin' };

/** `*` matches any run of characters; everything else is literal; case does not matter (the platform's ILIKE). */
export function patternMatches(pattern: string, name: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}$`, 'is').test(name);
}

/** The highest level a matching rule asks for the action, or 0 when nothing protects the name. */
export function protectionLevel(db: Db, projectId: number, type: string, name: string, action: 'push' | 'delete'): number {
  const column = action === 'push' ? 'minimum_access_level_for_push' : 'minimum_access_level_for_delete';
  const rules = db.prepare(`SELECT package_name_pattern, ${column} AS level FROM package_protection_rules WHERE project_id = ? AND package_type = ? AND ${column} IS NOT NULL`)
    .all(projectId, type) as Array<{ package_name_pattern: string; level: number }>;
  return rules.filter((rule) => patternMatches(rule.package_name_pattern, name)).reduce((max, rule) => Math.max(max, rule.level), 0);
}

/** 403 when a rule protects the package from the caller: "Package protected." for pushes, "Package is deletion protected." for deletes. */
export function checkProtection(db: Db, projectId: number, type: string, name: string, role: number, action: 'push' | 'delete'): void {
  const level = protectionLevel(db, projectId, type, name, action);
  if (level && role < level) throw forbidden(action === 'push' ? 'Package protected.' : 'Package is deletion protected.');
}

export function protectionRuleEntity(rule: ProtectionRuleRow) {
  return {
    id: rule.id,
    project_id: rule.project_id,
    package_name_pattern: rule.package_name_pattern,
    package_type: rule.package_type,
    minimum_access_level_for_push: rule.minimum_access_level_for_push === null ? null : LEVEL_NAMES[rule.minimum_access_level_for_push],
    minimum_access_level_for_delete: rule.minimum_access_level_for_delete === null ? null : LEVEL_NAMES[rule.minimum_access_level_for_delete],
  };
}

// -- file bytes: content-addressed by sha256 under the data directory

export function blobPath(sandbox: Sandbox, sha256: string): string {
  return path.join(sandbox.dataDir, 'packages', sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

export interface Digests {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

export function digestsOf(bytes: Uint8Array): Digests {
  return {
    size: bytes.byteLength,
    md5: createHash('md5').update(bytes).digest('hex'),
    sha1: createHash('sha1').update(bytes).digest('hex'),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** Stores bytes once per content (before the row that names them is committed: an orphan blob is harmless). */
export function storeBlob(sandbox: Sandbox, bytes: Uint8Array, sha256: string): void {
  const target = blobPath(sandbox, sha256);
  if (fs.existsSync(target)) return;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, bytes);
  fs.renameSync(temporary, target);
}

export function readBlob(sandbox: Sandbox, sha256: string): Buffer {
  const target = blobPath(sandbox, sha256);
  if (!fs.existsSync(target)) throw notFound();
  return fs.readFileSync(target);
}

/** Removes the bytes no live file names any more (after files were marked for destruction). */
export function collectBlobs(sandbox: Sandbox, sha256s: readonly string[]): void {
  const live = sandbox.db.prepare("SELECT 1 FROM package_files WHERE file_sha256 = ? AND status = 'default' LIMIT 1");
  for (const sha of new Set(sha256s)) {
    if (!live.get(sha)) fs.rmSync(blobPath(sandbox, sha), { force: true });
  }
}

// -- writes

export function insertPackage(db: Db, input: { projectId: number; name: string; version: string | null; type: PackageType; status?: PackageStatus; conanPackageName?: string | null; metadata?: unknown; creatorId: number | null; createdAt: string }): PackageRow {
  const result = db.prepare(
    `INSERT INTO packages (project_id, name, version, package_type, status, conan_package_name, metadata, creator_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(input.projectId, input.name, input.version, input.type, input.status ?? 'default', input.conanPackageName ?? null, input.metadata === undefined ? null : JSON.stringify(input.metadata), input.creatorId, input.createdAt, input.createdAt);
  return db.prepare('SELECT * FROM packages WHERE id = ?').get(Number(result.lastInsertRowid)) as PackageRow;
}

/** A file row for bytes already stored (storeBlob). */
export function insertPackageFile(db: Db, packageId: number, input: { fileName: string; digests: Digests; pipelineId?: number | null; createdAt: string }): PackageFileRow {
  const { digests } = input;
  const result = db.prepare(
    `INSERT INTO package_files (package_id, file_name, size, file_md5, file_sha1, file_sha256, pipeline_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(packageId, input.fileName, digests.size, digests.md5, digests.sha1, digests.sha256, input.pipelineId ?? null, input.createdAt, input.createdAt);
  return db.prepare('SELECT * FROM package_files WHERE id = ?').get(Number(result.lastInsertRowid)) as PackageFileRow;
}

/** Records the pipeline that built the package (a job token's upload). */
export function linkPipeline(db: Db, packageId: number, pipelineId: number): void {
  db.prepare('INSERT OR IGNORE INTO package_build_infos (package_id, pipeline_id) VALUES (?, ?)').run(packageId, pipelineId);
}

/** Marks the package and its files for destruction and drops bytes nothing else uses (the platform's worker does this later). */
export function destroyPackage(sandbox: Sandbox, pkg: PackageRow, now: string): void {
  const { db } = sandbox;
  const shas = db.prepare("SELECT file_sha256 FROM package_files WHERE package_id = ? AND status = 'default'").pluck().all(pkg.id) as string[];
  db.prepare("UPDATE packages SET status = 'pending_destruction', updated_at = ? WHERE id = ?").run(now, pkg.id);
  db.prepare("UPDATE package_files SET status = 'pending_destruction', updated_at = ? WHERE package_id = ?").run(now, pkg.id);
  collectBlobs(sandbox, shas);
}

export function destroyPackageFile(sandbox: Sandbox, file: PackageFileRow, now: string): void {
  sandbox.db.prepare("UPDATE package_files SET status = 'pending_destruction', updated_at = ? WHERE id = ?").run(now, file.id);
  collectBlobs(sandbox, [file.file_sha256]);
}

// -- lookups

export function findPackage(db: Db, projectId: number, id: number, statuses: readonly PackageStatus[] = DETAIL_STATUSES): PackageRow {
  const row = db.prepare('SELECT * FROM packages WHERE id = ? AND project_id = ?').get(id, projectId) as PackageRow | undefined;
  if (!row || !statuses.includes(row.status)) throw notFound();
  return row;
}

// -- entities

/** The platform's web page of a package (the infrastructure registry for Terraform modules). */
export function packageWebPath(project: ProjectRow, pkg: PackageRow): string {
  const section = pkg.package_type === 'terraform_module' ? 'infrastructure_registry' : 'packages';
  return `/${project.path_with_namespace}/-/${section}/${pkg.id}`;
}

export function packageDeleteApiPath(sandbox: Sandbox, pkg: PackageRow): string {
  return `${sandbox.config.externalUrl}/api/v4/projects/${pkg.project_id}/packages/${pkg.id}`;
}

/** Pipelines loaded for a page of packages (or files) at once. */
export class PipelineSummaries {
  private readonly users = new Map<number, UserRow | undefined>();
  constructor(private readonly sandbox: Sandbox, private readonly projects: Map<number, ProjectRow>) {}

  private project(id: number): ProjectRow {
    let project = this.projects.get(id);
    if (!project) {
      project = this.sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow;
      this.projects.set(id, project);
    }
    return project;
  }

  user(id: number | null): UserRow | undefined {
    if (id === null) return undefined;
    if (!this.users.has(id)) this.users.set(id, this.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined);
    return this.users.get(id);
  }

  /** The deprecated `pipelines` attribute: {id, iid, project_id, sha, ref, status, source, created_at, updated_at, web_url, user {name, avatar_url}}. */
  summary(pipeline: PipelineRow) {
    const user = this.user(pipeline.user_id);
    return {
      ...pipelineBasic(this.sandbox, this.project(pipeline.project_id), pipeline),
      user: user ? { name: user.name, avatar_url: avatarUrl(this.sandbox, user) } : null,
    };
  }

  /** The pipelines of each package id, newest first. */
  ofPackages(ids: readonly number[]): Map<number, PipelineRow[]> {
    const map = new Map<number, PipelineRow[]>();
    if (!ids.length) return map;
    const rows = this.sandbox.db.prepare(
      `SELECT b.package_id AS package_key, p.* FROM package_build_infos b JOIN ci_pipelines p ON p.id = b.pipeline_id
       WHERE b.package_id IN (SELECT value FROM json_each(?)) ORDER BY p.id DESC`,
    ).all(JSON.stringify(ids)) as Array<PipelineRow & { package_key: number }>;
    for (const row of rows) {
      const list = map.get(row.package_key) ?? [];
      list.push(row);
      map.set(row.package_key, list);
    }
    return map;
  }

  byIds(ids: ReadonlyArray<number | null>): Map<number, PipelineRow> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    const map = new Map<number, PipelineRow>();
    if (!wanted.length) return map;
    const rows = this.sandbox.db.prepare('SELECT * FROM ci_pipelines WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(wanted)) as PipelineRow[];
    for (const row of rows) map.set(row.id, row);
    return map;
  }
}

export interface PackageEntityOptions {
  project: ProjectRow;
  canDestroy: boolean;
  pipelines: PipelineRow[];
  summaries: PipelineSummaries;
  tags: TagRow[];
  /** The group list adds the project's id and path. */
  group?: boolean;
}

export interface TagRow {
  id: number;
  package_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

/** Package list item (spec 3, 2.6). */
export function packageEntity(sandbox: Sandbox, pkg: PackageRow, options: PackageEntityOptions) {
  const links: Record<string, string> = {};
  if (DETAIL_STATUSES.includes(pkg.status)) links.web_path = packageWebPath(options.project, pkg);
  if (options.canDestroy) links.delete_api_path = packageDeleteApiPath(sandbox, pkg);
  return {
    id: pkg.id,
    name: pkg.name,
    ...(pkg.package_type === 'conan' ? { conan_package_name: pkg.conan_package_name } : {}),
    version: pkg.version,
    package_type: pkg.package_type,
    status: pkg.status,
    _links: links,
    created_at: pkg.created_at,
    ...(options.group ? { project_id: pkg.project_id, project_path: options.project.path_with_namespace } : {}),
    tags: options.tags.map((tag) => ({ id: tag.id, package_id: tag.package_id, name: tag.name, created_at: tag.created_at, updated_at: tag.updated_at })),
    // deprecated: absent when the package has none (spec 3, 2.6)
    ...(options.pipelines.length ? { pipelines: options.pipelines.map((pipeline) => options.summaries.summary(pipeline)) } : {}),
  };
}

export function tagsOf(db: Db, ids: readonly number[]): Map<number, TagRow[]> {
  const map = new Map<number, TagRow[]>();
  if (!ids.length) return map;
  const rows = db.prepare('SELECT * FROM package_tags WHERE package_id IN (SELECT value FROM json_each(?)) ORDER BY name').all(JSON.stringify(ids)) as TagRow[];
  for (const row of rows) map.set(row.package_id, [...(map.get(row.package_id) ?? []), row]);
  return map;
}

/** Package file entity of the platform's docs (not shown in the spec). */
export function packageFileEntity(file: PackageFileRow, pipeline: ReturnType<PipelineSummaries['summary']> | undefined) {
  return {
    id: file.id,
    package_id: file.package_id,
    created_at: file.created_at,
    file_name: file.file_name,
    size: file.size,
    file_md5: file.file_md5,
    file_sha1: file.file_sha1,
    file_sha256: file.file_sha256,
    ...(pipeline ? { pipelines: [pipeline] } : {}),
  };
}
