import { createHash } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import type { AppEnv, Sandbox } from '../context.ts';
import { HttpError, forbidden, notFound, paramError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, pageOfQuery, setKeysetNext } from '../http/pagination.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { canReadProject, findReadableGroup, groupDescendants, type ProjectRow } from '../model/access.ts';
import {
  canAccessRegistry, deleteProtection, ensureRepository, findProjectRow, findRepository, findTag, projectRepository, re2Error, registryAccess,
  registryHost, registryRole, repositoryEntity, repositoryPath, scheduleCleanup, tagDetailsEntity, tagEntity,
  type ContainerRepositoryRow, type ContainerTagRow, type RegistryPermission,
} from '../model/registry.ts';
import { registryWorker } from './registry-worker.ts';
import { registerRegistryProtection, repositoryDeleteProtected } from './registry-protection.ts';
import { compileCleanupRules, parseOlderThan, type CompiledRules } from '../../src/lib/registry-cleanup.ts';

/**
 * The container registry API (lib/api/project_container_repositories.rb, group_container_repositories.rb,
 * container_repositories.rb, project_container_registry_protection_tag_rules.rb) over the sandbox's store.
 */

const registry = (call: Call, c: Context<AppEnv>, permission: RegistryPermission) =>
  registryAccess(call.sandbox, call.actor, pathParam(c, 'id'), call.now, permission);

function repositoryListOptions(call: Call) {
  let tags: boolean | undefined;
  let tagsCount: boolean | undefined;
  collectParamErrors([
    () => (tags = call.params.bool('tags')),
    () => (tagsCount = call.params.bool('tags_count')),
    () => call.params.int('page'),
    () => call.params.int('per_page'),
  ]);
  return { tags: tags ?? false, tagsCount: tagsCount ?? false };
}

function listRepositories(c: Context<AppEnv>, call: Call, projectIds: number[], entity: (project: ProjectRow, row: ContainerRepositoryRow) => unknown) {
  const { db } = call.sandbox;
  const ids = JSON.stringify(projectIds);
  const where = 'project_id IN (SELECT value FROM json_each(?))';
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM container_repositories WHERE ${where} LIMIT ?)`).get(ids, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT * FROM container_repositories WHERE ${where} ORDER BY id LIMIT ? OFFSET ?`).all(ids, limit, offset) as ContainerRepositoryRow[],
  });
  const projects = new Map<number, ProjectRow>();
  const projectOf = (id: number) => {
    let project = projects.get(id);
    if (!project) projects.set(id, (project = findProjectRow(db, id)));
    return project;
  };
  return c.json(rows.map((row) => entity(projectOf(row.project_id), row)));
}

/** GET .../tags: offset pages (deprecated) or, with `pagination=keyset`, pages by name after `last`. */
function listTags(c: Context<AppEnv>, call: Call, project: ProjectRow, repository: ContainerRepositoryRow) {
  const { db } = call.sandbox;
  const host = registryHost(call.sandbox);
  const path = repositoryPath(project, repository.name);
  const { params } = call;
  if (params.string('pagination') === 'keyset') {
    let perPage = DEFAULT_PER_PAGE;
    collectParamErrors([() => (perPage = params.int('per_page') ?? DEFAULT_PER_PAGE), () => params.string('last'), () => params.string('sort')]);
    if (perPage < 1) perPage = DEFAULT_PER_PAGE;
    perPage = Math.min(perPage, MAX_PER_PAGE);
    const descending = params.string('sort') === 'desc';
    const last = params.string('last');
    const after = last === undefined || last === '' ? '' : ` AND name ${descending ? '<' : '>'} ?`;
    const rows = db
      .prepare(`SELECT name FROM container_tags WHERE repository_id = ?${after} ORDER BY name ${descending ? 'DESC' : 'ASC'} LIMIT ?`)
      .all(...(after ? [repository.id, last, perPage + 1] : [repository.id, perPage + 1])) as Array<{ name: string }>;
    const page = rows.slice(0, perPage);
    setKeysetNext(c, rows.length > perPage ? { pagination: 'keyset', per_page: perPage, last: page[page.length - 1].name, sort: descending ? 'desc' : 'asc' } : null);
    return c.json(page.map((tag) => tagEntity(host, path, tag)));
  }
  collectParamErrors([() => params.int('page'), () => params.int('per_page')]);
  const rows = pageOfQuery(c, params, {
    count: (cap) => (db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM container_tags WHERE repository_id = ? LIMIT ?)').get(repository.id, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare('SELECT name FROM container_tags WHERE repository_id = ? ORDER BY name LIMIT ? OFFSET ?').all(repository.id, limit, offset) as Array<{ name: string }>,
  });
  return c.json(rows.map((tag) => tagEntity(host, path, tag)));
}

