import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import type { Db } from '../db.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { badRequest, forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { collectParamErrors, type ParamReader } from '../http/params.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { AccessLevel, authorizationsOf, effectiveRole, findReadableGroup, findReadableProject } from '../model/access.ts';
import { fullMessages, toSentence } from '../model/members.ts';
import { PERSONAL_TOKEN_SCOPES } from '../model/users.ts';
import { JOB_STATUSES, JobEntityCache, jobEntity, type JobRow } from '../model/pipelines.ts';
import { RESOURCE_TOKEN_SCOPES } from '../model/tokens.ts';
import {
  RUNNER_ACCESS_LEVELS, RUNNER_SCOPES, RUNNER_STATUS_FILTERS, RUNNER_TYPES, applyRunnerAttributes, findRunner,
  findRunnerByToken, groupRunnersCondition, heartbeat, insertRunner, loadRunnerRelations, normalizeTags,
  ownedRunnersCondition, projectRunnersCondition, runnerOwners, registrationScopeOf, resetRegistrationToken, resetRunnerToken,
  runnerDetailEntity, runnerEntity, runnerErrors, runnerFilters, runnerPermissions, runnerTags,
  type RunnerAttributes, type RunnerRow, type RunnerType,
} from '../model/runners.ts';

export { seedRunners } from '../model/runner-fleet.ts';

// manage_runner reaches /runners/:id and below, besides api (and read_api for reads)
const RUNNER_READ_SCOPES = ['api', 'read_api', 'manage_runner'] as const;
const RUNNER_WRITE_SCOPES = ['api', 'manage_runner'] as const;
// runner-token endpoints ignore the user's token: no scope of it may refuse them
const ANY_SCOPE = [...new Set<string>([...PERSONAL_TOKEN_SCOPES, ...RESOURCE_TOKEN_SCOPES])];


