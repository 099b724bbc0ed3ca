/**
 * Variables of a pipeline and of its jobs: the predefined CI_* set, the job-level additions, the
 * merge in the platform's order of precedence, and `$VAR` / `${VAR}` expansion.
 */
import type { JobPlan, PipelinePlan } from './config.ts';

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

/** Replaces `$VAR` and `${VAR}` with their values ('' when undefined); `$$` is a literal `$`. */
export function expandText(text: string, env: Record<string, string>): string {
  if (!text.includes('$')) return text;
  return text.replace(REFERENCE, (all, braced: string | undefined, bare: string | undefined) => {
    if (all === '$$') return '$';
    const name = (braced ?? bare)!;
    return Object.hasOwn(env, name) ? env[name] : '';
  });
}

/**
 * Expands references between the variables of one map (a value may use another's), the way the
 * platform does before a job starts. Unknown references stay as written; cycles stop expanding.
 */
export function expandVariables(variables: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const visiting = new Set<string>();
  const resolve = (key: string): string => {
    if (Object.hasOwn(out, key)) return out[key];
    const raw = variables[key];
    if (!raw.includes('$')) return (out[key] = raw);
    if (visiting.has(key)) return raw;
    visiting.add(key);
    const value = raw.replace(REFERENCE, (all, braced: string | undefined, bare: string | undefined) => {
      if (all === '$$') return all;
      const name = (braced ?? bare)!;
      if (!Object.hasOwn(variables, name) || name === key) return all;
      return resolve(name);
    });
    visiting.delete(key);
    return (out[key] = value);
  };
  for (const key of Object.keys(variables)) resolve(key);
  return out;
}

/** The platform's slug: lower case, [a-z0-9] kept, others as '-', at most 63, no '-' at the ends. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

export interface PredefinedVariablesInput {
  /** The instance's base URL, e.g. http://127.0.0.1:3000 */
  serverUrl: string;
  project: {
    id: number;
    /** path_with_namespace */
    pathWithNamespace: string;
    /** the project's path (its last segment) */
    path: string;
    /** the human name */
    name: string;
    namespace: string;
    defaultBranch: string;
    visibility: string;
    namespaceId?: number;
  };
  pipeline: { id: number; iid: number; source: string; createdAt: string; name?: string | null };
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha?: string | null;
  refProtected?: boolean;
  commit?: { message: string; timestamp: string; authorName: string; authorEmail: string } | null;
  user?: { id: number; username: string; name: string; email: string } | null;
  configPath?: string;
}

/** The predefined variables of a pipeline (what `rules:if` sees, and every job of it). */
export function predefinedVariables(input: PredefinedVariablesInput): Record<string, string> {
  const server = new URL(input.serverUrl);
  const base = input.serverUrl.replace(/\/+$/, '');
  const projectUrl = `${base}/${input.project.pathWithNamespace}`;
  const vars: Record<string, string> = {
    CI: 'true',
    GITLAB_CI: 'true',
    CI_SERVER: 'yes',
    CI_SERVER_NAME: 'GitLab',
    CI_SERVER_URL: base,
    CI_SERVER_HOST: server.hostname,
    CI_SERVER_PORT: server.port || (server.protocol === 'https:' ? '443' : '80'),
    CI_SERVER_PROTOCOL: server.protocol.replace(':', ''),
    CI_SERVER_FQDN: server.host,
    CI_API_V4_URL: `${base}/api/v4`,
    CI_API_GRAPHQL_URL: `${base}/api/graphql`,
    CI_PROJECT_ID: String(input.project.id),
    CI_PROJECT_NAME: input.project.path,
    CI_PROJECT_TITLE: input.project.name,
    CI_PROJECT_PATH: input.project.pathWithNamespace,
    CI_PROJECT_PATH_SLUG: slugify(input.project.pathWithNamespace),
    CI_PROJECT_NAMESPACE: input.project.namespace,
    CI_PROJECT_ROOT_NAMESPACE: input.project.namespace.split('/')[0],
    CI_PROJECT_URL: projectUrl,
    CI_PROJECT_VISIBILITY: input.project.visibility,
    CI_PROJECT_DIR: `/builds/${input.project.pathWithNamespace}`,
    CI_BUILDS_DIR: '/builds',
    CI_DEFAULT_BRANCH: input.project.defaultBranch,
    CI_CONFIG_PATH: input.configPath ?? '.gitlab-ci.yml',
    CI_PIPELINE_ID: String(input.pipeline.id),
    CI_PIPELINE_IID: String(input.pipeline.iid),
    CI_PIPELINE_SOURCE: input.pipeline.source,
    CI_PIPELINE_URL: `${projectUrl}/-/pipelines/${input.pipeline.id}`,
    CI_PIPELINE_CREATED_AT: input.pipeline.createdAt,
    CI_COMMIT_SHA: input.sha,
    CI_COMMIT_SHORT_SHA: input.sha.slice(0, 8),
    CI_COMMIT_BEFORE_SHA: input.beforeSha || '0000000000000000000000000000000000000000',
    CI_COMMIT_REF_NAME: input.ref,
    CI_COMMIT_REF_SLUG: slugify(input.ref),
    CI_COMMIT_REF_PROTECTED: input.refProtected ? 'true' : 'false',
  };
  if (input.project.namespaceId !== undefined) vars.CI_PROJECT_NAMESPACE_ID = String(input.project.namespaceId);
  if (input.pipeline.name) vars.CI_PIPELINE_NAME = input.pipeline.name;
  if (input.pipeline.source === 'trigger') vars.CI_PIPELINE_TRIGGERED = 'true';
  if (input.tag) {
    vars.CI_COMMIT_TAG = input.ref;
  } else {
    vars.CI_COMMIT_BRANCH = input.ref;
  }
  if (input.commit) {
    const message = input.commit.message;
    const title = message.split('\n')[0];
    vars.CI_COMMIT_MESSAGE = message;
    vars.CI_COMMIT_TITLE = title;
    vars.CI_COMMIT_DESCRIPTION = message.slice(title.length).replace(/^\n+/, '');
    vars.CI_COMMIT_TIMESTAMP = input.commit.timestamp;
    vars.CI_COMMIT_AUTHOR = `${input.commit.authorName} <${input.commit.authorEmail}>`;
  }
  if (input.user) {
    vars.GITLAB_USER_ID = String(input.user.id);
    vars.GITLAB_USER_LOGIN = input.user.username;
    vars.GITLAB_USER_NAME = input.user.name;
    vars.GITLAB_USER_EMAIL = input.user.email;
  }
  return vars;
}

