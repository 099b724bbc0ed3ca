import * as z from 'zod/mini';
import { withDefault, pageParams } from '../../lib/search-params.ts';
import type { GroupListParams } from '../../api/groups.ts';

export const GROUP_SORTS = [
  { value: 'name_asc', label: 'Name, A to Z', order_by: 'name', sort: 'asc' },
  { value: 'name_desc', label: 'Name, Z to A', order_by: 'name', sort: 'desc' },
  { value: 'path_asc', label: 'Path, A to Z', order_by: 'path', sort: 'asc' },
  { value: 'id_desc', label: 'Newest first', order_by: 'id', sort: 'desc' },
  { value: 'id_asc', label: 'Oldest first', order_by: 'id', sort: 'asc' },
] as const;
type GroupSort = (typeof GROUP_SORTS)[number]['value'];

export const GROUP_SCOPES = [
  { value: 'member', label: 'Groups I belong to' },
  { value: 'owned', label: 'Groups I own' },
  { value: 'all', label: 'All groups' },
] as const;

export const groupsSearchSchema = z.object({
  /** Absent: the role's default (every group for an administrator, one's own for others). */
  scope: z.catch(z.optional(z.enum(['member', 'owned', 'all'])), undefined),
  search: withDefault(z.string(), ''),
  sort: withDefault(z.enum(GROUP_SORTS.map((sort) => sort.value) as [GroupSort, ...GroupSort[]]), 'name_asc'),
  visibility: z.catch(z.optional(z.enum(['public', 'internal', 'private'])), undefined),
  min_access_level: z.catch(z.optional(z.number().check(z.int(), z.minimum(5), z.maximum(50))), undefined),
  top_level_only: withDefault(z.boolean(), false),
  ...pageParams,
});
export type GroupsSearch = z.output<typeof groupsSearchSchema>;
export const GROUPS_SEARCH_DEFAULTS: Partial<GroupsSearch> = { search: '', sort: 'name_asc', top_level_only: false, page: 1, per_page: 20 };

/** The URL's list as the API's params; `isAdmin` chooses the default scope. */
export function groupListParams(search: GroupsSearch, isAdmin: boolean): GroupListParams {
  const { scope, sort, ...rest } = search;
  const order = GROUP_SORTS.find((option) => option.value === sort) ?? GROUP_SORTS[0];
  return { ...rest, scope: scope ?? (isAdmin ? 'all' : 'member'), order_by: order.order_by, sort: order.sort };
}
