import { collectParamErrors } from '../http/params.ts';
import type { Context } from 'hono';
import type { AppEnv, Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, paramError, statusError } from '../http/errors.ts';
import { newSecret } from '../http/auth.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { AccessLevel, effectiveRole, findReadableGroup, groupChain, groupDescendants, type NamespaceRow } from '../model/access.ts';
import { PERSONAL_TOKEN_SCOPES, createUser, insertToken, userErrors, type TokenRow } from '../model/users.ts';
import { fullMessages, toSentence } from '../model/members.ts';
import {
  defaultExpiry, expiryProblem, findTokenById, generatedUsername, noreplyEmail, pageOfTokens,
  personalTokenEntity, rotateToken, tokenListQuery,
} from '../model/tokens.ts';
import { timestamp, today } from '../model/time.ts';

const ACCOUNT_ORDERS = ['id', 'username'] as const;
const DEFAULT_NAME = 'Service account user';

/** The platform's ServiceAccount entity: id, username, name and email. */
function serviceAccountEntity(user: UserRow) {
  return { id: user.id, username: user.username, name: user.name, email: user.email };
}

/** `order_by` (id, username; default id) and `sort` (default desc), checked before anything else. */
function accountOrder(call: Call): string {
  let order: (typeof ACCOUNT_ORDERS)[number] = 'id';
  let sort: 'asc' | 'desc' = 'desc';
  collectParamErrors([
    () => (order = call.params.oneOf('order_by', ACCOUNT_ORDERS) ?? 'id'),
    () => (sort = call.params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc'),
    () => call.params.int('page'),
    () => call.params.int('per_page'),
  ]);
  return order === 'id' ? `id ${sort}` : `username ${sort}, id ${sort}`;
}

function listAccounts(c: Context<AppEnv>, call: Call, order: string, scope: { sql: string; args: unknown[] }): Response {
  const { db } = call.sandbox;
  const where = `user_type = 'service_account'${scope.sql ? ` AND ${scope.sql}` : ''}`;
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM users WHERE ${where} LIMIT ?)`).get(...scope.args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT * FROM users WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...scope.args, limit, offset) as UserRow[],
  });
  return c.json(rows.map(serviceAccountEntity));
}

/**
 * Inserts a service account: defaults for name, username and email as the platform generates
 * them; a taken username or email answers `400 Bad request - Email has already been taken`.
 */
function createServiceAccount(call: Call, input: { name?: string; username?: string; email?: string; usernamePrefix: string; groupId: number | null }): UserRow {
  const { sandbox, actor, now } = call;
  const { db } = sandbox;
  const username = input.username ?? generatedUsername(input.usernamePrefix);
  const account = { name: input.name ?? DEFAULT_NAME, username, email: input.email ?? noreplyEmail(sandbox, username) };
  const errors = userErrors(db, account);
  if (Object.keys(errors).length) throw badRequest(toSentence(fullMessages(errors)));
  const user = createUser(db, { ...account, userType: 'service_account', external: true, createdById: actor.user!.id, createdAt: timestamp(now), lastSignInAt: null });
  // a custom address waits for confirmation; generated ones are confirmed (spec 1, 4.4)
  db.prepare('UPDATE users SET provisioned_by_group_id = ?, confirmed_at = CASE WHEN ? THEN NULL ELSE confirmed_at END WHERE id = ?')
    .run(input.groupId, input.email !== undefined ? 1 : 0, user.id);
  return db.prepare('SELECT * FROM users WHERE id = ?').get(user.id) as UserRow;
}

function accountParams(call: Call) {
  let name: string | undefined;
  let username: string | undefined;
  let email: string | undefined;
  collectParamErrors([
    () => (name = call.params.string('name')),
    () => (username = call.params.string('username')),
    () => (email = call.params.string('email')),
  ]);
  return { name, username, email };
}

/** Administrators and Owners of the group manage its service accounts; others get 403 (404 when the group is hidden). */
function managedGroup(c: Context<AppEnv>, call: Call): NamespaceRow {
  const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  if (effectiveRole(call.sandbox.db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) throw forbidden();
  return group;
}

/** `:user_id` is an Integer on these routes: Grape answers 400 for anything else. */
function userIdParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'user_id');
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError('user_id is invalid');
  return Number(raw);
}

/** A user the group provisioned (404 otherwise), which must be a service account (400 otherwise). */
function provisionedAccount(call: Call, group: NamespaceRow, userId: number): UserRow {
  const user = call.sandbox.db.prepare('SELECT * FROM users WHERE id = ? AND provisioned_by_group_id = ?').get(userId, group.id) as UserRow | undefined;
  if (!user) throw notFound('User');
  if (user.user_type !== 'service_account') throw badRequest('User is not of type Service Account');
  return user;
}

/** Groups in which the account is the only Owner (bots aside), counting Owners inherited from above. */
function soloOwnedGroups(db: Db, userId: number, now: Date): number[] {
  const day = today(now);
  const owned = (db.prepare(
    `SELECT source_id FROM members WHERE source_type = 'Namespace' AND user_id = ? AND access_level = ? AND (expires_at IS NULL OR expires_at > ?)`,
  ).all(userId, AccessLevel.OWNER, day) as Array<{ source_id: number }>).map((row) => row.source_id);
  return owned.filter((groupId) => {
    const chain = groupChain(db, groupId);
    const others = db.prepare(
      `SELECT 1 FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.source_type = 'Namespace' AND m.source_id IN (SELECT value FROM json_each(?)) AND m.access_level = ?
       AND (m.expires_at IS NULL OR m.expires_at > ?) AND m.user_id != ? AND u.user_type != 'project_bot' LIMIT 1`,
    ).get(JSON.stringify(chain), AccessLevel.OWNER, day, userId);
    return !others;
  });
}

/** Deletes a group with its subgroups, projects, memberships, links and the bots of its tokens. */
function deleteGroupTree(db: Db, groupId: number): void {
  const groupIds = JSON.stringify(groupDescendants(db, groupId));
  const projectIds = JSON.stringify((db.prepare('SELECT id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))').all(groupIds) as Array<{ id: number }>).map((row) => row.id));
  const sources = `((source_type = 'Namespace' AND source_id IN (SELECT value FROM json_each(@groups)))
                   OR (source_type = 'Project' AND source_id IN (SELECT value FROM json_each(@projects))))`;
  const bots = (db.prepare(`SELECT DISTINCT user_id AS id FROM members WHERE ${sources} AND user_id IN (SELECT id FROM users WHERE user_type = 'project_bot')`)
    .all({ groups: groupIds, projects: projectIds }) as Array<{ id: number }>).map((row) => row.id);
  db.prepare(`DELETE FROM members WHERE ${sources}`).run({ groups: groupIds, projects: projectIds });
  db.prepare(
    `DELETE FROM group_links WHERE (shared_type = 'Namespace' AND shared_id IN (SELECT value FROM json_each(@groups)))
     OR (shared_type = 'Project' AND shared_id IN (SELECT value FROM json_each(@projects)))`,
  ).run({ groups: groupIds, projects: projectIds });
  db.prepare(`DELETE FROM redirect_routes WHERE ${sources}`).run({ groups: groupIds, projects: projectIds });
  db.prepare('DELETE FROM projects WHERE id IN (SELECT value FROM json_each(?))').run(projectIds);
  db.prepare('UPDATE users SET provisioned_by_group_id = NULL WHERE provisioned_by_group_id IN (SELECT value FROM json_each(?))').run(groupIds);
  db.prepare('DELETE FROM namespaces WHERE id IN (SELECT value FROM json_each(?))').run(groupIds);
  for (const botId of bots) removeUserRecords(db, botId, null);
  db.prepare('DELETE FROM users WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(bots));
}

/** The platform's Ghost User, created on first need, who keeps the records of deleted users. */
function ghostUser(sandbox: Sandbox, now: Date): number {
  const existing = sandbox.db.prepare("SELECT id FROM users WHERE user_type = 'ghost' ORDER BY id LIMIT 1").get() as { id: number } | undefined;
  if (existing) return existing.id;
  let username = 'ghost';
  for (let n = 1; sandbox.db.prepare('SELECT 1 FROM users WHERE username = ?').get(username); n++) username = `ghost${n}`;
  return createUser(sandbox.db, {
    username,
    name: 'Ghost User',
    email: noreplyEmail(sandbox, username),
    userType: 'ghost',
    state: 'blocked',
    bio: 'This is a "Ghost User", created to hold all issues authored by users that have since been deleted. This user cannot be removed.',
    createdAt: timestamp(now),
    lastSignInAt: null,
  }).id;
}

/**
 * Detaches a user from every record that points at it without cascading: the Ghost User takes
 * them over, or, with `ghostId` null (hard delete), records that need an author are deleted and
 * optional references cleared. Driven by the schema, so tables added later are covered too.
 */
function removeUserRecords(db: Db, userId: number, ghostId: number | null): void {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string }>).map((row) => row.name);
  for (const table of tables) {
    const keys = (db.prepare('SELECT "from" AS col, "table" AS target, on_delete FROM pragma_foreign_key_list(?)').all(table) as Array<{ col: string; target: string; on_delete: string }>)
      .filter((key) => key.target === 'users' && key.on_delete !== 'CASCADE' && key.on_delete !== 'SET NULL');
    for (const key of keys) {
      const column = (db.prepare('SELECT "notnull" AS required FROM pragma_table_info(?) WHERE name = ?').get(table, key.col) as { required: number });
      if (ghostId !== null) db.prepare(`UPDATE "${table}" SET "${key.col}" = ? WHERE "${key.col}" = ?`).run(ghostId, userId);
      else if (column.required) db.prepare(`DELETE FROM "${table}" WHERE "${key.col}" = ?`).run(userId);
      else db.prepare(`UPDATE "${table}" SET "${key.col}" = NULL WHERE "${key.col}" = ?`).run(userId);
    }
  }
}

function registerGroupServiceAccounts(routes: Router): void {
  const base = '/groups/:id/service_accounts';

  routes.get(base, {}, (c, call) => {
    const order = accountOrder(call);
    const group = managedGroup(c, call);
    return listAccounts(c, call, order, { sql: 'provisioned_by_group_id = ?', args: [group.id] });
  });

  routes.post(base, {}, (c, call) => {
    const input = accountParams(call);
    const group = managedGroup(c, call);
    // only top-level groups own service accounts (spec 1, 4.4)
    if (group.parent_id !== null) throw badRequest('User does not have permission to create a service account in this namespace.');
    const user = createServiceAccount(call, { ...input, usernamePrefix: `service_account_group_${group.id}`, groupId: group.id });
    return c.json(serviceAccountEntity(user), 201);
  });

  routes.patch(`${base}/:user_id`, {}, (c, call) => {
    const { db } = call.sandbox;
    const userId = userIdParam(c);
    const input = accountParams(call);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const next = { name: input.name ?? user.name, username: input.username ?? user.username, email: user.email };
    const errors = userErrors(db, next, user.id);
    // the update service answers its model errors as they are, without the "400 Bad request" prefix
    if (Object.keys(errors).length) throw new HttpError(400, { message: [...new Set(fullMessages(errors))].join('. ') });
    db.prepare('UPDATE users SET name = ?, username = ?, updated_at = ? WHERE id = ?').run(next.name, next.username, timestamp(call.now), user.id);
    return c.json(serviceAccountEntity(db.prepare('SELECT * FROM users WHERE id = ?').get(user.id) as UserRow));
  });

  routes.delete(`${base}/:user_id`, {}, (c, call) => {
    const { sandbox, now } = call;
    const { db } = sandbox;
    const userId = userIdParam(c);
    let hardDelete = false;
    collectParamErrors([() => (hardDelete = call.params.bool('hard_delete') ?? false)]);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const solo = soloOwnedGroups(db, user.id, now);
    if (solo.length && !hardDelete) throw conflict('User cannot be removed while is the sole-owner of a group');
    if (hardDelete) {
      // a group below another deleted group goes with it
      for (const groupId of solo) {
        if (db.prepare("SELECT 1 FROM namespaces WHERE id = ? AND kind = 'group'").get(groupId)) deleteGroupTree(db, groupId);
      }
    }
    removeUserRecords(db, user.id, hardDelete ? null : ghostUser(sandbox, now));
    db.prepare('DELETE FROM users WHERE id = ?').run(user.id);
    return c.body(null, 204);
  });

  const tokens = `${base}/:user_id/personal_access_tokens`;

  routes.get(tokens, {}, (c, call) => {
    const userId = userIdParam(c);
    const query = tokenListQuery(call.params, call.now);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const day = today(call.now);
    return c.json(pageOfTokens(c, call.sandbox.db, call.params, query, { sql: 't.user_id = ?', args: [user.id] }).map((token) => personalTokenEntity(token, day)));
  });

  routes.post(tokens, {}, (c, call) => {
    const { sandbox, params, now } = call;
    const userId = userIdParam(c);
    let name = '';
    let scopes: string[] = [];
    let expiresAt: string | undefined;
    let description: string | undefined;
    collectParamErrors([
      () => (name = params.requiredString('name')),
      () => {
        const given = params.stringArray('scopes');
        if (!given) throw paramError('scopes is missing');
        if (given.length === 0 || given.some((scope) => !(PERSONAL_TOKEN_SCOPES as readonly string[]).includes(scope))) {
          throw paramError('scopes does not have a valid value');
        }
        scopes = given;
      },
      () => (expiresAt = params.date('expires_at')),
      () => (description = params.string('description')),
    ]);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const expiry = expiresAt ?? defaultExpiry(sandbox, now);
    const problem = expiryProblem(sandbox, expiry, now);
    // this route answers the model's message as it is, with 422
    if (problem) throw new HttpError(422, { message: problem });
    const secret = newSecret();
    const token = insertToken(sandbox.db, { userId: user.id, name, description: description ?? null, secret, scopes, createdAt: timestamp(now), expiresAt: expiry });
    return c.json({ ...personalTokenEntity(token, today(now)), token: secret }, 201);
  });

  routes.delete(`${tokens}/:token_id`, {}, (c, call) => {
    const userId = userIdParam(c);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const token = findTokenById(call.sandbox.db, pathParam(c, 'token_id'));
    if (!token || token.user_id !== user.id) throw notFound('Personal Access Token');
    call.sandbox.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(token.id);
    return c.body(null, 204);
  });

  routes.post(`${tokens}/:token_id/rotate`, {}, (c, call) => {
    const userId = userIdParam(c);
    const expiresAt = call.params.date('expires_at');
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    const token: TokenRow | undefined = findTokenById(call.sandbox.db, pathParam(c, 'token_id'));
    if (!token || token.user_id !== user.id) throw statusError(404);
    const result = rotateToken(call.sandbox, token, expiresAt, call.now);
    // 400 without throwing: the family revoked by reuse detection must stay revoked
    if (result.kind === 'already_revoked') return c.json({ message: '400 Bad request - Token already revoked' }, 400);
    if (result.kind === 'invalid_expiry') throw badRequest(result.message);
    return c.json({ ...personalTokenEntity(result.token, today(call.now)), token: result.secret }, 200);
  });
}

function registerInstanceServiceAccounts(routes: Router): void {
  routes.get('/service_accounts', { auth: 'admin' }, (c, call) => listAccounts(c, call, accountOrder(call), { sql: '', args: [] }));

  routes.post('/service_accounts', { auth: 'admin' }, (c, call) => {
    const user = createServiceAccount(call, { ...accountParams(call), usernamePrefix: 'service_account', groupId: null });
    return c.json(serviceAccountEntity(user), 201);
  });
}

export function registerServiceAccounts(routes: Router): void {
  registerGroupServiceAccounts(routes);
  registerInstanceServiceAccounts(routes);
}
