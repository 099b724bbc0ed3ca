import { collectParamErrors } from '../http/params.ts';
import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, badRequest, notFound, paramError, statusError, unauthorized } from '../http/errors.ts';
import { newSecret } from '../http/auth.ts';
import { AccessLevel, effectiveRole, findReadableGroup, type NamespaceRow } from '../model/access.ts';
import { PERSONAL_TOKEN_SCOPES, createUser, insertToken, userErrors, type TokenRow } from '../model/users.ts';
import { fullMessages, toSentence } from '../model/members.ts';
import {
  RESOURCE_TOKEN_SCOPES, defaultExpiry, expiryProblem, findTokenById, generatedUsername,
  noreplyEmail, pageOfTokens, personalTokenEntity, rotateToken, tokenListQuery, type RotateResult,
} from '../model/tokens.ts';
import { timestamp, today } from '../model/time.ts';

/** Roles a group access token may be given (spec 1, 2.1): Guest to Owner. */
const TOKEN_ACCESS_LEVELS = [10, 15, 20, 30, 40, 50] as const;

// the platform's Grape route answers 404 with the source type in lower case
const groupTokenNotFound = () => notFound('group Access Token');

/** SQL (over `t`) for the tokens of the group's bots: its direct members of type project_bot. */
function groupBotScope(groupId: number) {
  return {
    sql: `t.user_id IN (SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
          WHERE m.source_type = 'Namespace' AND m.source_id = ? AND u.user_type = 'project_bot')`,
    args: [groupId] as unknown[],
  };
}

function findGroupToken(call: Call, groupId: number, rawId: string | number): TokenRow | undefined {
  const token = findTokenById(call.sandbox.db, rawId);
  if (!token) return undefined;
  const scope = groupBotScope(groupId);
  const inGroup = call.sandbox.db.prepare(`SELECT 1 FROM personal_access_tokens t WHERE t.id = ? AND ${scope.sql}`).get(token.id, ...scope.args);
  return inGroup ? token : undefined;
}

/** Owners and administrators manage a group's tokens; a group token (a bot) only ever reaches itself. */
function canManageTokens(call: Call, group: NamespaceRow): boolean {
  const user = call.actor.user!;
  if (user.user_type === 'project_bot') return false;
  return effectiveRole(call.sandbox.db, call.actor, { type: 'Namespace', id: group.id }, call.now) >= AccessLevel.OWNER;
}

/** The group access token entity: the token plus its bot's role in the group. */
function groupTokenEntities(call: Call, groupId: number, tokens: TokenRow[]) {
  const day = today(call.now);
  const levels = new Map(
    (call.sandbox.db
      .prepare(`SELECT user_id, access_level FROM members WHERE source_type = 'Namespace' AND source_id = ? AND user_id IN (SELECT value FROM json_each(?))`)
      .all(groupId, JSON.stringify(tokens.map((token) => token.user_id))) as Array<{ user_id: number; access_level: number }>)
      .map((row) => [row.user_id, row.access_level]),
  );
  return tokens.map((token) => ({ ...personalTokenEntity(token, day), access_level: levels.get(token.user_id) ?? null }));
}

const groupOf = (c: Context<AppEnv>, call: Call) => findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);

/** A rotation's answer: 200 with the new secret, or 400 (committed, so reuse detection sticks). */
function rotationAnswer(c: Context<AppEnv>, result: RotateResult, present: (token: TokenRow) => object): Response {
  if (result.kind === 'already_revoked') return c.json({ message: '400 Bad request - Token already revoked' }, 400);
  if (result.kind === 'invalid_expiry') throw badRequest(result.message);
  return c.json({ ...present(result.token), token: result.secret }, 200);
}

