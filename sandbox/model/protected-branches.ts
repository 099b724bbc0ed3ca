import type { Db } from '../db.ts';
import type { Actor } from '../context.ts';
import { AccessLevel, effectiveRole, groupChain, type ProjectRow } from './access.ts';
import { today } from './time.ts';

export interface ProtectedBranchRow {
  id: number;
  project_id: number;
  name: string;
  allow_force_push: number;
  code_owner_approval_required: number;
  created_at: string;
}

export interface AccessLevelRow {
  id: number;
  protected_branch_id: number;
  kind: 'push' | 'merge' | 'unprotect';
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
  deploy_key_id: number | null;
}

/** Roles a protection may name (spec: ProtectedRefAccess.allowed_access_levels). */
export const PROTECTION_LEVELS = [AccessLevel.NO_ACCESS, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.ADMIN] as const;

const LEVEL_DESCRIPTIONS: Record<number, string> = {
  0: 'No one',
  30: 'Developers + Maintainers',
  40: 'Maintainers',
  60: 'Administrators',
};

/** A protection name with `*` wildcards, matched against the whole branch name. */
export function protectionMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes('*')) return pattern === branch;
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?');
  return new RegExp(`^${source}$`).test(branch);
}

export function protectionsOf(db: Db, projectId: number): ProtectedBranchRow[] {
  return db.prepare('SELECT * FROM protected_branches WHERE project_id = ? ORDER BY name').all(projectId) as ProtectedBranchRow[];
}

