import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { Connection } from './http.ts';
import { allPipelineJobs, fetchJobStuck, fetchPipelineNeeds, canCancelJob, canPlayJob, canRetryJob, getJobTrace, jobSchema, jobVariableSchema, playJob, retryJob } from './jobs.ts';

const offline: Connection = { instanceUrl: 'https://code.example.com', token: 'glpat-secret' };

function answer(body: unknown, headers: Record<string, string> = {}, status = 200) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

// the platform's documented answer for GET /projects/:id/jobs/:job_id
const DOCUMENTED_JOB = {
  commit: {
    author_email: 'admin@example.com',
    author_name: 'Administrator',
    created_at: '2015-12-24T16:51:14.000+01:00',
    id: '0ff3ae198f8601a285adcf5c0fff204ee6fba5fd',
    message: 'Test the CI integration.',
    short_id: '0ff3ae19',
    title: 'Test the CI integration.',
  },
  coverage: null,
  archived: false,
  source: 'push',
  allow_failure: false,
  created_at: '2015-12-24T15:51:21.880Z',
  started_at: '2015-12-24T17:54:30.733Z',
  finished_at: '2015-12-24T17:54:31.198Z',
  erased_at: null,
  duration: 0.465,
  queued_duration: 0.01,
  artifacts_file: { filename: 'artifacts.zip', size: 1000 },
  artifacts: [
    { file_type: 'archive', size: 1000, filename: 'artifacts.zip', file_format: 'zip' },
    { file_type: 'junit', size: 750, filename: 'junit.xml.gz', file_format: 'gzip' },
  ],
  artifacts_expire_at: '2016-01-23T17:54:31.198Z',
  tag_list: ['docker runner', 'macos-10.15'],
  id: 42,
  name: 'rubocop',
  pipeline: { id: 6, project_id: 1, ref: 'main', sha: '0ff3ae198f8601a285adcf5c0fff204ee6fba5fd', status: 'pending' },
  ref: 'main',
  runner: { id: 32, description: '', ip_address: null, active: true, paused: false, is_shared: true, runner_type: 'instance_type', name: null, online: false, status: 'offline' },
  runner_manager: {
    id: 1,
    system_id: 's_ae1c2f3d',
    version: '16.11.0',
    revision: '91a27b2a',
    platform: 'linux',
    architecture: 'amd64',
    created_at: '2024-05-01T10:12:02.507Z',
    contacted_at: '2024-05-07T06:30:09.355Z',
    ip_address: '127.0.0.1',
    status: 'offline',
  },
  stage: 'test',
  status: 'failed',
  failure_reason: 'script_failure',
  tag: false,
  web_url: 'https://example.com/foo/bar/-/jobs/42',
  project: { ci_job_token_scope_enabled: false },
  user: {
    id: 1,
    name: 'Administrator',
    username: 'root',
    state: 'active',
    avatar_url: null,
    web_url: 'http://gitlab.dev/root',
    created_at: '2015-12-21T13:14:24.077Z',
    bio: null,
    location: null,
    public_email: '',
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: '',
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('job schema', () => {
  it('reads the documented job and keeps fields it does not name', () => {
    const job = z.parse(jobSchema, DOCUMENTED_JOB);
    expect(job).toMatchObject({ id: 42, status: 'failed', failure_reason: 'script_failure', tag_list: ['docker runner', 'macos-10.15'], needs: [], runner: { id: 32 } });
    expect((job as Record<string, unknown>).runner_manager).toBeDefined();
  });

  it('reads needs as names, whether given as names or objects, and null lists as empty', () => {
    expect(z.parse(jobSchema, { ...DOCUMENTED_JOB, needs: ['build', { name: 'lint', artifacts: true }] }).needs).toEqual(['build', 'lint']);
    expect(z.parse(jobSchema, { ...DOCUMENTED_JOB, tag_list: null, artifacts: null, runner: null, user: null, commit: null, allow_failure: null })).toMatchObject({
      tag_list: [],
      artifacts: [],
      runner: null,
      allow_failure: false,
    });
  });

  it('says which action a status offers', () => {
    expect(['manual', 'failed', 'running', 'success', 'canceled', 'skipped'].map((status) => [canPlayJob({ status }), canRetryJob({ status }), canCancelJob({ status })])).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, true],
      [false, true, false],
      [false, true, false],
      [false, false, false],
    ]);
  });

  it('checks variables for a manual run as the platform names keys', () => {
    expect(z.safeParse(jobVariableSchema, { key: 'DEPLOY_TARGET', value: 'eu' }).success).toBe(true);
    expect(z.safeParse(jobVariableSchema, { key: 'bad-key', value: '' }).error?.issues[0].message).toBe('Letters, digits and _ only');
    expect(z.safeParse(jobVariableSchema, { key: ' ', value: '' }).error?.issues[0].message).toBe('Enter a key');
  });
});

