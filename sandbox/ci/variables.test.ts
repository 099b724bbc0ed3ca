import { describe, expect, it } from 'vitest';
import { planPipeline } from './config.ts';
import { expandText, expandVariables, jobEnvironment, jobVariables, predefinedVariables, slugify } from './variables.ts';

const input = {
  serverUrl: 'http://127.0.0.1:3000',
  project: { id: 7, pathWithNamespace: 'demo/Web App', path: 'web-app', name: 'Web App', namespace: 'demo', defaultBranch: 'main', visibility: 'private' },
  pipeline: { id: 120, iid: 4, source: 'api', createdAt: '2026-11-26T10:00:00Z' },
  ref: 'feature/Login',
  tag: false,
  sha: '0123456789abcdef0123456789abcdef01234567',
  commit: { message: 'Add login\n\nWith a form.', timestamp: '2026-11-25T09:00:00Z', authorName: 'Ada', authorEmail: 'ada@example.com' },
  user: { id: 1, username: 'root', name: 'Administrator', email: 'admin@example.com' },
};

describe('predefinedVariables', () => {
  it('gives the pipeline CI_* variables as the platform names them', () => {
    const vars = predefinedVariables(input);
    expect(vars).toMatchObject({
      CI: 'true',
      GITLAB_CI: 'true',
      CI_SERVER_URL: 'http://127.0.0.1:3000',
      CI_SERVER_HOST: '127.0.0.1',
      CI_SERVER_PORT: '3000',
      CI_API_V4_URL: 'http://127.0.0.1:3000/api/v4',
      CI_PROJECT_ID: '7',
      CI_PROJECT_PATH: 'demo/Web App',
      CI_PROJECT_NAME: 'web-app',
      CI_PROJECT_TITLE: 'Web App',
      CI_PROJECT_URL: 'http://127.0.0.1:3000/demo/Web App',
      CI_PIPELINE_ID: '120',
      CI_PIPELINE_IID: '4',
      CI_PIPELINE_SOURCE: 'api',
      CI_COMMIT_REF_NAME: 'feature/Login',
      CI_COMMIT_REF_SLUG: 'feature-login',
      CI_COMMIT_BRANCH: 'feature/Login',
      CI_COMMIT_SHORT_SHA: '01234567',
      CI_COMMIT_TITLE: 'Add login',
      CI_COMMIT_DESCRIPTION: 'With a form.',
      CI_COMMIT_AUTHOR: 'Ada <ada@example.com>',
      CI_DEFAULT_BRANCH: 'main',
      GITLAB_USER_LOGIN: 'root',
    });
    expect(vars.CI_COMMIT_TAG).toBeUndefined();
    const tag = predefinedVariables({ ...input, ref: 'v1.0', tag: true });
    expect(tag.CI_COMMIT_TAG).toBe('v1.0');
    expect(tag.CI_COMMIT_BRANCH).toBeUndefined();
  });

  it('slugs as the platform does', () => {
    expect(slugify('Feature/ABC_1--x')).toBe('feature-abc-1--x');
    expect(slugify('-' + 'a'.repeat(70))).toBe('a'.repeat(62));
  });
});

describe('job variables and environment', () => {
  const result = planPipeline(
    'variables: { GLOBAL: g, URL: "$CI_SERVER_URL/x", ONLY: o }\nj:\n  variables: { OWN: "$GLOBAL-own", GLOBAL: job }\n  script: x\nk:\n  inherit:\n    variables: [ONLY]\n  script: x\n',
    { variables: {}, readFile: () => null },
  );
  if (!result.ok) throw new Error(result.errors.join('; '));
  const [j, k] = result.plan.jobs;

  it('adds CI_JOB_* to the pipeline set', () => {
    expect(jobVariables({ job: j, id: 55, url: 'http://h/demo/app/-/jobs/55', runner: { id: 2, description: 'shared', tags: ['docker'] } })).toMatchObject({
      CI_JOB_ID: '55',
      CI_JOB_NAME: 'j',
      CI_JOB_STAGE: 'test',
      CI_JOB_URL: 'http://h/demo/app/-/jobs/55',
      CI_RUNNER_ID: '2',
      CI_RUNNER_TAGS: '["docker"]',
      CI_NODE_TOTAL: '1',
    });
  });

  it('merges in the order of precedence and expands references', () => {
    const predefined = predefinedVariables(input);
    const env = jobEnvironment({ plan: result.plan, job: j, predefined, projectVariables: { SECRET: 's' }, pipelineVariables: { GLOBAL: 'from-api' } });
    expect(env.GLOBAL).toBe('from-api');
    expect(env.OWN).toBe('from-api-own');
    expect(env.URL).toBe('http://127.0.0.1:3000/x');
    expect(env.SECRET).toBe('s');
    const kEnv = jobEnvironment({ plan: result.plan, job: k, predefined });
    expect(kEnv.ONLY).toBe('o');
    expect(kEnv.GLOBAL).toBeUndefined();
  });

  it('expands text and survives reference cycles', () => {
    expect(expandText('a $X ${Y} $$Z $MISSING.', { X: '1', Y: '2' })).toBe('a 1 2 $Z .');
    const cyclic = expandVariables({ A: '$B', B: '$A', C: 'c$C' });
    expect(cyclic.C).toBe('c$C');
    expect([cyclic.A, cyclic.B].every((v) => v === '$A' || v === '$B')).toBe(true);
  });
});
