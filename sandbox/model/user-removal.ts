import type { Sandbox, UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { conflict } from '../http/errors.ts';
import { AccessLevel, groupChain, groupDescendants } from './access.ts';
import { noreplyEmail } from './tokens.ts';
import { createUser } from './users.ts';
import { timestamp, today } from './time.ts';

export const SOLE_OWNER_MESSAGE = 'User cannot be removed while is the sole-owner of a group';

/** Groups in which the user is the only Owner (bots aside), counting Owners inherited from above. */
export function soloOwnedGroups(db: Db, userId: number, now: Date): number[] {
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

/**
 * Deletes a namespace (a group with its subgroups, or a personal namespace) with its projects,
 * memberships, links and the bots of its tokens.
 */
export function deleteNamespaceTree(db: Db, namespaceId: number): void {
  const groupIds = JSON.stringify(groupDescendants(db, namespaceId));
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
export function ghostUser(sandbox: Sandbox, now: Date): number {
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
export function removeUserRecords(db: Db, userId: number, ghostId: number | null): void {
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

/**
 * Deletes a user as the platform's user deletion does: 409 while it alone owns a group, unless
 * `hardDelete`, which deletes those groups and the user's contributions instead of handing them
 * to the Ghost User. The personal namespace and its projects go either way.
 */
export function deleteUser(sandbox: Sandbox, user: UserRow, options: { hardDelete: boolean; now: Date }): void {
  const { db } = sandbox;
  const solo = soloOwnedGroups(db, user.id, options.now);
  if (solo.length && !options.hardDelete) throw conflict(SOLE_OWNER_MESSAGE);
  // a group below another deleted group has gone with it
  for (const groupId of solo) {
    if (db.prepare("SELECT 1 FROM namespaces WHERE id = ? AND kind = 'group'").get(groupId)) deleteNamespaceTree(db, groupId);
  }
  const personal = db.prepare("SELECT id FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(user.id) as { id: number } | undefined;
  if (personal) deleteNamespaceTree(db, personal.id);
  removeUserRecords(db, user.id, options.hardDelete ? null : ghostUser(sandbox, options.now));
  db.prepare('DELETE FROM users WHERE id = ?').run(user.id);
}
