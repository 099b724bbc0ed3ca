import type { Db } from '../db.ts';
import type { Actor, Sandbox, UserRow } from '../context.ts';
import {
  AccessLevel, ROLE_NAMES, accessLevelOf, effectiveRole, findReadableGroup, findReadableProject, groupChain,
  groupDescendants, highestPerUser, membershipsOf,
  type EffectiveMembership, type MemberAccessRow, type NamespaceRow, type ProjectRow, type SourceType,
} from './access.ts';
import { avatarUrl } from './entities.ts';
import { today } from './time.ts';

/** A group or project whose members are listed or managed. */
export interface MemberSource {
  type: SourceType;
  id: number;
  kind: 'group' | 'project';
  group: NamespaceRow | null;
  project: ProjectRow | null;
}

/** `:id` of /groups/:id/... or /projects/:id/...; 404 when hidden from the caller. */
export function findMemberSource(db: Db, actor: Actor, kind: 'group' | 'project', idOrPath: string, now: Date): MemberSource {
  if (kind === 'group') {
    const group = findReadableGroup(db, actor, idOrPath, now);
    return { type: 'Namespace', id: group.id, kind, group, project: null };
  }
  const project = findReadableProject(db, actor, idOrPath, now);
  return { type: 'Project', id: project.id, kind, group: null, project };
}

export interface MemberRow extends MemberAccessRow {
  updated_at: string;
}

const NOT_EXPIRED = '(expires_at IS NULL OR expires_at > ?)';


/** Rows of the source itself; expired rows count as removed, as the platform's cleanup worker removes them. */
export function directMemberRows(db: Db, source: { type: SourceType; id: number }, now: Date): MemberRow[] {
  return db
    .prepare(`SELECT * FROM members WHERE source_type = ? AND source_id = ? AND ${NOT_EXPIRED} ORDER BY id`)
    .all(source.type, source.id, today(now)) as MemberRow[];
}

export function directMemberRow(db: Db, source: { type: SourceType; id: number }, userId: number, now: Date): MemberRow | undefined {
  return db
    .prepare(`SELECT * FROM members WHERE source_type = ? AND source_id = ? AND user_id = ? AND ${NOT_EXPIRED}`)
    .get(source.type, source.id, userId, today(now)) as MemberRow | undefined;
}

/**
 * Direct, inherited and invited members, one per user with the highest access. Members of an
 * invited group show only when that group is public, or the caller belongs to it or to the
 * listed source (spec 1, 4.7); administrators see all.
 */
export function allMembers(db: Db, actor: Actor, source: { type: SourceType; id: number }, now: Date, userIds?: readonly number[]): EffectiveMembership[] {
  // a lookup of a few users (members/all?user_ids[]=, members/all/:id) reads their rows alone, as the platform's SQL does
  const memberships = membershipsOf(db, source, now, userIds?.length ? userIds : undefined);
  const admin = Boolean(actor.user?.is_admin);
  const memberOfSource = admin || accessLevelOf(db, actor, source, now) > AccessLevel.NO_ACCESS;
  const visibleInvited = new Map<number, boolean>();
  const invitedVisible = (groupId: number) => {
    let visible = visibleInvited.get(groupId);
    if (visible === undefined) {
      const group = db.prepare('SELECT visibility FROM namespaces WHERE id = ?').get(groupId) as { visibility: string } | undefined;
      visible = group?.visibility === 'public' || accessLevelOf(db, actor, { type: 'Namespace', id: groupId }, now) > AccessLevel.NO_ACCESS;
      visibleInvited.set(groupId, visible);
    }
    return visible;
  };
  const shown = memberships.filter((row) => row.invitedGroupId === null || memberOfSource || invitedVisible(row.invitedGroupId));
  return [...highestPerUser(shown).values()].sort((a, b) => a.userId - b.userId);
}

export function userById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/** The platform's UserBasic as members embed it: no public_email. */
export function memberUser(sandbox: Sandbox, user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: Boolean(user.locked),
    avatar_url: avatarUrl(sandbox, user),
    web_url: `${sandbox.config.externalUrl}/${user.username}`,
  };
}

/** `query` of the member lists: partial name or username; an email matches exactly, admins also partially. */
export function matchesMemberQuery(user: UserRow, query: string, admin: boolean): boolean {
  const term = query.trim().replace(/^@/, '').toLowerCase();
  if (!term) return true;
  const email = user.email.toLowerCase();
  return user.name.toLowerCase().includes(term)
    || user.username.toLowerCase().includes(term)
    || email === term
    || (admin && email.includes(term))
    || (user.public_email ?? '').toLowerCase() === term;
}

