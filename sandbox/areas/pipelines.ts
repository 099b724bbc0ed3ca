import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { forbidden, notFound, paramError, validationError } from '../http/errors.ts';
import { newSecret } from '../http/auth.ts';
import { userBasic } from '../model/entities.ts';
import type { UserRow } from '../context.ts';
import { collectParamErrors, type ParamValue } from '../http/params.ts';
import { pageOfQuery } from '../http/pagination.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import { AccessLevel, effectiveRole, findReadableProject, type ProjectRow } from '../model/access.ts';
import { canAccessBranch } from '../model/protected-branches.ts';
import {
  JOB_STATUSES, JobEntityCache, PIPELINE_SOURCES, PIPELINE_STATUSES, bridgeEntity, findPipeline, jobEntity, pipelineBasic, pipelineEntity, requirePipelineRead,
  type JobRow, type PipelineRow,
} from '../model/pipelines.ts';
import { branchHead, existingRepository, listBranches, listTags } from '../git/repository.ts';
import { buildPendingRepository } from '../seed/repositories.ts';
import { ciWorker, createPipeline, type PipelineVariableInput } from '../ci/worker.ts';
import { testReport, testReportSummary } from '../ci/junit.ts';
import type { JobTestResults, TestSuite } from '../ci/junit.ts';

/** `:pipeline_id`, `:job_id`: Grape's Integer coercion answers 400 for anything else. */
export function idParam(c: Context<AppEnv>, name: string): number {
  const raw = pathParam(c, name);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw paramError(`${name} is invalid`);
  return Number(raw);
}

/** The project of a CI route and the caller's role there, after the pipelines read check. */
export function ciProject(c: Context<AppEnv>, call: Call): { project: ProjectRow; role: number } {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  const role = requirePipelineRead(call.sandbox.db, call.actor, project, call.now);
  return { project, role };
}

/**
 * `update_pipeline` / `update_build`: Developers, on a protected branch only those who may push to
 * or merge into it (Gitlab::UserAccess#can_update_branch?).
 */
export function canRunOnRef(call: Call, project: ProjectRow, role: number, ref: { ref: string; tag: number | boolean }): boolean {
  if (!call.actor.user || role < AccessLevel.DEVELOPER || project.archived) return false;
  if (ref.tag) return true;
  const { db } = call.sandbox;
  return canAccessBranch(db, call.actor, project, ref.ref, 'push', call.now) || canAccessBranch(db, call.actor, project, ref.ref, 'merge', call.now);
}

/** `scope` of the jobs lists: one status or several (`scope[]=`), each one of the job statuses. */
export function jobScopes(call: Call): string[] | undefined {
  const scopes = call.params.stringArray('scope');
  if (scopes === undefined) return undefined;
  if (scopes.some((scope) => !(JOB_STATUSES as readonly string[]).includes(scope))) throw paramError('scope does not have a valid value');
  return scopes;
}

/**
 * Answers a page of jobs for a SQL condition over `j`, filtered by `scope[]`: a project's newest
 * first, a pipeline's in the order they were created (the platform's default order by id).
 */
