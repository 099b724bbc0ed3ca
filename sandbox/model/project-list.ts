import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Call } from '../http/route.ts';
import { HttpError, forbidden } from '../http/errors.ts';
import { pageOfQuery, pageRequest, setKeysetNext } from '../http/pagination.ts';
import { AccessLevel, MEMBER_ACCESS_LEVELS, VISIBILITIES, authorizationsOf, type ProjectRow } from './access.ts';
import { projectEntity } from './entities.ts';
import { likeContains } from './sql.ts';

const PROJECT_ORDERS = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count'] as const;
const ADMIN_ORDERS = ['storage_size', 'repository_size', 'wiki_size', 'packages_size'] as const;

/** The smallest entity, for `simple=true` (the platform's BasicProjectDetails). */
function simpleProject(full: ReturnType<typeof projectEntity>) {
  const keys = ['id', 'description', 'name', 'name_with_namespace', 'path', 'path_with_namespace', 'created_at', 'default_branch', 'tag_list', 'topics', 'ssh_url_to_repo', 'http_url_to_repo', 'web_url', 'readme_url', 'forks_count', 'avatar_url', 'star_count', 'last_activity_at', 'visibility', 'namespace'] as const;
  return Object.fromEntries(keys.map((key) => [key, full[key]]));
}

/**
 * GET /projects and GET /groups/:id/projects: every filter, order and both pagination methods.
 * `scope` narrows to namespaces (a group, with its subgroups when asked) and shared projects.
 */
