import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { groupListParams, groupsSearchSchema } from './search.ts';

describe('the groups list in the URL', () => {
  it('falls back to defaults on a bad URL', () => {
    expect(z.parse(groupsSearchSchema.schema(), { scope: 'mine', top_level_only: 'yes', visibility: 'secret', per_page: 30 })).toEqual({
      scope: undefined, search: '', sort: 'name_asc', visibility: undefined, min_access_level: undefined, top_level_only: false, page: 1, per_page: 20,
    });
  });

  it('defaults to every group for an administrator and to one’s own for others, and turns a sort into order_by and sort', () => {
    const search = z.parse(groupsSearchSchema.schema(), { sort: 'id_desc' });
    expect(groupListParams(search, true)).toMatchObject({ scope: 'all', order_by: 'id', sort: 'desc' });
    expect(groupListParams(search, false).scope).toBe('member');
    expect(groupListParams({ ...search, scope: 'owned' }, true).scope).toBe('owned');
  });
});
