import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { HttpError, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { pageOfQuery, setKeysetNext } from '../http/pagination.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, canReadProject, findReadableGroup, findReadableProject, groupDescendants, type ProjectRow } from '../model/access.ts';
import { userBasic } from '../model/entities.ts';
import { pipelineBasic, type PipelineRow } from '../model/pipelines.ts';
import { likeContains } from '../model/sql.ts';
import { timestamp } from '../model/time.ts';
import {
  DELETE_LEVELS, DISPLAYABLE_STATUSES, PACKAGE_STATUSES, PACKAGE_TYPES, PUSH_LEVELS, PipelineSummaries, canDestroyPackages, canReadPackages, checkProtection,
  destroyPackage, destroyPackageFile, findPackage, packageEntity, packageFileEntity, packageRole, protectionRuleEntity, requirePackageRead, tagsOf,
  type PackageFileRow, type PackageRow, type ProtectionRuleRow,
} from '../model/packages.ts';
import { idParam } from './pipelines.ts';
import { registerGenericPackages } from './packages/generic.ts';
import { registerNpmPackages } from './packages/npm.ts';
import { registerPackageDownloads } from './packages/downloads.ts';

const ORDERS = ['created_at', 'name', 'version', 'type'] as const;
const GROUP_ORDERS = [...ORDERS, 'project_path'] as const;
// spec 3, 4.6: the group list has no terraform_module filter
const GROUP_TYPES = PACKAGE_TYPES.filter((type) => type !== 'terraform_module');
// the types a protection rule can name (the platform's Packages::Protection::Rule)
const RULE_TYPES = ['conan', 'generic', 'helm', 'maven', 'npm', 'nuget', 'pypi'] as const;
// files, pipelines and deletes reach every package not already marked for destruction
const LIVE_STATUSES = PACKAGE_STATUSES.filter((status) => status !== 'pending_destruction');

/** The project of a package route, after the read check, and the caller's role there. */
function packagesProject(c: Context<AppEnv>, call: Call): { project: ProjectRow; role: number } {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  const role = requirePackageRead(call.sandbox.db, call.actor, project, call.now);
  return { project, role };
}

/** Packages::PackagesFinder and GroupPackagesFinder over the list's parameters. */
function listPackages(c: Context<AppEnv>, call: Call, projects: Map<number, ProjectRow>, options: { group: boolean }) {
  const { db } = call.sandbox;
  const { params } = call;
  let orderBy = 'created_at' as (typeof GROUP_ORDERS)[number];
  let sort = 'asc' as 'asc' | 'desc';
  let type: string | undefined;
  let status: string | undefined;
  let includeVersionless = false;
  collectParamErrors([
    () => (orderBy = params.oneOf('order_by', options.group ? GROUP_ORDERS : ORDERS) ?? 'created_at'),
    () => (sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'asc'),
    () => (type = params.oneOf('package_type', options.group ? GROUP_TYPES : PACKAGE_TYPES)),
    () => (status = params.oneOf('status', PACKAGE_STATUSES)),
    () => (includeVersionless = params.bool('include_versionless') ?? false),
    () => params.bool('exclude_subgroups'),
    () => params.string('package_name'),
    () => params.string('package_version'),
    () => params.int('page'),
    () => params.int('per_page'),
  ]);
  const where = ['pk.project_id IN (SELECT value FROM json_each(?))'];
  const args: unknown[] = [JSON.stringify([...projects.keys()])];
  if (status) {
    where.push('pk.status = ?');
    args.push(status);
  } else {
    where.push(`pk.status IN (${DISPLAYABLE_STATUSES.map((value) => `'${value}'`).join(', ')})`);
  }
  if (type) {
    where.push('pk.package_type = ?');
    args.push(type);
  }
  const name = params.string('package_name');
  if (name) {
    where.push("pk.name LIKE ? ESCAPE '\\'");
    args.push(likeContains(name));
  }
  const version = params.string('package_version');
  // a version filter never matches versionless packages; without it they are left out unless asked for
  if (version) {
    where.push('pk.version = ?');
    args.push(version);
  } else if (!includeVersionless) {
    where.push('pk.version IS NOT NULL');
  }
  const column = { created_at: 'pk.created_at', name: 'pk.name', version: 'pk.version', type: 'pk.package_type', project_path: 'pr.path_with_namespace' }[orderBy];
  const join = orderBy === 'project_path' ? 'JOIN projects pr ON pr.id = pk.project_id' : '';
  const sql = where.join(' AND ');
  const rows = pageOfQuery(c, params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM packages pk WHERE ${sql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT pk.* FROM packages pk ${join} WHERE ${sql} ORDER BY ${column} ${sort}, pk.id ${sort} LIMIT ? OFFSET ?`).all(...args, limit, offset) as PackageRow[],
  });
  const summaries = new PipelineSummaries(call.sandbox, projects);
  const ids = rows.map((row) => row.id);
  const pipelines = summaries.ofPackages(ids);
  const tags = tagsOf(db, ids);
  const roles = new Map<number, number>();
  const roleIn = (project: ProjectRow) => {
    if (!roles.has(project.id)) roles.set(project.id, packageRole(db, call.actor, project, call.now));
    return roles.get(project.id)!;
  };
  return c.json(rows.map((row) => {
    const project = projects.get(row.project_id)!;
    return packageEntity(call.sandbox, row, {
      project,
      canDestroy: canDestroyPackages(roleIn(project)),
      pipelines: pipelines.get(row.id) ?? [],
      summaries,
      tags: tags.get(row.id) ?? [],
      group: options.group,
    });
  }));
}

/** The keyset cursor of the package pipelines list: the last pipeline id of the page, base64 JSON as the platform's. */
function decodeCursor(raw: string | undefined): number | undefined {
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { id?: unknown };
    if (typeof parsed.id === 'number' && Number.isSafeInteger(parsed.id)) return parsed.id;
  } catch {
    // falls through to the 400
  }
  throw paramError('cursor is invalid');
}

const encodeCursor = (id: number) => Buffer.from(JSON.stringify({ id, _kd: 'n' })).toString('base64url');

function levelParam(call: Call, name: string, levels: Record<string, number>): number | null | undefined {
  const raw = call.params.raw[name];
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  const value = call.params.oneOf(name, Object.keys(levels));
  return value === undefined ? null : levels[value];
}

const PATTERN = /^[^\s]+$/;

/** Validates a rule's fields as the platform's model does; answers 400 (or 422 for a taken pattern). */
function saveRule(call: Call, project: ProjectRow, existing: ProtectionRuleRow | null): ProtectionRuleRow {
  const { db } = call.sandbox;
  const { params } = call;
  let pattern: string | undefined;
  let type: string | undefined;
  let push: number | null | undefined;
  let del: number | null | undefined;
  collectParamErrors([
    () => (pattern = existing ? params.string('package_name_pattern') : params.requiredString('package_name_pattern')),
    () => (type = existing ? params.oneOf('package_type', RULE_TYPES) : (params.requiredString('package_type'), params.oneOf('package_type', RULE_TYPES))),
    () => (push = levelParam(call, 'minimum_access_level_for_push', PUSH_LEVELS)),
    () => (del = levelParam(call, 'minimum_access_level_for_delete', DELETE_LEVELS)),
  ]);
  const next = {
    package_name_pattern: pattern ?? existing?.package_name_pattern ?? '',
    package_type: type ?? existing?.package_type ?? '',
    minimum_access_level_for_push: push === undefined ? existing?.minimum_access_level_for_push ?? null : push,
    minimum_access_level_for_delete: del === undefined ? existing?.minimum_access_level_for_delete ?? null : del,
  };
  const errors: Record<string, string[]> = {};
  if (!next.package_name_pattern.trim()) errors.package_name_pattern = ["can't be blank"];
  else if (next.package_name_pattern.length > 255) errors.package_name_pattern = ['is too long (maximum is 255 characters)'];
  else if (!PATTERN.test(next.package_name_pattern)) errors.package_name_pattern = ['should be a valid package name with optional wildcard characters.'];
  if (next.minimum_access_level_for_push === null && next.minimum_access_level_for_delete === null) {
    errors.base = ['A rule must have at least a minimum access role for push or delete.'];
  }
  if (Object.keys(errors).length) throw validationError(errors);
  const taken = db.prepare('SELECT id FROM package_protection_rules WHERE project_id = ? AND package_type = ? AND package_name_pattern = ? AND id != ?')
    .get(project.id, next.package_type, next.package_name_pattern, existing?.id ?? 0);
  if (taken) throw new HttpError(422, { message: ['Package name pattern has already been taken'] });
  const stamp = timestamp(call.now);
  if (existing) {
    db.prepare('UPDATE package_protection_rules SET package_name_pattern = ?, package_type = ?, minimum_access_level_for_push = ?, minimum_access_level_for_delete = ?, updated_at = ? WHERE id = ?')
      .run(next.package_name_pattern, next.package_type, next.minimum_access_level_for_push, next.minimum_access_level_for_delete, stamp, existing.id);
    return db.prepare('SELECT * FROM package_protection_rules WHERE id = ?').get(existing.id) as ProtectionRuleRow;
  }
  const result = db.prepare(
    `INSERT INTO package_protection_rules (project_id, package_name_pattern, package_type, minimum_access_level_for_push, minimum_access_level_for_delete, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  ).run(project.id, next.package_name_pattern, next.package_type, next.minimum_access_level_for_push, next.minimum_access_level_for_delete, stamp, stamp);
  return db.prepare('SELECT * FROM package_protection_rules WHERE id = ?').get(Number(result.lastInsertRowid)) as ProtectionRuleRow;
}

/** admin_package: Maintainers and up manage protection rules. */
function rulesProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const { project, role } = packagesProject(c, call);
  if (role < AccessLevel.MAINTAINER) throw forbidden();
  return project;
}

function findRule(c: Context<AppEnv>, call: Call, project: ProjectRow): ProtectionRuleRow {
  const rule = call.sandbox.db.prepare('SELECT * FROM package_protection_rules WHERE id = ? AND project_id = ?')
    .get(idParam(c, 'package_protection_rule_id'), project.id) as ProtectionRuleRow | undefined;
  if (!rule) throw notFound('Package Protection Rule');
  return rule;
}

export function registerPackages(routes: Router): void {
  const read = { auth: 'public' as const, jobToken: true };
  const write = { jobToken: true };

  // upload APIs first: their paths sit under /packages/ too
  registerGenericPackages(routes);
  registerNpmPackages(routes);
  registerPackageDownloads(routes);

  routes.get('/projects/:id/packages', read, (c, call) => {
    const { project } = packagesProject(c, call);
    return listPackages(c, call, new Map([[project.id, project]]), { group: false });
  });

  routes.get('/groups/:id/packages', { auth: 'public' }, (c, call) => {
    const { db } = call.sandbox;
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    const namespaces = call.params.bool('exclude_subgroups') ? [group.id] : groupDescendants(db, group.id);
    const candidates = db.prepare('SELECT * FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(namespaces)) as ProjectRow[];
    const projects = new Map(candidates
      .filter((project) => canReadProject(db, call.actor, project, call.now) && canReadPackages(db, call.actor, project, call.now))
      .map((project) => [project.id, project]));
    return listPackages(c, call, projects, { group: true });
  });

  routes.get('/projects/:id/packages/protection/rules', write, (c, call) => {
    const project = rulesProject(c, call);
    const rows = call.sandbox.db.prepare('SELECT * FROM package_protection_rules WHERE project_id = ? ORDER BY id').all(project.id) as ProtectionRuleRow[];
    return c.json(rows.map(protectionRuleEntity));
  });

  routes.post('/projects/:id/packages/protection/rules', write, (c, call) => {
    const project = rulesProject(c, call);
    return c.json(protectionRuleEntity(saveRule(call, project, null)), 201);
  });

  routes.patch('/projects/:id/packages/protection/rules/:package_protection_rule_id', write, (c, call) => {
    const project = rulesProject(c, call);
    return c.json(protectionRuleEntity(saveRule(call, project, findRule(c, call, project))));
  });

  routes.delete('/projects/:id/packages/protection/rules/:package_protection_rule_id', write, (c, call) => {
    const project = rulesProject(c, call);
    const rule = findRule(c, call, project);
    call.sandbox.db.prepare('DELETE FROM package_protection_rules WHERE id = ?').run(rule.id);
    return c.body(null, 204);
  });

  routes.get('/projects/:id/packages/:package_id', read, (c, call) => {
    const { db } = call.sandbox;
    const { project, role } = packagesProject(c, call);
    const pkg = findPackage(db, project.id, idParam(c, 'package_id'));
    const summaries = new PipelineSummaries(call.sandbox, new Map([[project.id, project]]));
    const versions = db.prepare(
      `SELECT * FROM packages WHERE project_id = ? AND package_type = ? AND name = ? AND id != ? AND version IS NOT NULL
       AND status IN ('default', 'deprecated') ORDER BY created_at DESC, id DESC`,
    ).all(project.id, pkg.package_type, pkg.name, pkg.id) as PackageRow[];
    const pipelines = summaries.ofPackages([pkg.id, ...versions.map((row) => row.id)]);
    const summarize = (id: number) => {
      const list = pipelines.get(id) ?? [];
      return list.length ? { pipelines: list.map((pipeline) => summaries.summary(pipeline)) } : {};
    };
    const tags = tagsOf(db, [pkg.id]);
    return c.json({
      ...packageEntity(call.sandbox, pkg, { project, canDestroy: canDestroyPackages(role), pipelines: pipelines.get(pkg.id) ?? [], summaries, tags: tags.get(pkg.id) ?? [] }),
      last_downloaded_at: pkg.last_downloaded_at,
      versions: versions.map((row) => ({ id: row.id, version: row.version, created_at: row.created_at, ...summarize(row.id) })),
    });
  });

  routes.get('/projects/:id/packages/:package_id/package_files', read, (c, call) => {
    const { db } = call.sandbox;
    const { project } = packagesProject(c, call);
    const pkg = findPackage(db, project.id, idParam(c, 'package_id'), LIVE_STATUSES);
    collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
    const rows = pageOfQuery(c, call.params, {
      count: (cap) => (db.prepare("SELECT count(*) AS n FROM (SELECT 1 FROM package_files WHERE package_id = ? AND status = 'default' LIMIT ?)").get(pkg.id, cap + 1) as { n: number }).n,
      rows: (limit, offset) => db.prepare("SELECT * FROM package_files WHERE package_id = ? AND status = 'default' ORDER BY id LIMIT ? OFFSET ?").all(pkg.id, limit, offset) as PackageFileRow[],
    });
    const summaries = new PipelineSummaries(call.sandbox, new Map([[project.id, project]]));
    const pipelines = summaries.byIds(rows.map((row) => row.pipeline_id));
    return c.json(rows.map((row) => {
      const pipeline = row.pipeline_id === null ? undefined : pipelines.get(row.pipeline_id);
      return packageFileEntity(row, pipeline && summaries.summary(pipeline));
    }));
  });

  // keyset only, 20 a page at most, newest pipeline first (spec 3, 4.6 and 8.5)
  routes.get('/projects/:id/packages/:package_id/pipelines', read, (c, call) => {
    const { db } = call.sandbox;
    const { project } = packagesProject(c, call);
    const pkg = findPackage(db, project.id, idParam(c, 'package_id'), LIVE_STATUSES);
    let perPage = 20;
    let before: number | undefined;
    collectParamErrors([
      () => (perPage = call.params.int('per_page', { min: 1, max: 20 }) ?? 20),
      () => (before = decodeCursor(call.params.string('cursor'))),
    ]);
    const rows = db.prepare(
      `SELECT p.* FROM package_build_infos b JOIN ci_pipelines p ON p.id = b.pipeline_id
       WHERE b.package_id = ? AND (? IS NULL OR p.id < ?) ORDER BY p.id DESC LIMIT ?`,
    ).all(pkg.id, before ?? null, before ?? null, perPage + 1) as PipelineRow[];
    const page = rows.slice(0, perPage);
    setKeysetNext(c, rows.length > perPage ? { cursor: encodeCursor(page[page.length - 1].id), per_page: perPage } : null);
    const summaries = new PipelineSummaries(call.sandbox, new Map([[project.id, project]]));
    return c.json(page.map((pipeline) => {
      const user = summaries.user(pipeline.user_id);
      return { ...pipelineBasic(call.sandbox, project, pipeline), user: user ? userBasic(call.sandbox, user) : null };
    }));
  });

  routes.delete('/projects/:id/packages/:package_id', write, (c, call) => {
    const { db } = call.sandbox;
    const { project, role } = packagesProject(c, call);
    // destroy_package is checked before the lookup, as the platform does
    if (!canDestroyPackages(role)) throw forbidden();
    const pkg = findPackage(db, project.id, idParam(c, 'package_id'), LIVE_STATUSES);
    checkProtection(db, project.id, pkg.package_type, pkg.name, role, 'delete');
    destroyPackage(call.sandbox, pkg, timestamp(call.now));
    return c.body(null, 204);
  });

  routes.delete('/projects/:id/packages/:package_id/package_files/:package_file_id', write, (c, call) => {
    const { db } = call.sandbox;
    const { project, role } = packagesProject(c, call);
    if (!canDestroyPackages(role)) throw forbidden();
    const pkg = findPackage(db, project.id, idParam(c, 'package_id'), LIVE_STATUSES);
    const file = db.prepare("SELECT * FROM package_files WHERE id = ? AND package_id = ? AND status = 'default'").get(idParam(c, 'package_file_id'), pkg.id) as PackageFileRow | undefined;
    if (!file) throw notFound();
    checkProtection(db, project.id, pkg.package_type, pkg.name, role, 'delete');
    destroyPackageFile(call.sandbox, file, timestamp(call.now));
    return c.body(null, 204);
  });
}