export function jobsPage(c: Context<AppEnv>, call: Call, base: { where: string[]; args: unknown[]; order: 'ASC' | 'DESC'; extraChecks?: Array<() => void>; type?: 'Ci::Build' | 'Ci::Bridge' }) {
  const { db } = call.sandbox;
  let scopes: string[] | undefined;
  collectParamErrors([() => (scopes = jobScopes(call)), ...(base.extraChecks ?? []), () => call.params.int('page'), () => call.params.int('per_page')]);
  const where = [...base.where, `j.type = '${base.type ?? 'Ci::Build'}'`];
  const args = [...base.args];
  if (scopes?.length) {
    where.push('j.status IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(scopes));
  }
  const sql = where.join(' AND ');
  const rows = pageOfQuery(c, call.params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ci_builds j WHERE ${sql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT j.* FROM ci_builds j WHERE ${sql} ORDER BY j.id ${base.order} LIMIT ? OFFSET ?`).all(...args, limit, offset) as JobRow[],
  });
  const cache = new JobEntityCache();
  return c.json(rows.map((job) => (job.type === 'Ci::Bridge' ? bridgeEntity(call.sandbox, job, call.now, cache) : jobEntity(call.sandbox, job, call.now, { cache }))));
}

const ORDERS = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const;
const SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;

/** Ci::PipelinesFinder over the list's parameters (spec 3, 4.5). */
async function listPipelines(c: Context<AppEnv>, call: Call, project: ProjectRow): Promise<Response> {
  const { db } = call.sandbox;
  const { params } = call;
  let scope: (typeof SCOPES)[number] | undefined;
  let status: string | undefined;
  let source: string | undefined;
  let orderBy: (typeof ORDERS)[number] = 'id';
  let sort: 'asc' | 'desc' = 'desc';
  let updatedAfter: string | undefined;
  let updatedBefore: string | undefined;
  let yamlErrors: boolean | undefined;
  collectParamErrors([
    () => (scope = params.oneOf('scope', SCOPES)),
    () => (status = params.oneOf('status', PIPELINE_STATUSES)),
    () => (source = params.oneOf('source', PIPELINE_SOURCES)),
    () => (orderBy = params.oneOf('order_by', ORDERS) ?? 'id'),
    () => (sort = params.oneOf('sort', ['asc', 'desc'] as const) ?? 'desc'),
    () => (updatedAfter = params.dateTime('updated_after')),
    () => (updatedBefore = params.dateTime('updated_before')),
    () => (yamlErrors = params.bool('yaml_errors')),
    () => params.string('ref'),
    () => params.string('sha'),
    () => params.string('name'),
    () => params.string('username'),
    () => params.int('page'),
    () => params.int('per_page'),
  ]);
  const where = ['p.project_id = ?'];
  const args: unknown[] = [project.id];
  // child pipelines only when asked for by their source
  if (source) {
    where.push('p.source = ?');
    args.push(source);
  } else {
    where.push("p.source != 'parent_pipeline'");
  }
  if (scope === 'running') where.push("p.status = 'running'");
  if (scope === 'pending') where.push("p.status = 'pending'");
  if (scope === 'finished') where.push("p.status IN ('success', 'failed', 'canceled', 'skipped')");
  if (scope === 'branches' || scope === 'tags') {
    // the latest pipeline of each existing branch (or tag)
    buildPendingRepository(call.sandbox, project);
    const repo = existingRepository(call.sandbox, project);
    const names = scope === 'branches' ? (await listBranches(repo)).map((ref) => ref.name) : (await listTags(repo)).map((ref) => ref.name);
    where.push(`p.id IN (SELECT max(id) FROM ci_pipelines WHERE project_id = ? AND tag = ? AND ref IN (SELECT value FROM json_each(?)) GROUP BY ref)`);
    args.push(project.id, scope === 'tags' ? 1 : 0, JSON.stringify(names));
  }
  const equal = (column: string, value: unknown) => {
    where.push(`${column} = ?`);
    args.push(value);
  };
  if (status) equal('p.status', status);
  const ref = params.string('ref');
  if (ref) equal('p.ref', ref);
  const sha = params.string('sha');
  if (sha) equal('p.sha', sha);
  const name = params.string('name');
  if (name) equal('p.name', name);
  const username = params.string('username');
  if (username) {
    where.push('p.user_id = (SELECT id FROM users WHERE username = ?)');
    args.push(username);
  }
  if (yamlErrors !== undefined) where.push(yamlErrors ? 'p.yaml_errors IS NOT NULL' : 'p.yaml_errors IS NULL');
  if (updatedAfter) {
    where.push('p.updated_at > ?');
    args.push(updatedAfter);
  }
  if (updatedBefore) {
    where.push('p.updated_at < ?');
    args.push(updatedBefore);
  }
  const sql = where.join(' AND ');
  const order = orderBy === 'id' ? `p.id ${sort}` : `p.${orderBy} ${sort}, p.id ${sort}`;
  const rows = pageOfQuery(c, params, {
    count: (cap) => (db.prepare(`SELECT count(*) AS n FROM (SELECT 1 FROM ci_pipelines p WHERE ${sql} LIMIT ?)`).get(...args, cap + 1) as { n: number }).n,
    rows: (limit, offset) => db.prepare(`SELECT p.* FROM ci_pipelines p WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...args, limit, offset) as PipelineRow[],
  });
  return c.json(rows.map((row) => pipelineBasic(call.sandbox, project, row)));
}

const isHash = (value: ParamValue | undefined): value is Record<string, ParamValue> => typeof value === 'object' && value !== null && !Array.isArray(value);
const VARIABLE_KEY = /^[a-zA-Z0-9_]+$/;

