import * as z from 'zod/mini';
import type { PackageListParams, PackageScope } from '../../api/packages.ts';
import { GROUP_PACKAGE_ORDERS, PACKAGE_STATUS_FILTERS, PACKAGE_TYPES, type PackageOrder } from '../../api/vocabulary.ts';
import { pageParams, searchSchema, withDefault, type SearchOf } from '../../lib/search-params.ts';

const optionalEnum = <T extends string>(values: readonly T[]) => withDefault(z.union([z.literal(''), z.enum(values as unknown as [T, ...T[]])]), '');

/**
 * A project's or group's packages in the URL: every filter of spec 3, 4.6. `exclude_subgroups`
 * and the `project_path` order are the group list's; a project list ignores them.
 */
export const packagesSearchSchema = searchSchema(() =>
  z.object({
    package_type: optionalEnum(PACKAGE_TYPES),
    package_name: withDefault(z.string(), ''),
    package_version: withDefault(z.string(), ''),
    status: optionalEnum(PACKAGE_STATUS_FILTERS),
    include_versionless: withDefault(z.boolean(), false),
    exclude_subgroups: withDefault(z.boolean(), false),
    order_by: withDefault(z.enum(GROUP_PACKAGE_ORDERS as unknown as [PackageOrder, ...PackageOrder[]]), 'created_at'),
    sort: withDefault(z.enum(['asc', 'desc']), 'desc'),
    ...pageParams(),
  }),
);
export type PackagesSearch = SearchOf<typeof packagesSearchSchema>;

export const PACKAGES_SEARCH_DEFAULTS: PackagesSearch = {
  package_type: '', package_name: '', package_version: '', status: '', include_versionless: false, exclude_subgroups: false,
  order_by: 'created_at', sort: 'desc', page: 1, per_page: 20,
};

/** The URL's search as the API's params; a project list drops the group-only filter and order. */
export function packageListParams(scope: PackageScope, search: PackagesSearch): PackageListParams {
  const { package_type, status, exclude_subgroups, order_by, ...rest } = search;
  const group = 'group' in scope;
  return {
    ...rest,
    package_type: package_type && !(group && package_type === 'terraform_module') ? package_type : undefined,
    status: status || undefined,
    order_by: order_by === 'project_path' && !group ? 'created_at' : order_by,
    ...(group ? { exclude_subgroups } : {}),
  };
}

/** Whether a filter (not the order or page) narrows the list: the empty state says so. */
export function isFiltered(search: PackagesSearch): boolean {
  return Boolean(search.package_type || search.package_name || search.package_version || search.status || search.include_versionless || search.exclude_subgroups);
}

/** A package's screen in the URL: the page of its files. */
export const packageSearchSchema = searchSchema(() => z.object({ page: pageParams().page }));
export type PackageSearch = SearchOf<typeof packageSearchSchema>;
export const PACKAGE_SEARCH_DEFAULTS: PackageSearch = { page: 1 };
