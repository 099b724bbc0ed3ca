import type { Db } from '../db.ts';
import type { Actor } from '../context.ts';
import { notFound } from '../http/errors.ts';
import { today } from './time.ts';

/** Role values of spec 1, 2.7. */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  ADMIN: 60,
} as const;

export const ROLE_NAMES: Record<number, string> = {
  0: 'No access', 5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter',
  30: 'Developer', 40: 'Maintainer', 50: 'Owner', 60: 'Admin',
};

export const MEMBER_ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50] as const;

export interface NamespaceRow {
  id: number;
  kind: 'group' | 'user';
  name: string;
  path: string;
  full_path: string;
  parent_id: number | null;
  owner_id: number | null;
  description: string;
  visibility: Visibility;
  saml_provider_id: number | null;
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface ProjectRow {
  id: number;
  name: string;
  path: string;
  path_with_namespace: string;
  namespace_id: number;
  creator_id: number | null;
  description: string;
  visibility: Visibility;
  default_branch: string;
  archived: number;
  repository_storage: string;
  topics: string;
  settings: string;
  star_count: number;
  created_at: string;
  updated_at: string;
  last_activity_at: string;
}

export type Visibility = 'private' | 'internal' | 'public';
export const VISIBILITIES: readonly Visibility[] = ['private', 'internal', 'public'];
const VISIBILITY_RANK: Record<Visibility, number> = { private: 0, internal: 10, public: 20 };
export const visibilityRank = (visibility: Visibility) => VISIBILITY_RANK[visibility];

export type SourceType = 'Namespace' | 'Project';

/** One membership that gives a user access to a group or project, possibly inherited. */
export interface EffectiveMembership {
  memberId: number;
  userId: number;
  accessLevel: number;
  state: string;
  expiresAt: string | null;
  createdAt: string;
  createdById: number | null;
  /** Where the membership row lives. */
  sourceType: SourceType;
  sourceId: number;
  /** Set when the access comes through a group invited into the source (sharing). */
  invitedGroupId: number | null;
  direct: boolean;
}

/** The group itself, then its parent, up to the top-level group. */
export function groupChain(db: Db, groupId: number): number[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE chain(id, parent_id, depth) AS (
         SELECT id, parent_id, 0 FROM namespaces WHERE id = ?
         UNION ALL SELECT n.id, n.parent_id, chain.depth + 1 FROM namespaces n JOIN chain ON n.id = chain.parent_id
       ) SELECT id FROM chain ORDER BY depth`,
    )
    .all(groupId) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** The group and every subgroup below it. */
export function groupDescendants(db: Db, groupId: number): number[] {
  const rows = db
    .prepare(
      `WITH RECURSIVE tree(id) AS (
         SELECT id FROM namespaces WHERE id = ?
         UNION ALL SELECT n.id FROM namespaces n JOIN tree ON n.parent_id = tree.id
       ) SELECT id FROM tree`,
    )
    .all(groupId) as Array<{ id: number }>;
  return rows.map((row) => row.id);
}

/** The columns of a membership row that access computations read. */
export interface MemberAccessRow {
  id: number;
  source_type: SourceType;
  source_id: number;
  user_id: number;
  access_level: number;
  state: string;
  expires_at: string | null;
  created_at: string;
  created_by_id: number | null;
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

function memberRows(db: Db, sourceType: SourceType, sourceIds: number[], day: string, userIds?: readonly number[]): MemberAccessRow[] {
  if (sourceIds.length === 0) return [];
  const userFilter = userIds ? ` AND user_id IN (${placeholders(userIds.length)})` : '';
  return db
    .prepare(
      `SELECT id, source_type, source_id, user_id, access_level, state, expires_at, created_at, created_by_id
       FROM members WHERE source_type = ? AND source_id IN (${placeholders(sourceIds.length)})
       AND (expires_at IS NULL OR expires_at > ?)${userFilter}`,
    )
    .all(sourceType, ...sourceIds, day, ...(userIds ?? [])) as MemberAccessRow[];
}

interface LinkRow {
  group_id: number;
  group_access: number;
  shared_id: number;
}

function links(db: Db, sharedType: SourceType, sharedIds: number[], day: string): LinkRow[] {
  if (sharedIds.length === 0) return [];
  return db
    .prepare(
      `SELECT group_id, group_access, shared_id FROM group_links WHERE shared_type = ?
       AND shared_id IN (${placeholders(sharedIds.length)}) AND (expires_at IS NULL OR expires_at > ?)`,
    )
    .all(sharedType, ...sharedIds, day) as LinkRow[];
}

/** A membership row as access it grants: capped by an invitation's access when it came through one. */
export function toMembership(row: MemberAccessRow, direct: boolean, cap?: number, invitedGroupId: number | null = null): EffectiveMembership {
  return {
    memberId: row.id,
    userId: row.user_id,
    accessLevel: cap === undefined ? row.access_level : Math.min(row.access_level, cap),
    state: row.state,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    createdById: row.created_by_id,
    sourceType: row.source_type,
    sourceId: row.source_id,
    invitedGroupId,
    direct,
  };
}

/**
 * Every membership reaching a group or project: direct, inherited from ancestor groups, and
 * through invited groups (capped at the link's access). Expired rows are left out.
 */
export function membershipsOf(
  db: Db,
  source: { type: SourceType; id: number },
  now: Date,
  userIds?: readonly number[],
): EffectiveMembership[] {
  const day = today(now);
  const result: EffectiveMembership[] = [];
  const push = (row: MemberAccessRow, direct: boolean, cap?: number, invitedGroupId: number | null = null) =>
    result.push(toMembership(row, direct, cap, invitedGroupId));

  let groupIds: number[] = [];
  if (source.type === 'Project') {
    for (const row of memberRows(db, 'Project', [source.id], day, userIds)) push(row, true);
    const project = db.prepare('SELECT n.id, n.kind FROM projects p JOIN namespaces n ON n.id = p.namespace_id WHERE p.id = ?')
      .get(source.id) as { id: number; kind: string } | undefined;
    if (project?.kind === 'group') groupIds = groupChain(db, project.id);
    for (const link of links(db, 'Project', [source.id], day)) {
      for (const row of memberRows(db, 'Namespace', groupChain(db, link.group_id), day, userIds)) {
        push(row, false, link.group_access, link.group_id);
      }
    }
  } else {
    groupIds = groupChain(db, source.id);
  }
  for (const row of memberRows(db, 'Namespace', groupIds, day, userIds)) {
    push(row, source.type === 'Namespace' && row.source_id === source.id);
  }
  for (const link of links(db, 'Namespace', groupIds, day)) {
    for (const row of memberRows(db, 'Namespace', groupChain(db, link.group_id), day, userIds)) {
      push(row, false, link.group_access, link.group_id);
    }
  }
  return result;
}

/** Per user the membership with the highest access level; a direct one wins a tie. */
export function highestPerUser(memberships: EffectiveMembership[]): Map<number, EffectiveMembership> {
  const best = new Map<number, EffectiveMembership>();
  for (const membership of memberships) {
    const current = best.get(membership.userId);
    if (
      !current ||
      membership.accessLevel > current.accessLevel ||
      (membership.accessLevel === current.accessLevel && membership.direct && !current.direct)
    ) {
      best.set(membership.userId, membership);
    }
  }
  return best;
}

/** The caller's role on a group or project (0 when none); pending (awaiting) rows give none. */
export function accessLevelOf(db: Db, actor: Actor, source: { type: SourceType; id: number }, now: Date): number {
  if (!actor.user) return AccessLevel.NO_ACCESS;
  const rows = membershipsOf(db, source, now, [actor.user.id]).filter((row) => row.state === 'active');
  return rows.reduce<number>((max, row) => Math.max(max, row.accessLevel), AccessLevel.NO_ACCESS);
}

/** Permission checks treat administrators as owners of everything, as the platform does. */
export function effectiveRole(db: Db, actor: Actor, source: { type: SourceType; id: number }, now: Date): number {
  if (actor.user?.is_admin) return AccessLevel.OWNER;
  return accessLevelOf(db, actor, source, now);
}

/** Whether the caller may see the group: by visibility, or by any membership in or below it. */
export function canReadGroup(db: Db, actor: Actor, group: NamespaceRow, now: Date): boolean {
  if (group.visibility === 'public') return true;
  if (!actor.user) return false;
  if (actor.user.is_admin) return true;
  if (group.visibility === 'internal' && !actor.user.external) return true;
  if (accessLevelOf(db, actor, { type: 'Namespace', id: group.id }, now) > 0) return true;
  // a member of a subgroup or of a project inside may see the group
  const day = today(now);
  const descendants = groupDescendants(db, group.id);
  const hit = db
    .prepare(
      `SELECT 1 FROM members WHERE user_id = ? AND state = 'active' AND (expires_at IS NULL OR expires_at > ?) AND (
         (source_type = 'Namespace' AND source_id IN (${placeholders(descendants.length)}))
         OR (source_type = 'Project' AND source_id IN (SELECT id FROM projects WHERE namespace_id IN (${placeholders(descendants.length)})))
       ) LIMIT 1`,
    )
    .get(actor.user.id, day, ...descendants, ...descendants);
  return Boolean(hit);
}

/** Public to all, internal to signed-in non-external users, private to members (Guest and up). */
export function canReadProject(db: Db, actor: Actor, project: ProjectRow, now: Date): boolean {
  if (project.visibility === 'public') return true;
  if (!actor.user) return false;
  if (actor.user.is_admin) return true;
  if (project.visibility === 'internal' && !actor.user.external) return true;
  return accessLevelOf(db, actor, { type: 'Project', id: project.id }, now) >= AccessLevel.GUEST;
}

/** Thrown when a project is addressed by a path it had before a rename (spec 1, 4.1.9). */
export class ProjectMoved extends Error {
  constructor(readonly projectId: number, readonly oldPath: string) {
    super('project moved');
  }
}

/** A group by id or full path; renamed groups do not redirect on the platform. 404 when hidden. */
export function findReadableGroup(db: Db, actor: Actor, idOrPath: string, now: Date): NamespaceRow {
  const group = (/^\d+$/.test(idOrPath)
    ? db.prepare("SELECT * FROM namespaces WHERE id = ? AND kind = 'group'").get(Number(idOrPath))
    : db.prepare("SELECT * FROM namespaces WHERE full_path = ? AND kind = 'group'").get(idOrPath)) as NamespaceRow | undefined;
  if (!group || !canReadGroup(db, actor, group, now)) throw notFound('Group');
  return group;
}

/**
 * A project by id or path_with_namespace; 404 when hidden from the caller. An old path after a
 * rename throws ProjectMoved, which the app answers with 301 (GET) or 405 (writes).
 */
export function findReadableProject(db: Db, actor: Actor, idOrPath: string, now: Date): ProjectRow {
  let project: ProjectRow | undefined;
  let moved = false;
  if (/^\d+$/.test(idOrPath)) {
    project = db.prepare('SELECT * FROM projects WHERE id = ?').get(Number(idOrPath)) as ProjectRow | undefined;
  } else if (idOrPath.includes('/')) {
    project = db.prepare('SELECT * FROM projects WHERE path_with_namespace = ?').get(idOrPath) as ProjectRow | undefined;
    if (!project) {
      const redirect = db.prepare("SELECT source_id FROM redirect_routes WHERE path = ? AND source_type = 'Project'").get(idOrPath) as
        | { source_id: number }
        | undefined;
      if (redirect) {
        project = db.prepare('SELECT * FROM projects WHERE id = ?').get(redirect.source_id) as ProjectRow | undefined;
        moved = Boolean(project);
      }
    }
  }
  if (!project || !canReadProject(db, actor, project, now)) throw notFound('Project');
  if (moved) throw new ProjectMoved(project.id, idOrPath);
  return project;
}

/** Everything a user reaches through memberships: role per group and per project. */
export interface Authorizations {
  groups: Map<number, number>;
  projects: Map<number, number>;
}

/**
 * The platform's project and group authorizations for one user: direct rows, inheritance down
 * the group tree, and invited groups (capped at the link's access). Pending rows count for nothing.
 */
export function authorizationsOf(db: Db, userId: number, now: Date): Authorizations {
  const day = today(now);
  const groups = new Map<number, number>();
  const projects = new Map<number, number>();
  const raise = (map: Map<number, number>, id: number, level: number) => {
    if ((map.get(id) ?? 0) < level) map.set(id, level);
  };
  const rows = db
    .prepare(`SELECT source_type, source_id, access_level FROM members WHERE user_id = ? AND state = 'active' AND (expires_at IS NULL OR expires_at > ?)`)
    .all(userId, day) as Array<{ source_type: SourceType; source_id: number; access_level: number }>;
  const grantGroupTree = (groupId: number, level: number) => {
    for (const id of groupDescendants(db, groupId)) raise(groups, id, level);
  };
  for (const row of rows) {
    if (row.source_type === 'Namespace') grantGroupTree(row.source_id, row.access_level);
    else raise(projects, row.source_id, row.access_level);
  }
  // invited groups: a member of the invited group reaches what it was invited into
  const memberGroups = new Map(groups);
  if (memberGroups.size) {
    const linkRows = db
      .prepare(`SELECT shared_type, shared_id, group_id, group_access FROM group_links WHERE (expires_at IS NULL OR expires_at > ?) AND group_id IN (SELECT value FROM json_each(?))`)
      .all(day, JSON.stringify([...memberGroups.keys()])) as Array<{ shared_type: SourceType; shared_id: number; group_id: number; group_access: number }>;
    for (const link of linkRows) {
      const level = Math.min(memberGroups.get(link.group_id)!, link.group_access);
      if (link.shared_type === 'Namespace') grantGroupTree(link.shared_id, level);
      else raise(projects, link.shared_id, level);
    }
  }
  if (groups.size) {
    const inGroups = db
      .prepare('SELECT id, namespace_id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify([...groups.keys()])) as Array<{ id: number; namespace_id: number }>;
    for (const project of inGroups) raise(projects, project.id, groups.get(project.namespace_id)!);
  }
  return { groups, projects };
}
