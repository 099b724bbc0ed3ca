import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, forbidden, notFound, paramError } from '../http/errors.ts';
import { pageOfQuery, pageRequest, setKeysetNext } from '../http/pagination.ts';
import {
  AccessLevel, MEMBER_ACCESS_LEVELS, VISIBILITIES, authorizationsOf, effectiveRole, findReadableGroup,
  visibilityRank, type NamespaceRow, type ProjectRow,
} from '../model/access.ts';
import { groupEntity, projectEntity, sharedWithGroups } from '../model/entities.ts';
import { removeGroupLink, shareWithGroup } from '../model/sharing.ts';
import { timestamp } from '../model/time.ts';
import { fullPathTaken, pathErrors } from './projects.ts';
import { likeContains } from '../model/sql.ts';

const GROUP_ORDERS = ['name', 'path', 'id', 'similarity'] as const;

/** GET /groups and GET /groups/:id/subgroups: visibility, membership and every list filter. */
function listGroups(c: Context<AppEnv>, call: Call, parentId?: number): Response {
  const { sandbox, actor, params, now } = call;
  const { db } = sandbox;
  const user = actor.user;
  const admin = Boolean(user?.is_admin);
  const where: string[] = ["kind = 'group'"];
  const args: unknown[] = [];
  const auth = user ? authorizationsOf(db, user.id, now) : null;
  const memberOf = auth ? [...auth.groups.keys()] : [];
  // a member of a subgroup or of a project inside also sees the groups above it
  const visibleThroughChildren = user
    ? (db.prepare(
        `WITH RECURSIVE up(id, parent_id) AS (
           SELECT id, parent_id FROM namespaces WHERE id IN (SELECT value FROM json_each(?))
             OR id IN (SELECT namespace_id FROM projects WHERE id IN (SELECT value FROM json_each(?)))
           UNION SELECT n.id, n.parent_id FROM namespaces n JOIN up ON n.id = up.parent_id
         ) SELECT id FROM up`,
      ).all(JSON.stringify(memberOf), JSON.stringify(auth ? [...auth.projects.keys()] : [])) as Array<{ id: number }>).map((row) => row.id)
    : [];

  const allAvailable = params.bool('all_available') ?? (parentId !== undefined || admin || !user);
  if (!admin) {
    const visible = !user ? "visibility = 'public'" : user.external ? "visibility = 'public'" : "visibility IN ('public', 'internal')";
    if (allAvailable) {
      where.push(`(${visible} OR id IN (SELECT value FROM json_each(?)))`);
      args.push(JSON.stringify(visibleThroughChildren));
    } else {
      where.push('id IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(memberOf));
    }
  } else if (params.bool('all_available') === false) {
    where.push('id IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(memberOf));
  }
  if (parentId !== undefined) {
    where.push('parent_id = ?');
    args.push(parentId);
  }
  if (params.bool('top_level_only')) where.push('parent_id IS NULL');
  const skip = params.intArray('skip_groups');
  if (skip?.length) {
    where.push('id NOT IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(skip));
  }
  const visibility = params.oneOf('visibility', VISIBILITIES);
  if (visibility) {
    where.push('visibility = ?');
    args.push(visibility);
  }
  const search = params.string('search');
  if (search) {
    const like = likeContains(search);
    where.push("(name LIKE ? ESCAPE '\\' OR path LIKE ? ESCAPE '\\')");
    args.push(like, like);
  }
  const minAccess = params.int('min_access_level');
  if (minAccess !== undefined && !(MEMBER_ACCESS_LEVELS as readonly number[]).includes(minAccess)) {
    throw new HttpError(400, { error: 'min_access_level does not have a valid value' });
  }
  if (params.bool('owned') || minAccess !== undefined) {
    const level = params.bool('owned') ? AccessLevel.OWNER : minAccess!;
    where.push('id IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(auth ? [...auth.groups.entries()].filter(([, access]) => access >= level).map(([id]) => id) : []));
  }
  let order = params.oneOf('order_by', GROUP_ORDERS) ?? 'name';
  if (order === 'similarity' && !search) order = 'name';
  const sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'asc';
  const whereSql = `WHERE ${where.join(' AND ')}`;
  const column = order === 'similarity' ? "(CASE WHEN lower(name) = lower(?) THEN 0 ELSE 1 END)" : order === 'id' ? 'id' : `${order} COLLATE NOCASE`;
  const present = (rows: NamespaceRow[]) => rows.map((row) => groupEntity(sandbox, row));

  // spec 1, 8.4: groups offer keyset pagination to anonymous callers, ordered by name ascending
  if (!user && params.string('pagination') === 'keyset') {
    if (order !== 'name' || sort !== 'asc') throw new HttpError(405, { error: 'Keyset pagination is not yet available for this type of request' });
    const { perPage } = pageRequest(params);
    const cursor = params.string('cursor');
    const keysetWhere = [...where];
    const keysetArgs = [...args];
    if (cursor) {
      let decoded: { name?: unknown; id?: unknown };
      try {
        decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        throw paramError('cursor is invalid');
      }
      if (!decoded || typeof decoded.name !== 'string' || !/^\d+$/.test(String(decoded.id))) throw paramError('cursor is invalid');
      keysetWhere.push('(name COLLATE NOCASE > ? OR (name COLLATE NOCASE = ? AND id > ?))');
      keysetArgs.push(decoded.name, decoded.name, Number(decoded.id));
    }
    const rows = db.prepare(`SELECT * FROM namespaces WHERE ${keysetWhere.join(' AND ')} ORDER BY name COLLATE NOCASE ASC, id ASC LIMIT ?`).all(...keysetArgs, perPage + 1) as NamespaceRow[];
    const page = rows.slice(0, perPage);
    if (rows.length > perPage) {
      const last = page[page.length - 1];
      setKeysetNext(c, { cursor: Buffer.from(JSON.stringify({ name: last.name, id: String(last.id), _kd: 'n' })).toString('base64url') });
    }
    return c.json(present(page));
  }
  const orderArgs = order === 'similarity' ? [search] : [];
  const rows = pageOfQuery(c, params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM namespaces ${whereSql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT * FROM namespaces ${whereSql} ORDER BY ${column} ${sort}, id ASC LIMIT ? OFFSET ?`).all(...args, ...orderArgs, limit, offset) as NamespaceRow[],
  });
  return c.json(present(rows));
}

export function registerGroups(routes: Router): void {
  routes.get('/groups', { auth: 'public' }, (c, call) => listGroups(c, call));

  routes.get('/groups/:id/subgroups', { auth: 'public' }, (c, call) => {
    const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
    return listGroups(c, call, group.id);
  });

  routes.get('/groups/:id', { auth: 'public' }, (c, { sandbox, actor, params, now }) => {
    const { db } = sandbox;
    const group = findReadableGroup(db, actor, pathParam(c, 'id'), now);
    const withProjects = params.bool('with_projects') ?? true;
    const projects = withProjects
      ? (db.prepare('SELECT * FROM projects WHERE namespace_id = ? ORDER BY id LIMIT 100').all(group.id) as ProjectRow[])
          .filter((project) => project.visibility === 'public' || actor.user)
          .map((project) => projectEntity(sandbox, project, actor, now))
      : undefined;
    return c.json({
      ...groupEntity(sandbox, group),
      shared_with_groups: sharedWithGroups(sandbox, 'Namespace', group.id),
      prevent_sharing_groups_outside_hierarchy: false,
      ...(projects ? { projects, shared_projects: [] } : {}),
    });
  });

  routes.post('/groups', {}, (c, { sandbox, actor, params, now }) => {
    const { db } = sandbox;
    const user = actor.user!;
    const name = params.string('name');
    const path = params.string('path');
    const missing = [['name', name], ['path', path]].filter(([, value]) => value === undefined).map(([key]) => `${key} is missing`);
    if (missing.length) throw paramError(missing.join(', '));
    const parentId = params.int('parent_id');
    let parent: NamespaceRow | undefined;
    if (parentId !== undefined) {
      parent = findReadableGroup(db, actor, String(parentId), now);
      const settings = JSON.parse(parent.settings) as { subgroup_creation_level?: string };
      const needed = settings.subgroup_creation_level === 'owner' ? AccessLevel.OWNER : AccessLevel.MAINTAINER;
      if (effectiveRole(db, actor, { type: 'Namespace', id: parent.id }, now) < needed) throw forbidden();
    } else if (!user.can_create_group && !user.is_admin) {
      throw forbidden();
    }
    const visibility = params.oneOf('visibility', VISIBILITIES) ?? 'private';
    const fullPath = parent ? `${parent.full_path}/${path}` : path!;
    // the platform reports a failed save as this text (Ruby's Hash#inspect of the errors)
    const errors: string[] = [];
    const pathProblems = pathErrors(path!);
    if (pathProblems.length) errors.push(`:path=>${JSON.stringify(pathProblems)}`);
    else if (fullPathTaken(db, fullPath) || db.prepare('SELECT 1 FROM namespaces WHERE full_path = ?').get(fullPath) || (!parent && db.prepare('SELECT 1 FROM users WHERE username = ?').get(path))) {
      errors.push(':path=>["has already been taken"]');
    }
    if (!name!.trim()) errors.push(':name=>["can\'t be blank"]');
    if (parent && visibilityRank(visibility) > visibilityRank(parent.visibility)) {
      errors.push(`:visibility_level=>["${visibility} is not allowed since the parent group has a ${parent.visibility} visibility."]`);
    }
    if (errors.length) throw new HttpError(400, { message: `Failed to save group {${errors.join(', ')}}` });
    const stamp = timestamp(now);
    const result = db
      .prepare(`INSERT INTO namespaces (kind, name, path, full_path, parent_id, description, visibility, created_at, updated_at) VALUES ('group', ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(name, path, fullPath, parent?.id ?? null, params.string('description') ?? '', visibility, stamp, stamp);
    const id = Number(result.lastInsertRowid);
    db.prepare(`INSERT INTO members (source_type, source_id, user_id, access_level, created_by_id, created_at, updated_at) VALUES ('Namespace', ?, ?, 50, ?, ?, ?)`)
      .run(id, user.id, user.id, stamp, stamp);
    const group = db.prepare('SELECT * FROM namespaces WHERE id = ?').get(id) as NamespaceRow;
    return c.json({ ...groupEntity(sandbox, group), shared_with_groups: [], projects: [], shared_projects: [] }, 201);
  });

  routes.post('/groups/:id/share', {}, (c, { sandbox, actor, params, now }) => {
    const group = findReadableGroup(sandbox.db, actor, pathParam(c, 'id'), now);
    if (effectiveRole(sandbox.db, actor, { type: 'Namespace', id: group.id }, now) < AccessLevel.OWNER) throw notFound();
    shareWithGroup(sandbox, actor, { type: 'Namespace', id: group.id }, params, now);
    return c.json({ ...groupEntity(sandbox, group), shared_with_groups: sharedWithGroups(sandbox, 'Namespace', group.id) }, 201);
  });

  routes.delete('/groups/:id/share/:group_id', {}, (c, { sandbox, actor, now }) => {
    const group = findReadableGroup(sandbox.db, actor, pathParam(c, 'id'), now);
    if (effectiveRole(sandbox.db, actor, { type: 'Namespace', id: group.id }, now) < AccessLevel.OWNER) throw notFound();
    removeGroupLink(sandbox, { type: 'Namespace', id: group.id }, pathParam(c, 'group_id'));
    return c.body(null, 204);
  });

}