/** `variables`: an array of {key, value, variable_type}; a hash of them indexed by position also arrives from forms. */
export function variablesParam(raw: ParamValue | undefined, name: string, options: { types: boolean }): PipelineVariableInput[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const items = Array.isArray(raw) ? raw : isHash(raw) ? Object.values(raw) : null;
  if (!items) throw paramError(`${name} is invalid`);
  const errors: string[] = [];
  const variables = items.map((item, index) => {
    if (!isHash(item)) {
      errors.push(`${name}[${index}] is invalid`);
      return null;
    }
    const key = item.key;
    const value = item.value ?? '';
    const type = item.variable_type ?? 'env_var';
    if (key === undefined || key === null || key === '') errors.push(`${name}[${index}][key] is missing`);
    else if (typeof key === 'object') errors.push(`${name}[${index}][key] is invalid`);
    if (typeof value === 'object' && value !== null) errors.push(`${name}[${index}][value] is invalid`);
    if (options.types && type !== 'env_var' && type !== 'file') errors.push(`${name}[${index}][variable_type] does not have a valid value`);
    return { key: String(key ?? ''), value: value === null ? '' : String(value), variable_type: (type === 'file' ? 'file' : 'env_var') as PipelineVariableInput['variable_type'] };
  });
  if (errors.length) throw paramError(errors.join(', '));
  const keys = new Set<string>();
  for (const variable of variables as PipelineVariableInput[]) {
    if (variable.key.length > 255) throw validationError({ [`${name}.key`]: ['is too long (maximum is 255 characters)'] });
    if (!VARIABLE_KEY.test(variable.key)) throw validationError({ [`${name}.key`]: ["can contain only letters, digits and '_'."] });
    if (keys.has(variable.key)) throw validationError({ [`${name}.key`]: [`(${variable.key}) has already been taken`] });
    keys.add(variable.key);
  }
  return variables as PipelineVariableInput[];
}

/** `inputs`: a hash of names to strings, numbers, booleans or arrays. */
function inputsParam(raw: ParamValue | undefined): Record<string, unknown> | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (!isHash(raw)) throw paramError('inputs is invalid');
  return raw;
}

/** The pipeline's test report: the suites of its latest jobs' JUnit reports. */
function pipelineSuites(call: Call, pipelineId: number): JobTestResults[] {
  const rows = call.sandbox.db.prepare(
    `SELECT r.build_id, j.name, r.suites FROM ci_test_reports r JOIN ci_builds j ON j.id = r.build_id
     WHERE r.pipeline_id = ? AND j.retried = 0 ORDER BY j.stage_idx, j.id`,
  ).all(pipelineId) as Array<{ build_id: number; name: string; suites: string }>;
  return rows.map((row) => ({ jobId: row.build_id, jobName: row.name, suites: JSON.parse(row.suites) as TestSuite[] }));
}

