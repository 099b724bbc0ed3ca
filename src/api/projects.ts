import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, type Connection } from './http.ts';
import { apiPath } from './params.ts';
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

export const projectsQueries = {
  all: () => ['projects'] as const,
  detail: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...projectsQueries.all(), { project: projectId }, 'detail'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}`, projectSchema, { signal }),
      staleTime: 5 * 60_000,
    }),
  /** Projects by name: those the user is a member of, or every project for an administrator (`everywhere`). */
  search: (connection: Connection, search: string, everywhere = false) =>
    queryOptions({
      queryKey: [...projectsQueries.all(), 'search', { search, everywhere }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, '/projects', projectSchema, { query: { search: search || undefined, membership: everywhere ? undefined : true, simple: true, per_page: 10, order_by: 'last_activity_at' }, signal }),
      staleTime: 60_000,
    }),
};
