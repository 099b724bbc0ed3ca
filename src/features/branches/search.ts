import * as z from 'zod/mini';
import { withDefault, pageParams, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import type { BranchListParams } from '../../api/branches.ts';

/**
 * The branch list in the URL: `search` (with the platform's `^`/`$` anchors) or `regex` (RE2),
 * never both (the platform refuses that), so a regex in the URL wins.
 */
export const branchesSearchSchema = searchSchema(() => z.object({
  search: withDefault(z.string(), ''),
  regex: withDefault(z.string(), ''),
  sort: withDefault(z.enum(['name_asc', 'updated_desc', 'updated_asc']), 'name_asc'),
  ...pageParams(),
}));
export type BranchesSearch = SearchOf<typeof branchesSearchSchema>;

export const BRANCHES_SEARCH_DEFAULTS: Partial<BranchesSearch> = { search: '', regex: '', sort: 'name_asc', page: 1, per_page: 20 };

export const BRANCH_SORTS = [
  { value: 'name_asc', label: 'Name' },
  { value: 'updated_desc', label: 'Last updated, newest first' },
  { value: 'updated_asc', label: 'Last updated, oldest first' },
] as const;

export function branchListParams(search: BranchesSearch): BranchListParams {
  return {
    ...(search.regex ? { regex: search.regex } : search.search ? { search: search.search } : {}),
    sort: search.sort,
    page: search.page,
    per_page: search.per_page,
  };
}

export const isFiltered = (search: BranchesSearch) => Boolean(search.regex || search.search);
