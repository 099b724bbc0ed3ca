import type { Context } from 'hono';
import type { AppEnv, UserRow } from '../context.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { HttpError, badRequest, conflict, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { collectParamErrors, type ParamReader } from '../http/params.ts';
import { pageOfArray } from '../http/pagination.ts';
import { AccessLevel, effectiveRole, findReadableGroup, groupDescendants, toMembership, type EffectiveMembership } from '../model/access.ts';
import {
  BILLABLE_SORTS, MemberPresenter, allMembers, billableMembershipEntity, billableUsers, directMemberRow,
  directMemberRows, findMemberSource, fullMessages, hierarchyMemberRows, isLastGroupOwner, isPersonalNamespaceHolder,
  matchesBillableSearch, matchesMemberQuery, memberUser, memberValidationErrors, sortBillable, toSentence, userById,
  type MemberRow, type MemberSource,
} from '../model/members.ts';
import { timestamp, today } from '../model/time.ts';

const MEMBER_STATES = ['awaiting', 'active'] as const;
// the platform refuses to add more users than this in one request
const INVITE_LIMIT = 100;


/** `:user_id` is an Integer on every members route. */
function userIdParam(c: Context<AppEnv>): number {
  const raw = pathParam(c, 'user_id');
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError('user_id is invalid');
  return Number(raw);
}

/** `expires_at` (a date or date-time; stored as its UTC date). Empty clears it on update. */
function expiresAtParam(params: ParamReader): string | null | undefined {
  const raw = params.raw.expires_at;
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  return params.dateTime('expires_at')!.slice(0, 10);
}

/** Who may add, edit or remove members: Owners of a group; Maintainers of a project. */
function requireMemberAdmin(call: Call, source: MemberSource, grantedLevel?: number): number {
  const role = effectiveRole(call.sandbox.db, call.actor, source, call.now);
  if (source.kind === 'group') {
    if (role < AccessLevel.OWNER) throw forbidden();
    return role;
  }
  if (role < AccessLevel.MAINTAINER) throw forbidden();
  // only a project Owner hands out Owner, the one role above Maintainer
  if (grantedLevel === AccessLevel.OWNER && role < AccessLevel.OWNER) throw forbidden();
  return role;
}

function listFilters(params: ParamReader, options: { skipUsers: boolean; state: boolean }) {
  let query: string | undefined;
  let userIds: number[] | undefined;
  let skipUsers: number[] | undefined;
  let showSeatInfo: boolean | undefined;
  let state: (typeof MEMBER_STATES)[number] | undefined;
  collectParamErrors([
    () => (query = params.string('query')),
    () => (userIds = params.intArray('user_ids')),
    () => (skipUsers = options.skipUsers ? params.intArray('skip_users') : undefined),
    () => (showSeatInfo = params.bool('show_seat_info')),
    () => (state = options.state ? params.oneOf('state', MEMBER_STATES) : undefined),
    () => params.int('page'),
    () => params.int('per_page'),
  ]);
  return { query, userIds, skipUsers, showSeatInfo: Boolean(showSeatInfo), state };
}

function filterMemberships(call: Call, presenter: MemberPresenter, rows: EffectiveMembership[], filters: ReturnType<typeof listFilters>) {
  const admin = Boolean(call.actor.user?.is_admin);
  return rows.filter((row) => {
    const user = presenter.user(row.userId);
    if (!user) return false;
    if (filters.query && !matchesMemberQuery(user, filters.query, admin)) return false;
    if (filters.userIds?.length && !filters.userIds.includes(row.userId)) return false;
    if (filters.skipUsers?.length && filters.skipUsers.includes(row.userId)) return false;
    if (filters.state && row.state !== filters.state) return false;
    return true;
  });
}

interface AddRequest {
  accessLevel: number;
  showSeatInfo: boolean;
  userId?: string;
  username?: string;
  expiresAt: string | null;
}