/** Billable member search: partial name or username, exact public email. */
export function matchesBillableSearch(user: UserRow, search: string): boolean {
  const term = search.trim().toLowerCase();
  if (!term) return true;
  return user.name.toLowerCase().includes(term)
    || user.username.toLowerCase().includes(term)
    || (user.public_email ?? '').toLowerCase() === term;
}

/** Bots (access-token bots, service accounts, internal bots) never take a seat. */
export const isHuman = (user: UserRow) => user.user_type === 'human';

/** On the top tier only roles above Guest take a seat; bots, blocked and pending users never do. */
export function usingLicenseSeat(db: Db, user: UserRow, now: Date): boolean {
  if (user.state !== 'active' || !isHuman(user)) return false;
  const row = db
    .prepare(`SELECT max(access_level) AS level FROM members WHERE user_id = ? AND state = 'active' AND ${NOT_EXPIRED}`)
    .get(user.id, today(now)) as { level: number | null };
  return (row.level ?? 0) > AccessLevel.GUEST;
}

/** The top-level group above a group or project (for a personal project, its user namespace). */
export function rootNamespaceOf(db: Db, source: { type: SourceType; id: number }): NamespaceRow | undefined {
  const namespaceId = source.type === 'Namespace'
    ? source.id
    : (db.prepare('SELECT namespace_id FROM projects WHERE id = ?').get(source.id) as { namespace_id: number } | undefined)?.namespace_id;
  if (namespaceId === undefined) return undefined;
  const chain = groupChain(db, namespaceId);
  return db.prepare('SELECT * FROM namespaces WHERE id = ?').get(chain[chain.length - 1]) as NamespaceRow | undefined;
}

/**
 * Turns memberships into the platform's Member entity for one caller, caching the caller's roles
 * and the root groups the conditional fields (email, group_saml_identity) depend on.
 */
export class MemberPresenter {
  private readonly roles = new Map<string, number>();
  private readonly roots = new Map<string, NamespaceRow | undefined>();
  private readonly users = new Map<number, UserRow | undefined>();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly actor: Actor,
    private readonly now: Date,
    private readonly showSeatInfo = false,
  ) {}

  user(id: number): UserRow | undefined {
    if (!this.users.has(id)) this.users.set(id, userById(this.sandbox.db, id));
    return this.users.get(id);
  }

  private role(type: SourceType, id: number): number {
    const key = `${type}:${id}`;
    if (!this.roles.has(key)) this.roles.set(key, effectiveRole(this.sandbox.db, this.actor, { type, id }, this.now));
    return this.roles.get(key)!;
  }

  private root(type: SourceType, id: number): NamespaceRow | undefined {
    const key = `${type}:${id}`;
    if (!this.roots.has(key)) this.roots.set(key, rootNamespaceOf(this.sandbox.db, { type, id }));
    return this.roots.get(key);
  }

  /** Private email: administrators, or Owners of the top-level group that owns the enterprise user. */
  private emailVisible(user: UserRow, membership: EffectiveMembership): boolean {
    if (this.actor.user?.is_admin) return true;
    if (user.enterprise_group_id === null) return false;
    const root = this.root(membership.sourceType, membership.sourceId);
    return root?.kind === 'group' && root.id === user.enterprise_group_id && this.role('Namespace', root.id) >= AccessLevel.OWNER;
  }

  /** Owners of a group under an SSO-enabled top-level group read the SAML identity; project rows never carry it. */
  private samlIdentity(user: UserRow, membership: EffectiveMembership): { shown: false } | { shown: true; value: unknown } {
    if (membership.sourceType !== 'Namespace') return { shown: false };
    const root = this.root('Namespace', membership.sourceId);
    if (!root || root.saml_provider_id === null) return { shown: false };
    if (this.role('Namespace', membership.sourceId) < AccessLevel.OWNER) return { shown: false };
    const identity = this.sandbox.db
      .prepare("SELECT extern_uid, provider, saml_provider_id FROM identities WHERE user_id = ? AND provider = 'group_saml' AND saml_provider_id = ? ORDER BY id LIMIT 1")
      .get(user.id, root.saml_provider_id) as { extern_uid: string; provider: string; saml_provider_id: number } | undefined;
    return { shown: true, value: identity ?? null };
  }

  entity(membership: EffectiveMembership) {
    const user = this.user(membership.userId)!;
    const createdBy = membership.createdById === null ? undefined : this.user(membership.createdById);
    const saml = this.samlIdentity(user, membership);
    return {
      ...memberUser(this.sandbox, user),
      access_level: membership.accessLevel,
      created_at: membership.createdAt,
      ...(createdBy ? { created_by: memberUser(this.sandbox, createdBy) } : {}),
      expires_at: membership.expiresAt,
      ...(saml.shown ? { group_saml_identity: saml.value } : {}),
      ...(this.emailVisible(user, membership) ? { email: user.email } : {}),
      ...(this.showSeatInfo ? { is_using_seat: usingLicenseSeat(this.sandbox.db, user, this.now) } : {}),
      membership_state: membership.state,
    };
  }
}

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(',');

