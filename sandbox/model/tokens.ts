import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Db } from '../db.ts';
import type { Sandbox } from '../context.ts';
import { collectParamErrors, type ParamReader } from '../http/params.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { newSecret, revokeTokenFamily } from '../http/auth.ts';
import { insertToken, type TokenRow } from './users.ts';
import { addDays, timestamp, today } from './time.ts';
import { likeContains } from './sql.ts';

/** Scopes a group or project access token may carry (the platform's resource bot scopes). */
export const RESOURCE_TOKEN_SCOPES = [
  'api', 'read_api', 'read_registry', 'write_registry', 'read_virtual_registry', 'write_virtual_registry',
  'read_repository', 'write_repository', 'create_runner', 'manage_runner', 'ai_features', 'k8s_proxy', 'self_rotate',
] as const;

/** A rotated token lives one week unless the caller picks its expiry. */
export const ROTATION_DEFAULT_DAYS = 7;

const TOKEN_STATES = ['active', 'inactive'] as const;

/** The personal access token entity; `description` is null when none was given, as the platform answers. */
export function personalTokenEntity(token: TokenRow, day: string) {
  return {
    id: token.id,
    name: token.name,
    revoked: Boolean(token.revoked),
    created_at: token.created_at,
    description: token.description,
    scopes: JSON.parse(token.scopes) as string[],
    user_id: token.user_id,
    last_used_at: token.last_used_at,
    active: !token.revoked && !(token.expires_at !== null && token.expires_at <= day),
    expires_at: token.expires_at,
  };
}


export interface TokenQuery {
  where: string[];
  args: unknown[];
  orderBy: string;
}

// the platform's PersonalAccessToken sorts; any other `sort` value is ignored, not refused
const TOKEN_SORTS: Record<string, string> = {
  created_asc: 't.created_at ASC, t.id ASC',
  created_desc: 't.created_at DESC, t.id DESC',
  id_asc: 't.id ASC',
  id_desc: 't.id DESC',
  name_asc: 'lower(t.name) ASC, t.id ASC',
  name_desc: 'lower(t.name) DESC, t.id DESC',
  // PostgreSQL puts NULLs last ascending and first descending; SQLite does the opposite
  expires_asc: 't.expires_at IS NULL, t.expires_at ASC, t.id DESC',
  expires_at_asc_id_desc: 't.expires_at IS NULL, t.expires_at ASC, t.id DESC',
  expires_desc: 't.expires_at IS NULL DESC, t.expires_at DESC, t.id DESC',
  last_used_asc: 't.last_used_at IS NULL, t.last_used_at ASC, t.id DESC',
  last_used_desc: 't.last_used_at IS NULL DESC, t.last_used_at DESC, t.id DESC',
};


/**
 * The list filters every token list shares (`created_*`, `expires_*`, `last_used_*`, `revoked`,
 * `state`, `search`, `sort`), as SQL over `personal_access_tokens t`.
 */
export function tokenListQuery(params: ParamReader, now: Date, extraChecks: Array<() => void> = []): TokenQuery {
  const where: string[] = [];
  const args: unknown[] = [];
  const day = today(now);
  let revoked: boolean | undefined;
  let state: (typeof TOKEN_STATES)[number] | undefined;
  let createdBefore: string | undefined;
  let createdAfter: string | undefined;
  let lastUsedBefore: string | undefined;
  let lastUsedAfter: string | undefined;
  let expiresBefore: string | undefined;
  let expiresAfter: string | undefined;
  let search: string | undefined;
  let sort: string | undefined;
  collectParamErrors([
    () => (revoked = params.bool('revoked')),
    () => (state = params.oneOf('state', TOKEN_STATES)),
    () => (createdBefore = params.dateTime('created_before')),
    () => (createdAfter = params.dateTime('created_after')),
    () => (lastUsedBefore = params.dateTime('last_used_before')),
    () => (lastUsedAfter = params.dateTime('last_used_after')),
    () => (expiresBefore = params.date('expires_before')),
    () => (expiresAfter = params.date('expires_after')),
    () => (search = params.string('search')),
    () => (sort = params.string('sort')),
    () => params.int('page'),
    () => params.int('per_page'),
    ...extraChecks,
  ]);
  if (revoked !== undefined) where.push(revoked ? 't.revoked = 1' : 't.revoked = 0');
  if (state === 'active') {
    where.push('t.revoked = 0 AND (t.expires_at IS NULL OR t.expires_at > ?)');
    args.push(day);
  } else if (state === 'inactive') {
    where.push('(t.revoked = 1 OR t.expires_at <= ?)');
    args.push(day);
  }
  const compare = (column: string, operator: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`t.${column} ${operator} ?`);
    args.push(value);
  };
  compare('created_at', '<=', createdBefore);
  compare('created_at', '>=', createdAfter);
  compare('last_used_at', '<=', lastUsedBefore);
  compare('last_used_at', '>=', lastUsedAfter);
  compare('expires_at', '<', expiresBefore);
  compare('expires_at', '>=', expiresAfter);
  if (search !== undefined && search !== '') {
    // the platform's fuzzy search: words of 3+ characters match anywhere, shorter text matches exactly
    const words = search.trim().split(/\s+/).filter((word) => word.length >= 3);
    if (search.trim().length < 3 || words.length === 0) {
      where.push("lower(t.name) = lower(?)");
      args.push(search.trim());
    } else {
      for (const word of words) {
        where.push("t.name LIKE ? ESCAPE '\\'");
        args.push(likeContains(word));
      }
    }
  }
  return { where, args, orderBy: (sort && Object.hasOwn(TOKEN_SORTS, sort) ? TOKEN_SORTS[sort] : 't.id ASC') };
}

