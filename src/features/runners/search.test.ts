import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { runnerListParams, runnerSearchSchema, runnersSearchSchema } from './search.ts';

describe('runner fleet search params', () => {
  it('fills every default for a bare URL', () => {
    expect(z.parse(runnersSearchSchema.schema(), {})).toEqual({ tag_list: [], version_prefix: '', page: 1, per_page: 20 });
  });

  it('keeps a full, valid view', () => {
    const search = { type: 'group_type', status: 'stale', paused: false, tag_list: ['docker', 'gpu'], version_prefix: '17.8', page: 3, per_page: 50 };
    expect(z.parse(runnersSearchSchema.schema(), search)).toEqual(search);
  });

  it('falls back per field when a bookmarked URL is off, keeping the good fields', () => {
    const parsed = z.parse(runnersSearchSchema.schema(), { type: 'cloud', status: 'paused', paused: 'yes', tag_list: ['linux'], version_prefix: 'v17', per_page: 33 });
    expect(parsed).toEqual({ type: undefined, status: undefined, paused: undefined, tag_list: ['linux'], version_prefix: '', page: 1, per_page: 20 });
  });

  it('accepts the version prefixes the platform does and no others', () => {
    for (const prefix of ['17', '17.', '17.8', '17.8.1']) expect(z.parse(runnersSearchSchema.schema(), { version_prefix: prefix }).version_prefix).toBe(prefix);
    for (const prefix of ['latest', '17.x', '1.2.3.4']) expect(z.parse(runnersSearchSchema.schema(), { version_prefix: prefix }).version_prefix).toBe('');
  });

  it('sends paused=false as a filter and drops empty tags and prefix', () => {
    const params = runnerListParams(z.parse(runnersSearchSchema.schema(), { paused: false }));
    expect(params).toEqual({ type: undefined, status: undefined, paused: false, tag_list: undefined, version_prefix: undefined, page: 1, per_page: 20 });
  });
});

describe('runner page search params', () => {
  it('defaults to newest jobs first and drops an unknown job status', () => {
    expect(z.parse(runnerSearchSchema.schema(), { status: 'exploded', sort: 'sideways' })).toEqual({ status: undefined, sort: 'desc', page: 1, per_page: 20 });
    expect(z.parse(runnerSearchSchema.schema(), { status: 'failed', sort: 'asc', page: 2 })).toMatchObject({ status: 'failed', sort: 'asc', page: 2 });
  });
});
