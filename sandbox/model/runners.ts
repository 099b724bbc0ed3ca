import type { Db } from '../db.ts';
import type { Actor, Sandbox, UserRow } from '../context.ts';
import { newSecret, tokenDigest } from '../http/auth.ts';
import { HttpError, paramError } from '../http/errors.ts';
import { collectParamErrors, type ParamReader } from '../http/params.ts';
import { AccessLevel, authorizationsOf, groupChain, type Authorizations, type NamespaceRow, type ProjectRow } from './access.ts';
import { projectIdentity, projectSettings, userBasic } from './entities.ts';

export const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number];
/** Statuses of the `status` filter, the deprecated `active` and `paused` first (Ci::Runner). */
export const RUNNER_STATUS_FILTERS = ['active', 'paused', 'online', 'offline', 'never_contacted', 'stale'] as const;
/** Every value the deprecated `scope` parameter passes Grape with. */
export const RUNNER_SCOPES = ['specific', 'shared', ...RUNNER_TYPES, ...RUNNER_STATUS_FILTERS] as const;
export const RUNNER_ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;

/** A runner that has not called in for this long is offline (Ci::Runner::ONLINE_CONTACT_TIMEOUT). */
export const ONLINE_CONTACT_TIMEOUT_MS = 2 * 3_600_000;
/** Stale after 7 days without contact (reduced from 3 months in GitLab 17.x, MR 155795). */
export const STALE_TIMEOUT_MS = 7 * 86_400_000;

export const MAINTENANCE_NOTE_MAX = 1024;
export const DESCRIPTION_MAX = 1024;
export const TAG_LIST_MAX = 50;
export const MINIMUM_TIMEOUT_SECONDS = 600;
/** Runners created through the API (`POST /user/runners`) carry this token prefix. */
export const CREATED_RUNNER_TOKEN_PREFIX = 'glrt-';
/** Legacy registration tokens start with this (the platform's routable token prefix). */
export const REGISTRATION_TOKEN_PREFIX = 'GR1348941';

