import { queryOptions, type QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ROLE_FRESH_MS } from './early.ts';
import { ApiError } from './errors.ts';
import { request, requestPage, send, type Connection } from './http.ts';
import type { SessionStore } from './session.ts';
import { accessLevelIn, myAccessKey, myAccessQuery, scopePath, type Scope } from './keys.ts';
import { apiPath } from './params.ts';
import { flag, isoDate, loose } from './schema.ts';
import { userSummarySchema } from './users.ts';
import { BILLABLE_SORTS, BILLABLE_SORT_VALUES, type BillableSort } from './vocabulary.ts';
export { BILLABLE_SORTS, BILLABLE_SORT_VALUES, type BillableSort };

/** Role values of spec 1, 2.7. */
export const ROLES = [
  { value: 5, label: 'Minimal Access' },
  { value: 10, label: 'Guest' },
  { value: 15, label: 'Planner' },
  { value: 20, label: 'Reporter' },
  { value: 30, label: 'Developer' },
  { value: 40, label: 'Maintainer' },
  { value: 50, label: 'Owner' },
] as const;

export function roleName(level: number): string {
  if (level === 0) return 'No access';
  if (level === 60) return 'Admin';
  return ROLES.find((role) => role.value === level)?.label ?? `Role ${level}`;
}

/** "Your role in this group is Developer.", or that the caller is no member: for a refusal's reason. */
export function yourGroupRole(role: number): string {
  return role ? `Your role in this group is ${roleName(role)}.` : 'You are not a member of this group.';
}

/** spec 1, 2.5 */
export const memberSchema = z.extend(userSummarySchema, {
  access_level: z.number(),
  created_at: z.nullish(z.string()),
  created_by: z.nullish(userSummarySchema),
  expires_at: z.nullish(isoDate),
  membership_state: z.nullish(z.string()),
  email: z.nullish(z.string()),
  group_saml_identity: z.nullish(loose({ extern_uid: z.string(), provider: z.string(), saml_provider_id: z.nullish(z.number()) })),
  is_using_seat: z.optional(flag),
});
export type Member = z.infer<typeof memberSchema>;

export type MembersTab = 'direct' | 'all';

export interface MemberListParams {
  page: number;
  per_page: number;
  query?: string;
  user_ids?: number[];
  skip_users?: number[];
  show_seat_info?: boolean;
  state?: 'awaiting' | 'active';
}

/** Only what each list understands: `skip_users` is for direct members, `state` for all. */
function listQuery(tab: MembersTab, params: MemberListParams) {
  const { skip_users: skipUsers, state, ...common } = params;
  return {
    ...common,
    query: common.query || undefined,
    user_ids: common.user_ids?.length ? common.user_ids : undefined,
    show_seat_info: common.show_seat_info || undefined,
    ...(tab === 'direct' ? { skip_users: skipUsers?.length ? skipUsers : undefined } : { state }),
  };
}


export const billableMemberSchema = z.extend(userSummarySchema, {
  email: z.nullish(z.string()),
  last_activity_on: z.nullish(z.string()),
  membership_type: z.nullish(z.string()),
  removable: flag,
  created_at: z.nullish(z.string()),
  last_login_at: z.nullish(z.string()),
  is_last_owner: z.optional(flag),
});
export type BillableMember = z.infer<typeof billableMemberSchema>;

export const billableMembershipSchema = loose({
  id: z.number(),
  source_id: z.number(),
  source_full_name: z.string(),
  source_members_url: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  expires_at: z.nullish(isoDate),
  access_level: loose({ integer_value: z.number(), string_value: z.string() }),
});
export type BillableMembership = z.infer<typeof billableMembershipSchema>;

export interface BillableListParams {
  page: number;
  per_page: number;
  search?: string;
  sort?: BillableSort;
}

export const membersQueries = {
  all: () => ['members'] as const,
  scope: (scope: Scope) => [...membersQueries.all(), scope] as const,
  list: (connection: Connection, scope: Scope, tab: MembersTab, params: MemberListParams) =>
    queryOptions({
      queryKey: [...membersQueries.scope(scope), { tab, ...params }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, `${scopePath(scope)}/members${tab === 'all' ? '/all' : ''}`, memberSchema, { query: listQuery(tab, params), signal }),
    }),
  /**
   * The caller's own role here (0 when none): what the screen lets them do. Asked of the list
   * filtered to the caller, which answers a non-member with an empty page, where
   * members/all/:user_id answers 404 on every visit (spec 1: per user, the highest role).
   */
  myAccess: (connection: Connection, scope: Scope, userId: number) =>
    queryOptions({
      queryKey: myAccessKey(scope, userId),
      queryFn: async ({ signal }) => {
        try {
          return accessLevelIn(await request(connection, `${scopePath(scope)}/members/all`, z.array(memberSchema), { query: myAccessQuery(userId), signal }), userId);
        } catch (error) {
          // a group or project the caller cannot see
          if (error instanceof ApiError && error.status === 404) return 0;
          throw error;
        }
      },
      staleTime: ROLE_FRESH_MS,
    }),
  billable: (connection: Connection, groupId: number, params: BillableListParams) =>
    queryOptions({
      queryKey: [...membersQueries.scope({ group: groupId }), { billable: true, ...params }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/groups/${groupId}/billable_members`, billableMemberSchema, { query: { ...params, search: params.search || undefined }, signal }),
    }),
  billableMemberships: (connection: Connection, groupId: number, userId: number) =>
    queryOptions({
      queryKey: [...membersQueries.scope({ group: groupId }), { billable: true, memberships: userId }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/groups/${groupId}/billable_members/${userId}/memberships`, billableMembershipSchema, { query: { per_page: 100 }, signal }),
    }),
};

type RoleContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/** Who is asking, as the screens' permission rules take them: an administrator, or a role in the group or project (0 when none). */
export interface RoleCaller {
  isAdmin: boolean;
  role: number;
}

/** A loader that needs the caller's role in `scope` before it goes on; an administrator may do everything and is not asked. */
export async function ensureMyAccess({ queryClient, api, session }: RoleContext, scope: Scope): Promise<RoleCaller> {
  const me = session.getActive()?.connection;
  if (me?.isAdmin) return { isAdmin: true, role: 0 };
  return { isAdmin: false, role: await queryClient.ensureQueryData(membersQueries.myAccess(api, scope, me?.userId ?? 0)) };
}

/**
 * A list that only some roles may read, as a loader asks for it: the caller's role first (from the
 * cache when held, even stale), then `load` when `allowed` says so. The platform is not asked for
 * what it would refuse on every visit; a role that could not be read is the screen's to report.
 */
export async function whenRoleAllows<T>(context: RoleContext, scope: Scope, allowed: (caller: RoleCaller) => boolean, load: () => Promise<T>): Promise<T | undefined> {
  const caller = await ensureMyAccess(context, scope).catch(() => undefined);
  return caller && allowed(caller) ? load() : undefined;
}

/** A loader starts reading the caller's role in `scope` beside its data; an administrator may do everything and is not asked. */
export function prefetchMyAccess({ queryClient, api, session }: RoleContext, scope: Scope): void {
  const me = session.getActive()?.connection;
  if (me && !me.isAdmin) void queryClient.prefetchQuery(membersQueries.myAccess(api, scope, me.userId));
}

const today = () => new Date().toISOString().slice(0, 10);

/** The API's rules for a membership (spec 1, 2.7; expires_at a future date), shared by forms. */
export const memberFormSchema = z.object({
  access_level: z.coerce.number().check(z.refine((value) => ROLES.some((role) => role.value === value), 'Choose a role')),
  expires_at: z.string().check(
    z.trim(),
    z.refine((value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value), 'Use the form YYYY-MM-DD'),
    z.refine((value) => value === '' || value > today(), 'The expiry date must be after today'),
  ),
});
export type MemberFormInput = z.input<typeof memberFormSchema>;
export type MemberFormValues = z.output<typeof memberFormSchema>;

export const addMemberFormSchema = z.extend(memberFormSchema, {
  user_id: z.number({ error: 'Choose a user' }).check(z.int(), z.positive('Choose a user')),
});
export type AddMemberInput = z.input<typeof addMemberFormSchema>;
export type AddMemberValues = z.output<typeof addMemberFormSchema>;

export type AddMemberVariables = { scope: Scope; values: AddMemberValues };
export type UpdateMemberVariables = { scope: Scope; userId: number; values: MemberFormValues };
export type RemoveMemberVariables = { scope: Scope; userId: number; skipSubresources?: boolean };

export function addMember(connection: Connection, { scope, values }: AddMemberVariables): Promise<Member> {
  return request(connection, `${scopePath(scope)}/members`, memberSchema, {
    method: 'POST',
    body: { user_id: values.user_id, access_level: values.access_level, ...(values.expires_at ? { expires_at: values.expires_at } : {}) },
  });
}

export function updateMember(connection: Connection, { scope, userId, values }: UpdateMemberVariables): Promise<Member> {
  return request(connection, `${scopePath(scope)}/members/${userId}`, memberSchema, {
    method: 'PUT',
    // an empty expiry clears it
    body: { access_level: values.access_level, expires_at: values.expires_at || null },
  });
}

export async function removeMember(connection: Connection, { scope, userId, skipSubresources }: RemoveMemberVariables): Promise<void> {
  await send(connection, `${scopePath(scope)}/members/${userId}`, { method: 'DELETE', query: { skip_subresources: skipSubresources || undefined } });
}
