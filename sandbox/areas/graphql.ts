/**
 * `POST /api/graphql`: the subset of the platform's GraphQL schema the console reads, with
 * graphql-js, named as the platform names it: a project's `ciConfigVariables(ref)` (the run form
 * prefills its variables from the CI file), a CI job's `stuck` and a pipeline's jobs with their
 * `needs` (REST has neither). Areas add their own project and mutation fields (GraphqlContribution):
 * the alerts' come from sandbox/alerts/graphql.ts.
 * Authentication as the REST API (PRIVATE-TOKEN or a Bearer token with api or read_api).
 */
import type { Context, Hono } from 'hono';
import {
  GraphQLBoolean, GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString,
  graphql, type GraphQLFieldConfigMap,
} from 'graphql';
import type { Actor, AppEnv, Sandbox } from '../context.ts';
import { HttpError } from '../http/errors.ts';
import { ParamReader } from '../http/params.ts';
import { resolveActor } from '../http/auth.ts';
import { AccessLevel, effectiveRole, findReadableProject, type ProjectRow } from '../model/access.ts';
import { requirePipelineRead, type JobRow, type PipelineRow } from '../model/pipelines.ts';
import { configVariablesAt, jobStuck } from '../ci/worker.ts';
import { alertsGraphql, type GraphqlContribution } from '../alerts/graphql.ts';

export interface GraphContext {
  sandbox: Sandbox;
  actor: Actor;
}

const CiConfigVariable = new GraphQLObjectType({
  name: 'CiConfigVariable',
  description: 'CI/CD config variables.',
  fields: {
    key: { type: GraphQLString, description: 'Name of the variable.' },
    value: { type: GraphQLString, description: 'Default value of the variable.' },
    valueOptions: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description: 'Value options for the variable.' },
    description: { type: GraphQLString, description: 'Description for the CI/CD config variable.' },
  },
});

const PageInfo = new GraphQLObjectType<{ hasNextPage: boolean; endCursor: string | null; hasPreviousPage?: boolean; startCursor?: string | null }>({
  name: 'PageInfo',
  fields: {
    hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
    hasPreviousPage: { type: new GraphQLNonNull(GraphQLBoolean), resolve: (page) => page.hasPreviousPage ?? false },
    startCursor: { type: GraphQLString, resolve: (page) => page.startCursor ?? null },
    endCursor: { type: GraphQLString },
  },
});

/** The fields other areas add to Project and Mutation. */
const contributions: GraphqlContribution<GraphContext>[] = [alertsGraphql({ PageInfo })];

/** A job that another needs, by name (CiBuildNeed). */
const CiBuildNeed = new GraphQLObjectType<{ name: string }>({
  name: 'CiBuildNeed',
  fields: { name: { type: GraphQLString, description: 'Name of the job we need to complete.' } },
});

const CiBuildNeedConnection = new GraphQLObjectType<Array<{ name: string }>>({
  name: 'CiBuildNeedConnection',
  fields: { nodes: { type: new GraphQLList(CiBuildNeed), resolve: (needs) => needs } },
});

const CiJob = new GraphQLObjectType<JobRow, GraphContext>({
  name: 'CiJob',
  fields: {
    id: { type: GraphQLID, resolve: (job) => `gid://gitlab/Ci::Build/${job.id}` },
    name: { type: GraphQLString },
    status: { type: GraphQLString, description: 'Status of the job (upper case, as CiJobStatus).', resolve: (job) => job.status.toUpperCase() },
    stuck: { type: new GraphQLNonNull(GraphQLBoolean), description: 'Indicates the job is stuck.', resolve: (job, _args, context) => jobStuck(context.sandbox, job) },
    // the stage order (needs null) has no need entries, as the platform lists only `needs:` jobs
    needs: { type: CiBuildNeedConnection, description: 'References to builds that must complete before the jobs run.', resolve: (job) => (JSON.parse(job.needs ?? '[]') as string[]).map((name) => ({ name })) },
  },
});