export function listProjects(c: Context<AppEnv>, call: Call, scope?: { namespaceIds: number[]; sharedWithGroupIds?: number[] }): Response {
  const { sandbox, actor, params, now } = call;
  const { db } = sandbox;
  const user = actor.user;
  const admin = Boolean(user?.is_admin);
  const where: string[] = [];
  const args: unknown[] = [];
  const auth = user ? authorizationsOf(db, user.id, now) : null;
  const authorized = auth ? [...auth.projects.entries()] : [];

  // what the caller may see at all
  if (!admin) {
    const visible = user && !user.external ? "visibility IN ('public', 'internal')" : "visibility = 'public'";
    where.push(`(${visible} OR id IN (SELECT value FROM json_each(?)))`);
    args.push(JSON.stringify(authorized.map(([id]) => id)));
  }
  if (scope) {
    const inNamespace = 'namespace_id IN (SELECT value FROM json_each(?))';
    if (scope.sharedWithGroupIds?.length) {
      where.push(`(${inNamespace} OR id IN (SELECT shared_id FROM group_links WHERE shared_type = 'Project' AND group_id IN (SELECT value FROM json_each(?))))`);
      args.push(JSON.stringify(scope.namespaceIds), JSON.stringify(scope.sharedWithGroupIds));
    } else {
      where.push(inNamespace);
      args.push(JSON.stringify(scope.namespaceIds));
    }
  }
  const archived = params.bool('archived');
  if (archived !== undefined) {
    where.push('archived = ?');
    args.push(archived ? 1 : 0);
  }
  const visibility = params.oneOf('visibility', VISIBILITIES);
  if (visibility) {
    where.push('visibility = ?');
    args.push(visibility);
  }
  const search = params.string('search');
  if (search) {
    const like = likeContains(search);
    if (params.bool('search_namespaces')) {
      where.push("(name LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' OR path_with_namespace LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
      args.push(like, like, like, like);
    } else {
      where.push("(name LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
      args.push(like, like, like);
    }
  }
  if (params.bool('owned')) {
    // owned: the caller's personal projects and every project they hold Owner on (User#owned_projects)
    where.push("(namespace_id IN (SELECT id FROM namespaces WHERE kind = 'user' AND owner_id = ?) OR id IN (SELECT value FROM json_each(?)))");
    args.push(user?.id ?? -1, JSON.stringify(authorized.filter(([, access]) => access >= AccessLevel.OWNER).map(([id]) => id)));
  }
  if (params.bool('starred')) {
    where.push('id IN (SELECT project_id FROM project_stars WHERE user_id = ?)');
    args.push(user?.id ?? -1);
  }
  const minAccess = params.int('min_access_level');
  if (minAccess !== undefined && !(MEMBER_ACCESS_LEVELS as readonly number[]).includes(minAccess)) {
    throw new HttpError(400, { error: 'min_access_level does not have a valid value' });
  }
  if (params.bool('membership') || minAccess !== undefined) {
    const level = minAccess ?? 1;
    where.push('id IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(authorized.filter(([, access]) => access >= level).map(([id]) => id)));
  }
  const topics = params.stringArray('topic');
  for (const topic of topics ?? []) {
    where.push('EXISTS (SELECT 1 FROM json_each(projects.topics) WHERE lower(value) = lower(?))');
    args.push(topic);
  }
  const lastActivityAfter = params.dateTime('last_activity_after');
  const lastActivityBefore = params.dateTime('last_activity_before');
  if (lastActivityAfter) {
    where.push('last_activity_at > ?');
    args.push(lastActivityAfter);
  }
  if (lastActivityBefore) {
    where.push('last_activity_at < ?');
    args.push(lastActivityBefore);
  }
  const storage = params.string('repository_storage');
  if (storage !== undefined) {
    if (!admin) throw forbidden();
    where.push('repository_storage = ?');
    args.push(storage);
  }
  const idAfter = params.int('id_after');
  const idBefore = params.int('id_before');
  if (idAfter !== undefined) {
    where.push('id > ?');
    args.push(idAfter);
  }
  if (idBefore !== undefined) {
    where.push('id < ?');
    args.push(idBefore);
  }
  const orders: readonly string[] = admin ? [...PROJECT_ORDERS, ...ADMIN_ORDERS] : PROJECT_ORDERS;
  let order = params.oneOf('order_by', orders) ?? 'created_at';
  if (order === 'similarity' && !search) order = 'created_at';
  if ((ADMIN_ORDERS as readonly string[]).includes(order)) order = 'id'; // sizes are all zero in the sandbox
  const sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
  const updatedFilter = params.has('updated_after') || params.has('updated_before');
  if (updatedFilter) {
    if (order !== 'updated_at') throw new HttpError(400, { message: '400 Bad request - `updated_at` filter and `updated_at` sorting must be paired' });
    const after = params.dateTime('updated_after');
    const before = params.dateTime('updated_before');
    if (after) {
      where.push('updated_at > ?');
      args.push(after);
    }
    if (before) {
      where.push('updated_at < ?');
      args.push(before);
    }
  }
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const orderSql = order === 'similarity'
    ? `ORDER BY (CASE WHEN lower(name) = lower(?) THEN 0 WHEN lower(name) LIKE lower(?) THEN 1 ELSE 2 END), id ${sort}`
    : `ORDER BY ${order === 'name' || order === 'path' ? `${order} COLLATE NOCASE` : order} ${sort}, id ${sort}`;
  const orderArgs = order === 'similarity' ? [search, `${search}%`] : [];
  const present = (rows: ProjectRow[]) => {
    const simple = params.bool('simple') || !user;
    return rows.map((row) => {
      const full = projectEntity(sandbox, row, actor, now);
      return simple ? simpleProject(full) : full;
    });
  };

  if (params.string('pagination') === 'keyset') {
    // spec 1, 8.4: projects support keyset pagination ordered by id only
    if (params.string('order_by') !== 'id') throw new HttpError(405, { error: 'Keyset pagination is not yet available for this type of request' });
    const { perPage } = pageRequest(params);
    const rows = db.prepare(`SELECT * FROM projects ${whereSql} ORDER BY id ${sort} LIMIT ?`).all(...args, perPage + 1) as ProjectRow[];
    const page = rows.slice(0, perPage);
    c.header('x-per-page', String(perPage));
    if (rows.length > perPage) {
      const last = page[page.length - 1].id;
      setKeysetNext(c, sort === 'asc' ? { id_after: last } : { id_before: last });
    }
    return c.json(present(page));
  }
  const rows = pageOfQuery(c, params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM projects ${whereSql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT * FROM projects ${whereSql} ${orderSql} LIMIT ? OFFSET ?`).all(...args, ...orderArgs, limit, offset) as ProjectRow[],
  });
  return c.json(present(rows));
}
