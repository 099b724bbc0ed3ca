import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { pipelineListParams } from './route-options.ts';
import { PIPELINES_SEARCH_DEFAULTS, isFiltered, jumpToDate, pipelinesSearchSchema } from './search.ts';

const parse = (search: unknown) => z.parse(pipelinesSearchSchema.schema(), search);

describe('the pipelines list in the URL', () => {
  it('falls back to the defaults when the URL is off', () => {
    expect(parse({ scope: 'everything', status: 'done', source: 'carrier pigeon', updated_after: 'yesterday', order_by: 'name', sort: 'up', page: 0, per_page: 7, yaml_errors: 'yes' })).toEqual(PIPELINES_SEARCH_DEFAULTS);
  });

  it('keeps every filter of the platform', () => {
    const search = parse({
      scope: 'tags', status: 'failed', source: 'parent_pipeline', ref: 'v1.0', sha: 'abc', username: 'root', name: 'Nightly', yaml_errors: true,
      updated_after: '2026-01-01', updated_before: '2026-01-31', order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
    });
    expect(pipelineListParams(search)).toEqual({
      scope: 'tags', status: 'failed', source: 'parent_pipeline', ref: 'v1.0', sha: 'abc', username: 'root', name: 'Nightly', yaml_errors: true,
      updated_after: '2026-01-01T00:00:00Z', updated_before: '2026-01-31T23:59:59Z', order_by: 'updated_at', sort: 'asc', page: 3, per_page: 50,
    });
    expect(isFiltered(search)).toBe(true);
  });

  it('sends no empty filter for the plain list', () => {
    expect(pipelineListParams(PIPELINES_SEARCH_DEFAULTS)).toMatchObject({ scope: undefined, status: undefined, source: undefined, updated_after: undefined, updated_before: undefined });
    expect(isFiltered({ ...PIPELINES_SEARCH_DEFAULTS, scope: 'finished', page: 4 })).toBe(false);
  });

  it('jumps to a date: until the end of that day, newest update first, from page 1', () => {
    const jumped = { ...PIPELINES_SEARCH_DEFAULTS, updated_after: '2025-12-01', page: 9, ...jumpToDate('2026-03-15') };
    expect(pipelineListParams(jumped)).toMatchObject({ updated_before: '2026-03-15T23:59:59Z', updated_after: undefined, order_by: 'updated_at', sort: 'desc', page: 1 });
  });
});
