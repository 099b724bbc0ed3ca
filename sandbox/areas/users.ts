import type { Context } from 'hono';
import type { AppEnv, Sandbox, UserRow } from '../context.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, conflict, forbidden, notFound, paramError } from '../http/errors.ts';
import { pageOfQuery, pageRequest, setKeysetNext } from '../http/pagination.ts';
import { newSecret } from '../http/auth.ts';
import { loadUserRelations, userBasic, userFull, userPublic } from '../model/entities.ts';
import { PERSONAL_TOKEN_SCOPES, createUser, insertToken, userErrors } from '../model/users.ts';
import { deleteUser } from '../model/user-removal.ts';
import { collectParamErrors } from '../http/params.ts';
import { personalTokenEntity } from '../model/tokens.ts';
import { addDays, timestamp, today } from '../model/time.ts';
import { likeContains } from '../model/sql.ts';
import { passwordDigest } from '../model/approvals.ts';

const USER_ORDERS = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;
type UserOrder = (typeof USER_ORDERS)[number];

// spec 1, 8.3: past this many records the users list needs keyset pagination
const USERS_OFFSET_LIMIT = 50_000;

export function findUser(sandbox: Sandbox, id: string | number): UserRow {
  if (!/^\d+$/.test(String(id))) throw notFound('User');
  const user = sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(Number(id)) as UserRow | undefined;
  if (!user) throw notFound('User');
  return user;
}

interface Filter {
  where: string[];
  args: unknown[];
}

function userFilters(call: Call): Filter {
  const { params, actor } = call;
  const admin = Boolean(actor.user?.is_admin);
  // only administrators list blocked and banned users (the platform's without_forbidden_states)
  const where: string[] = admin ? [] : ["state NOT IN ('blocked', 'banned', 'ldap_blocked')"];
  const args: unknown[] = [];
  const username = params.string('username');
  if (username !== undefined) {
    where.push('username = ?');
    args.push(username);
  }
  const search = params.string('search');
  if (search) {
    const like = likeContains(search);
    // the private email is matched exactly, and partially only for administrators
    where.push(`(name LIKE ? ESCAPE '\\' OR username LIKE ? ESCAPE '\\' OR public_email = ? OR email ${admin ? "LIKE ? ESCAPE '\\'" : '= ?'})`);
    args.push(like, like, search, admin ? like : search);
  }
  if (params.bool('active')) where.push("state = 'active'");
  if (params.bool('exclude_active')) where.push("state != 'active'");
  if (params.bool('blocked')) where.push("state IN ('blocked', 'ldap_blocked')");
  if (params.bool('external')) where.push('external = 1');
  if (params.bool('exclude_external')) where.push('external = 0');
  if (params.bool('exclude_internal')) where.push("user_type NOT IN ('alert_bot', 'support_bot', 'ghost', 'visual_review_bot', 'migration_bot', 'security_bot', 'automation_bot', 'admin_bot', 'suggested_reviewers_bot', 'llm_bot', 'duo_code_review_bot')");
  if (params.bool('without_project_bots')) where.push("user_type != 'project_bot'");
  if (params.bool('humans')) where.push("user_type = 'human'");
  if (params.bool('exclude_humans')) where.push("user_type != 'human'");
  // ignored for non-administrators, as the platform's UsersFinder does
  if (params.bool('admins') && admin) where.push('is_admin = 1');
  // the platform ignores these for non-administrators
  if (admin) {
    const createdAfter = params.dateTime('created_after');
    const createdBefore = params.dateTime('created_before');
    if (createdAfter) {
      where.push('created_at > ?');
      args.push(createdAfter);
    }
    if (createdBefore) {
      where.push('created_at < ?');
      args.push(createdBefore);
    }
  }
  return { where, args };
}

const whereClause = (filter: Filter) => (filter.where.length ? `WHERE ${filter.where.join(' AND ')}` : '');

function orderColumn(order: UserOrder): string {
  return order === 'name' || order === 'username' ? `${order} COLLATE NOCASE` : order;
}

interface Cursor {
  id: number;
  value: string | number;
}

function decodeCursor(raw: string, order: UserOrder): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Record<string, unknown>;
    const id = Number(parsed.id);
    const value = parsed[order];
    if (!Number.isSafeInteger(id) || (typeof value !== 'string' && typeof value !== 'number')) throw new Error('bad cursor');
    return { id, value };
  } catch {
    throw paramError('cursor is invalid');
  }
}

function encodeCursor(row: UserRow, order: UserOrder): string {
  return Buffer.from(JSON.stringify({ [order]: row[order], id: String(row.id), _kd: 'n' })).toString('base64url');
}