describe('job calls', () => {
  it('reads every page of a pipeline’s jobs, with scope[] and include_retried', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      return answer([{ ...DOCUMENTED_JOB, id: page, name: `job ${page}` }], { 'x-total-pages': '3', 'x-total': '3', 'x-page': String(page), 'x-per-page': '100' });
    });
    vi.stubGlobal('fetch', fetchMock);
    const jobs = await allPipelineJobs(offline, 7, 9, { scope: ['failed', 'manual'], include_retried: true });
    expect(jobs.map((job) => job.id)).toEqual([1, 2, 3]);
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/v4/projects/7/pipelines/9/jobs?scope[]=failed&scope[]=manual&include_retried=true&page=1&per_page=100');
  });

  it('follows next pages when the instance does not count them', async () => {
    const fetchMock = vi.fn(async (url: string) => {
      const page = Number(new URL(url).searchParams.get('page'));
      return answer([{ ...DOCUMENTED_JOB, id: page }], page < 2 ? { 'x-next-page': String(page + 1) } : {});
    });
    vi.stubGlobal('fetch', fetchMock);
    expect((await allPipelineJobs(offline, 7, 9)).map((job) => job.id)).toEqual([1, 2]);
  });

  it('reads the log as text, even when it looks like JSON, with the token in a header', async () => {
    const fetchMock = vi.fn(async () => new Response('[{"not": json', { headers: { 'content-type': 'text/plain' } }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await getJobTrace(offline, 7, 42)).toBe('[{"not": json');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://code.example.com/api/v4/projects/7/jobs/42/trace');
    expect((init.headers as Record<string, string>)['PRIVATE-TOKEN']).toBe('glpat-secret');
  });

  it('plays a manual job with its variables as job_variables_attributes, and retries with no body', async () => {
    const fetchMock = vi.fn(async () => answer({ ...DOCUMENTED_JOB, status: 'pending' }));
    vi.stubGlobal('fetch', fetchMock);
    await playJob(offline, { projectId: 7, jobId: 42, variables: [{ key: 'TARGET', value: 'eu west' }] });
    await retryJob(offline, { projectId: 7, jobId: 42 });
    const [[playUrl, play], [retryUrl, retry]] = fetchMock.mock.calls as unknown as Array<[string, RequestInit]>;
    expect([playUrl, play.method, JSON.parse(play.body as string)]).toEqual([
      'https://code.example.com/api/v4/projects/7/jobs/42/play',
      'POST',
      { job_variables_attributes: [{ key: 'TARGET', value: 'eu west' }] },
    ]);
    expect([retryUrl, retry.method, retry.body]).toEqual(['https://code.example.com/api/v4/projects/7/jobs/42/retry', 'POST', undefined]);
  });

  it('turns a refusal into the platform’s message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ message: '403 Forbidden  - Job is not retryable' }, {}, 403)),
    );
    await expect(retryJob(offline, { projectId: 7, jobId: 42 })).rejects.toMatchObject({ status: 403, message: '403 Forbidden  - Job is not retryable' });
  });

  it('reads the needs over GraphQL as the platform’s graph does, following job pages', async () => {
    const pages = [
      {
        hasNextPage: true,
        endCursor: 'c1',
        nodes: [
          { name: 'build', needs: { nodes: [] } },
          { name: 'test', needs: { nodes: [{ name: 'build' }] } },
        ],
      },
      { hasNextPage: false, endCursor: null, nodes: [{ name: 'deploy', needs: { nodes: [{ name: 'test' }, { name: 'build' }] } }] },
    ];
    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const { variables } = JSON.parse(init.body as string) as { variables: { after: string | null } };
      const { hasNextPage, endCursor, nodes } = pages[variables.after ? 1 : 0];
      return answer({ data: { project: { pipeline: { jobs: { pageInfo: { hasNextPage, endCursor }, nodes } } } } });
    });
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchPipelineNeeds(offline, 'group/app', 12)).toEqual({ build: [], test: ['build'], deploy: ['test', 'build'] });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://code.example.com/api/graphql');
    const sent = JSON.parse(init.body as string) as { query: string; variables: unknown };
    expect(sent.variables).toEqual({ fullPath: 'group/app', after: null });
    expect(sent.query).toContain('pipeline(iid: "12")');
  });

  it('says so when GraphQL does not know the pipeline', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ data: { project: { pipeline: null } } })),
    );
    await expect(fetchPipelineNeeds(offline, 'group/app', 12)).rejects.toMatchObject({ status: 404 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer({ errors: [{ message: "Field 'pipeline' doesn't exist on type 'Project'" }] })),
    );
    await expect(fetchPipelineNeeds(offline, 'group/app', 12)).rejects.toMatchObject({ message: "Field 'pipeline' doesn't exist on type 'Project'" });
  });

  it('asks GraphQL whether a job is stuck, the job id as the platform’s global id', async () => {
    const fetchMock = vi.fn(async () => answer({ data: { project: { job: { stuck: true } } } }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchJobStuck(offline, 'group/app', 42)).toBe(true);
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect((JSON.parse(init.body as string) as { query: string }).query).toContain('job(id: "gid://gitlab/Ci::Build/42")');
    vi.stubGlobal('fetch', vi.fn(async () => answer({ data: { project: { job: null } } })));
    expect(await fetchJobStuck(offline, 'group/app', 42)).toBeNull();
  });
});
