import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { projectListParams, projectsSearchSchema } from './search.ts';

describe('the projects list in the URL', () => {
  it('falls back to defaults on a bad URL', () => {
    expect(z.parse(projectsSearchSchema.schema(), { scope: 'nope', sort: 'x', archived: 'maybe', page: -2, per_page: 7, min_access_level: 99 })).toEqual({
      scope: undefined, search: '', sort: 'activity_desc', visibility: undefined, min_access_level: undefined, archived: 'exclude', page: 1, per_page: 20,
    });
  });

  it('defaults to every project for an administrator, and to one’s own for others', () => {
    const projects = z.parse(projectsSearchSchema.schema(), {});
    expect(projectListParams(projects, true).scope).toBe('all');
    expect(projectListParams(projects, false).scope).toBe('member');
  });

  it('turns a sort into order_by and sort, and archived into the platform’s boolean (absent for both)', () => {
    const search = z.parse(projectsSearchSchema.schema(), { sort: 'stars_desc' });
    expect(projectListParams(search, false)).toMatchObject({ order_by: 'star_count', sort: 'desc', archived: false });
    expect(projectListParams({ ...search, archived: 'only' }, false).archived).toBe(true);
    expect(projectListParams({ ...search, archived: 'include' }, false).archived).toBeUndefined();
  });
});