/** GET /users with keyset pagination: the next page's cursor travels in `Link rel="next"`. */
function keysetUsers(c: Context<AppEnv>, call: Call, filter: Filter, order: UserOrder, sort: 'asc' | 'desc'): UserRow[] {
  const { perPage } = pageRequest(call.params);
  const cursorText = call.params.string('cursor');
  const where = [...filter.where];
  const args = [...filter.args];
  const column = orderColumn(order);
  if (cursorText) {
    const cursor = decodeCursor(cursorText, order);
    const comparison = sort === 'asc' ? '>' : '<';
    if (order === 'id') {
      where.push(`id ${comparison} ?`);
      args.push(cursor.id);
    } else {
      where.push(`(${column} ${comparison} ? OR (${column} = ? AND id ${comparison} ?))`);
      args.push(cursor.value, cursor.value, cursor.id);
    }
  }
  const rows = call.sandbox.db
    .prepare(`SELECT * FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${column} ${sort}, id ${sort} LIMIT ?`)
    .all(...args, perPage + 1) as UserRow[];
  const page = rows.slice(0, perPage);
  const more = rows.length > perPage;
  c.header('x-per-page', String(perPage));
  if (more) {
    const cursor = encodeCursor(page[page.length - 1], order);
    c.header('x-next-cursor', cursor);
    setKeysetNext(c, { cursor, pagination: 'keyset', order_by: order, sort, per_page: perPage });
  }
  return page;
}

/** The attributes PUT /users/:id takes, type-checked as Grape does before anything else. */
function userUpdateParams({ params }: Call) {
  const input: {
    email?: string; name?: string; username?: string; password?: string; bio?: string; location?: string; organization?: string;
    public_email?: string; projects_limit?: number; private_profile?: boolean; can_create_group?: boolean; external?: boolean;
    admin?: boolean; skip_reconfirmation?: boolean;
  } = {};
  collectParamErrors([
    ...(['email', 'name', 'username', 'password', 'bio', 'location', 'organization', 'public_email'] as const).map((key) => () => (input[key] = params.string(key))),
    () => (input.projects_limit = params.int('projects_limit')),
    ...(['private_profile', 'can_create_group', 'external', 'admin', 'skip_reconfirmation'] as const).map((key) => () => (input[key] = params.bool(key))),
  ]);
  return input;
}

/**
 * A user's namespace follows its username and name; its projects move with it, and their old
 * paths keep resolving as a renamed project's do.
 */
