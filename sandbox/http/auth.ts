import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Db } from '../db.ts';
import { ANONYMOUS, type Actor, type AppEnv, type Sandbox, type UserRow } from '../context.ts';
import { HttpError, forbidden, unauthorized } from './errors.ts';
import { today } from '../model/time.ts';

/** Secrets are stored as their SHA-256 digest; the plain value exists only in the answer that creates it. */
export function tokenDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new secret in the platform's format, e.g. `glpat-` followed by 20 url-safe characters. */
export function newSecret(prefix = 'glpat-'): string {
  return prefix + randomBytes(15).toString('base64url');
}

interface TokenLookup {
  id: number;
  user_id: number;
  scopes: string;
  expires_at: string | null;
  revoked: number;
  last_used_at: string | null;
}

function invalidToken(description: string): HttpError {
  return new HttpError(
    401,
    { error: 'invalid_token', error_description: description },
    { 'WWW-Authenticate': `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="${description}"` },
  );
}

// the platform's rotate paths (group, project and personal tokens, service-account tokens)
const ROTATION_PATH = /access_tokens\/(\d+|self)\/rotate$/;

/**
 * Revokes every still-active token of the family (a token and its rotations) `tokenId` belongs
 * to: the platform's answer to an old token being used again. Returns how many were revoked.
 */
export function revokeTokenFamily(db: Db, tokenId: number, day: string): number {
  return db
    .prepare(
      `UPDATE personal_access_tokens SET revoked = 1
       WHERE revoked = 0 AND (expires_at IS NULL OR expires_at > ?)
       AND family_id = (SELECT family_id FROM personal_access_tokens WHERE id = ?)`,
    )
    .run(day, tokenId).changes;
}

const PACKAGE_REGISTRY_PATH = /^\/api\/v4\/projects\/[^/]+\/packages\/(generic|npm|maven|pypi|nuget|go)\//;

// last_used_at is written at most this often per token, as the platform throttles it
const LAST_USED_THROTTLE_MS = 60_000;

/** The token a request carries, from the headers (or the platform's query fallbacks). */
function presentedToken(c: Context<AppEnv>): { kind: 'access' | 'job'; secret: string } | null {
  const privateToken = c.req.header('private-token');
  if (privateToken) return { kind: 'access', secret: privateToken.trim() };
  const authorization = c.req.header('authorization');
  if (authorization) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return { kind: 'access', secret: match[1].trim() };
    // the package registries also take HTTP Basic: any user name (gitlab-ci-token for a job token), the token as password
    const basic = /^Basic\s+(.+)$/i.exec(authorization.trim());
    if (basic && PACKAGE_REGISTRY_PATH.test(new URL(c.req.url).pathname)) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const password = colon < 0 ? '' : decoded.slice(colon + 1);
      if (password) return { kind: decoded.slice(0, colon) === 'gitlab-ci-token' ? 'job' : 'access', secret: password };
    }
  }
  const jobToken = c.req.header('job-token');
  if (jobToken) return { kind: 'job', secret: jobToken.trim() };
  const query = c.req.query('private_token') ?? c.req.query('access_token');
  if (query) return { kind: 'access', secret: query };
  const jobQuery = c.req.query('job_token');
  if (jobQuery) return { kind: 'job', secret: jobQuery };
  return null;
}

function assertUserCanSignIn(user: UserRow): void {
  if (user.state === 'blocked' || user.state === 'ldap_blocked' || user.state === 'banned') {
    throw forbidden('Your account has been blocked.');
  }
  if (user.state === 'deactivated') {
    throw forbidden('Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account');
  }
}

/** Resolves who is calling; a token that is unknown, expired or revoked answers 401. */
export function resolveActor(c: Context<AppEnv>, sandbox: Sandbox): Actor {
  const presented = presentedToken(c);
  if (!presented) return ANONYMOUS;
  const { db } = sandbox;
  const digest = tokenDigest(presented.secret);
  if (presented.kind === 'job') {
    const job = db
      .prepare('SELECT project_id, user_id, expires_at FROM ci_job_tokens WHERE token_digest = ?')
      .get(digest) as { project_id: number; user_id: number; expires_at: string } | undefined;
    if (!job || job.expires_at <= sandbox.now().toISOString()) throw unauthorized();
    const user = db.prepare('SELECT * FROM users WHERE id = ?').get(job.user_id) as UserRow;
    assertUserCanSignIn(user);
    return { user, tokenId: null, scopes: new Set(), via: 'job_token', jobProjectId: job.project_id };
  }
  const token = db
    .prepare('SELECT id, user_id, scopes, expires_at, revoked, last_used_at FROM personal_access_tokens WHERE token_digest = ?')
    .get(digest) as TokenLookup | undefined;
  if (!token) throw unauthorized();
  if (token.revoked) {
    // reuse detection: a revoked token presented to a rotate endpoint revokes its whole family
    if (ROTATION_PATH.test(new URL(c.req.url).pathname)) revokeTokenFamily(db, token.id, today(sandbox.now()));
    throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  }
  if (token.expires_at && token.expires_at <= today(sandbox.now())) {
    throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  }
  const user = db.prepare('SELECT * FROM users WHERE id = ?').get(token.user_id) as UserRow;
  assertUserCanSignIn(user);
  const now = sandbox.now();
  if (!token.last_used_at || now.getTime() - Date.parse(token.last_used_at) > LAST_USED_THROTTLE_MS) {
    db.prepare('UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?').run(now.toISOString(), token.id);
  }
  return {
    user,
    tokenId: token.id,
    scopes: new Set(JSON.parse(token.scopes) as string[]),
    via: 'access_token',
    jobProjectId: null,
  };
}

/** 403 with the platform's OAuth-style body when the token lacks every scope in `anyOf`. */
export function requireScopes(actor: Actor, anyOf: readonly string[]): void {
  if (actor.via !== 'access_token') return;
  if (anyOf.some((scope) => actor.scopes.has(scope))) return;
  throw new HttpError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: anyOf.join(' '),
  });
}

export function isAdmin(actor: Actor): boolean {
  return Boolean(actor.user?.is_admin);
}
