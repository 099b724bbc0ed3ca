import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { fetchCiConfigVariables, graphqlRequest } from './graphql.ts';
import type { Connection } from './http.ts';
import {
  canCancelPipeline, canRetryPipeline, cancelPipeline, createPipeline, deletePipeline, isPipelineMoving, pipelineDetailSchema, pipelineSchema,
  pipelinesQueries, retryPipeline, runPipelineSchema, runPipelineVariables, testReportSchema, testReportSummarySchema,
} from './pipelines.ts';

// responses shaped as the platform's API documentation shows them (Pipelines API, 2.5 of spec 3)
const listItem = {
  id: 47, iid: 12, project_id: 1, status: 'pending', source: 'push', ref: 'new-pipeline', sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a',
  name: 'Build pipeline', web_url: 'https://example.com/foo/bar/pipelines/47', created_at: '2016-08-11T11:28:34.085Z', updated_at: '2016-08-11T11:32:35.169Z',
};
const single = {
  ...listItem,
  before_sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a', tag: false, yaml_errors: null,
  user: { id: 1, name: 'Administrator', username: 'root', state: 'active', avatar_url: 'http://www.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61?s=80&d=identicon', web_url: 'http://localhost:3000/root' },
  started_at: null, finished_at: '2016-08-11T11:32:35.145Z', committed_at: null, duration: 123.65, queued_duration: 0.010, coverage: '30.0',
  detailed_status: {
    icon: 'status_pending', text: 'pending', label: 'pending', group: 'pending', tooltip: 'pending', has_details: false,
    details_path: '/test-group/test-project/-/pipelines/287', illustration: null, favicon: '/assets/ci_favicons/favicon_status_pending.png',
  },
};
const testReport = {
  total_time: 5, total_count: 1, success_count: 1, failed_count: 0, skipped_count: 0, error_count: 0,
  test_suites: [{
    name: 'Secure', total_time: 5, total_count: 1, success_count: 1, failed_count: 0, skipped_count: 0, error_count: 0, suite_error: null,
    test_cases: [{ status: 'success', name: 'Security Reports can create an auto-remediation MR', classname: 'vulnerability_management_spec', execution_time: 5, system_output: null, stack_trace: null }],
  }],
};
const testReportSummary = {
  total: { time: 1904, count: 3363, success: 3351, failed: 0, skipped: 12, error: 0, suite_error: null },
  test_suites: [{ name: 'test', total_time: 1904, total_count: 3363, success_count: 3351, failed_count: 0, skipped_count: 12, error_count: 0, build_ids: [66004], suite_error: null }],
};

const connection: Connection = { instanceUrl: 'https://ci.example.com/', token: 'glpat-secret' };

/** Answers every fetch with `body` and records what was asked. */
function stubFetch(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  const calls: Array<{ url: string; method: string; headers: Record<string, string>; body: unknown }> = [];
  vi.stubGlobal('fetch', async (url: string, options: RequestInit) => {
    calls.push({ url, method: options.method ?? 'GET', headers: options.headers as Record<string, string>, body: options.body ? JSON.parse(String(options.body)) : undefined });
    const status = init.status ?? 200;
    return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...init.headers } });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('pipeline schemas', () => {
  it('parses the documented list item and single pipeline', () => {
    expect(z.parse(pipelineSchema, listItem).iid).toBe(12);
    const pipeline = z.parse(pipelineDetailSchema, single);
    expect(pipeline.user?.username).toBe('root');
    expect(pipeline.detailed_status?.group).toBe('pending');
    expect(pipeline.duration).toBe(123.65);
    expect(pipeline.tag).toBe(false);
  });

  it('accepts older answers without iid and name, and nulls where the platform sends them', () => {
    const { iid: _iid, name: _name, ...old } = listItem;
    expect(z.parse(pipelineSchema, old).iid).toBeUndefined();
    const pipeline = z.parse(pipelineDetailSchema, { ...single, tag: null, user: null, duration: null, detailed_status: null, coverage: null });
    expect(pipeline.tag).toBe(false);
    expect(pipeline.user).toBeNull();
  });

  it('parses the test report and its summary', () => {
    const report = z.parse(testReportSchema, testReport);
    expect(report.test_suites[0].test_cases[0].classname).toBe('vulnerability_management_spec');
    const summary = z.parse(testReportSummarySchema, testReportSummary);
    expect(summary.total.skipped).toBe(12);
    expect(summary.test_suites[0].build_ids).toEqual([66004]);
  });
});