export interface JobVariablesInput {
  job: JobPlan;
  id: number;
  /** The job's web URL ({project url}/-/jobs/{id}). */
  url: string;
  startedAt?: string | null;
  runner?: { id: number; description: string; tags: string[]; shortToken?: string } | null;
  /** Seconds the job may run (its own timeout, or the project's). */
  timeoutSeconds?: number | null;
}

/** Job-level additions (CI_JOB_ID, CI_JOB_NAME, CI_JOB_STAGE ...). */
export function jobVariables(input: JobVariablesInput): Record<string, string> {
  const { job } = input;
  const vars: Record<string, string> = {
    CI_JOB_ID: String(input.id),
    CI_JOB_NAME: job.name,
    CI_JOB_NAME_SLUG: slugify(job.name),
    CI_JOB_GROUP_NAME: job.parallel?.baseName ?? job.name,
    CI_JOB_STAGE: job.stage,
    CI_JOB_URL: input.url,
    CI_JOB_STATUS: 'running',
    CI_NODE_TOTAL: String(job.parallel?.total ?? 1),
  };
  if (job.parallel) vars.CI_NODE_INDEX = String(job.parallel.index);
  if (input.startedAt) vars.CI_JOB_STARTED_AT = input.startedAt;
  if (job.when === 'manual') vars.CI_JOB_MANUAL = 'true';
  const timeout = job.timeoutSeconds ?? input.timeoutSeconds;
  if (timeout) vars.CI_JOB_TIMEOUT = String(timeout);
  if (input.runner) {
    vars.CI_RUNNER_ID = String(input.runner.id);
    vars.CI_RUNNER_DESCRIPTION = input.runner.description;
    vars.CI_RUNNER_TAGS = JSON.stringify(input.runner.tags);
    if (input.runner.shortToken) vars.CI_RUNNER_SHORT_TOKEN = input.runner.shortToken;
    vars.CI_RUNNER_EXECUTABLE_ARCH = 'linux/amd64';
  }
  return vars;
}

/** The file's global variables a job sees under `inherit:variables` (all, none, or the listed ones). */
export function inheritedVariables(globals: Record<string, string>, inherit: boolean | string[]): Record<string, string> {
  if (inherit === true) return globals;
  if (inherit === false) return {};
  return Object.fromEntries(Object.entries(globals).filter(([key]) => inherit.includes(key)));
}

/**
 * A job's environment in the platform's order of precedence, lowest first: predefined (pipeline
 * and job), the file's global `variables` the job inherits, the job's own (with its rule's),
 * instance/group/project CI/CD variables, then the pipeline's (trigger, API, run form); references
 * between them expanded.
 */
export function jobEnvironment(input: {
  plan: PipelinePlan;
  job: JobPlan;
  predefined: Record<string, string>;
  jobPredefined?: Record<string, string>;
  projectVariables?: Record<string, string>;
  pipelineVariables?: Record<string, string>;
}): Record<string, string> {
  return expandVariables({
    ...input.predefined,
    ...input.jobPredefined,
    ...inheritedVariables(input.plan.variables, input.job.inheritVariables),
    ...input.job.variables,
    ...input.projectVariables,
    ...input.pipelineVariables,
  });
}