function tagOf(c: Context<AppEnv>, call: Call, repository: ContainerRepositoryRow): ContainerTagRow {
  const tag = findTag(call.sandbox.db, repository.id, pathParam(c, 'tag_name'));
  if (!tag) throw notFound('Tag');
  return tag;
}

// -- bulk delete

const CLEANUP_LEASE_MS = 3_600_000;
export const BULK_DELETE_LEASE_MESSAGE = 'This request has already been made. You can run this at most once an hour for a given container repository';

/**
 * The bulk delete's parameters as Grape checks them (`at_least_one_of` the two delete names,
 * `untrusted_regexp`, Integer keep_n), and an older_than that reads as a duration; then compiled.
 */
function bulkDeleteRules(call: Call): CompiledRules {
  const { params } = call;
  let nameRegexDelete: string | undefined;
  let nameRegexKeep: string | undefined;
  let keepN: number | undefined;
  let olderThan: string | undefined;
  const regexp = (name: string) => {
    const value = params.string(name);
    const problem = value === undefined ? null : re2Error(value);
    if (problem) throw paramError(`${name} is an invalid regexp: ${problem}`);
    return value;
  };
  collectParamErrors([
    () => {
      const deleteName = regexp('name_regex_delete');
      const deprecated = regexp('name_regex');
      nameRegexDelete = deleteName ?? deprecated;
      if (nameRegexDelete === undefined) throw paramError('name_regex, name_regex_delete are missing, at least one parameter must be provided');
    },
    () => (nameRegexKeep = regexp('name_regex_keep')),
    () => {
      keepN = params.int('keep_n');
      if (keepN !== undefined && keepN < 0) throw paramError('keep_n does not have a valid value');
    },
    () => {
      olderThan = params.string('older_than');
      if (olderThan !== undefined && olderThan !== '' && parseOlderThan(olderThan) === null) throw paramError('older_than is invalid');
    },
  ]);
  const compiled = compileCleanupRules({ nameRegexDelete, nameRegexKeep, keepN, olderThan });
  // an empty delete expression is the one thing left the checks above let through
  if (!compiled.ok) throw paramError(`name_regex_delete is empty`);
  return compiled.rules;
}