/**
 * Whether the user holds the only Owner row of the group, counting Owners inherited from
 * ancestor groups and leaving bots out (the platform's `last_owner?`).
 */
export function isLastGroupOwner(db: Db, groupId: number, userId: number, now: Date): boolean {
  const chain = groupChain(db, groupId);
  const owners = db
    .prepare(
      `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
       WHERE m.source_type = 'Namespace' AND m.source_id IN (${placeholders(chain.length)}) AND m.access_level = ?
       AND (m.expires_at IS NULL OR m.expires_at > ?) AND u.user_type NOT IN ('project_bot', 'service_account')`,
    )
    .all(...chain, AccessLevel.OWNER, today(now)) as Array<{ user_id: number }>;
  return owners.length === 1 && owners[0].user_id === userId;
}

/** Access levels a membership of this source may take: Minimal Access exists on top-level groups only. */
export function allowedAccessLevels(source: MemberSource): number[] {
  const levels: number[] = [AccessLevel.GUEST, AccessLevel.PLANNER, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.OWNER];
  if (source.kind === 'group' && source.group!.parent_id === null) levels.unshift(AccessLevel.MINIMAL_ACCESS);
  return levels;
}

/** The user's highest membership in a group above the source (for a project: its group and up). */
function highestAncestorMembership(db: Db, source: MemberSource, userId: number, now: Date) {
  let ancestors: number[];
  if (source.kind === 'group') {
    ancestors = groupChain(db, source.id).slice(1);
  } else {
    const namespace = db.prepare('SELECT id, kind FROM namespaces WHERE id = ?').get(source.project!.namespace_id) as { id: number; kind: string };
    ancestors = namespace.kind === 'group' ? groupChain(db, namespace.id) : [];
  }
  if (!ancestors.length) return undefined;
  return db
    .prepare(
      `SELECT m.access_level, n.name FROM members m JOIN namespaces n ON n.id = m.source_id
       WHERE m.source_type = 'Namespace' AND m.source_id IN (${placeholders(ancestors.length)}) AND m.user_id = ?
       AND (m.expires_at IS NULL OR m.expires_at > ?) ORDER BY m.access_level DESC, m.id LIMIT 1`,
    )
    .get(...ancestors, userId, today(now)) as { access_level: number; name: string } | undefined;
}

/** The Member model's validations, as `{attribute: [messages]}` in the platform's order. */
export function memberValidationErrors(
  db: Db,
  source: MemberSource,
  member: { userId: number; accessLevel: number; expiresAt: string | null },
  now: Date,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (member.expiresAt !== null && member.expiresAt <= today(now)) add('expires_at', 'cannot be a date in the past');
  const inherited = highestAncestorMembership(db, source, member.userId, now);
  if (inherited && inherited.access_level > member.accessLevel) {
    add('access_level', `should be greater than or equal to ${ROLE_NAMES[inherited.access_level]} inherited membership from group ${inherited.name}`);
  }
  if (!allowedAccessLevels(source).includes(member.accessLevel)) add('access_level', 'is not included in the list');
  return errors;
}

/** Rails' `full_messages`: "Access level is not included in the list". */
export function fullMessages(errors: Record<string, string[]>): string[] {
  return Object.entries(errors).flatMap(([field, messages]) => {
    const label = field.replace(/_/g, ' ');
    const human = label.charAt(0).toUpperCase() + label.slice(1);
    return messages.map((message) => `${human} ${message}`);
  });
}