/** One page of tokens matching `scope` (SQL over `t`) and the list filters, with pagination headers. */
export function pageOfTokens(c: Context, db: Db, params: ParamReader, query: TokenQuery, scope: { sql: string; args: unknown[] }): TokenRow[] {
  const where = [scope.sql, ...query.where].join(' AND ');
  const args = [...scope.args, ...query.args];
  return pageOfQuery(c, params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM personal_access_tokens t WHERE ${where} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT t.* FROM personal_access_tokens t WHERE ${where} ORDER BY ${query.orderBy} LIMIT ? OFFSET ?`).all(...args, limit, offset) as TokenRow[],
  });
}

export function findTokenById(db: Db, raw: string | number): TokenRow | undefined {
  if (!/^\d+$/.test(String(raw))) return undefined;
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) return undefined;
  return db.prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(id) as TokenRow | undefined;
}

/**
 * Why an expiry date cannot be used, as the model's full message, or null: the date must lie
 * after today and at most the instance's maximum lifetime ahead.
 */
export function expiryProblem(sandbox: Sandbox, expiresAt: string, now: Date): string | null {
  if (expiresAt <= today(now)) return 'Expires at must be in the future';
  const latest = addDays(now, sandbox.config.maxTokenLifetimeDays);
  if (expiresAt > latest) return `Expires at must be before ${latest}`;
  return null;
}

/** The default expiry of a new token: the maximum lifetime. */
export function defaultExpiry(sandbox: Sandbox, now: Date): string {
  return addDays(now, sandbox.config.maxTokenLifetimeDays);
}

export type RotateResult =
  | { kind: 'rotated'; token: TokenRow; secret: string }
  | { kind: 'already_revoked' }
  | { kind: 'invalid_expiry'; message: string };

/**
 * The platform's rotation: the old token is revoked and a new one (same name, description and
 * scopes; one week unless `expiresAt`) joins its family. A token already revoked is not rotated:
 * its family's active tokens are revoked instead (reuse detection), which the caller must commit.
 */
export function rotateToken(sandbox: Sandbox, token: TokenRow, expiresAt: string | undefined, now: Date): RotateResult {
  const { db } = sandbox;
  if (token.revoked) {
    revokeTokenFamily(db, token.id, today(now));
    return { kind: 'already_revoked' };
  }
  const expiry = expiresAt ?? addDays(now, ROTATION_DEFAULT_DAYS);
  const problem = expiryProblem(sandbox, expiry, now);
  if (problem) return { kind: 'invalid_expiry', message: problem };
  db.prepare('UPDATE personal_access_tokens SET revoked = 1 WHERE id = ?').run(token.id);
  const secret = newSecret();
  const fresh = insertToken(db, {
    userId: token.user_id,
    name: token.name,
    description: token.description,
    secret,
    scopes: JSON.parse(token.scopes) as string[],
    createdAt: timestamp(now),
    expiresAt: expiry,
    previousTokenId: token.id,
    familyId: token.family_id ?? token.id,
  });
  return { kind: 'rotated', token: fresh, secret };
}

/** `<prefix>_<32 hex>`: the platform's generated bot and service-account usernames. */
export function generatedUsername(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('hex')}`;
}

/** The platform's no-reply address for generated accounts: `<username>@noreply.<host>`. */
export function noreplyEmail(sandbox: Sandbox, username: string): string {
  return `${username}@noreply.${new URL(sandbox.config.externalUrl).hostname}`;
}