export interface RunnerRow {
  id: number;
  runner_type: RunnerType;
  name: string | null;
  description: string | null;
  active: number;
  locked: number;
  run_untagged: number;
  access_level: string;
  maximum_timeout: number | null;
  maintenance_note: string | null;
  token_digest: string;
  token_expires_at: string | null;
  registration_type: string;
  creator_id: number | null;
  version: string | null;
  revision: string | null;
  platform: string | null;
  architecture: string | null;
  system_id: string | null;
  contacted_at: string | null;
  created_at: string;
  updated_at: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
export const onlineDeadline = (now: Date) => iso(now.getTime() - ONLINE_CONTACT_TIMEOUT_MS);
export const staleDeadline = (now: Date) => iso(now.getTime() - STALE_TIMEOUT_MS);

/** `online`: true or false once the runner has called in, null before (the platform's `contacted_at && ...`). */
export function runnerOnline(runner: Pick<RunnerRow, 'contacted_at'>, now: Date): boolean | null {
  if (!runner.contacted_at) return null;
  return runner.contacted_at > onlineDeadline(now);
}

/** The model's status: stale, never_contacted, online or offline (GraphQL and the runner fleet counts). */
export function runnerModelStatus(runner: Pick<RunnerRow, 'contacted_at' | 'created_at'>, now: Date): 'online' | 'offline' | 'stale' | 'never_contacted' {
  const latest = runner.contacted_at && runner.contacted_at > runner.created_at ? runner.contacted_at : runner.created_at;
  if (latest <= staleDeadline(now)) return 'stale';
  if (!runner.contacted_at) return 'never_contacted';
  return runner.contacted_at > onlineDeadline(now) ? 'online' : 'offline';
}

/** The REST `status` (the platform's deprecated_rest_status): like the model's, but a paused runner that called in is `paused`. */
export function runnerRestStatus(runner: Pick<RunnerRow, 'contacted_at' | 'created_at' | 'active'>, now: Date): string {
  const status = runnerModelStatus(runner, now);
  if (status === 'stale' || status === 'never_contacted') return status;
  return runner.active ? status : 'paused';
}

/** SQL over `r` for one value of `scope`, `type` or `status` (the platform's named scopes). */
export function scopeCondition(scope: string, now: Date): { sql: string; args: unknown[] } {
  switch (scope) {
    case 'specific':
      return { sql: "r.runner_type IN ('group_type', 'project_type')", args: [] };
    case 'shared':
      return { sql: "r.runner_type = 'instance_type'", args: [] };
    case 'instance_type':
    case 'group_type':
    case 'project_type':
      return { sql: 'r.runner_type = ?', args: [scope] };
    case 'active':
      return { sql: 'r.active = 1', args: [] };
    case 'paused':
      return { sql: 'r.active = 0', args: [] };
    case 'online':
      return { sql: 'r.contacted_at > ?', args: [onlineDeadline(now)] };
    case 'offline':
      // stale runners that did call in once are offline too (spec 1, 3)
      return { sql: 'r.contacted_at <= ?', args: [onlineDeadline(now)] };
    case 'never_contacted':
      return { sql: 'r.contacted_at IS NULL', args: [] };
    case 'stale': {
      const deadline = staleDeadline(now);
      return { sql: 'r.created_at <= ? AND (r.contacted_at IS NULL OR r.contacted_at <= ?)', args: [deadline, deadline] };
    }
    default:
      throw new Error(`unknown runner scope ${scope}`);
  }
}

/**
 * The platform's version prefix match (RunnerManager.with_version_prefix): by whole components, so
 * `15.1` matches 15.1.x but not 15.10.0, and `16.1.241` matches exactly that patch.
 */
export function versionMatchesPrefix(version: string | null, prefix: string): boolean {
  if (!version) return false;
  let pattern: RegExp;
  let wanted = prefix;
  if (/\d+\.\d+\.\d+/.test(prefix)) {
    pattern = /^\d+\.\d+\.\d+/;
  } else {
    pattern = /\d+\.\d+(\.)?/.test(prefix) ? /^\d+\.\d+\./ : /^\d+\./;
    if (!wanted.endsWith('.')) wanted += '.';
  }
  const match = pattern.exec(version);
  return match !== null && match[0] === wanted;
}

export interface RunnerFilters {
  where: string[];
  args: unknown[];
}

/**
 * Reads the list filters (spec 1, 4.3): `scope` (when the endpoint takes it), `type`, `status`,
 * `paused`, `tag_list`, `version_prefix`, and turns them into SQL over `ci_runners r`. Grape's 400s
 * come first, all together; a `scope` the endpoint does not allow answers 400 "Scope contains invalid value".
 */
export function runnerFilters(db: Db, params: ParamReader, now: Date, options: { scopes?: readonly string[] }): RunnerFilters {
  let scope: string | undefined;
  let type: string | undefined;
  let status: string | undefined;
  let paused: boolean | undefined;
  let tags: string[] | undefined;
  let versionPrefix: string | undefined;
  collectParamErrors([
    ...(options.scopes ? [() => (scope = params.oneOf('scope', RUNNER_SCOPES))] : []),
    () => (type = params.oneOf('type', RUNNER_TYPES)),
    () => (paused = params.bool('paused')),
    () => (status = params.oneOf('status', RUNNER_STATUS_FILTERS)),
    () => (tags = params.stringArray('tag_list')),
    () => {
      versionPrefix = params.string('version_prefix');
      if (versionPrefix !== undefined && !/^[\d+.]+/.test(versionPrefix)) throw paramError('version_prefix is invalid');
    },
    () => params.int('page'),
    () => params.int('per_page'),
  ]);
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (condition: { sql: string; args: unknown[] }) => {
    where.push(`(${condition.sql})`);
    args.push(...condition.args);
  };
  if (scope) {
    // render_api_error!: a 400 with a `message`, unlike Grape's own `error` bodies
    if (!options.scopes!.includes(scope)) throw new HttpError(400, { message: 'Scope contains invalid value' });
    add(scopeCondition(scope, now));
  }
  if (type) add(scopeCondition(type, now));
  if (status) add(scopeCondition(status, now));
  if (paused !== undefined) add(scopeCondition(paused ? 'paused' : 'active', now));
  if (versionPrefix) {
    const versions = (db.prepare('SELECT DISTINCT version FROM ci_runners WHERE version IS NOT NULL').pluck().all() as string[])
      .filter((version) => versionMatchesPrefix(version, versionPrefix!));
    add({ sql: 'r.version IN (SELECT value FROM json_each(?))', args: [JSON.stringify(versions)] });
  }
  for (const tag of new Set((tags ?? []).map((name) => name.trim()).filter(Boolean))) {
    add({ sql: 'EXISTS (SELECT 1 FROM ci_runner_taggings t WHERE t.runner_id = r.id AND t.name = ?)', args: [tag] });
  }
  return { where, args };
}

// -- ownership and permissions

export interface RunnerOwners {
  projectIds: number[];
  groupId: number | null;
}

export function runnerOwners(db: Db, runnerId: number): RunnerOwners {
  const projectIds = db.prepare('SELECT project_id FROM ci_runner_projects WHERE runner_id = ? ORDER BY created_at, project_id').pluck().all(runnerId) as number[];
  const groupId = (db.prepare('SELECT namespace_id FROM ci_runner_namespaces WHERE runner_id = ?').pluck().get(runnerId) as number | undefined) ?? null;
  return { projectIds, groupId };
}

/** What the caller may do with one runner, from the platform's RunnerPolicy and the rules of spec 1, 4.3. */
export interface RunnerPermissions {
  read: boolean;
  update: boolean;
  /** Why deleting is refused, or null when it is allowed. */
  deleteRefusal: string | null;
  listJobs: boolean;
}

const levelIn = (map: Map<number, number>, id: number) => map.get(id) ?? 0;

/**
 * An owned runner (User#ci_owned_runners): a group runner of a group where the caller is Owner, or a
 * project runner of a project where the caller is Maintainer or more.
 */
function ownsRunner(runner: RunnerRow, owners: RunnerOwners, auth: Authorizations): boolean {
  if (runner.runner_type === 'group_type') return owners.groupId !== null && levelIn(auth.groups, owners.groupId) >= AccessLevel.OWNER;
  if (runner.runner_type === 'project_type') return owners.projectIds.some((id) => levelIn(auth.projects, id) >= AccessLevel.MAINTAINER);
  return false;
}

export function runnerPermissions(db: Db, actor: Actor, runner: RunnerRow, now: Date): RunnerPermissions {
  const user = actor.user!;
  if (user.is_admin) return { read: true, update: true, deleteRefusal: null, listJobs: true };
  const owners = runnerOwners(db, runner.id);
  const auth = authorizationsOf(db, user.id, now);
  const owned = ownsRunner(runner, owners, auth);
  // spec 1, 4.3: instance runners are readable by anyone signed in, others from Developer up
  const read = runner.runner_type === 'instance_type' || owned ||
    (runner.runner_type === 'group_type' && owners.groupId !== null && levelIn(auth.groups, owners.groupId) >= AccessLevel.DEVELOPER) ||
    (runner.runner_type === 'project_type' && owners.projectIds.some((id) => levelIn(auth.projects, id) >= AccessLevel.DEVELOPER));
  const update = owned ||
    (runner.runner_type === 'project_type' && owners.projectIds.length > 0 && levelIn(auth.projects, owners.projectIds[0]) >= AccessLevel.MAINTAINER);
  let deleteRefusal: string | null = null;
  if (owners.projectIds.length > 1) deleteRefusal = 'Runner associated with more than one project';
  else if (!owned) deleteRefusal = 'No access granted';
  return { read, update, deleteRefusal, listJobs: owned };
}

/**
 * SQL over `r` for the runners a user owns (`GET /runners`): project runners of projects where the user
 * is Maintainer or more, group runners of groups where the user is Owner. Instance runners never.
 */
export function ownedRunnersCondition(db: Db, userId: number, now: Date): { sql: string; args: unknown[] } {
  const auth = authorizationsOf(db, userId, now);
  const projects = [...auth.projects].filter(([, level]) => level >= AccessLevel.MAINTAINER).map(([id]) => id);
  const groups = [...auth.groups].filter(([, level]) => level >= AccessLevel.OWNER).map(([id]) => id);
  return {
    sql: `(EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id AND rp.project_id IN (SELECT value FROM json_each(?)))
       OR EXISTS (SELECT 1 FROM ci_runner_namespaces rn WHERE rn.runner_id = r.id AND rn.namespace_id IN (SELECT value FROM json_each(?))))`,
    args: [JSON.stringify(projects), JSON.stringify(groups)],
  };
}

const groupSettings = (group: NamespaceRow) => JSON.parse(group.settings) as Record<string, unknown>;

/** Runners a project can use: its own, its ancestor groups' (unless disabled) and the instance's (unless disabled). */
export function projectRunnersCondition(db: Db, project: ProjectRow): { sql: string; args: unknown[] } {
  const settings = projectSettings(project) as Record<string, unknown>;
  const parts = ['EXISTS (SELECT 1 FROM ci_runner_projects rp WHERE rp.runner_id = r.id AND rp.project_id = ?)'];
  const args: unknown[] = [project.id];
  const namespace = db.prepare('SELECT * FROM namespaces WHERE id = ?').get(project.namespace_id) as NamespaceRow;
  if (namespace.kind === 'group' && settings.group_runners_enabled !== false) {
    parts.push("(r.runner_type = 'group_type' AND EXISTS (SELECT 1 FROM ci_runner_namespaces rn WHERE rn.runner_id = r.id AND rn.namespace_id IN (SELECT value FROM json_each(?))))");
    args.push(JSON.stringify(groupChain(db, namespace.id)));
  }
  if (settings.shared_runners_enabled !== false) parts.push("r.runner_type = 'instance_type'");
  return { sql: `(${parts.join(' OR ')})`, args };
}

/** Runners a group can use: its own and its ancestors', and the instance's unless the group turned them off. */
export function groupRunnersCondition(db: Db, group: NamespaceRow): { sql: string; args: unknown[] } {
  const parts = ["(r.runner_type = 'group_type' AND EXISTS (SELECT 1 FROM ci_runner_namespaces rn WHERE rn.runner_id = r.id AND rn.namespace_id IN (SELECT value FROM json_each(?))))"];
  const args: unknown[] = [JSON.stringify(groupChain(db, group.id))];
  const setting = groupSettings(group).shared_runners_setting ?? 'enabled';
  if (setting === 'enabled') parts.push("r.runner_type = 'instance_type'");
  return { sql: `(${parts.join(' OR ')})`, args };
}

// -- entities

/** What the list entity needs besides the row, for a whole page at once. */
export interface RunnerRelations {
  creators: Map<number, UserRow>;
  busy: Set<number>;
}

export function loadRunnerRelations(db: Db, runners: readonly RunnerRow[]): RunnerRelations {
  const creatorIds = JSON.stringify([...new Set(runners.map((runner) => runner.creator_id).filter((id) => id !== null))]);
  const creators = new Map((db.prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?))').all(creatorIds) as UserRow[]).map((user) => [user.id, user]));
  const busy = new Set(
    db.prepare("SELECT DISTINCT runner_id FROM ci_builds WHERE status IN ('running', 'canceling') AND runner_id IN (SELECT value FROM json_each(?))")
      .pluck().all(JSON.stringify(runners.map((runner) => runner.id))) as number[],
  );
  return { creators, busy };
}

/** The runner list item (spec 1, 2.2; the platform's Entities::Ci::Runner). */
export function runnerEntity(sandbox: Sandbox, runner: RunnerRow, now: Date, relations: RunnerRelations) {
  const creator = runner.creator_id === null ? undefined : relations.creators.get(runner.creator_id);
  return {
    id: runner.id,
    description: runner.description,
    // deprecated: an empty string since release 17.0 (spec 1, 9.3)
    ip_address: '',
    active: Boolean(runner.active),
    paused: !runner.active,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: runner.name,
    online: runnerOnline(runner, now),
    created_by: creator ? userBasic(sandbox, creator) : null,
    created_at: runner.created_at,
    status: runnerRestStatus(runner, now),
    job_execution_status: relations.busy.has(runner.id) ? 'active' : 'idle',
  };
}

export function runnerTags(db: Db, runnerId: number): string[] {
  return db.prepare('SELECT name FROM ci_runner_taggings WHERE runner_id = ? ORDER BY rowid').pluck().all(runnerId) as string[];
}

/** The runner detail: the list item plus settings, tags, agent data and the projects and groups the caller may see. */
export function runnerDetailEntity(sandbox: Sandbox, actor: Actor, runner: RunnerRow, now: Date) {
  const { db } = sandbox;
  const owners = runnerOwners(db, runner.id);
  const user = actor.user!;
  const auth = user.is_admin ? null : authorizationsOf(db, user.id, now);
  const visibleProjects = owners.projectIds.filter((id) => !auth || auth.projects.has(id));
  const projects = visibleProjects.map((id) => projectIdentity(sandbox, db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow));
  const groups = owners.groupId !== null && (!auth || auth.groups.has(owners.groupId))
    ? [db.prepare('SELECT * FROM namespaces WHERE id = ?').get(owners.groupId) as NamespaceRow].map((group) => ({
        id: group.id,
        web_url: `${sandbox.config.externalUrl}/groups/${group.full_path}`,
        name: group.name,
      }))
    : [];
  const permissions = runnerPermissions(db, actor, runner, now);
  return {
    ...runnerEntity(sandbox, runner, now, loadRunnerRelations(db, [runner])),
    tag_list: runnerTags(db, runner.id),
    run_untagged: Boolean(runner.run_untagged),
    locked: Boolean(runner.locked),
    maximum_timeout: runner.maximum_timeout,
    access_level: runner.access_level,
    version: runner.version,
    revision: runner.revision,
    platform: runner.platform,
    architecture: runner.architecture,
    contacted_at: runner.contacted_at,
    // the platform shows the note only to those who may edit the runner
    maintenance_note: permissions.update ? runner.maintenance_note : null,
    projects,
    groups,
  };
}

// -- writes

export interface RunnerAttributes {
  description?: string;
  active?: boolean;
  tagList?: string[];
  runUntagged?: boolean;
  locked?: boolean;
  accessLevel?: string;
  maximumTimeout?: number | null;
  maintenanceNote?: string;
}

/** Tags as the platform keeps them: trimmed, without blanks or repeats, in the order given. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))];
}

/** The model's validation errors for a runner after applying `attributes` (empty when valid). */
export function runnerErrors(current: { runUntagged: boolean; tags: string[] }, attributes: RunnerAttributes): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const tags = attributes.tagList ?? current.tags;
  const runUntagged = attributes.runUntagged ?? current.runUntagged;
  if (tags.length === 0 && !runUntagged) add('tags_list', 'can not be empty when runner is not allowed to pick untagged jobs');
  if (attributes.tagList && tags.length > TAG_LIST_MAX) add('tags_list', `Too many tags specified. Please limit the number of tags to ${TAG_LIST_MAX}`);
  if (attributes.description !== undefined && attributes.description.length > DESCRIPTION_MAX) add('description', `is too long (maximum is ${DESCRIPTION_MAX} characters)`);
  if (attributes.maximumTimeout !== undefined && attributes.maximumTimeout !== null && attributes.maximumTimeout < MINIMUM_TIMEOUT_SECONDS) {
    add('maximum_timeout', 'needs to be at least 10 minutes');
  }
  if (attributes.maintenanceNote !== undefined && attributes.maintenanceNote.length > MAINTENANCE_NOTE_MAX) {
    add('maintenance_note', `is too long (maximum is ${MAINTENANCE_NOTE_MAX} characters)`);
  }
  return errors;
}

