import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { branchListParams, branchesSearchSchema } from './search.ts';

const parse = (search: Record<string, unknown>) => z.parse(branchesSearchSchema.schema(), search);

describe('the branches URL', () => {
  it('falls back field by field when the URL is off', () => {
    expect(parse({ per_page: 7, page: 0, sort: 'random', search: '^fe' })).toEqual({ search: '^fe', regex: '', sort: 'name_asc', page: 1, per_page: 20 });
  });

  it('sends a regex alone when both are in the URL: the platform refuses the pair', () => {
    expect(branchListParams(parse({ search: 'a', regex: '^b' }))).toEqual({ regex: '^b', sort: 'name_asc', page: 1, per_page: 20 });
    expect(branchListParams(parse({ search: 'a$' }))).toEqual({ search: 'a$', sort: 'name_asc', page: 1, per_page: 20 });
    expect(branchListParams(parse({}))).toEqual({ sort: 'name_asc', page: 1, per_page: 20 });
  });
});
