import * as z from 'zod/mini';
import { withDefault, pageParams } from '../../lib/search-params.ts';
import type { ProjectListParams } from '../../api/projects.ts';

export const PROJECT_SORTS = [
  { value: 'activity_desc', label: 'Recently active', order_by: 'last_activity_at', sort: 'desc' },
  { value: 'name_asc', label: 'Name, A to Z', order_by: 'name', sort: 'asc' },
  { value: 'name_desc', label: 'Name, Z to A', order_by: 'name', sort: 'desc' },
  { value: 'created_desc', label: 'Newest first', order_by: 'created_at', sort: 'desc' },
  { value: 'created_asc', label: 'Oldest first', order_by: 'created_at', sort: 'asc' },
  { value: 'updated_desc', label: 'Recently updated', order_by: 'updated_at', sort: 'desc' },
  { value: 'stars_desc', label: 'Most stars', order_by: 'star_count', sort: 'desc' },
] as const;
type ProjectSort = (typeof PROJECT_SORTS)[number]['value'];

export const PROJECT_SCOPES = [
  { value: 'member', label: 'Projects I belong to' },
  { value: 'owned', label: 'Projects I own' },
  { value: 'starred', label: 'Starred projects' },
  { value: 'all', label: 'All projects' },
] as const;

export const ARCHIVED_CHOICES = [
  { value: 'exclude', label: 'Active only' },
  { value: 'only', label: 'Archived only' },
  { value: 'include', label: 'Active and archived' },
] as const;

export const projectsSearchSchema = z.object({
  /** Absent: the role's default (every project for an administrator, one's own for others). */
  scope: z.catch(z.optional(z.enum(['member', 'owned', 'starred', 'all'])), undefined),
  search: withDefault(z.string(), ''),
  sort: withDefault(z.enum(PROJECT_SORTS.map((sort) => sort.value) as [ProjectSort, ...ProjectSort[]]), 'activity_desc'),
  visibility: z.catch(z.optional(z.enum(['public', 'internal', 'private'])), undefined),
  min_access_level: z.catch(z.optional(z.number().check(z.int(), z.minimum(5), z.maximum(50))), undefined),
  archived: withDefault(z.enum(['exclude', 'only', 'include']), 'exclude'),
  ...pageParams,
});
export type ProjectsSearch = z.output<typeof projectsSearchSchema>;
export const PROJECTS_SEARCH_DEFAULTS: Partial<ProjectsSearch> = { search: '', sort: 'activity_desc', archived: 'exclude', page: 1, per_page: 20 };

/** The URL's list as the API's params; `isAdmin` chooses the default scope. */
export function projectListParams(search: ProjectsSearch, isAdmin: boolean): ProjectListParams {
  const { scope, sort, archived, ...rest } = search;
  const order = PROJECT_SORTS.find((option) => option.value === sort) ?? PROJECT_SORTS[0];
  return { ...rest, scope: scope ?? (isAdmin ? 'all' : 'member'), order_by: order.order_by, sort: order.sort, archived: archived === 'include' ? undefined : archived === 'only' };
}
