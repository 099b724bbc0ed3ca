import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, type Connection } from './http.ts';
import { DETAIL_FRESH_MS } from './early.ts';
import { projectDetailKey } from './keys.ts';
import { apiPath, withoutEmpty } from './params.ts';
import type { Visibility } from './groups.ts';
import { loose } from './schema.ts';

const accessSchema = z.nullable(loose({ access_level: z.number() }));

export const projectSchema = loose({
  id: z.number(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  description: z.nullish(z.string()),
  visibility: z.string(),
  default_branch: z.nullish(z.string()),
  web_url: z.string(),
  namespace: loose({ id: z.number(), kind: z.string(), full_path: z.string(), parent_id: z.nullish(z.number()) }),
  permissions: z.optional(loose({ project_access: z.optional(accessSchema), group_access: z.optional(accessSchema) })),
});
export type Project = z.infer<typeof projectSchema>;

/** A row of the projects list: the full entity, which says whether the project is archived. */
export const projectRowSchema = z.extend(projectSchema, {
  archived: z.optional(z.boolean()),
  star_count: z.optional(z.number()),
  last_activity_at: z.nullish(z.string()),
});
export type ProjectRow = z.infer<typeof projectRowSchema>;

/** Which projects a list covers: the user's (any role), owned, starred, or every one they can see (all, for administrators). */
export type ProjectScope = 'member' | 'owned' | 'starred' | 'all';

export interface ProjectListParams {
  scope: ProjectScope;
  search: string;
  order_by: 'name' | 'path' | 'created_at' | 'updated_at' | 'last_activity_at' | 'star_count' | 'id';
  sort: 'asc' | 'desc';
  visibility?: Visibility;
  min_access_level?: number;
  /** undefined lists both archived and active projects. */
  archived?: boolean;
  page: number;
  per_page: number;
}

/** The list's params as the platform's query (spec 1, GET /projects); `archived=false` is a filter, so only undefined drops it. */
function projectListQuery({ scope, archived, ...rest }: ProjectListParams) {
  return { ...withoutEmpty(rest), archived, membership: scope === 'member' || undefined, owned: scope === 'owned' || undefined, starred: scope === 'starred' || undefined };
}

export const projectsQueries = {
  all: () => ['projects'] as const,
  detail: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: projectDetailKey(projectId),
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}`, projectSchema, { signal }),
      staleTime: DETAIL_FRESH_MS,
    }),
  lists: () => [...projectsQueries.all(), 'list'] as const,
  list: (connection: Connection, params: ProjectListParams) =>
    queryOptions({
      queryKey: [...projectsQueries.lists(), params] as const,
      queryFn: ({ signal }) => requestPage(connection, '/projects', projectRowSchema, { query: projectListQuery(params), signal }),
    }),
  /** How many projects the caller can see: the `x-total` of a one-row page; null when the platform did not count. */
  count: (connection: Connection) =>
    queryOptions({
      queryKey: [...projectsQueries.all(), 'count'] as const,
      queryFn: async ({ signal }) => (await requestPage(connection, '/projects', projectSchema, { query: { simple: true, per_page: 1 }, signal })).total ?? null,
      staleTime: 30_000,
    }),
  /** Projects by name: those the user is a member of, or every project for an administrator (`everywhere`). */
  /** The caller's projects matching `search` (every project when `everywhere`); with `minAccessLevel`, those where their role is at least that. */
  search: (connection: Connection, search: string, everywhere = false, minAccessLevel?: number) =>
    queryOptions({
      queryKey: [...projectsQueries.all(), 'search', { search, everywhere, minAccessLevel }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, '/projects', projectSchema, {
          query: { search: search || undefined, membership: everywhere ? undefined : true, min_access_level: everywhere ? undefined : minAccessLevel, simple: true, per_page: 10, order_by: 'last_activity_at' },
          signal,
        }),
      staleTime: 60_000,
    }),
};