export function registerRegistry(routes: Router): void {
  const read = { auth: 'public' as const, jobToken: true };
  const write = { jobToken: true };

  routes.get('/projects/:id/registry/repositories', read, (c, call) => {
    const { project } = registry(call, c, 'read');
    const options = repositoryListOptions(call);
    return listRepositories(c, call, [project.id], (owner, row) => repositoryEntity(call.sandbox, owner, row, options));
  });

  // groups list no tags nor tags_count (spec 3, 9): only projects whose registry the caller reads
  routes.get('/groups/:id/registry/repositories', { auth: 'public' }, (c, call) => {
    const { db } = call.sandbox;
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
    const namespaces = JSON.stringify(groupDescendants(db, group.id));
    const projects = db.prepare('SELECT * FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?)) ORDER BY id').all(namespaces) as ProjectRow[];
    const readable = projects
      .filter((project) => canReadProject(db, call.actor, project, call.now) && canAccessRegistry(project, registryRole(db, call.actor, project, call.now), 'read'))
      .map((project) => project.id);
    return listRepositories(c, call, readable, (owner, row) => repositoryEntity(call.sandbox, owner, row));
  });

  routes.get('/registry/repositories/:id{[0-9]+}', { jobToken: true }, (c, call) => {
    const { db } = call.sandbox;
    let tags: boolean | undefined;
    let tagsCount: boolean | undefined;
    let size: boolean | undefined;
    collectParamErrors([() => (tags = call.params.bool('tags')), () => (tagsCount = call.params.bool('tags_count')), () => (size = call.params.bool('size'))]);
    const repository = findRepository(db, Number(pathParam(c, 'id')));
    if (!repository) throw notFound();
    // a repository of a project the caller cannot see is not found; one whose registry it may not read is forbidden
    const { project, role } = registryAccess(call.sandbox, call.actor, String(repository.project_id), call.now, 'read');
    return c.json(repositoryEntity(call.sandbox, project, repository, { tags, tagsCount, size, deleteApiPath: canAccessRegistry(project, role, 'admin') }));
  });

  routes.delete('/projects/:id/registry/repositories/:repository_id', write, (c, call) => {
    const { project, role } = registry(call, c, 'admin');
    const repository = projectRepository(call.sandbox.db, project, pathParam(c, 'repository_id'));
    if (repositoryDeleteProtected(call.sandbox.db, project.id, repositoryPath(project, repository.name), role)) {
      throw forbidden('Deleting protected container repository forbidden.');
    }
    call.sandbox.db.prepare("UPDATE container_repositories SET status = 'delete_scheduled', status_reason = NULL WHERE id = ? AND status IS NOT 'delete_ongoing'").run(repository.id);
    registryWorker(call.sandbox).deleteRepository(repository.id);
    return c.body(null, 202);
  });

  routes.get('/projects/:id/registry/repositories/:repository_id/tags', read, (c, call) => {
    const { project } = registry(call, c, 'read');
    const repository = projectRepository(call.sandbox.db, project, pathParam(c, 'repository_id'));
    return listTags(c, call, project, repository);
  });

  // bulk delete (CleanupContainerRepositoryWorker): planned now with the shared rules module, removed by the worker
  routes.delete('/projects/:id/registry/repositories/:repository_id/tags', write, (c, call) => {
    const { project, role } = registry(call, c, 'admin');
    const { db } = call.sandbox;
    const repository = projectRepository(db, project, pathParam(c, 'repository_id'));
    const rules = bulkDeleteRules(call);
    const last = repository.last_bulk_delete_at ? Date.parse(repository.last_bulk_delete_at) : null;
    if (last !== null && call.now.getTime() - last < CLEANUP_LEASE_MS) throw new HttpError(400, { message: BULK_DELETE_LEASE_MESSAGE });
    db.prepare('UPDATE container_repositories SET last_bulk_delete_at = ? WHERE id = ?').run(call.now.toISOString(), repository.id);
    const { jobId } = scheduleCleanup(db, repository.id, rules, deleteProtection(db, project.id, role), call.now);
    registryWorker(call.sandbox).cleanup(jobId);
    return c.body(null, 202);
  });

  routes.get('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', read, (c, call) => {
    const { project } = registry(call, c, 'read');
    const repository = projectRepository(call.sandbox.db, project, pathParam(c, 'repository_id'));
    const tag = tagOf(c, call, repository);
    return c.json(tagDetailsEntity(registryHost(call.sandbox), repositoryPath(project, repository.name), tag));
  });

  routes.delete('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', write, (c, call) => {
    const { project, role } = registry(call, c, 'destroy');
    const { db } = call.sandbox;
    const repository = projectRepository(db, project, pathParam(c, 'repository_id'));
    const tag = tagOf(c, call, repository);
    if (deleteProtection(db, project.id, role)(tag.name)) throw forbidden('cannot delete protected tag(s)');
    db.prepare('DELETE FROM container_tags WHERE repository_id = ? AND name = ?').run(repository.id, tag.name);
    return c.body(null, 200);
  });

  registerRegistryProtection(routes);
}

// -- the sandbox-only control (outside /api/v4, administrators only)