export function setRunnerTags(db: Db, runnerId: number, tags: readonly string[]): void {
  db.prepare('DELETE FROM ci_runner_taggings WHERE runner_id = ?').run(runnerId);
  const insert = db.prepare('INSERT INTO ci_runner_taggings (runner_id, name) VALUES (?, ?)');
  for (const tag of tags) insert.run(runnerId, tag);
}

export function applyRunnerAttributes(db: Db, runnerId: number, attributes: RunnerAttributes, now: Date): void {
  const columns: Record<string, unknown> = {};
  if (attributes.description !== undefined) columns.description = attributes.description;
  if (attributes.active !== undefined) columns.active = attributes.active ? 1 : 0;
  if (attributes.runUntagged !== undefined) columns.run_untagged = attributes.runUntagged ? 1 : 0;
  if (attributes.locked !== undefined) columns.locked = attributes.locked ? 1 : 0;
  if (attributes.accessLevel !== undefined) columns.access_level = attributes.accessLevel;
  if (attributes.maximumTimeout !== undefined) columns.maximum_timeout = attributes.maximumTimeout;
  if (attributes.maintenanceNote !== undefined) columns.maintenance_note = attributes.maintenanceNote;
  columns.updated_at = now.toISOString();
  const names = Object.keys(columns);
  db.prepare(`UPDATE ci_runners SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`).run(...names.map((name) => columns[name]), runnerId);
  if (attributes.tagList) setRunnerTags(db, runnerId, attributes.tagList);
}

