import { collectParamErrors } from '../http/params.ts';
import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, badRequest, forbidden, notFound, paramError, statusError } from '../http/errors.ts';
import { newSecret } from '../http/auth.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { AccessLevel, effectiveRole, findReadableGroup, type NamespaceRow } from '../model/access.ts';
import { deleteUser } from '../model/user-removal.ts';
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

/**
 * The platform's service-account update service: blank values are left out, and model errors
 * answer 400 with their full messages joined by ". ", without the "400 Bad request" prefix.
 * A new email replaces the old one and waits for confirmation.
 */
function updateAccount(call: Call, user: UserRow, input: { name?: string; username?: string; email?: string }): UserRow {
  const { db } = call.sandbox;
  const given = (value: string | undefined) => (value !== undefined && value.trim() !== '' ? value : undefined);
  const next = { name: given(input.name) ?? user.name, username: given(input.username) ?? user.username, email: given(input.email) ?? user.email };
  const errors = userErrors(db, next, user.id);
  if (Object.keys(errors).length) throw new HttpError(400, { message: [...new Set(fullMessages(errors))].join('. ') });
  const emailChanged = next.email.toLowerCase() !== user.email.toLowerCase();
  db.prepare('UPDATE users SET name = ?, username = ?, email = ?, confirmed_at = CASE WHEN ? THEN NULL ELSE confirmed_at END, updated_at = ? WHERE id = ?')
    .run(next.name, next.username, next.email, emailChanged ? 1 : 0, timestamp(call.now), user.id);
  return db.prepare('SELECT * FROM users WHERE id = ?').get(user.id) as UserRow;
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
    const userId = userIdParam(c);
    const { name, username } = accountParams(call);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    return c.json(serviceAccountEntity(updateAccount(call, user, { name, username })));
  });

  routes.delete(`${base}/:user_id`, {}, (c, call) => {
    const userId = userIdParam(c);
    let hardDelete = false;
    collectParamErrors([() => (hardDelete = call.params.bool('hard_delete') ?? false)]);
    const group = managedGroup(c, call);
    const user = provisionedAccount(call, group, userId);
    deleteUser(call.sandbox, user, { hardDelete, now: call.now });
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
      () => (scopes = params.requiredSubset('scopes', PERSONAL_TOKEN_SCOPES)),
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

  // 18.2+; deleting goes through the users API (DELETE /users/:id)
  routes.patch('/service_accounts/:user_id', { auth: 'admin' }, (c, call) => {
    const userId = userIdParam(c);
    const input = accountParams(call);
    const user = call.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(userId) as UserRow | undefined;
    // `User.find`: the record-not-found answer, lower-case "found"
    if (!user) throw notFound();
    if (user.user_type !== 'service_account') throw new HttpError(400, { message: 'User is not a service account' });
    return c.json(serviceAccountEntity(updateAccount(call, user, input)));
  });
}

export function registerServiceAccounts(routes: Router): void {
  registerGroupServiceAccounts(routes);
  registerInstanceServiceAccounts(routes);
}
