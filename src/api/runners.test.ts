import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { parseTags, runnersQueries, runnerDetailSchema, runnerFieldErrors, runnerFormSchema, runnerFormValues, runnerUpdateBody, type RunnerFormValues } from './runners.ts';

const valid: RunnerFormValues = { description: 'db', tag_list: 'docker', run_untagged: false, locked: false, access_level: 'not_protected', maximum_timeout: '', maintenance_note: '' };
const messages = (values: Partial<RunnerFormValues>) => z.safeParse(runnerFormSchema, { ...valid, ...values }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('the runner form follows the model’s rules (spec 1, 4.3)', () => {
  it('accepts an empty timeout and one of 600 seconds or more', () => {
    expect(messages({ maximum_timeout: '' })).toEqual([]);
    expect(messages({ maximum_timeout: '600' })).toEqual([]);
    expect(messages({ maximum_timeout: '599' })).toEqual(['maximum_timeout: At least 600 seconds (10 minutes)']);
    expect(messages({ maximum_timeout: '10m' })).toEqual(['maximum_timeout: A whole number of seconds, or empty for no limit']);
  });

  it('keeps the maintenance note and description to 1,024 characters', () => {
    expect(messages({ maintenance_note: 'x'.repeat(1024) })).toEqual([]);
    expect(messages({ maintenance_note: 'x'.repeat(1025) })).toEqual(['maintenance_note: At most 1024 characters']);
    expect(messages({ description: 'x'.repeat(1025) })).toEqual(['description: At most 1024 characters']);
  });

  it('wants tags when the runner may not pick untagged jobs, and at most 50', () => {
    expect(messages({ tag_list: ' , ', run_untagged: false })).toEqual(['tag_list: Tags can not be empty when the runner may not pick untagged jobs']);
    expect(messages({ tag_list: '', run_untagged: true })).toEqual([]);
    expect(messages({ tag_list: Array.from({ length: 51 }, (_, index) => `t${index}`).join(',') })).toEqual(['tag_list: At most 50 tags']);
  });
});

describe('runner form helpers', () => {
  it('parses tags as the platform keeps them', () => {
    expect(parseTags(' docker, linux,,docker , gpu ')).toEqual(['docker', 'linux', 'gpu']);
  });

  it('sends only the changed fields, in the API’s types', () => {
    expect(runnerUpdateBody({ ...valid, tag_list: 'a, b', maximum_timeout: '3600' }, ['tag_list', 'maximum_timeout'])).toEqual({ tag_list: ['a', 'b'], maximum_timeout: 3600 });
    expect(runnerUpdateBody(valid, ['maximum_timeout', 'locked'])).toEqual({ maximum_timeout: null, locked: false });
  });

  it('starts the form from a runner, nulls as empty text', () => {
    const runner = z.parse(runnerDetailSchema, {
      id: 4, description: null, active: true, paused: false, is_shared: true, runner_type: 'instance_type', status: 'online',
      tag_list: ['a', 'b'], run_untagged: null, locked: true, maximum_timeout: null, access_level: 'ref_protected', maintenance_note: null,
    });
    expect(runnerFormValues(runner)).toEqual({ description: '', tag_list: 'a, b', run_untagged: false, locked: true, access_level: 'ref_protected', maximum_timeout: '', maintenance_note: '' });
  });

  it('puts the model’s tags_list error on the tag_list field', () => {
    const error = runnerFieldErrors(new ApiError(400, 'tags list can not be empty', 'http', { tags_list: ['can not be empty'] }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ tag_list: ['can not be empty'] });
  });
});

describe('the project runners a project has', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are read to the last page: a runner past the first hundred is not offered again', async () => {
    const asked: string[] = [];
    const runner = (id: number) => ({ id, description: `r${id}`, active: true, paused: false, is_shared: false, runner_type: 'project_type', status: 'online', name: null, online: true, ip_address: null });
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      const page = Number(new URL(url).searchParams.get('page'));
      const items = page === 1 ? Array.from({ length: 100 }, (_, index) => runner(index + 1)) : [runner(101)];
      return new Response(JSON.stringify(items), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Page': String(page), 'X-Per-Page': '100', 'X-Next-Page': page === 1 ? '2' : '' } });
    });
    const ids = await new QueryClient().fetchQuery(runnersQueries.projectRunnerIds({ instanceUrl: 'http://instance.test', token: 'glpat-x' }, 7));
    expect(ids.size).toBe(101);
    expect(ids.has(101)).toBe(true);
    expect(asked.map((url) => new URL(url).search)).toEqual(['?type=project_type&page=1&per_page=100', '?type=project_type&page=2&per_page=100']);
  });
});