describe('pipeline states', () => {
  it('counts pipelines as moving until they reach a final or manual state', () => {
    for (const status of ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled']) expect(isPipelineMoving(status)).toBe(true);
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual']) expect(isPipelineMoving(status)).toBe(false);
  });

  it('offers retry on failed and canceled pipelines, cancel on those still to finish', () => {
    expect(canRetryPipeline('failed')).toBe(true);
    expect(canRetryPipeline('success')).toBe(false);
    expect(canCancelPipeline('running')).toBe(true);
    expect(canCancelPipeline('success')).toBe(false);
  });
});

describe('pipeline calls', () => {
  it('sends every filter of the list, encoded, and leaves empty ones out', async () => {
    const calls = stubFetch([listItem], { headers: { 'x-page': '2', 'x-per-page': '20', 'x-next-page': '' } });
    const page = await new QueryClient().fetchQuery(
      pipelinesQueries.list(connection, 'group/app', {
        scope: 'branches', status: 'running', source: 'web', ref: 'feature/x', sha: '', name: 'Nightly build', username: 'root', yaml_errors: false,
        updated_after: '2026-01-01T00:00:00+01:00', updated_before: '2026-02-01T00:00:00Z', order_by: 'updated_at', sort: 'asc', page: 2, per_page: 20,
      }),
    );
    expect(page.items[0].id).toBe(47);
    expect(calls[0].url).toBe(
      'https://ci.example.com/api/v4/projects/group%2Fapp/pipelines?scope=branches&status=running&source=web&ref=feature%2Fx&name=Nightly%20build&username=root&updated_after=2026-01-01T00%3A00%3A00%2B01%3A00&updated_before=2026-02-01T00%3A00%3A00Z&order_by=updated_at&sort=asc&page=2&per_page=20',
    );
    expect(calls[0].headers['PRIVATE-TOKEN']).toBe('glpat-secret');
  });

  it('asks for pipelines with YAML errors only when yaml_errors is true', async () => {
    const calls = stubFetch([]);
    await new QueryClient().fetchQuery(pipelinesQueries.list(connection, 3, { yaml_errors: true, page: 1, per_page: 20 }));
    expect(calls[0].url).toBe('https://ci.example.com/api/v4/projects/3/pipelines?yaml_errors=true&page=1&per_page=20');
  });

  it('reads the latest pipeline of a ref, and says why when the commit has none', async () => {
    const calls = stubFetch(single);
    await new QueryClient().fetchQuery(pipelinesQueries.latest(connection, 3, 'release/1'));
    expect(calls[0].url).toBe('https://ci.example.com/api/v4/projects/3/pipelines/latest?ref=release%2F1');
    stubFetch({ message: '403 Forbidden - no pipeline for the latest commit' }, { status: 403 });
    await expect(new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(pipelinesQueries.latest(connection, 3))).rejects.toMatchObject({ status: 403, message: expect.stringContaining('no pipeline') });
  });

  it('reads variables (variable_type defaulting to env_var), the test report and its summary', async () => {
    const client = new QueryClient();
    let calls = stubFetch([{ key: 'RUN_NIGHTLY_BUILD', variable_type: 'env_var', value: 'true' }, { key: 'foo', value: 'bar' }]);
    const variables = await client.fetchQuery(pipelinesQueries.variables(connection, 3, 47));
    expect(variables.map((variable) => variable.variable_type)).toEqual(['env_var', 'env_var']);
    expect(calls[0].url).toBe('https://ci.example.com/api/v4/projects/3/pipelines/47/variables');
    calls = stubFetch(testReport);
    await client.fetchQuery(pipelinesQueries.testReport(connection, 3, 47));
    expect(calls[0].url).toBe('https://ci.example.com/api/v4/projects/3/pipelines/47/test_report');
    calls = stubFetch(testReportSummary);
    await client.fetchQuery(pipelinesQueries.testReportSummary(connection, 3, 47));
    expect(calls[0].url).toBe('https://ci.example.com/api/v4/projects/3/pipelines/47/test_report_summary');
  });

  it('creates a pipeline with typed variables as a JSON body on the singular path', async () => {
    const calls = stubFetch(single, { status: 201 });
    const pipeline = await createPipeline(connection, { projectId: 'group/app', ref: 'main', variables: [{ key: 'A', value: 'x', variable_type: 'file' }] });
    expect(pipeline.id).toBe(47);
    expect(calls[0]).toMatchObject({ url: 'https://ci.example.com/api/v4/projects/group%2Fapp/pipeline', method: 'POST', body: { ref: 'main', variables: [{ key: 'A', value: 'x', variable_type: 'file' }] } });
    expect(calls[0].headers['Content-Type']).toBe('application/json');
  });

  it('turns a refused create into a readable error', async () => {
    stubFetch({ message: { base: ['Reference not found'] } }, { status: 400 });
    await expect(createPipeline(connection, { projectId: 3, ref: 'nope' })).rejects.toMatchObject({ status: 400, message: 'Reference not found' });
  });

  it('retries, cancels and deletes on the pipeline path', async () => {
    let calls = stubFetch({ ...single, status: 'pending' }, { status: 201 });
    await retryPipeline(connection, { projectId: 3, pipelineId: 47 });
    expect(calls[0]).toMatchObject({ url: 'https://ci.example.com/api/v4/projects/3/pipelines/47/retry', method: 'POST' });
    calls = stubFetch({ ...single, status: 'canceled' });
    expect((await cancelPipeline(connection, { projectId: 3, pipelineId: 47 })).status).toBe('canceled');
    expect(calls[0]).toMatchObject({ url: 'https://ci.example.com/api/v4/projects/3/pipelines/47/cancel', method: 'POST' });
    calls = stubFetch(null, { status: 204 });
    await deletePipeline(connection, { projectId: 3, pipelineId: 47 });
    expect(calls[0]).toMatchObject({ url: 'https://ci.example.com/api/v4/projects/3/pipelines/47', method: 'DELETE' });
  });
});

describe('the run form', () => {
  const issues = (values: unknown) => z.safeParse(runPipelineSchema, values).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];
  const row = (key: string, value = 'v', variable_type: 'env_var' | 'file' = 'env_var') => ({ key, value, variable_type });

  it('wants a ref', () => {
    expect(issues({ ref: ' ', variables: [] })).toEqual(['ref: Choose a branch or tag']);
  });

  it('checks key format and duplicates on the row that is wrong, and skips blank rows', () => {
    expect(issues({ ref: 'main', variables: [row('GOOD_1'), row('', ''), row('bad key'), row('GOOD_1'), row('', 'lonely')] })).toEqual([
      'variables.2.key: Only letters, digits and _ (no spaces)',
      'variables.3.key: GOOD_1 is already set in row 1',
      'variables.4.key: Give the variable a key, or clear its value',
    ]);
    expect(issues({ ref: 'main', variables: [row('K'.repeat(256))] })).toEqual(['variables.0.key: At most 255 characters']);
  });

  it('sends the rows that are not blank, with their type', () => {
    expect(runPipelineVariables([row('A', ''), row('', ''), row('B', 'x', 'file')])).toEqual([row('A', ''), row('B', 'x', 'file')]);
  });
});

