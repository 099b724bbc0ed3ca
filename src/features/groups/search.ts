import * as z from 'zod/mini';
import { scopedListParams, scopedListSearchFields, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';
import type { GroupListParams } from '../../api/groups.ts';

export const GROUP_SORTS = [
  { value: 'name_asc', label: 'Name, A to Z', order_by: 'name', sort: 'asc' },
  { value: 'name_desc', label: 'Name, Z to A', order_by: 'name', sort: 'desc' },
  { value: 'path_asc', label: 'Path, A to Z', order_by: 'path', sort: 'asc' },
  { value: 'id_desc', label: 'Newest first', order_by: 'id', sort: 'desc' },
  { value: 'id_asc', label: 'Oldest first', order_by: 'id', sort: 'asc' },
] as const;

export const GROUP_SCOPES = [
  { value: 'member', label: 'Groups I belong to' },
  { value: 'owned', label: 'Groups I own' },
  { value: 'all', label: 'All groups' },
] as const;

export const groupsSearchSchema = searchSchema(() => z.object({
  ...scopedListSearchFields(['member', 'owned', 'all'], GROUP_SORTS),
  top_level_only: withDefault(z.boolean(), false),
}));
export type GroupsSearch = SearchOf<typeof groupsSearchSchema>;
export const GROUPS_SEARCH_DEFAULTS: Partial<GroupsSearch> = { search: '', sort: 'name_asc', top_level_only: false, page: 1, per_page: 20 };

/** The URL's list as the API's params; `isAdmin` chooses the default scope. */
export function groupListParams(search: GroupsSearch, isAdmin: boolean): GroupListParams {
  return scopedListParams(search, isAdmin, GROUP_SORTS);
}