function readAddRequest(params: ParamReader): AddRequest {
  let accessLevel: number | undefined;
  let userId: string | undefined;
  let username: string | undefined;
  let expiresAt: string | null | undefined;
  let showSeatInfo: boolean | undefined;
  collectParamErrors([
    () => (accessLevel = params.requiredInt('access_level')),
    () => (userId = params.string('user_id')),
    () => (username = params.string('username')),
    () => (expiresAt = expiresAtParam(params)),
    () => (showSeatInfo = params.bool('show_seat_info')),
    () => {
      if (params.has('user_id') && params.has('username')) throw paramError('user_id, username are mutually exclusive');
    },
    () => {
      if (!params.has('user_id') && !params.has('username')) throw paramError('user_id, username are missing, at least one parameter must be provided');
    },
  ]);
  return { accessLevel: accessLevel!, showSeatInfo: Boolean(showSeatInfo), userId, username, expiresAt: expiresAt ?? null };
}

/** Stores a new direct membership; an expired row of the same user is the platform's purged row. */
function insertMember(call: Call, source: MemberSource, userId: number, accessLevel: number, expiresAt: string | null): MemberRow {
  const { db } = call.sandbox;
  const stamp = timestamp(call.now);
  db.prepare('DELETE FROM members WHERE source_type = ? AND source_id = ? AND user_id = ? AND expires_at IS NOT NULL AND expires_at <= ?')
    .run(source.type, source.id, userId, today(call.now));
  const result = db
    .prepare(
      `INSERT INTO members (source_type, source_id, user_id, access_level, state, expires_at, created_by_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'active', ?, ?, ?, ?)`,
    )
    .run(source.type, source.id, userId, accessLevel, expiresAt, call.actor.user!.id, stamp, stamp);
  return db.prepare('SELECT * FROM members WHERE id = ?').get(Number(result.lastInsertRowid)) as MemberRow;
}

function updateMember(call: Call, row: MemberRow, accessLevel: number, expiresAt: string | null): MemberRow {
  const { db } = call.sandbox;
  db.prepare('UPDATE members SET access_level = ?, expires_at = ?, updated_at = ? WHERE id = ?').run(accessLevel, expiresAt, timestamp(call.now), row.id);
  return db.prepare('SELECT * FROM members WHERE id = ?').get(row.id) as MemberRow;
}

/** POST with one user: 404 unknown user, 409 existing member, 403 rights, 400 validation, else 201. */
function addSingleMember(c: Context<AppEnv>, call: Call, source: MemberSource, request: AddRequest): Response {
  const { db } = call.sandbox;
  const user = request.username !== undefined
    ? (db.prepare('SELECT * FROM users WHERE username = ?').get(request.username) as UserRow | undefined)
    : /^\d+$/.test(request.userId!.trim())
      ? userById(db, Number(request.userId!.trim()))
      : undefined;
  if (!user) throw notFound('User');
  if (directMemberRow(db, source, user.id, call.now)) throw conflict('Member already exists');
  requireMemberAdmin(call, source, request.accessLevel);
  const errors = memberValidationErrors(db, source, { userId: user.id, accessLevel: request.accessLevel, expiresAt: request.expiresAt }, call.now);
  if (Object.keys(errors).length) throw validationError(errors);
  const row = insertMember(call, source, user.id, request.accessLevel, request.expiresAt);
  const presenter = new MemberPresenter(call.sandbox, call.actor, call.now, request.showSeatInfo);
  return c.json(presenter.entity(toMembership(row, true)), 201);
}

/**
 * POST with comma-separated users: the platform's create service answers 201 with a status
 * hash; each user failing validation is reported as "username: message", the others are added
 * (or, when already members, given the new role).
 */
