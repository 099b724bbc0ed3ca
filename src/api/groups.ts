import { queryOptions, type QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, type Connection } from './http.ts';
import { DETAIL_FRESH_MS } from './early.ts';
import { groupDetailKey, groupListsKey, listedItem } from './keys.ts';
import { apiPath, withoutEmpty } from './params.ts';
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

export type Visibility = 'private' | 'internal' | 'public';

/** Which groups a list covers: those the user belongs to, those they own, or every group they can see (all, for administrators). */
export type GroupScope = 'member' | 'owned' | 'all';

export interface GroupListParams {
  scope: GroupScope;
  search: string;
  order_by: 'name' | 'path' | 'id';
  sort: 'asc' | 'desc';
  visibility?: Visibility;
  min_access_level?: number;
  top_level_only: boolean;
  page: number;
  per_page: number;
}

/** The list's params as the platform's query (spec 1, GET /groups). */
function groupListQuery({ scope, ...rest }: GroupListParams) {
  // all_available=false narrows even an administrator to the groups they belong to
  return { ...withoutEmpty(rest), all_available: scope === 'member' ? false : scope === 'all' ? true : undefined, owned: scope === 'owned' || undefined };
}

export const groupsQueries = {
  all: () => ['groups'] as const,
  detail: (connection: Connection, groupId: number) =>
    queryOptions({
      queryKey: groupDetailKey(groupId),
      queryFn: ({ signal }) => request(connection, apiPath`/groups/${groupId}`, groupSchema, { query: { with_projects: false }, signal }),
      staleTime: DETAIL_FRESH_MS,
    }),
  lists: () => groupListsKey,
  list: (connection: Connection, params: GroupListParams) =>
    queryOptions({
      queryKey: [...groupsQueries.lists(), params] as const,
      queryFn: ({ signal }) => requestPage(connection, '/groups', groupSchema, { query: groupListQuery(params), signal }),
    }),
  /** How many groups the caller can see: the `x-total` of a one-row page; null when the platform did not count. */
  count: (connection: Connection) =>
    queryOptions({
      queryKey: [...groupsQueries.all(), 'count'] as const,
      queryFn: async ({ signal }) => (await requestPage(connection, '/groups', groupSchema, { query: { all_available: true, per_page: 1 }, signal })).total ?? null,
      staleTime: 30_000,
    }),
  /** Groups by name: those the user belongs to, or every group for an administrator (`everywhere`). */
  search: (connection: Connection, search: string, everywhere = false) =>
    queryOptions({
      queryKey: [...groupsQueries.all(), 'search', { search, everywhere }] as const,
      queryFn: ({ signal }) => requestPage(connection, '/groups', groupSchema, { query: { search: search || undefined, per_page: 10, all_available: everywhere, order_by: 'name' }, signal }),
      staleTime: 60_000,
    }),
};

/**
 * A group's details for a loader: from a cached list when one holds the group, stamped with that
 * list's time, so a click from a list of groups waits for no request of its own (first-requests.ts
 * then sends none either).
 */
export function ensureGroup(queryClient: QueryClient, connection: Connection, groupId: number): Promise<Group> {
  const options = groupsQueries.detail(connection, groupId);
  if (queryClient.getQueryData(options.queryKey) === undefined) {
    const listed = listedItem<Group>(queryClient, groupListsKey, groupId);
    if (listed) queryClient.setQueryData(options.queryKey, listed.item, { updatedAt: listed.updatedAt });
  }
  return queryClient.ensureQueryData(options);
}

/** A loader starts a group's details for its screen's heading, taken from a cached list when one holds the group; a failure is the screen's to show. */
export function prefetchGroup({ queryClient, api }: { queryClient: QueryClient; api: Connection }, groupId: number): void {
  ensureGroup(queryClient, api, groupId).catch(() => undefined);
}