describe('GraphQL', () => {
  it('posts to /api/graphql with the REST auth and reads ciConfigVariables', async () => {
    const calls = stubFetch({ data: { project: { ciConfigVariables: [{ key: 'DEPLOY_ENV', value: 'staging', valueOptions: ['staging', 'production'], description: 'Where to deploy' }] } } });
    const variables = await fetchCiConfigVariables(connection, 'group/app', 'main');
    expect(variables?.[0]).toMatchObject({ key: 'DEPLOY_ENV', valueOptions: ['staging', 'production'] });
    expect(calls[0].url).toBe('https://ci.example.com/api/graphql');
    expect(calls[0].headers['PRIVATE-TOKEN']).toBe('glpat-secret');
    expect(calls[0].body).toMatchObject({ variables: { fullPath: 'group/app', ref: 'main' } });
    expect((calls[0].body as { query: string }).query).toContain('ciConfigVariables(ref: $ref) { key value valueOptions description }');
  });

  it('answers null while the platform is still reading the CI file, and not found for a missing project', async () => {
    stubFetch({ data: { project: { ciConfigVariables: null } } });
    expect(await fetchCiConfigVariables(connection, 'group/app', 'main')).toBeNull();
    stubFetch({ data: { project: null } });
    await expect(fetchCiConfigVariables(connection, 'group/gone', 'main')).rejects.toMatchObject({ status: 404 });
  });

  it('turns GraphQL errors, with 200 or a 4xx, into readable ApiErrors', async () => {
    stubFetch({ data: null, errors: [{ message: "Field 'nope' doesn't exist on type 'Project'", locations: [] }] });
    await expect(graphqlRequest(connection, '{ project { nope } }', {}, z.unknown())).rejects.toMatchObject({ message: "Field 'nope' doesn't exist on type 'Project'" });
    stubFetch({ errors: [{ message: 'Invalid token' }] }, { status: 401 });
    const error = await graphqlRequest(connection, '{ x }', {}, z.unknown()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: 'Invalid token' });
  });
});
