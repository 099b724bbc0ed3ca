import fs from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../context.ts';
import { newSecret, tokenDigest } from '../http/auth.ts';
import { createUser, insertToken } from '../model/users.ts';
import { addDays, timestamp, today } from '../model/time.ts';
import { seedDemo } from './demo.ts';

export const SEED_KINDS = ['demo', 'empty'] as const;
export type SeedKind = (typeof SEED_KINDS)[number];

export const ADMIN_TOKEN_SCOPES = ['api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'sudo', 'admin_mode', 'create_runner', 'manage_runner', 'self_rotate'];

/** Seeds a new data directory once: user 1 `root` always, the demo instance when asked. */
export function seedInstance(sandbox: Sandbox, kind: SeedKind): void {
  const { db } = sandbox;
  if (db.prepare("SELECT 1 FROM settings WHERE key = 'seed'").get()) return;
  // the seed's 100,000 rows are checked against their foreign keys once, not row by row (SQLite cannot switch this inside a transaction)
  db.pragma('foreign_keys = OFF');
  // a new store's rows are written once, into the file: a rollback journal copies no page the store
  // did not have, where the WAL took them all and its checkpoint wrote them again (some 60 ms)
  db.pragma('journal_mode = DELETE');
  try {
    db.transaction(() => {
      const createdAt = timestamp(new Date(sandbox.now().getTime() - 400 * 86_400_000));
      createUser(db, {
        username: 'root',
        name: 'Administrator',
        email: 'admin@example.com',
        isAdmin: true,
        createdAt,
        lastSignInAt: createdAt,
        lastActivityOn: today(sandbox.now()),
      });
      if (kind === 'demo') seedDemo(sandbox);
      db.prepare("INSERT INTO settings (key, value) VALUES ('seed', ?)").run(kind);
      const broken = db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
      if (broken.length) throw new Error(`the ${kind} seed broke ${broken.length} foreign keys, first ${broken[0].table} row ${broken[0].rowid} → ${broken[0].parent}`);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
    db.pragma('journal_mode = WAL');
  }
}

/**
 * Makes sure root holds a working token and returns it: the one asked for, else the one this
 * data directory was started with (kept in `admin-token`, readable by its owner only).
 */
export function ensureAdminToken(sandbox: Sandbox, requested?: string): string {
  const file = path.join(sandbox.dataDir, 'admin-token');
  const secret = requested ?? (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : newSecret());
  const { db } = sandbox;
  const now = sandbox.now();
  const existing = db.prepare('SELECT id FROM personal_access_tokens WHERE token_digest = ?').get(tokenDigest(secret)) as { id: number } | undefined;
  db.transaction(() => {
    if (existing) {
      // a restarted sandbox revives its own admin token
      db.prepare('UPDATE personal_access_tokens SET revoked = 0, expires_at = ? WHERE id = ?').run(addDays(now, sandbox.config.maxTokenLifetimeDays), existing.id);
    } else {
      insertToken(db, {
        userId: 1,
        name: 'sandbox administrator',
        secret,
        scopes: ADMIN_TOKEN_SCOPES,
        createdAt: timestamp(now),
        expiresAt: addDays(now, sandbox.config.maxTokenLifetimeDays),
      });
    }
  })();
  if (!requested) fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