const CiJobConnection = new GraphQLObjectType<{ nodes: JobRow[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>({
  name: 'CiJobConnection',
  fields: {
    nodes: { type: new GraphQLList(CiJob) },
    pageInfo: { type: new GraphQLNonNull(PageInfo) },
  },
});

/** At most this many jobs a page, as the platform's connections. */
const MAX_PAGE = 100;

const Pipeline = new GraphQLObjectType<PipelineRow, GraphContext>({
  name: 'Pipeline',
  fields: {
    id: { type: new GraphQLNonNull(GraphQLID), resolve: (pipeline) => `gid://gitlab/Ci::Pipeline/${pipeline.id}` },
    iid: { type: new GraphQLNonNull(GraphQLString), resolve: (pipeline) => String(pipeline.iid) },
    jobs: {
      type: CiJobConnection,
      description: "Jobs belonging to the pipeline (the latest of each retried one), in id order.",
      args: { first: { type: GraphQLInt }, after: { type: GraphQLString } },
      resolve: (pipeline, args: { first?: number | null; after?: string | null }, context) => {
        const limit = Math.min(Math.max(args.first ?? MAX_PAGE, 0), MAX_PAGE);
        // the cursor is the last job id of the page before, base64 as the platform's are opaque
        const afterId = args.after ? Number(Buffer.from(args.after, 'base64').toString('utf8')) : 0;
        if (!Number.isInteger(afterId) || afterId < 0) throw new Error('Invalid cursor');
        const rows = context.sandbox.db
          .prepare('SELECT * FROM ci_builds WHERE pipeline_id = ? AND retried = 0 AND id > ? ORDER BY id LIMIT ?')
          .all(pipeline.id, afterId, limit + 1) as JobRow[];
        const nodes = rows.slice(0, limit);
        const last = nodes.at(-1);
        return { nodes, pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? Buffer.from(String(last.id)).toString('base64') : null } };
      },
    },
  },
});

const projectFields: GraphQLFieldConfigMap<ProjectRow, GraphContext> = {
  id: { type: new GraphQLNonNull(GraphQLID), resolve: (project) => `gid://gitlab/Project/${project.id}` },
  fullPath: { type: new GraphQLNonNull(GraphQLID), resolve: (project) => project.path_with_namespace },
  ciConfigVariables: {
    type: new GraphQLList(new GraphQLNonNull(CiConfigVariable)),
    description: 'CI/CD config variable.',
    args: { ref: { type: new GraphQLNonNull(GraphQLString), description: 'Ref.' } },
    // the platform's `create_pipeline` check: null for those who may not run pipelines
    resolve: async (project, args: { ref: string }, context) => {
      const role = effectiveRole(context.sandbox.db, context.actor, { type: 'Project', id: project.id }, context.sandbox.now());
      if (role < AccessLevel.DEVELOPER) return null;
      return configVariablesAt(context.sandbox, project, args.ref);
    },
  },
  pipeline: {
    type: Pipeline,
    description: 'Pipeline of the project by its IID.',
    args: { iid: { type: GraphQLID, description: 'IID of the Pipeline. For example, "1".' } },
    resolve: (project, args: { iid?: string | null }, context) => {
      try {
        requirePipelineRead(context.sandbox.db, context.actor, project, context.sandbox.now());
      } catch {
        return null;
      }
      const iid = Number(args.iid);
      if (!Number.isInteger(iid)) return null;
      return (context.sandbox.db.prepare('SELECT * FROM ci_pipelines WHERE project_id = ? AND iid = ?').get(project.id, iid) as PipelineRow | undefined) ?? null;
    },
  },
  job: {
    type: CiJob,
    description: 'One job of the project.',
    args: { id: { type: new GraphQLNonNull(GraphQLID), description: 'ID of the job (gid://gitlab/Ci::Build/N).' } },
    resolve: (project, args: { id: string }, context) => {
      const match = /^gid:\/\/gitlab\/Ci::Build\/(\d+)$/.exec(args.id);
      if (!match) throw new Error(`"${args.id}" does not represent an instance of Ci::Build`);
      try {
        requirePipelineRead(context.sandbox.db, context.actor, project, context.sandbox.now());
      } catch {
        return null;
      }
      return (context.sandbox.db.prepare('SELECT * FROM ci_builds WHERE id = ? AND project_id = ?').get(Number(match[1]), project.id) as JobRow | undefined) ?? null;
    },
  },
};

const Project = new GraphQLObjectType<ProjectRow, GraphContext>({
  name: 'Project',
  fields: () => Object.assign({}, projectFields, ...contributions.map((part) => part.projectFields)),
});

const mutationFields: GraphQLFieldConfigMap<unknown, GraphContext> = Object.assign({}, ...contributions.map((part) => part.mutationFields));

const schema = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, GraphContext>({
    name: 'Query',
    fields: {
      project: {
        type: Project,
        args: { fullPath: { type: new GraphQLNonNull(GraphQLID), description: 'Full path of the project.' } },
        resolve: (_root, args: { fullPath: string }, context) => {
          try {
            return findReadableProject(context.sandbox.db, context.actor, args.fullPath, context.sandbox.now());
          } catch {
            // hidden and unknown projects are both null, as the platform answers
            return null;
          }
        },
      },
    },
  }),
  mutation: Object.keys(mutationFields).length ? new GraphQLObjectType<unknown, GraphContext>({ name: 'Mutation', fields: mutationFields }) : undefined,
});

const READ_SCOPES = ['api', 'read_api'];

async function execute(c: Context<AppEnv>, sandbox: Sandbox): Promise<Response> {
  c.set('params', new ParamReader({}));
  let actor: Actor;
  try {
    actor = resolveActor(c, sandbox);
  } catch (error) {
    if (error instanceof HttpError) return c.json({ errors: [{ message: 'Invalid token' }] }, 401);
    throw error;
  }
  if (actor.via === 'job_token') return c.json({ errors: [{ message: 'Invalid token' }] }, 401);
  if (actor.user && !READ_SCOPES.some((scope) => actor.scopes.has(scope))) {
    return c.json({ errors: [{ message: 'Invalid token: insufficient scope' }] }, 403);
  }
  let body: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    body = c.req.method === 'GET'
      ? { query: c.req.query('query'), variables: c.req.query('variables') ? JSON.parse(c.req.query('variables')!) : undefined, operationName: c.req.query('operationName') }
      : await c.req.json();
  } catch {
    return c.json({ errors: [{ message: 'Invalid JSON body' }] }, 400);
  }
  if (!body || typeof body.query !== 'string' || !body.query.trim()) return c.json({ errors: [{ message: 'No query string was present' }] }, 400);
  const variables = body.variables && typeof body.variables === 'object' && !Array.isArray(body.variables) ? (body.variables as Record<string, unknown>) : undefined;
  const result = await graphql({
    schema,
    source: body.query,
    variableValues: variables,
    operationName: typeof body.operationName === 'string' ? body.operationName : undefined,
    contextValue: { sandbox, actor } satisfies GraphContext,
  });
  return c.json(result);
}

export function registerGraphql(app: Hono<AppEnv>, sandbox: Sandbox): void {
  app.post('/api/graphql', (c) => execute(c, sandbox));
  app.get('/api/graphql', (c) => execute(c, sandbox));
}
