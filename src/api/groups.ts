import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { loose } from './schema.ts';

export const groupSchema = loose({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  full_name: z.string(),
  full_path: z.string(),
  description: z.nullish(z.string()),
  visibility: z.string(),
  parent_id: z.nullable(z.number()),
  web_url: z.string(),
  avatar_url: z.nullable(z.string()),
});
export type Group = z.infer<typeof groupSchema>;

export const groupsQueries = {
  all: () => ['groups'] as const,
  detail: (connection: Connection, groupId: number) =>
    queryOptions({
      queryKey: [...groupsQueries.all(), { group: groupId }, 'detail'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/groups/${groupId}`, groupSchema, { query: { with_projects: false }, signal }),
      staleTime: 5 * 60_000,
    }),
  /** Groups by name: those the user belongs to, or every group for an administrator (`everywhere`). */
  search: (connection: Connection, search: string, everywhere = false) =>
    queryOptions({
      queryKey: [...groupsQueries.all(), 'search', { search, everywhere }] as const,
      queryFn: ({ signal }) => requestPage(connection, '/groups', groupSchema, { query: { search: search || undefined, per_page: 10, all_available: everywhere, order_by: 'name' }, signal }),
      staleTime: 60_000,
    }),
};
