import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export type Db = Database.Database;

/**
 * Versioned schema. Each entry moves the schema one version forward; never edit a released
 * entry, append a new one, so a data directory written by an older build still opens.
 */
export const migrations: ReadonlyArray<(db: Db) => void> = [
  // 1: platform core
  (db) =>
    db.exec(`
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      username TEXT NOT NULL UNIQUE COLLATE NOCASE,
      name TEXT NOT NULL,
      email TEXT NOT NULL UNIQUE COLLATE NOCASE,
      public_email TEXT,
      state TEXT NOT NULL DEFAULT 'active',
      locked INTEGER NOT NULL DEFAULT 0,
      is_admin INTEGER NOT NULL DEFAULT 0,
      user_type TEXT NOT NULL DEFAULT 'human',
      external INTEGER NOT NULL DEFAULT 0,
      avatar_url TEXT,
      bio TEXT NOT NULL DEFAULT '',
      location TEXT NOT NULL DEFAULT '',
      job_title TEXT NOT NULL DEFAULT '',
      organization TEXT NOT NULL DEFAULT '',
      private_profile INTEGER NOT NULL DEFAULT 0,
      projects_limit INTEGER NOT NULL DEFAULT 100000,
      can_create_group INTEGER NOT NULL DEFAULT 1,
      enterprise_group_id INTEGER,
      created_by_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      confirmed_at TEXT,
      last_sign_in_at TEXT,
      current_sign_in_at TEXT,
      last_activity_on TEXT
    );

    CREATE TABLE identities (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      extern_uid TEXT NOT NULL,
      saml_provider_id INTEGER
    );
    CREATE INDEX identities_user ON identities(user_id);

    CREATE TABLE personal_access_tokens (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      token_digest TEXT NOT NULL UNIQUE,
      scopes TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      revoked INTEGER NOT NULL DEFAULT 0,
      last_used_at TEXT,
      previous_token_id INTEGER REFERENCES personal_access_tokens(id),
      family_id INTEGER
    );
    CREATE INDEX pat_user ON personal_access_tokens(user_id);

    CREATE TABLE namespaces (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('group', 'user')),
      name TEXT NOT NULL,
      path TEXT NOT NULL,
      full_path TEXT NOT NULL UNIQUE COLLATE NOCASE,
      parent_id INTEGER REFERENCES namespaces(id),
      owner_id INTEGER REFERENCES users(id),
      description TEXT NOT NULL DEFAULT '',
      visibility TEXT NOT NULL DEFAULT 'private',
      saml_provider_id INTEGER,
      settings TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX namespaces_parent ON namespaces(parent_id);
    CREATE UNIQUE INDEX namespaces_user_owner ON namespaces(owner_id) WHERE kind = 'user';

    CREATE TABLE projects (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      path TEXT NOT NULL,
      path_with_namespace TEXT NOT NULL UNIQUE COLLATE NOCASE,
      namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
      creator_id INTEGER REFERENCES users(id),
      description TEXT NOT NULL DEFAULT '',
      visibility TEXT NOT NULL DEFAULT 'private',
      default_branch TEXT NOT NULL DEFAULT 'main',
      archived INTEGER NOT NULL DEFAULT 0,
      repository_storage TEXT NOT NULL DEFAULT 'default',
      topics TEXT NOT NULL DEFAULT '[]',
      settings TEXT NOT NULL DEFAULT '{}',
      star_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      last_activity_at TEXT NOT NULL
    );
    CREATE INDEX projects_namespace ON projects(namespace_id);

    -- old full paths of renamed projects and groups keep resolving (spec 1, 4.1.9)
    CREATE TABLE redirect_routes (
      path TEXT PRIMARY KEY COLLATE NOCASE,
      source_type TEXT NOT NULL,
      source_id INTEGER NOT NULL
    );

    CREATE TABLE members (
      id INTEGER PRIMARY KEY,
      source_type TEXT NOT NULL CHECK (source_type IN ('Namespace', 'Project')),
      source_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      access_level INTEGER NOT NULL,
      state TEXT NOT NULL DEFAULT 'active',
      expires_at TEXT,
      created_by_id INTEGER REFERENCES users(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (source_type, source_id, user_id)
    );
    CREATE INDEX members_user ON members(user_id);

    -- a group invited into a group or project (sharing)
    CREATE TABLE group_links (
      id INTEGER PRIMARY KEY,
      shared_type TEXT NOT NULL CHECK (shared_type IN ('Namespace', 'Project')),
      shared_id INTEGER NOT NULL,
      group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
      group_access INTEGER NOT NULL,
      expires_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (shared_type, shared_id, group_id)
    );
    CREATE INDEX group_links_group ON group_links(group_id);

    CREATE TABLE follows (
      follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (follower_id, followee_id)
    );
    CREATE INDEX follows_followee ON follows(followee_id);

    -- job tokens: valid only for the registry and packages of the job's project (spec 1, 5.1)
    CREATE TABLE ci_job_tokens (
      token_digest TEXT PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id),
      expires_at TEXT NOT NULL
    );
  `),
  // 2: list orders used by the users and projects endpoints
  (db) =>
    db.exec(`
    CREATE INDEX users_name ON users(name COLLATE NOCASE, id);
    CREATE INDEX users_created ON users(created_at, id);
    CREATE INDEX projects_activity ON projects(last_activity_at, id);
  `),
  // 3: service accounts belong to the group that provisioned them; token families for reuse detection
  (db) =>
    db.exec(`
    ALTER TABLE users ADD COLUMN provisioned_by_group_id INTEGER;
    CREATE INDEX users_provisioned_by_group ON users(provisioned_by_group_id) WHERE provisioned_by_group_id IS NOT NULL;
    CREATE INDEX pat_family ON personal_access_tokens(family_id);
  `),
];

/** Opens (creating if needed) the store in `dir` and brings its schema up to date. */
export function openDb(dir: string): Db {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, 'sandbox.sqlite3'));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a killed process
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  cacheStatements(db);
  return db;
}

// enough for every fixed query of the app; lists with IN (?, ?, ...) of varying length come and go
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Makes `db.prepare` reuse compiled statements: compiling costs more than running most of the
 * app's queries (a user list of 100 prepared 500 statements per request). A reused statement is
 * reset to plain row objects, in case a caller switched it to pluck, expand or raw mode.
 */
export function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      // least recently used first: move to the end
      cache.delete(sql);
      if (statement.reader) statement.raw(false).expand(false).pluck(false);
    } else {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  }) as Db['prepare'];
}

/** Applies the migrations after the stored `user_version`, each in its own transaction. */
export function migrate(db: Db, upTo = migrations.length): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `data directory schema version ${current} is newer than this build (${migrations.length})`,
    );
  }
  for (let version = current; version < upTo; version++) {
    db.transaction(() => {
      migrations[version](db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
