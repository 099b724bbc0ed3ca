import type { Context } from 'hono';
import type { Db } from '../db.ts';
import type { Actor, AppEnv, UserRow } from '../context.ts';
import { forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { pageOfArray } from '../http/pagination.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, authorizationsOf, findReadableProject, type ProjectRow } from '../model/access.ts';
import { parseSshKey } from '../model/ssh-key.ts';
import { timestamp } from '../model/time.ts';
import { requireMaintainer } from '../git/access.ts';
import { projectIdentity } from '../model/entities.ts';

interface DeployKeyRow {
  id: number;
  user_id: number | null;
  title: string;
  key: string;
  fingerprint: string;
  fingerprint_sha256: string;
  public: number;
  usage_type: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

interface KeyProjectRow {
  id: number;
  deploy_key_id: number;
  project_id: number;
  can_push: number;
  created_at: string;
}

/** The DeployKey entity: SSHKey fields, the key text and both fingerprints. */
function deployKeyEntity(key: DeployKeyRow) {
  return {
    id: key.id,
    title: key.title,
    created_at: key.created_at,
    expires_at: key.expires_at,
    key: key.key,
    usage_type: key.usage_type,
    fingerprint: key.fingerprint,
    fingerprint_sha256: key.fingerprint_sha256,
  };
}

function keyProjectEntity(db: Db, link: KeyProjectRow) {
  const key = db.prepare('SELECT * FROM deploy_keys WHERE id = ?').get(link.deploy_key_id) as DeployKeyRow;
  return { ...deployKeyEntity(key), can_push: Boolean(link.can_push) };
}

/** ProjectIdentity, as the instance-wide list names the projects a key is enabled in. */
function readKeyParams(call: Call, options: { canPush: boolean }) {
  const { params } = call;
  let key = '';
  let title = '';
  let expiresAt: string | undefined;
  let canPush = false;
  collectParamErrors([
    () => {
      key = params.string('key') ?? (() => { throw paramError('key is missing'); })();
    },
    () => {
      title = params.string('title') ?? (() => { throw paramError('title is missing'); })();
    },
    ...(options.canPush ? [() => (canPush = params.bool('can_push') ?? false)] : []),
    () => (expiresAt = params.dateTime('expires_at')),
  ]);
  return { key: key.trim(), title, expiresAt, canPush };
}

/** The Key model's validations, with the attribute prefix of the form that failed. */
function keyErrors(db: Db, input: { key: string; title: string }, prefix: string) {
  const errors: Record<string, string[]> = {};
  const parsed = parseSshKey(input.key);
  if (!input.title.trim()) errors[`${prefix}title`] = ["can't be blank"];
  else if (input.title.length > 255) errors[`${prefix}title`] = ['is too long (maximum is 255 characters)'];
  if (!input.key) errors[`${prefix}key`] = ["can't be blank"];
  else if (!parsed) errors[`${prefix}key`] = ['is invalid'];
  if (!parsed) errors[`${prefix}fingerprint_sha256`] = ['cannot be generated'];
  else if (db.prepare('SELECT 1 FROM deploy_keys WHERE fingerprint_sha256 = ?').get(parsed.sha256)) errors[`${prefix}fingerprint_sha256`] = ['has already been taken'];
  return { errors, parsed };
}

function insertKey(call: Call, input: { title: string; expiresAt?: string; public: boolean }, parsed: NonNullable<ReturnType<typeof parseSshKey>>): DeployKeyRow {
  const stamp = timestamp(call.now);
  const result = call.sandbox.db
    .prepare('INSERT INTO deploy_keys (user_id, title, key, fingerprint, fingerprint_sha256, public, expires_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(call.actor.user!.id, input.title, parsed.text, parsed.md5, parsed.sha256, input.public ? 1 : 0, input.expiresAt ?? null, stamp, stamp);
  return call.sandbox.db.prepare('SELECT * FROM deploy_keys WHERE id = ?').get(Number(result.lastInsertRowid)) as DeployKeyRow;
}

/** Projects the user maintains (or owns): where their deploy keys are theirs to reuse. */
function maintainedProjectIds(db: Db, user: UserRow, now: Date): number[] {
  const { projects } = authorizationsOf(db, user.id, now);
  return [...projects].filter(([, level]) => level >= AccessLevel.MAINTAINER).map(([id]) => id);
}

/** `accessible_deploy_keys`: public keys and the keys of projects the caller maintains. */
function accessibleKeyIds(call: Call): Set<number> | 'all' {
  const user = call.actor.user!;
  if (user.is_admin) return 'all';
  const projectIds = maintainedProjectIds(call.sandbox.db, user, call.now);
  const rows = call.sandbox.db
    .prepare('SELECT id FROM deploy_keys WHERE public = 1 OR id IN (SELECT deploy_key_id FROM deploy_keys_projects WHERE project_id IN (SELECT value FROM json_each(?)))')
    .all(JSON.stringify(projectIds)) as Array<{ id: number }>;
  return new Set(rows.map((row) => row.id));
}

function maintainedProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  requireMaintainer(call, project);
  return project;
}

function keyIdParam(raw: string): number {
  if (!/^\d+$/.test(raw)) throw paramError('key_id is invalid');
  return Number(raw);
}

function findLink(db: Db, projectId: number, keyId: number): KeyProjectRow | undefined {
  return db.prepare('SELECT * FROM deploy_keys_projects WHERE project_id = ? AND deploy_key_id = ?').get(projectId, keyId) as KeyProjectRow | undefined;
}

function linkKey(call: Call, projectId: number, keyId: number, canPush: boolean): KeyProjectRow {
  const db = call.sandbox.db;
  db.prepare('INSERT INTO deploy_keys_projects (deploy_key_id, project_id, can_push, created_at) VALUES (?, ?, ?, ?)').run(keyId, projectId, canPush ? 1 : 0, timestamp(call.now));
  return findLink(db, projectId, keyId)!;
}

function findUser(db: Db, idOrUsername: string): UserRow | undefined {
  return (/^\d+$/.test(idOrUsername)
    ? db.prepare('SELECT * FROM users WHERE id = ?').get(Number(idOrUsername))
    : db.prepare('SELECT * FROM users WHERE username = ?').get(idOrUsername)) as UserRow | undefined;
}

export function registerDeployKeys(routes: Router): void {
  routes.get('/deploy_keys', { auth: 'admin' }, (c, call) => {
    const { db } = call.sandbox;
    const onlyPublic = call.params.bool('public') ?? false;
    const keys = db.prepare(`SELECT * FROM deploy_keys ${onlyPublic ? 'WHERE public = 1' : ''} ORDER BY id`).all() as DeployKeyRow[];
    const page = pageOfArray(c, call.params, keys);
    const links = db
      .prepare('SELECT l.deploy_key_id, l.can_push, p.* FROM deploy_keys_projects l JOIN projects p ON p.id = l.project_id WHERE l.deploy_key_id IN (SELECT value FROM json_each(?)) ORDER BY p.id')
      .all(JSON.stringify(page.map((key) => key.id))) as Array<ProjectRow & { deploy_key_id: number; can_push: number }>;
    return c.json(page.map((key) => ({
      ...deployKeyEntity(key),
      projects_with_write_access: links.filter((link) => link.deploy_key_id === key.id && link.can_push).map((link) => projectIdentity(call.sandbox, link)),
      projects_with_readonly_access: links.filter((link) => link.deploy_key_id === key.id && !link.can_push).map((link) => projectIdentity(call.sandbox, link)),
    })));
  });

  routes.post('/deploy_keys', { auth: 'admin' }, (c, call) => {
    const input = readKeyParams(call, { canPush: false });
    const { errors, parsed } = keyErrors(call.sandbox.db, input, '');
    if (Object.keys(errors).length || !parsed) throw validationError(errors);
    return c.json(deployKeyEntity(insertKey(call, { ...input, public: true }, parsed)), 201);
  });

  routes.get('/projects/:id/deploy_keys', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const links = call.sandbox.db.prepare('SELECT * FROM deploy_keys_projects WHERE project_id = ? ORDER BY id').all(project.id) as KeyProjectRow[];
    return c.json(pageOfArray(c, call.params, links).map((link) => keyProjectEntity(call.sandbox.db, link)));
  });

  routes.get('/projects/:id/deploy_keys/:key_id', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const link = findLink(call.sandbox.db, project.id, keyIdParam(pathParam(c, 'key_id')));
    if (!link) throw notFound();
    return c.json(keyProjectEntity(call.sandbox.db, link));
  });

  routes.post('/projects/:id/deploy_keys', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const { db } = call.sandbox;
    const input = readKeyParams(call, { canPush: true });
    const parsed = parseSshKey(input.key);
    if (parsed) {
      const existing = db.prepare('SELECT * FROM deploy_keys WHERE fingerprint_sha256 = ?').get(parsed.sha256) as DeployKeyRow | undefined;
      const already = existing && findLink(db, project.id, existing.id);
      if (already) return c.json(keyProjectEntity(db, already), 201);
      // a key the caller already reaches elsewhere is joined to this project instead of copied
      const accessible = accessibleKeyIds(call);
      if (existing && (accessible === 'all' || accessible.has(existing.id))) {
        return c.json(keyProjectEntity(db, linkKey(call, project.id, existing.id, input.canPush)), 201);
      }
    }
    const { errors } = keyErrors(db, input, 'deploy_key.');
    if (Object.keys(errors).length || !parsed) throw validationError(errors);
    const key = insertKey(call, { ...input, public: false }, parsed);
    return c.json(keyProjectEntity(db, linkKey(call, project.id, key.id, input.canPush)), 201);
  });

  routes.put('/projects/:id/deploy_keys/:key_id', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const { db } = call.sandbox;
    const { params } = call;
    const keyId = keyIdParam(pathParam(c, 'key_id'));
    const title = params.string('title');
    const canPush = params.bool('can_push');
    if (title === undefined && canPush === undefined) throw paramError('title, can_push are missing, at least one parameter must be provided');
    const link = findLink(db, project.id, keyId);
    if (!link) throw notFound();
    const key = db.prepare('SELECT * FROM deploy_keys WHERE id = ?').get(keyId) as DeployKeyRow;
    if (canPush !== undefined) db.prepare('UPDATE deploy_keys_projects SET can_push = ? WHERE id = ?').run(canPush ? 1 : 0, link.id);
    // an instance-wide key's title is the administrator's to change
    if (title !== undefined && (!key.public || call.actor.user!.is_admin)) {
      if (!title.trim()) throw validationError({ 'deploy_key.title': ["can't be blank"] });
      if (title.length > 255) throw validationError({ 'deploy_key.title': ['is too long (maximum is 255 characters)'] });
      db.prepare('UPDATE deploy_keys SET title = ?, updated_at = ? WHERE id = ?').run(title, timestamp(call.now), keyId);
    }
    return c.json(keyProjectEntity(db, findLink(db, project.id, keyId)!));
  });

  routes.post('/projects/:id/deploy_keys/:key_id/enable', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const { db } = call.sandbox;
    const keyId = keyIdParam(pathParam(c, 'key_id'));
    const key = db.prepare('SELECT * FROM deploy_keys WHERE id = ?').get(keyId) as DeployKeyRow | undefined;
    const accessible = accessibleKeyIds(call);
    if (!key || (accessible !== 'all' && !accessible.has(key.id))) throw notFound('Deploy key');
    if (!findLink(db, project.id, key.id)) linkKey(call, project.id, key.id, false);
    return c.json(deployKeyEntity(key), 201);
  });

  routes.delete('/projects/:id/deploy_keys/:key_id', {}, (c, call) => {
    const project = maintainedProject(c, call);
    const { db } = call.sandbox;
    const link = findLink(db, project.id, keyIdParam(pathParam(c, 'key_id')));
    if (!link) throw notFound('Deploy key');
    db.prepare('DELETE FROM deploy_keys_projects WHERE id = ?').run(link.id);
    // a project key no other project uses leaves the system with its last project
    const used = db.prepare('SELECT 1 FROM deploy_keys_projects WHERE deploy_key_id = ?').get(link.deploy_key_id);
    const key = db.prepare('SELECT public FROM deploy_keys WHERE id = ?').get(link.deploy_key_id) as { public: number };
    if (!used && !key.public) db.prepare('DELETE FROM deploy_keys WHERE id = ?').run(link.deploy_key_id);
    return c.body(null, 204);
  });

  routes.get('/users/:id/project_deploy_keys', {}, (c, call) => {
    const { db } = call.sandbox;
    const requester = call.actor.user!;
    const user = findUser(db, pathParam(c, 'id'));
    if (!user || !canSeeUser(call.actor, user)) throw notFound('User');
    let projectIds = maintainedProjectIds(db, requester, call.now);
    if (user.id !== requester.id) {
      const theirs = new Set(maintainedProjectIds(db, user, call.now));
      projectIds = projectIds.filter((id) => theirs.has(id));
    }
    if (!projectIds.length) throw forbidden('No common authorized projects found');
    const keys = db
      .prepare('SELECT * FROM deploy_keys WHERE id IN (SELECT deploy_key_id FROM deploy_keys_projects WHERE project_id IN (SELECT value FROM json_each(?))) ORDER BY id')
      .all(JSON.stringify(projectIds)) as DeployKeyRow[];
    return c.json(pageOfArray(c, call.params, keys).map(deployKeyEntity));
  });
}

/** Blocked and banned users are visible to administrators only, as the platform hides them. */
function canSeeUser(actor: Actor, user: UserRow): boolean {
  return Boolean(actor.user?.is_admin) || !['blocked', 'banned', 'blocked_pending_approval'].includes(user.state);
}