const UPDATE_ATTRIBUTES = ['description', 'active', 'paused', 'tag_list', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'];

/** `:id` of a runner route: Grape's Integer coercion answers 400 for anything else. */
function runnerId(c: Context<AppEnv>, name = 'id'): number {
  const raw = pathParam(c, name);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError(`${name} is invalid`);
  return Number(raw);
}

/** The runner's `token` parameter: required, but an empty one is just a token that matches nothing. */
function tokenParam(params: ParamReader): string {
  const token = params.string('token');
  if (token === undefined) throw paramError('token is missing');
  return token;
}

/** `::Ci::Runner.find`: a miss is ActiveRecord's 404 with a lower-case "found". */
function getRunner(db: Db, id: number): RunnerRow {
  const runner = findRunner(db, id);
  if (!runner) throw notFound();
  return runner;
}

/** `:id` of a project whose runners the caller manages (the platform's admin_project_runners: Maintainer). */
function maintainedProject(c: Context<AppEnv>, call: Call) {
  const { db } = call.sandbox;
  const project = findReadableProject(db, call.actor, pathParam(c, 'id'), call.now);
  if (effectiveRole(db, call.actor, { type: 'Project', id: project.id }, call.now) < AccessLevel.MAINTAINER) throw forbidden();
  return project;
}

function listRunners(c: Context<AppEnv>, call: Call, base: { sql: string; args: unknown[] } | null, scopes?: readonly string[]): Response {
  const { db } = call.sandbox;
  const filters = runnerFilters(db, call.params, call.now, { scopes });
  const where = [...(base ? [base.sql] : []), ...filters.where];
  const args = [...(base?.args ?? []), ...filters.args];
  const sql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ci_runners r ${sql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT r.* FROM ci_runners r ${sql} ORDER BY r.id LIMIT ? OFFSET ?`).all(...args, limit, offset) as RunnerRow[],
  });
  const relations = loadRunnerRelations(db, rows);
  return c.json(rows.map((runner) => runnerEntity(call.sandbox, runner, call.now, relations)));
}

/** The writable attributes of update and create, with Grape's type checks (all failures in one 400). */
function readRunnerAttributes(params: ParamReader, extraChecks: Array<() => void> = []): RunnerAttributes {
  const attributes: RunnerAttributes = {};
  let paused: boolean | undefined;
  collectParamErrors([
    ...extraChecks,
    () => (attributes.description = params.string('description')),
    () => (attributes.active = params.bool('active')),
    () => (paused = params.bool('paused')),
    () => {
      const tags = params.stringArray('tag_list');
      if (tags) attributes.tagList = normalizeTags(tags);
    },
    () => (attributes.runUntagged = params.bool('run_untagged')),
    () => (attributes.locked = params.bool('locked')),
    () => (attributes.accessLevel = params.oneOf('access_level', RUNNER_ACCESS_LEVELS)),
    () => (attributes.maximumTimeout = params.int('maximum_timeout')),
    () => (attributes.maintenanceNote = params.string('maintenance_note')),
    () => {
      if (params.has('active') && params.has('paused')) throw paramError('active, paused are mutually exclusive');
    },
  ]);
  if (paused !== undefined) attributes.active = !paused;
  for (const key of Object.keys(attributes) as Array<keyof RunnerAttributes>) if (attributes[key] === undefined) delete attributes[key];
  return attributes;
}

function assertValid(db: Db, runner: RunnerRow | null, attributes: RunnerAttributes): void {
  const current = runner ? { runUntagged: Boolean(runner.run_untagged), tags: runnerTags(db, runner.id) } : { runUntagged: true, tags: [] };
  const errors = runnerErrors(current, attributes);
  if (Object.keys(errors).length) throw validationError(errors);
}

/** `{token, token_expires_at}` (ResetTokenResult). */
const tokenResult = (token: string, runner: Pick<RunnerRow, 'token_expires_at'> | null) => ({ token, token_expires_at: runner?.token_expires_at ?? null });

function registrationAnswer(c: Context<AppEnv>, created: { id: number; token: string }) {
  return c.json({ id: created.id, token: created.token, token_expires_at: null }, 201);
}

export function registerRunners(routes: Router): void {
  // -- lists

  routes.get('/runners', {}, (c, call) => listRunners(c, call, ownedRunnersCondition(call.sandbox.db, call.actor.user!.id, call.now), RUNNER_STATUS_FILTERS));

  routes.get('/runners/all', { auth: 'admin' }, (c, call) => listRunners(c, call, null, RUNNER_SCOPES));

  routes.get('/projects/:id/runners', {}, (c, call) => {
    const project = maintainedProject(c, call);
    return listRunners(c, call, projectRunnersCondition(call.sandbox.db, project), RUNNER_SCOPES);
  });

  // -- a project runner shared with another project (RunnerProject): assigned by those who own it

  routes.post('/projects/:id/runners', {}, (c, call) => {
    const { db } = call.sandbox;
    const project = maintainedProject(c, call);
    let assigned: number | undefined;
    collectParamErrors([
      () => {
        assigned = call.params.int('runner_id');
        if (assigned === undefined) throw paramError('runner_id is missing');
      },
    ]);
    const runner = getRunner(db, assigned!);
    if (runner.runner_type === 'group_type') throw forbidden('Runner is a group runner');
    const isAdmin = call.actor.user!.is_admin;
    if (!isAdmin && runner.locked) throw forbidden('Runner is locked');
    if (!isAdmin && !runnerPermissions(db, call.actor, runner, call.now).update) throw forbidden('No access granted');
    // the platform cannot turn an instance runner into a project's (its AssignRunnerService fails)
    if (runner.runner_type === 'instance_type') throw badRequest('Runner is an instance runner');
    if (runnerOwners(db, runner.id).projectIds.includes(project.id)) throw badRequest('Runner has already been taken');
    db.prepare('INSERT INTO ci_runner_projects (runner_id, project_id, created_at) VALUES (?, ?, ?)').run(runner.id, project.id, call.now.toISOString());
    return c.json(runnerEntity(call.sandbox, runner, call.now, loadRunnerRelations(db, [runner])), 201);
  });

  routes.delete('/projects/:id/runners/:runner_id', {}, (c, call) => {
    const { db } = call.sandbox;
    const project = maintainedProject(c, call);
    const runner = findRunner(db, runnerId(c, 'runner_id'));
    const projectIds = runner ? runnerOwners(db, runner.id).projectIds : [];
    if (!runner || !projectIds.includes(project.id)) throw notFound('Runner');
    if (projectIds.length === 1) throw forbidden('Only one project associated with the runner. Please remove the runner instead');
    if (!call.actor.user!.is_admin) {
      if (projectIds[0] === project.id) throw forbidden('You cannot unassign a runner from the owner project. Delete the runner instead');
      if (runner.locked) throw forbidden('Runner is locked');
      if (!runnerPermissions(db, call.actor, runner, call.now).update) throw forbidden('User not allowed to unassign runner');
    }
    db.prepare('DELETE FROM ci_runner_projects WHERE runner_id = ? AND project_id = ?').run(runner.id, project.id);
    return c.body(null, 204);
  });

  routes.get('/groups/:id/runners', {}, (c, call) => {
    const { db } = call.sandbox;
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    if (effectiveRole(db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) throw forbidden();
    return listRunners(c, call, groupRunnersCondition(db, group));
  });

  // -- runner-token endpoints (the runner itself calls these; static paths before /runners/:id)

  routes.post('/runners/verify', { auth: 'public', scopes: ANY_SCOPE }, (c, call) => {
    let token: string | undefined;
    let systemId: string | undefined;
    collectParamErrors([() => (token = tokenParam(call.params)), () => (systemId = call.params.string('system_id'))]);
    const runner = findRunnerByToken(call.sandbox.db, token);
    if (!runner) throw forbidden();
    heartbeat(call.sandbox.db, runner, call.now, { systemId });
    return c.json({ id: runner.id, token, token_expires_at: runner.token_expires_at }, 200);
  });

  routes.post('/runners/reset_authentication_token', { auth: 'public', scopes: ANY_SCOPE }, (c, call) => {
    const token = tokenParam(call.params);
    const runner = findRunnerByToken(call.sandbox.db, token);
    if (!runner) throw forbidden();
    heartbeat(call.sandbox.db, runner, call.now);
    return c.json(tokenResult(resetRunnerToken(call.sandbox.db, runner, call.now), runner), 201);
  });

  routes.post('/runners/reset_registration_token', { auth: 'admin' }, (c, call) =>
    c.json(tokenResult(resetRegistrationToken(call.sandbox.db, { type: 'instance', id: 0 }, call.now), null), 201),
  );

  routes.post('/projects/:id/runners/reset_registration_token', {}, (c, call) => {
    const { db } = call.sandbox;
    const project = findReadableProject(db, call.actor, pathParam(c, 'id'), call.now);
    if (effectiveRole(db, call.actor, { type: 'Project', id: project.id }, call.now) < AccessLevel.MAINTAINER) throw forbidden();
    return c.json(tokenResult(resetRegistrationToken(db, { type: 'project', id: project.id }, call.now), null), 201);
  });

  routes.post('/groups/:id/runners/reset_registration_token', {}, (c, call) => {
    const { db } = call.sandbox;
    const group = findReadableGroup(db, call.actor, pathParam(c, 'id'), call.now);
    if (effectiveRole(db, call.actor, { type: 'Namespace', id: group.id }, call.now) < AccessLevel.OWNER) throw forbidden();
    return c.json(tokenResult(resetRegistrationToken(db, { type: 'group', id: group.id }, call.now), null), 201);
  });

  // legacy registration with a registration token (spec 1, 4.3)
  routes.post('/runners', { auth: 'public', scopes: ANY_SCOPE }, (c, call) => {
    const { params } = call;
    let token = '';
    let info: NonNullable<Parameters<typeof insertRunner>[1]['info']> = {};
    let maintainerNote: string | undefined;
    const attributes = readRunnerAttributes(params, [
      () => (token = tokenParam(params)),
      () => (maintainerNote = params.string('maintainer_note')),
      () => {
        if (params.has('maintainer_note') && params.has('maintenance_note')) throw paramError('maintainer_note, maintenance_note are mutually exclusive');
      },
      () => (info = runnerInfo(params)),
    ]);
    if (attributes.maintenanceNote === undefined && maintainerNote !== undefined) attributes.maintenanceNote = maintainerNote;
    const { db } = call.sandbox;
    const scope = registrationScopeOf(db, token);
    const owner = scope && scope.type !== 'instance'
      ? (db.prepare(scope.type === 'group' ? "SELECT id FROM namespaces WHERE id = ? AND kind = 'group'" : 'SELECT id FROM projects WHERE id = ?').get(scope.id) as { id: number } | undefined)
      : undefined;
    if (!scope || (scope.type !== 'instance' && !owner)) throw forbidden('invalid token supplied');
    assertValid(db, null, attributes);
    const runnerType: RunnerType = scope.type === 'instance' ? 'instance_type' : scope.type === 'group' ? 'group_type' : 'project_type';
    const created = insertRunner(db, {
      runnerType,
      registrationType: 'registration_token',
      creatorId: null,
      groupId: scope.type === 'group' ? scope.id : undefined,
      projectId: scope.type === 'project' ? scope.id : undefined,
      attributes,
      info,
    }, call.now);
    return registrationAnswer(c, created);
  });

  routes.delete('/runners', { auth: 'public', scopes: ANY_SCOPE }, (c, call) => {
    const runner = findRunnerByToken(call.sandbox.db, tokenParam(call.params));
    if (!runner) throw forbidden();
    call.sandbox.db.prepare('DELETE FROM ci_runners WHERE id = ?').run(runner.id);
    return c.body(null, 204);
  });

  // -- create for the current user (POST /user/runners)

  routes.post('/user/runners', { scopes: ['api', 'create_runner'] }, (c, call) => {
    const { params } = call;
    const { db } = call.sandbox;
    let runnerType: RunnerType | undefined;
    let groupId: number | undefined;
    let projectId: number | undefined;
    const attributes = readRunnerAttributes(params, [
      () => {
        runnerType = params.oneOf('runner_type', RUNNER_TYPES);
        if (!runnerType) throw paramError('runner_type is missing');
      },
      () => {
        if (params.string('runner_type') !== 'group_type') return;
        groupId = params.int('group_id');
        if (groupId === undefined) throw paramError('group_id is missing');
      },
      () => {
        if (params.string('runner_type') !== 'project_type') return;
        projectId = params.int('project_id');
        if (projectId === undefined) throw paramError('project_id is missing');
      },
    ]);
    // locked defaults to false and run_untagged to true (the endpoint's declared defaults)
    attributes.locked ??= false;
    attributes.runUntagged ??= true;
    const actorRole = (source: { type: 'Namespace' | 'Project'; id: number }) => effectiveRole(db, call.actor, source, call.now);
    if (runnerType === 'group_type') {
      if (!db.prepare("SELECT 1 FROM namespaces WHERE id = ? AND kind = 'group'").get(groupId)) throw badRequest('Missing/invalid group');
      if (actorRole({ type: 'Namespace', id: groupId! }) < AccessLevel.OWNER) throw forbidden('Insufficient permissions');
    } else if (runnerType === 'project_type') {
      if (!db.prepare('SELECT 1 FROM projects WHERE id = ?').get(projectId)) throw badRequest('Missing/invalid project');
      if (actorRole({ type: 'Project', id: projectId! }) < AccessLevel.MAINTAINER) throw forbidden('Insufficient permissions');
    } else if (!call.actor.user!.is_admin) {
      throw forbidden('Insufficient permissions');
    }
    const errors = runnerErrors({ runUntagged: true, tags: [] }, attributes);
    if (Object.keys(errors).length) throw badRequest(toSentence(fullMessages(errors)));
    const created = insertRunner(db, {
      runnerType: runnerType!,
      registrationType: 'authenticated_user',
      creatorId: call.actor.user!.id,
      groupId: runnerType === 'group_type' ? groupId : undefined,
      projectId: runnerType === 'project_type' ? projectId : undefined,
      attributes,
    }, call.now);
    return registrationAnswer(c, created);
  });

  // -- one runner

  routes.get('/runners/:id', { scopes: RUNNER_READ_SCOPES }, (c, call) => {
    const id = runnerId(c);
    const runner = getRunner(call.sandbox.db, id);
    if (!runnerPermissions(call.sandbox.db, call.actor, runner, call.now).read) throw forbidden('No access granted');
    return c.json(runnerDetailEntity(call.sandbox, call.actor, runner, call.now));
  });

  routes.put('/runners/:id', { scopes: RUNNER_WRITE_SCOPES }, (c, call) => {
    const { db } = call.sandbox;
    const id = runnerId(c);
    const attributes = readRunnerAttributes(call.params, [
      () => {
        if (!UPDATE_ATTRIBUTES.some((name) => call.params.has(name))) {
          throw paramError(`${UPDATE_ATTRIBUTES.join(', ')} are missing, at least one parameter must be provided`);
        }
      },
    ]);
    const runner = getRunner(db, id);
    if (!runnerPermissions(db, call.actor, runner, call.now).update) throw forbidden('No access granted');
    assertValid(db, runner, attributes);
    applyRunnerAttributes(db, runner.id, attributes, call.now);
    return c.json(runnerDetailEntity(call.sandbox, call.actor, getRunner(db, runner.id), call.now));
  });

  routes.delete('/runners/:id', { scopes: RUNNER_WRITE_SCOPES }, (c, call) => {
    const { db } = call.sandbox;
    const runner = getRunner(db, runnerId(c));
    const refusal = runnerPermissions(db, call.actor, runner, call.now).deleteRefusal;
    if (refusal) throw forbidden(refusal);
    db.prepare('DELETE FROM ci_runners WHERE id = ?').run(runner.id);
    return c.body(null, 204);
  });

  routes.post('/runners/:id/reset_authentication_token', { scopes: RUNNER_WRITE_SCOPES }, (c, call) => {
    const { db } = call.sandbox;
    const runner = getRunner(db, runnerId(c));
    if (!runnerPermissions(db, call.actor, runner, call.now).update) throw forbidden('No access granted');
    return c.json(tokenResult(resetRunnerToken(db, runner, call.now), runner), 201);
  });

  routes.get('/runners/:id/jobs', { scopes: RUNNER_READ_SCOPES }, (c, call) => {
    const { db } = call.sandbox;
    const { params } = call;
    const id = runnerId(c);
    let systemId: string | undefined;
    let status: string | undefined;
    let orderBy: string | undefined;
    let sort: 'asc' | 'desc' = 'desc';
    collectParamErrors([
      () => (systemId = params.string('system_id')),
      () => (status = params.oneOf('status', JOB_STATUSES)),
      () => (orderBy = params.oneOf('order_by', ['id'] as const)),
      () => (sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc'),
      () => params.string('cursor'),
      () => params.int('page'),
      () => params.int('per_page'),
    ]);
    const runner = getRunner(db, id);
    if (!runnerPermissions(db, call.actor, runner, call.now).listJobs) throw forbidden('No access granted');
    const where = ['j.runner_id = ?'];
    const args: unknown[] = [runner.id];
    if (systemId) {
      where.push('j.system_id = ?');
      args.push(systemId);
    }
    if (status) {
      where.push('j.status = ?');
      args.push(status);
    }
    const user = call.actor.user!;
    if (!user.is_admin) {
      // only jobs of projects where the caller is Reporter or more (spec 1, 4.3)
      const reporterProjects = [...authorizationsOf(db, user.id, call.now).projects].filter(([, level]) => level >= AccessLevel.REPORTER).map(([projectId]) => projectId);
      where.push('j.project_id IN (SELECT value FROM json_each(?))');
      args.push(JSON.stringify(reporterProjects));
    }
    const order = orderBy === 'id' ? `j.id ${sort}` : 'j.id desc';
    const sql = where.join(' AND ');
    const rows = pageOfQuery(c, params, {
      count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ci_builds j WHERE ${sql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
      rows: (limit, offset) => db.prepare(`SELECT j.* FROM ci_builds j WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, limit, offset) as JobRow[],
    });
    const cache = new JobEntityCache();
    return c.json(rows.map((job) => jobEntity(call.sandbox, job, call.now, { withProject: true, cache })));
  });
}

/** The `info` hash a registering runner sends about itself: name, version, revision, platform, architecture. */
function runnerInfo(params: ParamReader): { name?: string; version?: string; revision?: string; platform?: string; architecture?: string } {
  const raw = params.raw.info;
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw paramError('info is invalid');
  const info: Record<string, string> = {};
  for (const key of ['name', 'version', 'revision', 'platform', 'architecture']) {
    const value = raw[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') throw paramError(`info[${key}] is invalid`);
    info[key] = String(value);
  }
  return info;
}