function addSeveralMembers(c: Context<AppEnv>, call: Call, source: MemberSource, request: AddRequest): Response {
  const { db } = call.sandbox;
  requireMemberAdmin(call, source, request.accessLevel);
  const raw = [...new Set((request.username ?? request.userId!).split(',').map((item) => item.trim()).filter(Boolean))];
  const users = raw
    .map((item) => (request.username !== undefined
      ? (db.prepare('SELECT * FROM users WHERE username = ?').get(item) as UserRow | undefined)
      : /^\d+$/.test(item) ? userById(db, Number(item)) : undefined))
    .filter((user): user is UserRow => Boolean(user));
  const invites = request.username !== undefined ? users : raw;
  if (!invites.length) return c.json({ reason: 'blank_invites_error', message: 'No users specified.', status: 'error' }, 201);
  if (invites.length > INVITE_LIMIT) {
    return c.json({ reason: 'too_many_invites_error', message: `Too many users specified (limit is ${INVITE_LIMIT})`, status: 'error' }, 201);
  }
  const failures: string[] = [];
  for (const user of new Map(users.map((entry) => [entry.id, entry])).values()) {
    const errors = memberValidationErrors(db, source, { userId: user.id, accessLevel: request.accessLevel, expiresAt: request.expiresAt }, call.now);
    if (Object.keys(errors).length) {
      failures.push(`${user.username}: ${toSentence(fullMessages(errors))}`);
      continue;
    }
    const existing = directMemberRow(db, source, user.id, call.now);
    if (existing) updateMember(call, existing, request.accessLevel, request.expiresAt ?? existing.expires_at);
    else insertMember(call, source, user.id, request.accessLevel, request.expiresAt);
  }
  return c.json(failures.length ? { message: toSentence(failures), status: 'error' } : { status: 'success' }, 201);
}