export function registerPipelines(routes: Router): void {
  const read = { auth: 'public' as const };
  registerPipelineTriggers(routes);

  routes.get('/projects/:id/pipelines', read, async (c, call) => {
    const { project } = ciProject(c, call);
    return listPipelines(c, call, project);
  });

  // before /:pipeline_id: `latest` is a path of its own
  routes.get('/projects/:id/pipelines/latest', read, async (c, call) => {
    const { project } = ciProject(c, call);
    const ref = call.params.string('ref') || project.default_branch;
    buildPendingRepository(call.sandbox, project);
    const head = await branchHead(existingRepository(call.sandbox, project), ref);
    const pipeline = head
      ? (call.sandbox.db.prepare("SELECT * FROM ci_pipelines WHERE project_id = ? AND ref = ? AND sha = ? AND source != 'parent_pipeline' ORDER BY id DESC LIMIT 1").get(project.id, ref, head) as PipelineRow | undefined)
      : undefined;
    // spec 3, 7: no pipeline for the latest commit is a 403
    if (!pipeline) throw forbidden();
    return c.json(pipelineEntity(call.sandbox, project, pipeline));
  });

  routes.get('/projects/:id/pipelines/:pipeline_id', read, (c, call) => {
    const { project } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    return c.json(pipelineEntity(call.sandbox, project, pipeline));
  });

  routes.get('/projects/:id/pipelines/:pipeline_id/variables', read, (c, call) => {
    const { project, role } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    // pipeline variables are the Developers' (read_pipeline_variable)
    if (role < AccessLevel.DEVELOPER) throw forbidden();
    const rows = call.sandbox.db.prepare('SELECT key, value, variable_type FROM ci_pipeline_variables WHERE pipeline_id = ? ORDER BY id').all(pipeline.id) as PipelineVariableInput[];
    return c.json(rows.map((row) => ({ variable_type: row.variable_type, key: row.key, value: row.value })));
  });

  routes.get('/projects/:id/pipelines/:pipeline_id/jobs', read, (c, call) => {
    const { project } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    let includeRetried = false;
    const where = ['j.pipeline_id = ?'];
    return jobsPage(c, call, {
      where,
      args: [pipeline.id],
      order: 'ASC',
      extraChecks: [() => {
        includeRetried = call.params.bool('include_retried') ?? false;
        if (!includeRetried) where.push('j.retried = 0');
      }],
    });
  });

  // trigger jobs: each with the child pipeline it started
  routes.get('/projects/:id/pipelines/:pipeline_id/bridges', read, (c, call) => {
    const { project } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    return jobsPage(c, call, { where: ['j.pipeline_id = ?', 'j.retried = 0'], args: [pipeline.id], order: 'ASC', type: 'Ci::Bridge' });
  });

  routes.get('/projects/:id/pipelines/:pipeline_id/test_report', read, (c, call) => {
    const { project } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    return c.json(testReport(pipelineSuites(call, pipeline.id)));
  });

  routes.get('/projects/:id/pipelines/:pipeline_id/test_report_summary', read, (c, call) => {
    const { project } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    return c.json(testReportSummary(pipelineSuites(call, pipeline.id)));
  });

  routes.post('/projects/:id/pipeline', { async: true }, async (c, call) => {
    const { project, role } = ciProject(c, call);
    const { params } = call;
    let ref = '';
    let variables: PipelineVariableInput[] = [];
    let inputs: Record<string, unknown> | undefined;
    collectParamErrors([
      () => (ref = params.requiredString('ref')),
      () => (variables = variablesParam(params.raw.variables, 'variables', { types: true })),
      () => (inputs = inputsParam(params.raw.inputs)),
    ]);
    if (role < AccessLevel.DEVELOPER || project.archived) throw forbidden();
    const isBranch = !(await isTagOnly(call, project, ref));
    if (isBranch && !canRunOnRef(call, project, role, { ref, tag: false })) {
      throw validationError({ base: [`You do not have sufficient permission to run a pipeline on '${ref}'. Please select a different branch or contact your administrator for assistance.`] });
    }
    const result = await createPipeline(call.sandbox, { project, ref, user: call.actor.user, source: 'api', variables, inputs, saveOnErrors: false });
    if (!result.ok) throw validationError({ base: result.errors });
    return c.json(pipelineEntity(call.sandbox, project, result.pipeline), 201);
  });

  routes.post('/projects/:id/pipelines/:pipeline_id/retry', {}, (c, call) => {
    const { project, role } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    if (!canRunOnRef(call, project, role, pipeline)) throw forbidden();
    ciWorker(call.sandbox).retryPipeline(pipeline.id, call.actor.user!);
    return c.json(pipelineEntity(call.sandbox, project, findPipeline(call.sandbox.db, project.id, pipeline.id)), 201);
  });

  routes.post('/projects/:id/pipelines/:pipeline_id/cancel', {}, (c, call) => {
    const { project, role } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    if (!canRunOnRef(call, project, role, pipeline)) throw forbidden();
    ciWorker(call.sandbox).cancelPipeline(pipeline.id);
    return c.json(pipelineEntity(call.sandbox, project, findPipeline(call.sandbox.db, project.id, pipeline.id)));
  });

  routes.delete('/projects/:id/pipelines/:pipeline_id', {}, (c, call) => {
    const { project, role } = ciProject(c, call);
    const pipeline = findPipeline(call.sandbox.db, project.id, idParam(c, 'pipeline_id'));
    if (role < AccessLevel.OWNER) throw forbidden();
    const { db } = call.sandbox;
    const worker = ciWorker(call.sandbox);
    const ids = [pipeline.id, ...(db.prepare('SELECT id FROM ci_pipelines WHERE parent_pipeline_id = ?').pluck().all(pipeline.id) as number[])];
    for (const id of ids) {
      for (const job of db.prepare("SELECT * FROM ci_builds WHERE pipeline_id = ? AND status = 'running'").all(id) as JobRow[]) worker.abort(job.id);
      db.prepare('DELETE FROM ci_builds WHERE pipeline_id = ?').run(id);
    }
    db.prepare('DELETE FROM ci_pipelines WHERE id = ?').run(pipeline.id);
    return c.body(null, 204);
  });
}

/** Whether a ref names a tag and no branch (tags are not protected in the sandbox). */
async function isTagOnly(call: Call, project: ProjectRow, ref: string): Promise<boolean> {
  buildPendingRepository(call.sandbox, project);
  const repo = existingRepository(call.sandbox, project);
  if (await branchHead(repo, ref)) return false;
  return (await listTags(repo)).some((tag) => tag.name === ref);
}

interface TriggerRow {
  id: number;
  project_id: number;
  owner_id: number | null;
  token: string;
  description: string;
  last_used: string | null;
  created_at: string;
  updated_at: string;
}

