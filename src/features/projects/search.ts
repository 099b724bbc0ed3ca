import * as z from 'zod/mini';
import { scopedListParams, scopedListSearchFields, withDefault, searchSchema, type SearchOf } from '../../lib/search-params.ts';
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

export const projectsSearchSchema = searchSchema(() => z.object({
  ...scopedListSearchFields(['member', 'owned', 'starred', 'all'], PROJECT_SORTS),
  archived: withDefault(z.enum(['exclude', 'only', 'include']), 'exclude'),
}));
export type ProjectsSearch = SearchOf<typeof projectsSearchSchema>;
export const PROJECTS_SEARCH_DEFAULTS: Partial<ProjectsSearch> = { search: '', sort: 'activity_desc', archived: 'exclude', page: 1, per_page: 20 };

/** The URL's list as the API's params; `isAdmin` chooses the default scope. */
export function projectListParams(search: ProjectsSearch, isAdmin: boolean): ProjectListParams {
  const { archived, ...rest } = search;
  return { ...scopedListParams(rest, isAdmin, PROJECT_SORTS), archived: archived === 'include' ? undefined : archived === 'only' };
}