function registerSourceRoutes(routes: Router, kind: 'group' | 'project'): void {
  const base = `/${kind}s/:id/members`;
  const source = (c: Context<AppEnv>, call: Call) => findMemberSource(call.sandbox.db, call.actor, kind, pathParam(c, 'id'), call.now);

  routes.get(base, {}, (c, call) => {
    const filters = listFilters(call.params, { skipUsers: true, state: false });
    const target = source(c, call);
    const presenter = new MemberPresenter(call.sandbox, call.actor, call.now, filters.showSeatInfo);
    const rows = filterMemberships(call, presenter, directMemberRows(call.sandbox.db, target, call.now).map((row) => toMembership(row, true)), filters);
    return c.json(pageOfArray(c, call.params, rows).map((row) => presenter.entity(row)));
  });

  // registered before `:user_id` so that `all` is not read as a user id
  routes.get(`${base}/all`, {}, (c, call) => {
    const filters = listFilters(call.params, { skipUsers: false, state: true });
    const target = source(c, call);
    const presenter = new MemberPresenter(call.sandbox, call.actor, call.now, filters.showSeatInfo);
    const rows = filterMemberships(call, presenter, allMembers(call.sandbox.db, call.actor, target, call.now, filters.userIds), filters);
    return c.json(pageOfArray(c, call.params, rows).map((row) => presenter.entity(row)));
  });

  routes.get(`${base}/all/:user_id`, {}, (c, call) => {
    const userId = userIdParam(c);
    const target = source(c, call);
    const membership = allMembers(call.sandbox.db, call.actor, target, call.now, [userId]).find((row) => row.userId === userId);
    if (!membership) throw notFound();
    return c.json(new MemberPresenter(call.sandbox, call.actor, call.now, call.params.bool('show_seat_info') ?? false).entity(membership));
  });

  routes.get(`${base}/:user_id`, {}, (c, call) => {
    const userId = userIdParam(c);
    const target = source(c, call);
    const row = directMemberRow(call.sandbox.db, target, userId, call.now);
    if (!row) throw notFound();
    return c.json(new MemberPresenter(call.sandbox, call.actor, call.now, call.params.bool('show_seat_info') ?? false).entity(toMembership(row, true)));
  });

  routes.post(base, {}, (c, call) => {
    const request = readAddRequest(call.params);
    const target = source(c, call);
    const several = (request.userId ?? '').includes(',') || (request.username ?? '').includes(',');
    return several ? addSeveralMembers(c, call, target, request) : addSingleMember(c, call, target, request);
  });

  routes.put(`${base}/:user_id`, {}, (c, call) => {
    const { db } = call.sandbox;
    const userId = userIdParam(c);
    let accessLevel = 0;
    let expiresAt: string | null | undefined;
    let showSeatInfo: boolean | undefined;
    collectParamErrors([
      () => (accessLevel = call.params.requiredInt('access_level')),
      () => (expiresAt = expiresAtParam(call.params)),
      () => (showSeatInfo = call.params.bool('show_seat_info')),
    ]);
    const target = source(c, call);
    const row = directMemberRow(db, target, userId, call.now);
    if (!row) throw notFound();
    const role = requireMemberAdmin(call, target, accessLevel);
    // the last Owner may change their expiry, but not step down
    if (target.kind === 'group' && accessLevel < AccessLevel.OWNER && isLastGroupOwner(db, target.id, userId, call.now)) throw forbidden();
    if (target.kind === 'project') {
      if (isPersonalNamespaceHolder(db, target, userId)) throw forbidden();
      // an Owner of a project is changed by Owners only
      if (row.access_level === AccessLevel.OWNER && role < AccessLevel.OWNER) throw forbidden();
    }
    const nextExpiry = expiresAt === undefined ? row.expires_at : expiresAt;
    const errors = memberValidationErrors(db, target, { userId, accessLevel, expiresAt: nextExpiry }, call.now);
    if (Object.keys(errors).length) throw validationError(errors);
    const updated = updateMember(call, row, accessLevel, nextExpiry);
    return c.json(new MemberPresenter(call.sandbox, call.actor, call.now, Boolean(showSeatInfo)).entity(toMembership(updated, true)));
  });

  routes.delete(`${base}/:user_id`, {}, (c, call) => {
    const { db } = call.sandbox;
    const userId = userIdParam(c);
    let skipSubresources = false;
    collectParamErrors([
      () => (skipSubresources = call.params.bool('skip_subresources') ?? false),
      // issues and merge requests are unassigned by the platform in the background; nothing is stored here to undo
      () => call.params.bool('unassign_issuables'),
    ]);
    const target = source(c, call);
    const row = directMemberRow(db, target, userId, call.now);
    if (!row) throw notFound();
    const role = effectiveRole(db, call.actor, target, call.now);
    const leaving = call.actor.user!.id === userId;
    if (target.kind === 'group') {
      if (isLastGroupOwner(db, target.id, userId, call.now)) throw forbidden();
      if (role < AccessLevel.OWNER && !leaving) throw forbidden();
    } else {
      if (isPersonalNamespaceHolder(db, target, userId)) throw forbidden();
      if (role < AccessLevel.MAINTAINER && !leaving) throw forbidden();
      if (row.access_level === AccessLevel.OWNER && role < AccessLevel.OWNER) throw forbidden();
    }
    db.prepare('DELETE FROM members WHERE id = ?').run(row.id);
    if (target.kind === 'group' && !skipSubresources) {
      // the platform also removes the user's own memberships below the group
      const groups = groupDescendants(db, target.id);
      db.prepare(
        `DELETE FROM members WHERE user_id = ? AND (
           (source_type = 'Namespace' AND source_id IN (SELECT value FROM json_each(?)))
           OR (source_type = 'Project' AND source_id IN (SELECT id FROM projects WHERE namespace_id IN (SELECT value FROM json_each(?))))
         )`,
      ).run(userId, JSON.stringify(groups.filter((id) => id !== target.id)), JSON.stringify(groups));
    }
    return c.body(null, 204);
  });
}