/** The platform's Trigger entity: the full token for its owner, its first four characters for others. */
function triggerEntity(call: Call, trigger: TriggerRow) {
  const owner = trigger.owner_id === null ? undefined : (call.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(trigger.owner_id) as UserRow | undefined);
  return {
    id: trigger.id,
    token: trigger.owner_id === call.actor.user?.id ? trigger.token : trigger.token.slice(0, 4),
    description: trigger.description,
    created_at: trigger.created_at,
    updated_at: trigger.updated_at,
    last_used: trigger.last_used,
    owner: owner ? userBasic(call.sandbox, owner) : null,
  };
}

/** Pipeline trigger tokens and `POST /projects/:id/trigger/pipeline` (source `trigger`). */
export function registerPipelineTriggers(routes: Router): void {
  const maintainerProject = (c: Context<AppEnv>, call: Call) => {
    const { project, role } = ciProject(c, call);
    if (role < AccessLevel.MAINTAINER) throw forbidden();
    return project;
  };

  routes.get('/projects/:id/triggers', {}, (c, call) => {
    const project = maintainerProject(c, call);
    const rows = call.sandbox.db.prepare('SELECT * FROM ci_triggers WHERE project_id = ? ORDER BY id').all(project.id) as TriggerRow[];
    return c.json(rows.map((row) => triggerEntity(call, row)));
  });

  routes.post('/projects/:id/triggers', {}, (c, call) => {
    const description = call.params.requiredString('description');
    const project = maintainerProject(c, call);
    const stamp = call.now.toISOString();
    const id = Number(call.sandbox.db.prepare('INSERT INTO ci_triggers (project_id, owner_id, token, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(project.id, call.actor.user!.id, newSecret('glptt-'), description, stamp, stamp).lastInsertRowid);
    return c.json(triggerEntity(call, call.sandbox.db.prepare('SELECT * FROM ci_triggers WHERE id = ?').get(id) as TriggerRow), 201);
  });

  routes.delete('/projects/:id/triggers/:trigger_id', {}, (c, call) => {
    const project = maintainerProject(c, call);
    const removed = call.sandbox.db.prepare('DELETE FROM ci_triggers WHERE id = ? AND project_id = ?').run(idParam(c, 'trigger_id'), project.id).changes;
    if (!removed) throw notFound('Trigger');
    return c.body(null, 204);
  });

  // the trigger token in the body authenticates: no personal token needed
  routes.post('/projects/:id/trigger/pipeline', { auth: 'public', async: true }, async (c, call) => {
    const { db } = call.sandbox;
    let ref = '';
    let token = '';
    collectParamErrors([() => (ref = call.params.requiredString('ref')), () => (token = call.params.requiredString('token'))]);
    const raw = call.params.raw.variables;
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw paramError('variables is invalid');
    const variables = variablesParam(raw ? Object.entries(raw as Record<string, ParamValue>).map(([key, value]) => ({ key, value })) : undefined, 'variables', { types: false });
    const inputs = inputsParam(call.params.raw.inputs);
    const idOrPath = pathParam(c, 'id');
    const project = db.prepare(/^\d+$/.test(idOrPath) ? 'SELECT * FROM projects WHERE id = ?' : 'SELECT * FROM projects WHERE path_with_namespace = ?').get(/^\d+$/.test(idOrPath) ? Number(idOrPath) : idOrPath) as ProjectRow | undefined;
    const trigger = project && (db.prepare('SELECT * FROM ci_triggers WHERE token = ? AND project_id = ?').get(token, project.id) as TriggerRow | undefined);
    if (!project || !trigger) throw notFound();
    const owner = trigger.owner_id === null ? null : (db.prepare('SELECT * FROM users WHERE id = ?').get(trigger.owner_id) as UserRow | null);
    // the token acts as its owner: who must still be a Developer of the project
    const ownerActor = { user: owner, tokenId: null, scopes: new Set(['api']), via: 'access_token' as const, jobProjectId: null };
    if (!owner || owner.state !== 'active' || effectiveRole(db, ownerActor, { type: 'Project', id: project.id }, call.now) < AccessLevel.DEVELOPER) throw forbidden();
    const result = await createPipeline(call.sandbox, { project, ref, user: owner, source: 'trigger', variables, inputs, saveOnErrors: false });
    if (!result.ok) throw validationError({ base: result.errors });
    db.prepare('UPDATE ci_triggers SET last_used = ? WHERE id = ?').run(call.sandbox.now().toISOString(), trigger.id);
    return c.json(pipelineEntity(call.sandbox, project, result.pipeline), 201);
  });
}
