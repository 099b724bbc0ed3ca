import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import { randomUUID } from 'node:crypto';
import type { AppEnv, Sandbox } from './context.ts';
import { HttpError, forbidden, paramError, unauthorized } from './http/errors.ts';
import { ParamReader, parseParams, type Params } from './http/params.ts';
import { resolveActor } from './http/auth.ts';
import { router } from './http/route.ts';
import { Faults, faultRuleSchema } from './http/faults.ts';
import { RequestLog } from './http/request-log.ts';
import { compressJson } from './http/compress.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { ProjectMoved } from './model/access.ts';
import { registerAvatars } from './avatars.ts';
import { registerAuth } from './areas/auth.ts';
import { registerUsers } from './areas/users.ts';
import { registerGroups } from './areas/groups.ts';
import { registerProjects } from './areas/projects.ts';
import { registerMembers } from './areas/members.ts';
import { registerAccessTokens } from './areas/access-tokens.ts';
import { registerServiceAccounts } from './areas/service-accounts.ts';
import { registerCommits } from './areas/commits.ts';
import { registerRunners } from './areas/runners.ts';
import { registerSystemHookDeliveries, registerSystemHooks } from './areas/system-hooks.ts';
import { registerFiles } from './areas/files.ts';
import { registerBranches } from './areas/branches.ts';
import { registerRepository } from './areas/repository.ts';
import { registerDeployKeys } from './areas/deploy-keys.ts';
import { registerStorageMoves } from './areas/storage-moves.ts';
import { registerMergeRequests } from './areas/merge-requests.ts';
import { registerApprovals } from './areas/approvals.ts';
import { registerLabels } from './areas/labels.ts';
import { registerIssues } from './areas/issues.ts';
import { registerMilestones } from './areas/milestones.ts';
import { registerSnippets } from './areas/snippets.ts';
import { registerNotes } from './areas/notes.ts';
import { registerBoards } from './areas/boards.ts';
import { registerPipelines } from './areas/pipelines.ts';
import { registerJobs } from './areas/jobs.ts';
import { registerPackages } from './areas/packages.ts';
import { isRawUpload } from './areas/packages/generic.ts';
import { ciWorker } from './ci/worker.ts';
import { registerGraphql } from './areas/graphql.ts';
import { registerRegistry, registerRegistryControls } from './areas/registry.ts';
import { registryWorker } from './areas/registry-worker.ts';
import { registerAlertIngestion } from './areas/alerts.ts';

export const API_PREFIX = '/api/v4';

/** Headers a browser client must be able to read across origins (spec 1, 8.1 and DESIGN). */
export const EXPOSED_HEADERS = [
  'Link', 'X-Total', 'X-Total-Pages', 'X-Page', 'X-Per-Page', 'X-Next-Page', 'X-Prev-Page',
  'X-Request-Id', 'ETag', 'Location', 'Retry-After',
  // repository file metadata (spec 3, 4.3)
  'X-Service-Blob-Id', 'X-Service-Commit-Id', 'X-Service-Content-Sha256', 'X-Service-Encoding', 'X-Service-File-Name',
  'X-Service-File-Path', 'X-Service-Last-Commit-Id', 'X-Service-Ref', 'X-Service-Size', 'X-Service-Execute-Filemode',
  'Content-Disposition',
  // the authenticated API throttle (sandbox/http/rate-limit.ts)
  'RateLimit-Name', 'RateLimit-Limit', 'RateLimit-Observed', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-ResetTime',
];

const MAX_BODY_BYTES = 10 * 1024 * 1024;

async function readBody(request: Request): Promise<Params> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (request.method === 'GET' || request.method === 'HEAD') return {};
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_BODY_BYTES) throw new HttpError(413, { message: '413 Request Entity Too Large' });
  if (type.includes('multipart/form-data')) {
    const form = await request.formData().catch(() => {
      throw paramError('the multipart body could not be parsed');
    });
    const pairs: string[] = [];
    for (const [key, value] of form.entries()) {
      if (typeof value === 'string') pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
    return parseParams(pairs.join('&'));
  }
  const text = await request.text();
  if (!text.trim()) return {};
  if (type.includes('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw paramError('The request body is not valid JSON');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw paramError('The JSON request body must be an object');
    }
    return parsed as Params;
  }
  return parseParams(text);
}

/** Body parameters override query parameters of the same name, as the platform merges them. */
function mergeParams(query: Params, body: Params): Params {
  return { ...query, ...body };
}

/** GET and HEAD of an old project path answer 301 to the numeric id; writes answer 405. */
function projectMovedResponse(c: Context<AppEnv>, moved: ProjectMoved): Response {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    return c.json({ message: 'Non GET methods are not allowed for moved projects' }, 405);
  }
  const url = new URL(c.req.url);
  const encoded = encodeURIComponent(moved.oldPath);
  const marker = url.pathname.toLowerCase().indexOf(`/projects/${encoded.toLowerCase()}`);
  if (marker >= 0) {
    const start = marker + '/projects/'.length;
    url.pathname = url.pathname.slice(0, start) + String(moved.projectId) + url.pathname.slice(start + encoded.length);
  }
  const location = url.toString();
  c.header('Location', location);
  return c.text(`This resource has been moved permanently to ${location}`, 301);
}

export interface AppOptions {
  faults?: Faults;
  requests?: RequestLog;
}

