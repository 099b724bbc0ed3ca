import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { PACKAGES_SEARCH_DEFAULTS, isFiltered, packageListParams, packagesSearchSchema } from './search.ts';

const parse = (value: unknown) => z.parse(packagesSearchSchema.schema(), value);

describe('the packages URL', () => {
  it('falls back to the defaults on bad values, so a bad link still opens the list', () => {
    expect(parse({})).toEqual(PACKAGES_SEARCH_DEFAULTS);
    expect(parse({ package_type: 'docker', status: 'gone', order_by: 'size', sort: 'up', page: -2, per_page: 7 })).toEqual(PACKAGES_SEARCH_DEFAULTS);
    expect(parse({ package_type: 'npm', package_name: 'ui', status: 'hidden', include_versionless: true, order_by: 'project_path' })).toMatchObject({ package_type: 'npm', package_name: 'ui', status: 'hidden', include_versionless: true, order_by: 'project_path' });
  });

  it('becomes the API params: group-only filters stay in groups, terraform_module only in projects', () => {
    const search = parse({ package_type: 'terraform_module', exclude_subgroups: true, order_by: 'project_path', status: '' });
    expect(packageListParams({ project: 1 }, search)).toMatchObject({ package_type: 'terraform_module', order_by: 'created_at', status: undefined });
    expect(packageListParams({ project: 1 }, search)).not.toHaveProperty('exclude_subgroups');
    expect(packageListParams({ group: 1 }, search)).toMatchObject({ package_type: undefined, order_by: 'project_path', exclude_subgroups: true });
  });

  it('knows when a filter hid the packages', () => {
    expect(isFiltered(PACKAGES_SEARCH_DEFAULTS)).toBe(false);
    expect(isFiltered({ ...PACKAGES_SEARCH_DEFAULTS, order_by: 'name', page: 3 })).toBe(false);
    expect(isFiltered({ ...PACKAGES_SEARCH_DEFAULTS, package_version: '1.0' })).toBe(true);
  });
});