/** Rails' `Array#to_sentence`: "a", "a and b", "a, b, and c". */
export function toSentence(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** Groups and projects of a top-level group's hierarchy. */
export function hierarchyOf(db: Db, rootId: number): { groupIds: number[]; projectIds: number[] } {
  const groupIds = groupDescendants(db, rootId);
  const projectIds = (db
    .prepare('SELECT id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(groupIds)) as Array<{ id: number }>).map((row) => row.id);
  return { groupIds, projectIds };
}

/** A user's own membership rows inside the hierarchy (billable member memberships). */
export function hierarchyMemberRows(db: Db, rootId: number, userId: number, now: Date): MemberRow[] {
  const { groupIds, projectIds } = hierarchyOf(db, rootId);
  return db
    .prepare(
      `SELECT * FROM members WHERE user_id = ? AND ${NOT_EXPIRED} AND (
         (source_type = 'Namespace' AND source_id IN (SELECT value FROM json_each(?)))
         OR (source_type = 'Project' AND source_id IN (SELECT value FROM json_each(?)))
       ) ORDER BY id`,
    )
    .all(userId, today(now), JSON.stringify(groupIds), JSON.stringify(projectIds)) as MemberRow[];
}

export type MembershipType = 'group_member' | 'project_member' | 'group_invite' | 'project_invite';

export interface BillableUser {
  user: UserRow;
  /** Highest seat-taking role anywhere in the hierarchy. */
  accessLevel: number;
  /** When the user first took a seat-taking role in the hierarchy. */
  joinedAt: string;
  membershipType: MembershipType;
}

/**
 * Billable users of a top-level group on the top tier: active humans holding a role above Guest
 * in a group, subgroup or project of the hierarchy, directly or through an invited group.
 */
export function billableUsers(db: Db, rootId: number, now: Date): Map<number, BillableUser> {
  const day = today(now);
  const { groupIds, projectIds } = hierarchyOf(db, rootId);
  const seen = new Map<number, { level: number; joinedAt: string; types: Set<MembershipType> }>();
  const count = (userId: number, level: number, joinedAt: string, type: MembershipType) => {
    if (level <= AccessLevel.GUEST) return;
    const entry = seen.get(userId) ?? { level: 0, joinedAt, types: new Set<MembershipType>() };
    entry.level = Math.max(entry.level, level);
    if (joinedAt < entry.joinedAt) entry.joinedAt = joinedAt;
    entry.types.add(type);
    seen.set(userId, entry);
  };
  const rowsOf = (sourceType: SourceType, ids: number[]) =>
    ids.length
      ? (db.prepare(`SELECT user_id, access_level, created_at FROM members WHERE source_type = ? AND source_id IN (SELECT value FROM json_each(?)) AND state = 'active' AND ${NOT_EXPIRED}`)
          .all(sourceType, JSON.stringify(ids), day) as Array<{ user_id: number; access_level: number; created_at: string }>)
      : [];
  for (const row of rowsOf('Namespace', groupIds)) count(row.user_id, row.access_level, row.created_at, 'group_member');
  for (const row of rowsOf('Project', projectIds)) count(row.user_id, row.access_level, row.created_at, 'project_member');
  const invited = (sharedType: SourceType, ids: number[], type: MembershipType) => {
    if (!ids.length) return;
    const links = db
      .prepare(`SELECT group_id, group_access, created_at FROM group_links WHERE shared_type = ? AND shared_id IN (SELECT value FROM json_each(?)) AND ${NOT_EXPIRED}`)
      .all(sharedType, JSON.stringify(ids), day) as Array<{ group_id: number; group_access: number; created_at: string }>;
    for (const link of links) {
      for (const row of rowsOf('Namespace', groupChain(db, link.group_id))) {
        const joined = row.created_at > link.created_at ? row.created_at : link.created_at;
        count(row.user_id, Math.min(row.access_level, link.group_access), joined, type);
      }
    }
  };
  invited('Namespace', groupIds, 'group_invite');
  invited('Project', projectIds, 'project_invite');

  const result = new Map<number, BillableUser>();
  const order: MembershipType[] = ['group_member', 'project_member', 'group_invite', 'project_invite'];
  for (const [userId, entry] of seen) {
    const user = userById(db, userId);
    if (!user || user.state !== 'active' || !isHuman(user)) continue;
    result.set(userId, { user, accessLevel: entry.level, joinedAt: entry.joinedAt, membershipType: order.find((type) => entry.types.has(type))! });
  }
  return result;
}

export const BILLABLE_SORTS = [
  'access_level_asc', 'access_level_desc', 'last_joined', 'name_asc', 'name_desc', 'oldest_joined', 'oldest_sign_in',
  'recent_sign_in', 'last_activity_on_asc', 'last_activity_on_desc',
] as const;
export type BillableSort = (typeof BILLABLE_SORTS)[number];

/** Nulls go last unless `nullsFirst`; ties fall back to the user id, as the platform's default is id order. */
function compareNullable(a: string | null, b: string | null, direction: 1 | -1, nullsFirst = false): number {
  if (a === b) return 0;
  if (a === null) return nullsFirst ? -1 : 1;
  if (b === null) return nullsFirst ? 1 : -1;
  return a < b ? -direction : direction;
}

export function sortBillable(users: BillableUser[], sort: BillableSort | undefined): BillableUser[] {
  const name = (entry: BillableUser) => entry.user.name.toLowerCase();
  const comparators: Record<BillableSort, (a: BillableUser, b: BillableUser) => number> = {
    access_level_asc: (a, b) => a.accessLevel - b.accessLevel,
    access_level_desc: (a, b) => b.accessLevel - a.accessLevel,
    last_joined: (a, b) => compareNullable(a.joinedAt, b.joinedAt, -1),
    oldest_joined: (a, b) => compareNullable(a.joinedAt, b.joinedAt, 1),
    name_asc: (a, b) => compareNullable(name(a), name(b), 1),
    name_desc: (a, b) => compareNullable(name(a), name(b), -1),
    oldest_sign_in: (a, b) => compareNullable(a.user.last_sign_in_at, b.user.last_sign_in_at, 1),
    recent_sign_in: (a, b) => compareNullable(a.user.last_sign_in_at, b.user.last_sign_in_at, -1),
    last_activity_on_asc: (a, b) => compareNullable(a.user.last_activity_on, b.user.last_activity_on, 1, true),
    last_activity_on_desc: (a, b) => compareNullable(a.user.last_activity_on, b.user.last_activity_on, -1),
  };
  const primary = sort ? comparators[sort] : () => 0;
  return [...users].sort((a, b) => primary(a, b) || a.user.id - b.user.id);
}

/** `full_name` of a group ("Parent / Child") or a project ("Parent / Child / Project"). */
export function sourceFullName(db: Db, sourceType: SourceType, sourceId: number): string {
  const namespaceName = (namespaceId: number) =>
    groupChain(db, namespaceId)
      .reverse()
      .map((id) => (db.prepare('SELECT name FROM namespaces WHERE id = ?').get(id) as { name: string }).name)
      .join(' / ');
  if (sourceType === 'Namespace') return namespaceName(sourceId);
  const project = db.prepare('SELECT name, namespace_id FROM projects WHERE id = ?').get(sourceId) as { name: string; namespace_id: number };
  return `${namespaceName(project.namespace_id)} / ${project.name}`;
}

/** Item of GET /groups/:id/billable_members/:user_id/memberships. */
export function billableMembershipEntity(sandbox: Sandbox, row: MemberRow) {
  const { db, config } = sandbox;
  const membersUrl = row.source_type === 'Namespace'
    ? `${config.externalUrl}/groups/${(db.prepare('SELECT full_path FROM namespaces WHERE id = ?').get(row.source_id) as { full_path: string }).full_path}/-/group_members`
    : `${config.externalUrl}/${(db.prepare('SELECT path_with_namespace FROM projects WHERE id = ?').get(row.source_id) as { path_with_namespace: string }).path_with_namespace}/-/project_members`;
  return {
    id: row.id,
    source_id: row.source_id,
    source_full_name: sourceFullName(db, row.source_type, row.source_id),
    source_members_url: membersUrl,
    created_at: row.created_at,
    expires_at: row.expires_at,
    access_level: {
      string_value: ROLE_NAMES[row.access_level] ?? String(row.access_level),
      integer_value: row.access_level,
      custom_role: null,
    },
  };
}

/** The personal project's namespace holder can be neither edited nor removed as a member. */
export function isPersonalNamespaceHolder(db: Db, source: MemberSource, userId: number): boolean {
  if (source.kind !== 'project') return false;
  const namespace = db.prepare('SELECT kind, owner_id FROM namespaces WHERE id = ?').get(source.project!.namespace_id) as { kind: string; owner_id: number | null };
  return namespace.kind === 'user' && namespace.owner_id === userId;
}
