import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestKeysetPage, requestPage, send, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { flag, loose } from './schema.ts';

/** spec 1, 2.6: the user summary of follow lists and embedded users. */
export const userSummarySchema = loose({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  locked: flag,
  avatar_url: z.nullable(z.string()),
  web_url: z.string(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;

/** A directory row: an administrator's answer also carries the e-mail, the admin flag and the last activity. */
export const directoryUserSchema = loose({
  ...userSummarySchema.shape,
  email: z.optional(z.nullable(z.string())),
  is_admin: flag,
  last_activity_on: z.optional(z.nullable(z.string())),
});
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

/** Users embedded in a list field (assignees, reviewers, approvers): absent or null reads as none. */
export const userSummariesSchema = z.pipe(z.nullish(z.array(userSummarySchema)), z.transform((users) => users ?? []));

export const userProfileSchema = z.extend(userSummarySchema, {
  created_at: z.nullish(z.string()),
  bio: z.nullish(z.string()),
  location: z.nullish(z.string()),
  organization: z.nullish(z.string()),
  job_title: z.nullish(z.string()),
  public_email: z.nullish(z.string()),
  bot: flag,
  followers: z.nullish(z.number()),
  following: z.nullish(z.number()),
  is_followed: flag,
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export interface FollowListParams {
  page: number;
  per_page: number;
}

export const usersQueries = {
  all: () => ['users'] as const,
  detail: (connection: Connection, userId: number) =>
    queryOptions({
      queryKey: [...usersQueries.all(), { user: userId }, 'detail'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/users/${userId}`, userProfileSchema, { signal }),
    }),
  follows: (connection: Connection, userId: number, direction: 'followers' | 'following', params: FollowListParams) =>
    queryOptions({
      queryKey: [...usersQueries.all(), { user: userId }, { list: direction, ...params }] as const,
      queryFn: ({ signal }) => requestPage(connection, apiPath`/users/${userId}/${direction}`, userSummarySchema, { query: { ...params }, signal }),
    }),
  /**
   * The people directory, by name, in keyset pages (spec 1, 8.4): each page names the next in its
   * Link header, so it stays fast however many users the instance has.
   */
  directory: (connection: Connection, search: string) =>
    infiniteQueryOptions({
      queryKey: [...usersQueries.all(), 'directory', { search }] as const,
      queryFn: ({ pageParam, signal }) =>
        requestKeysetPage(connection, pageParam ?? '/users', directoryUserSchema, {
          query: { pagination: 'keyset', order_by: 'name', sort: 'asc', per_page: 50, active: true, search: search || undefined },
          signal,
        }),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextUrl ?? null,
    }),
  /** How many users the instance has: the `x-total` of a one-row page; null when the platform did not count. */
  count: (connection: Connection) =>
    queryOptions({
      queryKey: [...usersQueries.all(), 'count'] as const,
      queryFn: async ({ signal }) => (await requestPage(connection, '/users', userSummarySchema, { query: { per_page: 1 }, signal })).total ?? null,
      staleTime: 30_000,
    }),
  /** Users matching a search, for pickers (active humans first, as the platform orders them). */
  search: (connection: Connection, search: string) =>
    queryOptions({
      queryKey: [...usersQueries.all(), 'search', { search }] as const,
      queryFn: ({ signal }) => requestPage(connection, '/users', userSummarySchema, { query: { search, active: true, per_page: 20 }, signal }),
      staleTime: 60_000,
    }),
};

const userIdsByName = new Map<string, Promise<number | null>>();

/**
 * The ids of usernames (`GET /users?username=`, exact and case-insensitive on the platform), null
 * for a name no one has; filters the API takes only as ids (`approver_ids`) are asked with them.
 * Kept per instance for the page's life (a username's id does not change), and shared: no one
 * caller's abort cancels it.
 */
export function userIdsOf(connection: Connection, usernames: readonly string[]): Promise<Array<number | null>> {
  return Promise.all(
    usernames.map((username) => {
      const key = `${connection.instanceUrl} ${username.toLowerCase()}`;
      let id = userIdsByName.get(key);
      if (!id) {
        id = request(connection, '/users', z.array(z.pick(userSummarySchema, { id: true, username: true })), { query: { username } }).then((users) => users[0]?.id ?? null);
        // a failed lookup is asked again next time
        id.catch(() => userIdsByName.delete(key));
        userIdsByName.set(key, id);
      }
      return id;
    }),
  );
}

export type FollowVariables = { userId: number; follow: boolean };

/** Follow or unfollow; 304 (already so) counts as done. */
export async function setFollowing(connection: Connection, { userId, follow }: FollowVariables): Promise<void> {
  await send(connection, apiPath`/users/${userId}/${follow ? 'follow' : 'unfollow'}`, { method: 'POST' });
}