export function accessLevelsOf(db: Db, protectionIds: readonly number[]): AccessLevelRow[] {
  if (!protectionIds.length) return [];
  return db
    .prepare('SELECT * FROM protected_branch_access_levels WHERE protected_branch_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(protectionIds)) as AccessLevelRow[];
}

/** Every protection of a project with its access levels, loaded once for a whole branch list. */
export class ProjectProtections {
  readonly rows: ProtectedBranchRow[];
  readonly levels: AccessLevelRow[];

  constructor(db: Db, projectId: number) {
    this.rows = protectionsOf(db, projectId);
    this.levels = accessLevelsOf(db, this.rows.map((row) => row.id));
  }

  matching(branch: string): ProtectedBranchRow[] {
    return this.rows.filter((row) => protectionMatches(row.name, branch));
  }

  isProtected(branch: string): boolean {
    return this.matching(branch).length > 0;
  }

  levelsFor(branch: string, kind: AccessLevelRow['kind']): AccessLevelRow[] {
    const ids = new Set(this.matching(branch).map((row) => row.id));
    return this.levels.filter((level) => ids.has(level.protected_branch_id) && level.kind === kind);
  }

  /** `developers_can_push` / `developers_can_merge`: a matching protection lets Developers do it. */
  developersCan(kind: 'push' | 'merge', branch: string): boolean {
    return this.levelsFor(branch, kind).some((level) => level.access_level === AccessLevel.DEVELOPER);
  }
}

function memberOfGroup(db: Db, userId: number, groupId: number, now: Date): boolean {
  // a member of the group or of one of its parents counts, as inherited membership does
  const chain = groupChain(db, groupId);
  return Boolean(
    db.prepare(
      `SELECT 1 FROM members WHERE user_id = ? AND source_type = 'Namespace' AND state = 'active'
       AND source_id IN (SELECT value FROM json_each(?)) AND (expires_at IS NULL OR expires_at > ?) LIMIT 1`,
    ).get(userId, JSON.stringify(chain), today(now)),
  );
}

/**
 * Whether the caller may push to (or merge into) a branch: Developer and up on unprotected
 * branches; on protected ones, one of the protection's access levels must let them.
 */
export function canAccessBranch(db: Db, actor: Actor, project: ProjectRow, branch: string, kind: 'push' | 'merge', now: Date, protections = new ProjectProtections(db, project.id)): boolean {
  if (!actor.user) return false;
  const role = effectiveRole(db, actor, { type: 'Project', id: project.id }, now);
  if (role < AccessLevel.DEVELOPER) return false;
  if (!protections.isProtected(branch)) return true;
  return protections.levelsFor(branch, kind).some((level) => {
    if (level.user_id !== null) return level.user_id === actor.user!.id;
    if (level.group_id !== null) return memberOfGroup(db, actor.user!.id, level.group_id, now);
    if (level.deploy_key_id !== null) return false;
    if (level.access_level === null || level.access_level === AccessLevel.NO_ACCESS) return false;
    if (level.access_level === AccessLevel.ADMIN) return Boolean(actor.user!.is_admin);
    return role >= level.access_level;
  });
}

function accessLevelEntity(level: AccessLevelRow, groupNames: Map<number, string>, userNames: Map<number, string>) {
  let description = LEVEL_DESCRIPTIONS[level.access_level ?? -1] ?? 'Maintainers';
  if (level.group_id !== null) description = groupNames.get(level.group_id) ?? 'Group';
  if (level.user_id !== null) description = userNames.get(level.user_id) ?? 'User';
  if (level.deploy_key_id !== null) description = 'Deploy key';
  return {
    id: level.id,
    access_level: level.access_level,
    access_level_description: description,
    ...(level.kind === 'push' ? { deploy_key_id: level.deploy_key_id } : {}),
    user_id: level.user_id,
    group_id: level.group_id,
  };
}

/** The protected branch entity of the platform's top tier. */
export function protectedBranchEntity(db: Db, row: ProtectedBranchRow) {
  const levels = accessLevelsOf(db, [row.id]);
  const groupIds = levels.map((level) => level.group_id).filter((id): id is number => id !== null);
  const userIds = levels.map((level) => level.user_id).filter((id): id is number => id !== null);
  const groupNames = new Map((db.prepare('SELECT id, name FROM namespaces WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(groupIds)) as Array<{ id: number; name: string }>).map((g) => [g.id, g.name]));
  const userNames = new Map((db.prepare('SELECT id, name FROM users WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(userIds)) as Array<{ id: number; name: string }>).map((u) => [u.id, u.name]));
  const of = (kind: AccessLevelRow['kind']) => levels.filter((level) => level.kind === kind).map((level) => accessLevelEntity(level, groupNames, userNames));
  return {
    id: row.id,
    name: row.name,
    push_access_levels: of('push'),
    merge_access_levels: of('merge'),
    unprotect_access_levels: of('unprotect'),
    allow_force_push: Boolean(row.allow_force_push),
    inherited: false,
    code_owner_approval_required: Boolean(row.code_owner_approval_required),
  };
}

export interface ProtectionInput {
  name: string;
  push: Array<Partial<Pick<AccessLevelRow, 'access_level' | 'user_id' | 'group_id' | 'deploy_key_id'>>>;
  merge: Array<Partial<Pick<AccessLevelRow, 'access_level' | 'user_id' | 'group_id'>>>;
  unprotect: Array<Partial<Pick<AccessLevelRow, 'access_level' | 'user_id' | 'group_id'>>>;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  createdAt: string;
}

export function insertProtection(db: Db, projectId: number, input: ProtectionInput): ProtectedBranchRow {
  const result = db
    .prepare('INSERT INTO protected_branches (project_id, name, allow_force_push, code_owner_approval_required, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(projectId, input.name, input.allowForcePush ? 1 : 0, input.codeOwnerApprovalRequired ? 1 : 0, input.createdAt);
  const id = Number(result.lastInsertRowid);
  const insertLevel = db.prepare('INSERT INTO protected_branch_access_levels (protected_branch_id, kind, access_level, user_id, group_id, deploy_key_id) VALUES (?, ?, ?, ?, ?, ?)');
  for (const kind of ['push', 'merge', 'unprotect'] as const) {
    for (const level of input[kind]) {
      insertLevel.run(id, kind, level.access_level ?? null, level.user_id ?? null, level.group_id ?? null, 'deploy_key_id' in level ? level.deploy_key_id ?? null : null);
    }
  }
  return db.prepare('SELECT * FROM protected_branches WHERE id = ?').get(id) as ProtectedBranchRow;
}

/** The instance default (fully protected): Maintainers push and merge on the default branch. */
export function protectDefaultBranch(db: Db, projectId: number, branch: string, createdAt: string): void {
  if (db.prepare('SELECT 1 FROM protected_branches WHERE project_id = ? AND name = ?').get(projectId, branch)) return;
  insertProtection(db, projectId, {
    name: branch,
    push: [{ access_level: AccessLevel.MAINTAINER }],
    merge: [{ access_level: AccessLevel.MAINTAINER }],
    unprotect: [{ access_level: AccessLevel.MAINTAINER }],
    allowForcePush: false,
    codeOwnerApprovalRequired: false,
    createdAt,
  });
}