/** A fresh authentication token: `glrt-` for runners created by a user, none for legacy registrations. */
export function newRunnerToken(registrationType: string): string {
  return newSecret(registrationType === 'authenticated_user' ? CREATED_RUNNER_TOKEN_PREFIX : '');
}

export interface NewRunner {
  runnerType: RunnerType;
  registrationType: 'authenticated_user' | 'registration_token';
  creatorId: number | null;
  groupId?: number;
  projectId?: number;
  attributes: RunnerAttributes;
  info?: { name?: string; version?: string; revision?: string; platform?: string; architecture?: string };
}

/** Inserts a runner with its owner and tags; returns its id and its authentication token, shown once. */
export function insertRunner(db: Db, input: NewRunner, now: Date): { id: number; token: string } {
  const token = newRunnerToken(input.registrationType);
  const stamp = now.toISOString();
  const { attributes, info } = input;
  const result = db
    .prepare(
      `INSERT INTO ci_runners (runner_type, name, description, active, locked, run_untagged, access_level, maximum_timeout,
         maintenance_note, token_digest, registration_type, creator_id, version, revision, platform, architecture, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      input.runnerType, info?.name ?? null, attributes.description ?? null, attributes.active === false ? 0 : 1,
      attributes.locked ? 1 : 0, attributes.runUntagged === false ? 0 : 1, attributes.accessLevel ?? 'not_protected',
      attributes.maximumTimeout ?? null, attributes.maintenanceNote ?? null, tokenDigest(token), input.registrationType,
      input.creatorId, info?.version ?? null, info?.revision ?? null, info?.platform ?? null, info?.architecture ?? null, stamp, stamp,
    );
  const id = Number(result.lastInsertRowid);
  if (input.projectId !== undefined) db.prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(id, input.projectId, stamp);
  if (input.groupId !== undefined) db.prepare('INSERT INTO ci_runner_namespaces (runner_id, namespace_id) VALUES (?, ?)').run(id, input.groupId);
  setRunnerTags(db, id, attributes.tagList ?? []);
  return { id, token };
}

export function findRunner(db: Db, id: number): RunnerRow | undefined {
  return db.prepare('SELECT * FROM ci_runners WHERE id = ?').get(id) as RunnerRow | undefined;
}

export function findRunnerByToken(db: Db, token: string | undefined): RunnerRow | undefined {
  if (!token) return undefined;
  return db.prepare('SELECT * FROM ci_runners WHERE token_digest = ?').get(tokenDigest(token)) as RunnerRow | undefined;
}

/** Gives the runner a new authentication token (same prefix scheme); the old one stops working at once. */
export function resetRunnerToken(db: Db, runner: RunnerRow, now: Date): string {
  const token = newRunnerToken(runner.registration_type);
  db.prepare('UPDATE ci_runners SET token_digest = ?, updated_at = ? WHERE id = ?').run(tokenDigest(token), now.toISOString(), runner.id);
  return token;
}

/** A runner calling in: `contacted_at` becomes now, with what it says about itself. */
export function heartbeat(db: Db, runner: RunnerRow, now: Date, details: { systemId?: string } = {}): void {
  db.prepare('UPDATE ci_runners SET contacted_at = ?, system_id = COALESCE(?, system_id) WHERE id = ?').run(now.toISOString(), details.systemId ?? null, runner.id);
}

export type RegistrationScope = { type: 'instance'; id: 0 } | { type: 'group'; id: number } | { type: 'project'; id: number };

/** Replaces the registration token of the instance, a group or a project; returns the new secret. */
export function resetRegistrationToken(db: Db, scope: RegistrationScope, now: Date): string {
  const token = newSecret(REGISTRATION_TOKEN_PREFIX);
  db.prepare(
    `INSERT INTO ci_registration_tokens (scope_type, scope_id, token_digest, created_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (scope_type, scope_id) DO UPDATE SET token_digest = excluded.token_digest, created_at = excluded.created_at`,
  ).run(scope.type, scope.id, tokenDigest(token), now.toISOString());
  return token;
}

export function registrationScopeOf(db: Db, token: string): RegistrationScope | undefined {
  const row = db.prepare('SELECT scope_type, scope_id FROM ci_registration_tokens WHERE token_digest = ?').get(tokenDigest(token)) as
    | { scope_type: 'instance' | 'group' | 'project'; scope_id: number }
    | undefined;
  if (!row) return undefined;
  return row.scope_type === 'instance' ? { type: 'instance', id: 0 } : { type: row.scope_type, id: row.scope_id };
}
