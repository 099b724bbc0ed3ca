import type { Db } from '../db.ts';
import type { UserRow } from '../context.ts';
import { tokenDigest } from '../http/auth.ts';
import { validationError } from '../http/errors.ts';

export interface NewUser {
  username: string;
  name: string;
  email: string;
  isAdmin?: boolean;
  userType?: string;
  state?: string;
  external?: boolean;
  publicEmail?: string | null;
  bio?: string;
  organization?: string;
  jobTitle?: string;
  enterpriseGroupId?: number | null;
  createdById?: number | null;
  createdAt: string;
  lastSignInAt?: string | null;
  lastActivityOn?: string | null;
}

const USERNAME = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** Validation the platform applies to a new or renamed user, as `{"message": {field: [...]}}`. */
export function userErrors(db: Db, user: { username: string; name: string; email: string }, exceptId?: number): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!user.name.trim()) add('name', "can't be blank");
  if (user.name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (!USERNAME.test(user.username) || /\.(git|atom)$/.test(user.username) || /[._-]$/.test(user.username)) {
    add('username', 'can contain only letters, digits, \'_\', \'-\' and \'.\'. Cannot start with \'-\' or end in \'.\', \'.git\' or \'.atom\'.');
  }
  if (user.username.length > 255) add('username', 'is too long (maximum is 255 characters)');
  if (!EMAIL.test(user.email)) add('email', 'is invalid');
  const taken = (column: string, value: string) =>
    db.prepare(`SELECT id FROM users WHERE ${column} = ? AND id IS NOT ?`).get(value, exceptId ?? null);
  if (taken('username', user.username) || db.prepare("SELECT 1 FROM namespaces WHERE kind = 'group' AND full_path = ?").get(user.username)) {
    add('username', 'has already been taken');
  }
  if (taken('email', user.email)) add('email', 'has already been taken');
  return errors;
}

/** Inserts a user and the personal namespace every user owns; throws 400 on invalid input. */
export function createUser(db: Db, input: NewUser): UserRow {
  const errors = userErrors(db, input);
  if (Object.keys(errors).length) throw validationError(errors);
  const result = db
    .prepare(
      `INSERT INTO users (username, name, email, public_email, state, is_admin, user_type, external, bio, organization, job_title,
         enterprise_group_id, created_by_id, created_at, updated_at, confirmed_at, last_sign_in_at, current_sign_in_at, last_activity_on)
       VALUES (@username, @name, @email, @publicEmail, @state, @isAdmin, @userType, @external, @bio, @organization, @jobTitle,
         @enterpriseGroupId, @createdById, @createdAt, @createdAt, @createdAt, @lastSignInAt, @lastSignInAt, @lastActivityOn)`,
    )
    .run({
      username: input.username,
      name: input.name,
      email: input.email,
      publicEmail: input.publicEmail ?? null,
      state: input.state ?? 'active',
      isAdmin: input.isAdmin ? 1 : 0,
      userType: input.userType ?? 'human',
      external: input.external ? 1 : 0,
      bio: input.bio ?? '',
      organization: input.organization ?? '',
      jobTitle: input.jobTitle ?? '',
      enterpriseGroupId: input.enterpriseGroupId ?? null,
      createdById: input.createdById ?? null,
      createdAt: input.createdAt,
      lastSignInAt: input.lastSignInAt ?? null,
      lastActivityOn: input.lastActivityOn ?? null,
    });
  const id = Number(result.lastInsertRowid);
  // bots have no personal namespace on the platform
  if ((input.userType ?? 'human') === 'human') {
    db.prepare(
      `INSERT INTO namespaces (kind, name, path, full_path, owner_id, visibility, created_at, updated_at)
       VALUES ('user', ?, ?, ?, ?, 'private', ?, ?)`,
    ).run(input.name, input.username, input.username, id, input.createdAt, input.createdAt);
  }
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow;
}

export const PERSONAL_TOKEN_SCOPES = [
  'api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry',
  'sudo', 'admin_mode', 'create_runner', 'manage_runner', 'self_rotate', 'ai_features', 'k8s_proxy', 'read_service_ping',
] as const;

export interface TokenRow {
  id: number;
  user_id: number;
  name: string;
  description: string | null;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked: number;
  last_used_at: string | null;
  previous_token_id: number | null;
  family_id: number | null;
}

/** Stores a token by its digest; the secret itself is never written. */
export function insertToken(
  db: Db,
  token: { userId: number; name: string; description?: string | null; secret: string; scopes: readonly string[]; createdAt: string; expiresAt: string | null; previousTokenId?: number | null; familyId?: number | null },
): TokenRow {
  const result = db
    .prepare(
      `INSERT INTO personal_access_tokens (user_id, name, description, token_digest, scopes, created_at, expires_at, previous_token_id, family_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(token.userId, token.name, token.description ?? null, tokenDigest(token.secret), JSON.stringify(token.scopes), token.createdAt, token.expiresAt, token.previousTokenId ?? null, token.familyId ?? null);
  const id = Number(result.lastInsertRowid);
  if (!token.familyId) db.prepare('UPDATE personal_access_tokens SET family_id = ? WHERE id = ?').run(id, id);
  return db.prepare('SELECT * FROM personal_access_tokens WHERE id = ?').get(id) as TokenRow;
}
