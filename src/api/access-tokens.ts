import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { flag, isoDate, loose } from './schema.ts';

/** spec 1, 2.1 */
export const accessTokenSchema = loose({
  id: z.number(),
  user_id: z.number(),
  name: z.string(),
  description: z.nullish(z.string()),
  scopes: z.array(z.string()),
  access_level: z.optional(z.number()),
  active: flag,
  revoked: flag,
  created_at: z.string(),
  expires_at: z.nullable(isoDate),
  last_used_at: z.nullish(z.string()),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

/** The create and rotate answers: the only place the secret ever appears. */
export const newAccessTokenSchema = z.extend(accessTokenSchema, { token: z.string().check(z.minLength(1)) });
export type NewAccessToken = z.infer<typeof newAccessTokenSchema>;

/** Scopes a group access token may carry, with what each allows. */
export const GROUP_TOKEN_SCOPES = [
  { value: 'api', label: 'api', help: 'Read and write the whole API' },
  { value: 'read_api', label: 'read_api', help: 'Read the API' },
  { value: 'read_repository', label: 'read_repository', help: 'Clone and read repositories' },
  { value: 'write_repository', label: 'write_repository', help: 'Push to repositories' },
  { value: 'read_registry', label: 'read_registry', help: 'Pull container images' },
  { value: 'write_registry', label: 'write_registry', help: 'Push container images' },
  { value: 'create_runner', label: 'create_runner', help: 'Create runners' },
  { value: 'manage_runner', label: 'manage_runner', help: 'Manage runners' },
  { value: 'self_rotate', label: 'self_rotate', help: 'Rotate this token with itself' },
] as const;

export const TOKEN_ROLES = [10, 15, 20, 30, 40, 50] as const;

export const TOKEN_SORTS = [
  { value: 'created_desc', label: 'Created, newest first' },
  { value: 'created_asc', label: 'Created, oldest first' },
  { value: 'expires_asc', label: 'Expires, soonest first' },
  { value: 'expires_desc', label: 'Expires, latest first' },
  { value: 'last_used_desc', label: 'Used, most recent first' },
  { value: 'last_used_asc', label: 'Used, least recent first' },
  { value: 'name_asc', label: 'Name, A to Z' },
  { value: 'name_desc', label: 'Name, Z to A' },
] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number]['value'];
export const TOKEN_SORT_VALUES = TOKEN_SORTS.map((sort) => sort.value) as [TokenSort, ...TokenSort[]];

export interface TokenListParams {
  page: number;
  per_page: number;
  state?: 'active' | 'inactive';
  revoked?: boolean;
  search?: string;
  sort?: TokenSort;
  created_after?: string;
  created_before?: string;
  expires_after?: string;
  expires_before?: string;
  last_used_after?: string;
  last_used_before?: string;
}

/** What the list sends: empty filters are left out. */
function tokenListQuery(params: TokenListParams) {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined && value !== '' && value !== false));
}

export const accessTokensQueries = {
  all: () => ['access-tokens'] as const,
  group: (groupId: number) => [...accessTokensQueries.all(), { group: groupId }] as const,
  list: (connection: Connection, groupId: number, params: TokenListParams) =>
    queryOptions({
      queryKey: [...accessTokensQueries.group(groupId), params] as const,
      queryFn: ({ signal }) => requestPage(connection, apiPath`/groups/${groupId}/access_tokens`, accessTokenSchema, { query: tokenListQuery(params), signal }),
    }),
  /** The token the console is connected with, when it is this group's token. */
  self: (connection: Connection, groupId: number) =>
    queryOptions({
      queryKey: [...accessTokensQueries.group(groupId), 'self'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/groups/${groupId}/access_tokens/self`, accessTokenSchema, { signal }),
    }),
};

const DAY_MS = 86_400_000;
const isoDay = (offsetDays: number, from = new Date()) => new Date(from.getTime() + offsetDays * DAY_MS).toISOString().slice(0, 10);

/** Expiry must be a future date no further than `maxDays` ahead (spec 1, 4.2 and 8.6). */
export function expiryRule(maxDays: number, optional: boolean) {
  return z.string().check(
    z.trim(),
    z.refine((value) => optional || value !== '', 'Choose an expiry date'),
    z.refine((value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value), 'Use the form YYYY-MM-DD'),
    z.refine((value) => value === '' || value > isoDay(0), 'The expiry date must be after today'),
    z.refine((value) => value === '' || value <= isoDay(maxDays), `The expiry date can be at most ${maxDays === 365 ? 'one year' : `${maxDays} days`} ahead (${isoDay(maxDays)})`),
  );
}

/** The maximum lifetime of a token on the platform when the instance does not say otherwise. */
export const MAX_TOKEN_DAYS = 365;
export const latestExpiry = () => isoDay(MAX_TOKEN_DAYS);
export const earliestExpiry = () => isoDay(1);
/** The platform's default expiry of a rotated token when none is given. */
export const ROTATE_DEFAULT_DAYS = 7;

export const createTokenSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Give the token a name'), z.maxLength(255, 'At most 255 characters')),
  description: z.string().check(z.trim(), z.maxLength(255, 'At most 255 characters')),
  scopes: z.array(z.string()).check(z.minLength(1, 'Choose at least one scope')),
  access_level: z.coerce.number().check(z.refine((value) => (TOKEN_ROLES as readonly number[]).includes(value), 'Choose a role')),
  expires_at: expiryRule(MAX_TOKEN_DAYS, false),
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;
export type CreateTokenValues = z.output<typeof createTokenSchema>;

export const rotateTokenSchema = z.object({ expires_at: expiryRule(MAX_TOKEN_DAYS, true) });
export type RotateTokenInput = z.input<typeof rotateTokenSchema>;

export type CreateTokenVariables = { groupId: number; values: CreateTokenValues };
export type RotateTokenVariables = { groupId: number; tokenId: number | 'self'; expiresAt?: string };
export type RevokeTokenVariables = { groupId: number; tokenId: number };

export function createGroupToken(connection: Connection, { groupId, values }: CreateTokenVariables): Promise<NewAccessToken> {
  return request(connection, apiPath`/groups/${groupId}/access_tokens`, newAccessTokenSchema, {
    method: 'POST',
    body: { name: values.name, description: values.description || undefined, scopes: values.scopes, access_level: values.access_level, expires_at: values.expires_at },
  });
}

/** Rotates once: the old secret stops working at once, the answer carries the new one. */
export function rotateGroupToken(connection: Connection, { groupId, tokenId, expiresAt }: RotateTokenVariables): Promise<NewAccessToken> {
  return request(connection, apiPath`/groups/${groupId}/access_tokens/${tokenId}/rotate`, newAccessTokenSchema, {
    method: 'POST',
    body: expiresAt ? { expires_at: expiresAt } : {},
  });
}

export async function revokeGroupToken(connection: Connection, { groupId, tokenId }: RevokeTokenVariables): Promise<void> {
  await send(connection, apiPath`/groups/${groupId}/access_tokens/${tokenId}`, { method: 'DELETE' });
}

/** What a token's state is, from the flags and the date (an expired token is inactive, not revoked). */
export function tokenState(token: Pick<AccessToken, 'active' | 'revoked' | 'expires_at'>, now = new Date()): 'active' | 'revoked' | 'expired' {
  if (token.revoked) return 'revoked';
  if (!token.active || (token.expires_at && token.expires_at <= now.toISOString().slice(0, 10))) return 'expired';
  return 'active';
}