const TAG_NAME = /^[\w][\w.-]{0,127}$/;
const controlTagSchema = z.object({
  // checked against the registry's tag grammar below, unless the body asks for any name
  name: z.string().min(1).max(128).refine((name) => !name.includes('/'), 'a tag name has no /'),
  created_at: z.string().datetime({ offset: true }).nullable().optional(),
  size: z.number().int().nonnegative().optional(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/).optional(),
});
const controlBodySchema = z.union([
  z.array(controlTagSchema),
  z.object({
    repository: z.string().regex(/^([a-z0-9]+([._-][a-z0-9]+)*(\/[a-z0-9]+([._-][a-z0-9]+)*)*)?$/, 'an image name is lower-case path segments').optional(),
    tags: z.array(controlTagSchema),
    /** Test-only: store names a registry would refuse (markup, spaces), for escaping tests of clients. */
    allow_any_name: z.boolean().optional(),
  }),
]);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Adds (or replaces) tags of a project's image, creating the repository: what a `docker push` would leave behind. */
export function pushTags(sandbox: Sandbox, project: ProjectRow, repositoryName: string, tags: ReadonlyArray<z.infer<typeof controlTagSchema>>): ContainerRepositoryRow {
  const { db } = sandbox;
  const stamp = sandbox.now().toISOString();
  const repository = ensureRepository(db, project.id, repositoryName, stamp);
  const insert = db.prepare('INSERT OR REPLACE INTO container_tags (repository_id, name, digest, revision, total_size, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  for (const tag of tags) {
    const createdAt = tag.created_at === null ? null : new Date(tag.created_at ?? stamp).toISOString();
    const seed = sha256(`${repositoryPath(project, repositoryName)}:${tag.name}:${createdAt}`);
    const digest = tag.digest ?? `sha256:${seed}`;
    insert.run(repository.id, tag.name, digest, sha256(digest), tag.size ?? 5_000_000 + (parseInt(seed.slice(0, 6), 16) % 200_000_000), createdAt);
  }
  return repository;
}

export function registerRegistryControls(app: Hono<AppEnv>, adminsOnly: MiddlewareHandler<AppEnv>): void {
  const control = new Hono<AppEnv>();
  control.use('*', adminsOnly);
  control.post('/:project/tags', async (c) => {
    const sandbox = c.get('sandbox');
    const key = c.req.param('project');
    const project = (/^\d+$/.test(key)
      ? sandbox.db.prepare('SELECT * FROM projects WHERE id = ?').get(Number(key))
      : sandbox.db.prepare('SELECT * FROM projects WHERE path_with_namespace = ?').get(key)) as ProjectRow | undefined;
    if (!project) return c.json({ message: '404 Project Not Found' }, 404);
    const parsed = controlBodySchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      return c.json({ message: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`) }, 400);
    }
    const body = Array.isArray(parsed.data) ? { repository: '', tags: parsed.data, allow_any_name: false } : parsed.data;
    const refused = body.allow_any_name ? [] : body.tags.map((tag, index) => ({ tag, index })).filter(({ tag }) => !TAG_NAME.test(tag.name));
    if (refused.length) {
      return c.json({ message: refused.map(({ index }) => `tags.${index}.name: a tag name is a word character, then up to 127 word characters, dots or dashes`) }, 400);
    }
    const repository = sandbox.db.transaction(() => pushTags(sandbox, project, body.repository ?? '', body.tags))();
    return c.json(repositoryEntity(sandbox, project, findRepository(sandbox.db, repository.id)!, { tagsCount: true }), 201);
  });
  // lets a test run another bulk delete at once instead of waiting the hour out
  control.delete('/repositories/:id/cleanup-lease', (c) => {
    const changed = c.get('sandbox').db.prepare('UPDATE container_repositories SET last_bulk_delete_at = NULL WHERE id = ?').run(Number(c.req.param('id')) || 0).changes;
    return changed ? c.body(null, 204) : c.json({ message: '404 Not found' }, 404);
  });
  control.put('/time-scale', async (c) => {
    const parsed = z.object({ time_scale: z.number().min(0).max(100) }).safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json({ message: 'time_scale must be a number from 0 to 100' }, 400);
    registryWorker(c.get('sandbox')).timeScale = parsed.data.time_scale;
    return c.json({ time_scale: parsed.data.time_scale });
  });
  app.route('/-/sandbox/registry', control);
}