/** Billable-member routes answer 400 without a reason for subgroups and non-Owners, as the platform does. */
function billableGroup(c: Context<AppEnv>, call: Call) {
  const group = findReadableGroup(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  if (group.parent_id !== null) throw badRequest();
  if (effectiveRole(call.sandbox.db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) throw badRequest();
  return group;
}

function registerBillableRoutes(routes: Router): void {
  routes.get('/groups/:id/billable_members', {}, (c, call) => {
    const { sandbox, actor, params, now } = call;
    let search: string | undefined;
    let sort: (typeof BILLABLE_SORTS)[number] | undefined;
    collectParamErrors([
      () => (search = params.string('search')),
      () => (sort = params.oneOf('sort', BILLABLE_SORTS)),
      () => params.int('page'),
      () => params.int('per_page'),
    ]);
    const group = billableGroup(c, call);
    const billable = [...billableUsers(sandbox.db, group.id, now).values()].filter((entry) => !search || matchesBillableSearch(entry.user, search));
    const page = pageOfArray(c, params, sortBillable(billable, sort));
    const admin = Boolean(actor.user?.is_admin);
    return c.json(page.map((entry) => {
      const { user } = entry;
      // the public email, or the private one for administrators and for the group's enterprise users
      const privateEmail = admin || user.enterprise_group_id === group.id;
      return {
        ...memberUser(sandbox, user),
        email: privateEmail ? user.email : user.public_email,
        last_activity_on: user.last_activity_on,
        membership_type: entry.membershipType,
        removable: entry.membershipType === 'group_member' || entry.membershipType === 'project_member',
        created_at: user.created_at,
        is_last_owner: isLastGroupOwner(sandbox.db, group.id, user.id, now),
        last_login_at: user.current_sign_in_at,
      };
    }));
  });

  routes.get('/groups/:id/billable_members/:user_id/memberships', {}, (c, call) => {
    const userId = userIdParam(c);
    collectParamErrors([() => call.params.int('page'), () => call.params.int('per_page')]);
    const group = billableGroup(c, call);
    if (!userById(call.sandbox.db, userId)) throw notFound();
    if (!billableUsers(call.sandbox.db, group.id, call.now).has(userId)) throw notFound('User');
    const rows = hierarchyMemberRows(call.sandbox.db, group.id, userId, call.now);
    return c.json(pageOfArray(c, call.params, rows).map((row) => billableMembershipEntity(call.sandbox, row)));
  });

  routes.delete('/groups/:id/billable_members/:user_id', {}, (c, call) => {
    const { db } = call.sandbox;
    const userId = userIdParam(c);
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    if (group.parent_id !== null) throw badRequest('Invalid group provided, must be top-level');
    if (effectiveRole(db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) {
      throw badRequest('User unauthorized to remove member');
    }
    const rows = hierarchyMemberRows(db, group.id, userId, call.now);
    // members who only reach the group through an invited group have no row here to remove
    if (!rows.length) throw badRequest('No member found for the given user_id');
    if (rows.some((row) => row.source_type === 'Namespace' && row.access_level === AccessLevel.OWNER && isLastGroupOwner(db, row.source_id, userId, call.now))) {
      throw badRequest('The last owner of a group cannot be removed');
    }
    db.prepare('DELETE FROM members WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(rows.map((row) => row.id)));
    return c.body(null, 204);
  });

  routes.put('/groups/:id/members/:user_id/state', {}, (c, call) => {
    const { db } = call.sandbox;
    const userId = userIdParam(c);
    const state = call.params.oneOf('state', MEMBER_STATES);
    if (state === undefined) throw paramError('state is missing');
    if (!userById(db, userId)) throw notFound('User');
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    if (group.parent_id !== null) throw badRequest();
    if (effectiveRole(db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) throw badRequest();
    const rows = hierarchyMemberRows(db, group.id, userId, call.now);
    if (!rows.length) throw new HttpError(422, { message: 'No memberships found' });
    if (state === 'awaiting') {
      if (call.actor.user!.id === userId) throw new HttpError(422, { message: 'You cannot set yourself to awaiting' });
      if (isLastGroupOwner(db, group.id, userId, call.now)) throw new HttpError(422, { message: 'The last owner cannot be set to awaiting' });
    }
    db.prepare('UPDATE members SET state = ?, updated_at = ? WHERE id IN (SELECT value FROM json_each(?))')
      .run(state, timestamp(call.now), JSON.stringify(rows.map((row) => row.id)));
    return c.json({ success: true });
  });
}

export function registerMembers(routes: Router): void {
  // the state route is more specific than PUT .../members/:user_id and must come first
  registerBillableRoutes(routes);
  registerSourceRoutes(routes, 'group');
  registerSourceRoutes(routes, 'project');
}