function renamePersonalNamespace(sandbox: Sandbox, before: UserRow, after: { name: string; username: string }, now: Date): void {
  const { db } = sandbox;
  const namespace = db.prepare("SELECT id, full_path FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(before.id) as { id: number; full_path: string } | undefined;
  if (!namespace) return;
  db.prepare('UPDATE namespaces SET name = ?, path = ?, full_path = ?, updated_at = ? WHERE id = ?').run(after.name, after.username, after.username, timestamp(now), namespace.id);
  if (namespace.full_path === after.username) return;
  const projects = db.prepare('SELECT id, path, path_with_namespace FROM projects WHERE namespace_id = ?').all(namespace.id) as Array<{ id: number; path: string; path_with_namespace: string }>;
  for (const project of projects) {
    const newPath = `${after.username}/${project.path}`;
    db.prepare('UPDATE projects SET path_with_namespace = ? WHERE id = ?').run(newPath, project.id);
    db.prepare('DELETE FROM redirect_routes WHERE path = ?').run(newPath);
    db.prepare("INSERT OR REPLACE INTO redirect_routes (path, source_type, source_id) VALUES (?, 'Project', ?)").run(project.path_with_namespace, project.id);
  }
}

export function registerUsers(routes: Router): void {
  const readUserScopes = ['api', 'read_api', 'read_user'];

  routes.get('/user', { scopes: readUserScopes }, (c, { sandbox, actor }) => c.json(userFull(sandbox, actor.user!, actor)));

  routes.get('/users', { auth: 'public', scopes: readUserScopes }, (c, call) => {
    const { sandbox, actor, params } = call;
    // spec: anonymous callers may only look a user up by username
    if (!actor.user && !params.has('username')) throw forbidden('Not authorized to access /api/v4/users');
    const admin = Boolean(actor.user?.is_admin);
    const filter = userFilters(call);
    const order = (params.oneOf('order_by', USER_ORDERS) ?? 'id') as UserOrder;
    const sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc';
    const present = (rows: UserRow[]) => {
      if (!admin) return rows.map((user) => userBasic(sandbox, user));
      const relations = loadUserRelations(sandbox.db, rows, actor);
      return rows.map((user) => userFull(sandbox, user, actor, relations));
    };
    if (params.string('pagination') === 'keyset') {
      return c.json(present(keysetUsers(c, call, filter, order, sort)));
    }
    const where = whereClause(filter);
    const rows = pageOfQuery(
      c,
      params,
      {
        count: (cap) => (sandbox.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM users ${where} LIMIT ?)`).get(...filter.args, cap + 1) as { n: number }).n,
        rows: (limit, offset) =>
          sandbox.db.prepare(`SELECT * FROM users ${where} ORDER BY ${orderColumn(order)} ${sort}, id ${sort} LIMIT ? OFFSET ?`).all(...filter.args, limit, offset) as UserRow[],
      },
      {
        maxOffset: {
          limit: USERS_OFFSET_LIMIT,
          message: 'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type User. Remaining records can be retrieved using keyset pagination.',
        },
      },
    );
    return c.json(present(rows));
  });

  routes.get('/users/:id{[0-9]+}', { scopes: readUserScopes }, (c, { sandbox, actor }) => {
    const user = findUser(sandbox, pathParam(c, 'id'));
    // the platform answers its User entity here even for yourself; GET /user has the private fields
    return c.json(actor.user?.is_admin ? userFull(sandbox, user, actor) : userPublic(sandbox, user, actor));
  });

  routes.post('/users', { auth: 'admin' }, (c, { sandbox, actor, params, now }) => {
    const email = params.string('email');
    const name = params.string('name');
    const username = params.string('username');
    const missing = [['email', email], ['name', name], ['username', username]].filter(([, value]) => value === undefined).map(([key]) => `${key} is missing`);
    if (missing.length) throw paramError(missing.join(', '));
    const password = params.string('password');
    if (password === undefined && !params.bool('reset_password') && !params.bool('force_random_password')) {
      throw paramError('password, reset_password, force_random_password are missing, at least one parameter must be provided');
    }
    const errors = userErrors(sandbox.db, { email: email!, name: name!, username: username! });
    if (errors.email?.includes('has already been taken')) throw conflict('Email has already been taken');
    if (errors.username?.includes('has already been taken')) throw conflict('Username has already been taken');
    if (password !== undefined && password.length < 8) {
      (errors.password ??= []).push('is too short (minimum is 8 characters)');
    }
    if (Object.keys(errors).length) throw new HttpError(400, { message: errors });
    const user = createUser(sandbox.db, {
      email: email!,
      name: name!,
      username: username!,
      isAdmin: params.bool('admin') ?? false,
      external: params.bool('external') ?? false,
      publicEmail: params.string('public_email') ?? null,
      bio: params.string('bio'),
      organization: params.string('organization'),
      jobTitle: params.string('job_title'),
      createdById: actor.user!.id,
      createdAt: timestamp(now),
    });
    const projectsLimit = params.int('projects_limit', { min: 0 });
    const canCreateGroup = params.bool('can_create_group');
    if (projectsLimit !== undefined) sandbox.db.prepare('UPDATE users SET projects_limit = ? WHERE id = ?').run(projectsLimit, user.id);
    if (canCreateGroup !== undefined) sandbox.db.prepare('UPDATE users SET can_create_group = ? WHERE id = ?').run(canCreateGroup ? 1 : 0, user.id);
    // kept as a digest, for approvals that ask for the password again
    if (password !== undefined) sandbox.db.prepare('UPDATE users SET password_digest = ? WHERE id = ?').run(passwordDigest(password, sandbox.config.passwordCost), user.id);
    return c.json(userFull(sandbox, findUser(sandbox, user.id), actor), 201);
  });

  // PUT /users/:id: the checks run in the platform's order, 409 for an email or username of another user first
  routes.put('/users/:id{[0-9]+}', { auth: 'admin' }, (c, call) => {
    const { sandbox, actor, now } = call;
    const input = userUpdateParams(call);
    const user = findUser(sandbox, pathParam(c, 'id'));
    const { db } = sandbox;
    if (input.email !== undefined && db.prepare('SELECT 1 FROM users WHERE email = ? AND id != ?').get(input.email, user.id)) {
      throw conflict('Email has already been taken');
    }
    if (input.username !== undefined && db.prepare('SELECT 1 FROM users WHERE username = ? AND id != ?').get(input.username, user.id)) {
      throw conflict('Username has already been taken');
    }
    const next = { name: input.name ?? user.name, username: input.username ?? user.username, email: input.email ?? user.email };
    const errors = userErrors(db, next, user.id);
    if (input.password !== undefined && input.password.length < 8) (errors.password ??= []).push('is too short (minimum is 8 characters)');
    if (input.projects_limit !== undefined && input.projects_limit < 0) (errors.projects_limit ??= []).push('must be greater than or equal to 0');
    if (Object.keys(errors).length) throw new HttpError(400, { message: errors });
    const columns: Record<string, string | number | null> = { name: next.name, username: next.username, email: next.email };
    for (const key of ['bio', 'location', 'organization', 'public_email', 'projects_limit'] as const) {
      if (input[key] !== undefined) columns[key] = input[key]!;
    }
    for (const [key, column] of [['private_profile', 'private_profile'], ['can_create_group', 'can_create_group'], ['external', 'external'], ['admin', 'is_admin']] as const) {
      if (input[key] !== undefined) columns[column] = input[key] ? 1 : 0;
    }
    // a new address waits for confirmation unless the administrator skips it
    if (next.email.toLowerCase() !== user.email.toLowerCase() && !input.skip_reconfirmation) columns.confirmed_at = null;
    if (input.password !== undefined) columns.password_digest = passwordDigest(input.password, sandbox.config.passwordCost);
    columns.updated_at = timestamp(now);
    db.prepare(`UPDATE users SET ${Object.keys(columns).map((key) => `${key} = @${key}`).join(', ')} WHERE id = @id`).run({ ...columns, id: user.id });
    renamePersonalNamespace(sandbox, user, next, now);
    return c.json(userFull(sandbox, findUser(sandbox, user.id), actor));
  });

  routes.delete('/users/:id{[0-9]+}', { auth: 'admin' }, (c, { sandbox, params, now }) => {
    let hardDelete = false;
    collectParamErrors([() => (hardDelete = params.bool('hard_delete') ?? false)]);
    const user = findUser(sandbox, pathParam(c, 'id'));
    // the platform's policy never destroys the Ghost User: its deletion job refuses after the 204
    if (user.user_type === 'ghost') return c.body(null, 204);
    deleteUser(sandbox, user, { hardDelete, now });
    return c.body(null, 204);
  });

  routes.post('/users/:id{[0-9]+}/personal_access_tokens', { auth: 'admin' }, (c, { sandbox, params, now }) => {
    const user = findUser(sandbox, pathParam(c, 'id'));
    const name = params.requiredString('name');
    const scopes = params.requiredSubset('scopes', PERSONAL_TOKEN_SCOPES);
    const maxDays = sandbox.config.maxTokenLifetimeDays;
    const expiresAt = params.date('expires_at') ?? addDays(now, maxDays);
    if (expiresAt <= today(now)) throw new HttpError(400, { message: { expires_at: ['must be in the future'] } });
    if (expiresAt > addDays(now, maxDays)) {
      throw new HttpError(400, { message: { expires_at: [`must be before ${addDays(now, maxDays)}`] } });
    }
    const secret = newSecret();
    const token = insertToken(sandbox.db, {
      userId: user.id,
      name,
      description: params.string('description') ?? null,
      secret,
      scopes,
      createdAt: timestamp(now),
      expiresAt,
    });
    return c.json({ ...personalTokenEntity(token, today(now)), token: secret }, 201);
  });

  // spec 1, 4.8: follow answers 201 with the user, or 304 when nothing changes
  routes.post('/users/:id{[0-9]+}/follow', {}, (c, { sandbox, actor, now }) => {
    const user = findUser(sandbox, pathParam(c, 'id'));
    if (user.id === actor.user!.id) return c.body(null, 304);
    const inserted = sandbox.db
      .prepare('INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)')
      .run(actor.user!.id, user.id, timestamp(now));
    if (inserted.changes === 0) return c.body(null, 304);
    return c.json(userBasic(sandbox, user), 201);
  });

  routes.post('/users/:id{[0-9]+}/unfollow', {}, (c, { sandbox, actor }) => {
    const user = findUser(sandbox, pathParam(c, 'id'));
    const deleted = sandbox.db.prepare('DELETE FROM follows WHERE follower_id = ? AND followee_id = ?').run(actor.user!.id, user.id);
    if (deleted.changes === 0) return c.body(null, 304);
    return c.json(userBasic(sandbox, user), 201);
  });

  const followList = (direction: 'followers' | 'following') =>
    routes.get(`/users/:id{[0-9]+}/${direction}`, { scopes: readUserScopes }, (c, { sandbox, actor, params }) => {
      const user = findUser(sandbox, pathParam(c, 'id'));
      // a private profile hides its follow lists from everyone but its owner and administrators
      if (user.private_profile && actor.user!.id !== user.id && !actor.user!.is_admin) throw notFound('User');
      const [match, other] = direction === 'followers' ? ['followee_id', 'follower_id'] : ['follower_id', 'followee_id'];
      const rows = pageOfQuery(c, params, {
        count: (cap) => (sandbox.db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM follows WHERE ${match} = ? LIMIT ?)`).get(user.id, cap + 1) as { n: number }).n,
        rows: (limit, offset) =>
          sandbox.db
            .prepare(`SELECT u.* FROM follows f JOIN users u ON u.id = f.${other} WHERE f.${match} = ? ORDER BY f.created_at DESC, u.id DESC LIMIT ? OFFSET ?`)
            .all(user.id, limit, offset) as UserRow[],
      });
      return c.json(rows.map((row) => userBasic(sandbox, row)));
    });
  followList('followers');
  followList('following');
}