function registerGroupAccessTokens(routes: Router): void {
  const base = '/groups/:id/access_tokens';

  routes.get(base, {}, (c, call) => {
    const query = tokenListQuery(call.params, call.now);
    const group = groupOf(c, call);
    if (!canManageTokens(call, group)) throw unauthorized();
    const rows = pageOfTokens(c, call.sandbox.db, call.params, query, groupBotScope(group.id));
    return c.json(groupTokenEntities(call, group.id, rows));
  });

  routes.get(`${base}/:token_id`, {}, (c, call) => {
    const group = groupOf(c, call);
    const tokenId = pathParam(c, 'token_id');
    if (tokenId === 'self') {
      // the authenticating token, when it is one of this group's tokens
      const token = call.actor.tokenId === null ? undefined : findGroupToken(call, group.id, call.actor.tokenId);
      if (!token) throw groupTokenNotFound();
      return c.json(groupTokenEntities(call, group.id, [token])[0]);
    }
    if (!canManageTokens(call, group)) throw unauthorized();
    const token = findGroupToken(call, group.id, tokenId);
    if (!token) throw groupTokenNotFound();
    return c.json(groupTokenEntities(call, group.id, [token])[0]);
  });

  routes.post(base, {}, (c, call) => {
    const { sandbox, actor, params, now } = call;
    const { db } = sandbox;
    let name = '';
    let scopes: string[] = [];
    let accessLevel: number = AccessLevel.MAINTAINER;
    let expiresAt: string | undefined;
    let description: string | undefined;
    collectParamErrors([
      () => (name = params.requiredString('name')),
      () => (scopes = params.requiredSubset('scopes', RESOURCE_TOKEN_SCOPES)),
      () => {
        const level = params.int('access_level');
        if (level !== undefined && !(TOKEN_ACCESS_LEVELS as readonly number[]).includes(level)) throw paramError('access_level does not have a valid value');
        accessLevel = level ?? AccessLevel.MAINTAINER;
      },
      () => (expiresAt = params.date('expires_at')),
      () => (description = params.string('description')),
    ]);
    const group = groupOf(c, call);
    if (!canManageTokens(call, group)) throw badRequest('User does not have permission to create group access token');
    // nobody hands a token a role above their own (administrators count as Owners)
    if (effectiveRole(db, actor, { type: 'Namespace', id: group.id }, now) < accessLevel) {
      throw badRequest('Access level of the token contains permissions not held by the creating user');
    }
    const expiry = expiresAt ?? defaultExpiry(sandbox, now);
    const problem = expiryProblem(sandbox, expiry, now);
    if (problem) throw badRequest(problem);

    const stamp = timestamp(now);
    const username = generatedUsername(`group_${group.id}_bot`);
    const botInput = { username, name, email: noreplyEmail(sandbox, username) };
    const errors = userErrors(db, botInput);
    if (Object.keys(errors).length) throw badRequest(toSentence(fullMessages(errors)));
    const bot = createUser(db, { ...botInput, userType: 'project_bot', createdById: actor.user!.id, createdAt: stamp, lastSignInAt: null });
    // a bot acts only through its group membership: it creates no groups or personal projects
    db.prepare('UPDATE users SET can_create_group = 0, projects_limit = 0 WHERE id = ?').run(bot.id);
    db.prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, state, expires_at, created_by_id, created_at, updated_at)
       VALUES ('Namespace', ?, ?, ?, 'active', NULL, ?, ?, ?)`,
    ).run(group.id, bot.id, accessLevel, actor.user!.id, stamp, stamp);
    const secret = newSecret();
    const token = insertToken(db, { userId: bot.id, name, description: description ?? null, secret, scopes, createdAt: stamp, expiresAt: expiry });
    return c.json({ ...groupTokenEntities(call, group.id, [token])[0], token: secret }, 201);
  });

  // self-rotation: the authenticating group token, with `api` or `self_rotate`; registered before `:token_id`
  routes.post(`${base}/self/rotate`, { scopes: ['api', 'self_rotate'] }, (c, call) => {
    const expiresAt = call.params.date('expires_at');
    if (call.actor.tokenId === null || call.actor.user!.user_type !== 'project_bot') {
      throw new HttpError(405, { message: '405 Method Not Allowed' });
    }
    const group = groupOf(c, call);
    const token = findGroupToken(call, group.id, call.actor.tokenId);
    if (!token) throw unauthorized();
    return rotationAnswer(c, rotateToken(call.sandbox, token, expiresAt, call.now), (fresh) => groupTokenEntities(call, group.id, [fresh])[0]);
  });

  routes.post(`${base}/:token_id/rotate`, {}, (c, call) => {
    const expiresAt = call.params.date('expires_at');
    const group = groupOf(c, call);
    // a group token rotating another token, or a non-Owner, learns nothing: 401; administrators get 404
    const token = canManageTokens(call, group) ? findGroupToken(call, group.id, pathParam(c, 'token_id')) : undefined;
    if (!token) throw call.actor.user!.is_admin ? statusError(404) : unauthorized();
    return rotationAnswer(c, rotateToken(call.sandbox, token, expiresAt, call.now), (fresh) => groupTokenEntities(call, group.id, [fresh])[0]);
  });

  routes.delete(`${base}/:token_id`, {}, (c, call) => {
    const group = groupOf(c, call);
    const token = findGroupToken(call, group.id, pathParam(c, 'token_id'));
    if (!token) throw groupTokenNotFound();
    if (!canManageTokens(call, group)) {
      const bot = call.sandbox.db.prepare('SELECT name FROM users WHERE id = ?').get(token.user_id) as Pick<UserRow, 'name'>;
      throw badRequest(`${call.actor.user!.name} cannot delete ${bot.name}`);
    }
    if (token.revoked) throw badRequest('Token already revoked');
    call.sandbox.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(token.id);
    return c.body(null, 204);
  });
}

// self-revocation works whatever the token's scopes
const ANY_SCOPE = [...new Set<string>([...PERSONAL_TOKEN_SCOPES, ...RESOURCE_TOKEN_SCOPES])];

/** GET/rotate/revoke of personal access tokens by id: the owner or an administrator. */
function ownsOrAdmin(call: Call, token: TokenRow | undefined): token is TokenRow {
  return Boolean(token && (call.actor.user!.is_admin || token.user_id === call.actor.user!.id));
}

function registerPersonalAccessTokens(routes: Router): void {
  routes.get('/personal_access_tokens', {}, (c, call) => {
    const { sandbox, actor, params, now } = call;
    const user = actor.user!;
    let userId: number | undefined;
    const query = tokenListQuery(params, now, [() => (userId = params.int('user_id'))]);
    let owner: number | null;
    if (user.is_admin) {
      if (userId !== undefined && !sandbox.db.prepare('SELECT 1 FROM users WHERE id = ?').get(userId)) throw statusError(404);
      owner = userId ?? null;
    } else {
      // others see only their own tokens, and may not ask for anyone else's
      if (userId !== undefined && userId !== user.id) throw unauthorized();
      owner = user.id;
    }
    const scope = owner === null ? { sql: '1 = 1', args: [] } : { sql: 't.user_id = ?', args: [owner] };
    const day = today(now);
    return c.json(pageOfTokens(c, sandbox.db, params, query, scope).map((token) => personalTokenEntity(token, day)));
  });

  routes.get('/personal_access_tokens/:id{[0-9]+}', {}, (c, call) => {
    const token = findTokenById(call.sandbox.db, pathParam(c, 'id'));
    if (!ownsOrAdmin(call, token)) throw call.actor.user!.is_admin ? statusError(404) : unauthorized();
    return c.json(personalTokenEntity(token, today(call.now)));
  });

  routes.post('/personal_access_tokens/self/rotate', { scopes: ['api', 'self_rotate'] }, (c, call) => {
    const expiresAt = call.params.date('expires_at');
    const token = call.actor.tokenId === null ? undefined : findTokenById(call.sandbox.db, call.actor.tokenId);
    if (!token) throw new HttpError(405, { message: '405 Method Not Allowed' });
    const day = today(call.now);
    return rotationAnswer(c, rotateToken(call.sandbox, token, expiresAt, call.now), (fresh) => personalTokenEntity(fresh, day));
  });

  routes.post('/personal_access_tokens/:id{[0-9]+}/rotate', {}, (c, call) => {
    const expiresAt = call.params.date('expires_at');
    const token = findTokenById(call.sandbox.db, pathParam(c, 'id'));
    if (!ownsOrAdmin(call, token)) throw call.actor.user!.is_admin ? statusError(404) : unauthorized();
    const day = today(call.now);
    return rotationAnswer(c, rotateToken(call.sandbox, token, expiresAt, call.now), (fresh) => personalTokenEntity(fresh, day));
  });

  // any token may revoke itself; revoking by id needs `api`
  const revoke = (c: Context<AppEnv>, call: Call, token: TokenRow | undefined) => {
    if (!token) throw notFound();
    if (!ownsOrAdmin(call, token)) throw badRequest();
    call.sandbox.db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(token.id);
    return c.body(null, 204);
  };
  routes.delete('/personal_access_tokens/self', { scopes: ANY_SCOPE }, (c, call) =>
    revoke(c, call, call.actor.tokenId === null ? undefined : findTokenById(call.sandbox.db, call.actor.tokenId)),
  );
  routes.delete('/personal_access_tokens/:id{[0-9]+}', {}, (c, call) => revoke(c, call, findTokenById(call.sandbox.db, pathParam(c, 'id'))));
}

export function registerAccessTokens(routes: Router): void {
  registerGroupAccessTokens(routes);
  registerPersonalAccessTokens(routes);
}