/** The sandbox's HTTP application: `/api/v4` endpoints plus the admin-only test controls. */
export function createApp(sandbox: Sandbox, options: AppOptions = {}) {
  const faults = options.faults ?? new Faults();
  const requests = options.requests ?? new RequestLog();
  const app = new Hono<AppEnv>();

  app.use('*', async (c, next) => {
    c.set('sandbox', sandbox);
    c.header('X-Request-Id', randomUUID());
    await next();
  });

  app.use(
    `${API_PREFIX}/*`,
    cors({
      origin: '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 7200,
    }),
  );

  // after CORS: a preflight is the browser's, not a request the client sent
  // the GraphQL endpoint is read across origins as /api/v4 is
  app.use('/api/graphql', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], exposeHeaders: ['X-Request-Id'], maxAge: 7200 }));

  // GraphQL answers are JSON the API's clients read too: counted and compressed as REST's are
  for (const path of [`${API_PREFIX}/*`, '/api/graphql']) {
    app.use(path, requests.middleware());
    app.use(path, compressJson());
  }

  app.use(`${API_PREFIX}/*`, async (c, next) => {
    const url = c.req.url;
    const requestLine = url.length - url.indexOf('/', url.indexOf('//') + 2);
    if (requestLine > sandbox.config.maxRequestLineBytes) {
      return c.json({ message: '414 Request-URI Too Large' }, 414);
    }
    await next();
  });

  app.use(`${API_PREFIX}/*`, faults.middleware());
  // GraphQL is an API path too: tests and the bench slow it or fail it as they do REST
  app.use('/api/graphql', faults.middleware());

  app.use(`${API_PREFIX}/*`, async (c, next) => {
    const query = parseParams(new URL(c.req.url).search.slice(1));
    // package uploads keep their raw body for the handler
    const body = isRawUpload(c.req.method, new URL(c.req.url).pathname) ? {} : await readBody(c.req.raw);
    c.set('params', new ParamReader(mergeParams(query, body)));
    c.set('actor', resolveActor(c, sandbox));
    await next();
  });

  const rateLimiter = new RateLimiter(() => sandbox.config.rateLimitPerMinute, sandbox.now);
  app.use(`${API_PREFIX}/*`, rateLimiter.middleware());

  const api = new Hono<AppEnv>();
  const routes = router(api);
  registerAuth(routes);
  registerUsers(routes);
  registerGroups(routes);
  registerProjects(routes);
  registerMembers(routes);
  registerAccessTokens(routes);
  registerServiceAccounts(routes);
  registerCommits(routes);
  registerRunners(routes);
  registerSystemHooks(routes);
  registerFiles(routes);
  registerBranches(routes);
  registerRepository(routes);
  registerDeployKeys(routes);
  registerStorageMoves(routes);
  registerMergeRequests(routes);
  registerApprovals(routes);
  registerLabels(routes);
  registerIssues(routes);
  registerMilestones(routes);
  registerSnippets(routes);
  registerNotes(routes);
  registerBoards(routes);
  registerPipelines(routes);
  registerJobs(routes);
  registerPackages(routes);
  registerRegistry(routes);
  app.route(API_PREFIX, api);

  // pipelines a stopped sandbox left in flight carry on (or fail with a reason)
  ciWorker(sandbox).resume();
  // so do registry deletes
  registryWorker(sandbox).resume();

  registerGraphql(app, sandbox);
  registerAlertIngestion(app, sandbox, requests);
  registerAvatars(app);
  registerSystemHookDeliveries(app);

  // Test controls outside /api/v4: fault injection and the request log, administrators only.
  const adminsOnly = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    c.set('params', new ParamReader({}));
    const actor = resolveActor(c, sandbox);
    if (!actor.user) throw unauthorized();
    if (!actor.user.is_admin) throw forbidden();
    await next();
  };
  const control = new Hono<AppEnv>();
  control.use('*', adminsOnly);
  control.get('/', (c) => c.json(faults.list()));
  control.post('/', async (c) => {
    const parsed = faultRuleSchema.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) {
      return c.json({ message: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`) }, 400);
    }
    return c.json(faults.add(parsed.data), 201);
  });
  control.delete('/:id', (c) => {
    const id = Number(c.req.param('id'));
    return faults.remove(id) ? c.body(null, 204) : c.json({ message: '404 Fault rule Not Found' }, 404);
  });
  control.delete('/', (c) => {
    faults.clear();
    return c.body(null, 204);
  });
  app.route('/-/sandbox/faults', control);

  const log = new Hono<AppEnv>();
  log.use('*', adminsOnly);
  log.get('/', (c) => {
    const after = c.req.query('after');
    if (after !== undefined && !/^\d+$/.test(after)) return c.json({ message: 'after must be a request id' }, 400);
    return c.json({ last: requests.last(), requests: requests.list({ method: c.req.query('method'), path: c.req.query('path'), after: after === undefined ? undefined : Number(after) }) });
  });
  log.delete('/', (c) => {
    requests.clear();
    return c.body(null, 204);
  });
  app.route('/-/sandbox/requests', log);
  registerRegistryControls(app, adminsOnly);

  app.notFound((c) => c.json({ error: '404 Not Found' }, 404));
  app.onError((error, c) => {
    if (error instanceof ProjectMoved) return projectMovedResponse(c, error);
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(error.body, error.status as 400);
    }
    // never echo request data: it may carry a token
    console.error(`sandbox: ${c.req.method} ${new URL(c.req.url).pathname} failed:`, error);
    return c.json({ message: '500 Internal Server Error' }, 500);
  });

  return app;
}
