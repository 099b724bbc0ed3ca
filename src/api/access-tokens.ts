import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestAllPages, requestPage, send, type Connection } from './http.ts';
import { ApiError } from './errors.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, isoDate, loose } from './schema.ts';
import { mapWithConcurrency } from '../lib/concurrency.ts';
import { groupSchema, type Group } from './groups.ts';
import { TOKEN_SORTS, TOKEN_SORT_VALUES, type TokenSort } from './vocabulary.ts';
export { TOKEN_SORTS, TOKEN_SORT_VALUES, type TokenSort };

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

/** What each token scope allows, in the words the token forms show. */
const SCOPE_HELP = {
  api: 'Read and write the whole API',
  read_api: 'Read the API',
  read_user: 'Read the account’s own profile',
  read_repository: 'Clone and read repositories',
  write_repository: 'Push to repositories',
  read_registry: 'Pull container images',
  write_registry: 'Push container images',
  create_runner: 'Create runners',
  manage_runner: 'Manage runners',
  self_rotate: 'Rotate this token with itself',
  k8s_proxy: 'Use the Kubernetes agent proxy',
  ai_features: 'Use AI features',
  read_service_ping: 'Read Service Ping data',
  sudo: 'Act as other users (needs an administrator)',
  admin_mode: 'Use Admin Mode (needs an administrator)',
} as const;

/** These scopes as checkbox options, in this order. */
export const tokenScopeOptions = (names: ReadonlyArray<keyof typeof SCOPE_HELP>) => names.map((value) => ({ value, label: value, help: SCOPE_HELP[value] }));

/** Scopes a group access token may carry. */
export const GROUP_TOKEN_SCOPES = tokenScopeOptions([
  'api', 'read_api', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'create_runner', 'manage_runner', 'self_rotate',
]);

export const TOKEN_ROLES = [10, 15, 20, 30, 40, 50] as const;


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


export const accessTokensQueries = {
  all: () => ['access-tokens'] as const,
  group: (groupId: number) => [...accessTokensQueries.all(), { group: groupId }] as const,
  list: (connection: Connection, groupId: number, params: TokenListParams) =>
    queryOptions({
      queryKey: [...accessTokensQueries.group(groupId), params] as const,
      queryFn: ({ signal }) => requestPage(connection, apiPath`/groups/${groupId}/access_tokens`, accessTokenSchema, { query: withoutEmpty(params), signal }),
    }),
  /** The expiry overview; not cached for long: tokens come and go. Progress goes to `onProgress`. */
  expiry: (connection: Connection, everywhere: boolean, onProgress?: (done: number, total: number) => void) =>
    queryOptions({
      queryKey: [...accessTokensQueries.all(), 'expiry', { everywhere }] as const,
      queryFn: ({ signal }) => scanTokenExpiry(connection, { everywhere, onProgress, signal }),
      staleTime: 60_000,
    }),
  /** The group of the group access token the console is connected with (its bot user `botUserId`); null when none is visible. */
  ownGroup: (connection: Connection, botUserId: number) =>
    queryOptions({
      queryKey: [...accessTokensQueries.all(), 'own-group', { user: botUserId }] as const,
      queryFn: ({ signal }) => findTokenGroup(connection, botUserId, signal),
      staleTime: 5 * 60_000,
    }),
  /** Active personal access tokens expiring before `before` (YYYY-MM-DD), soonest first: one user's, or (administrators) the instance's. */
  personalExpiring: (connection: Connection, params: { userId?: number; before: string; per_page: number }) =>
    queryOptions({
      queryKey: [...accessTokensQueries.all(), 'personal', 'expiring', params] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, '/personal_access_tokens', accessTokenSchema, {
          query: withoutEmpty({ user_id: params.userId, state: 'active', expires_before: params.before, sort: 'expires_asc', per_page: params.per_page }),
          signal,
        }),
      staleTime: 60_000,
    }),
  /** The token the console is connected with, when it is this group's token. */
  self: (connection: Connection, groupId: number) =>
    queryOptions({
      queryKey: [...accessTokensQueries.group(groupId), 'self'] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/groups/${groupId}/access_tokens/self`, accessTokenSchema, { signal }),
    }),
};

/**
 * A group token's bot is a direct member of its own group only; the groups it reaches besides are
 * that group's subgroups (inherited) and groups shared with it, so its group is the top of what it
 * reaches, confirmed by direct membership when groups shared with it make several tops.
 */
async function findTokenGroup(connection: Connection, botUserId: number, signal?: AbortSignal): Promise<Group | null> {
  // ordered by id, parents come before their subgroups
  const reached = await requestPage(connection, '/groups', groupSchema, { query: { min_access_level: 10, all_available: false, order_by: 'id', per_page: 100 }, signal });
  const ids = new Set(reached.items.map((group) => group.id));
  const tops = reached.items.filter((group) => group.parent_id === null || !ids.has(group.parent_id));
  if (tops.length <= 1) return tops[0] ?? null;
  const direct = await Promise.all(
    tops.map((group) =>
      send(connection, apiPath`/groups/${group.id}/members/${botUserId}`, { signal }).then(
        () => true,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return false;
          throw error;
        },
      ),
    ),
  );
  return tops.find((_, index) => direct[index]) ?? null;
}

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
/** What the platform gives a token rotated without an expiry date. */
export const rotateDefaultExpiry = () => isoDay(ROTATE_DEFAULT_DAYS);

/** A token's lifetime in days, from its creation to its expiry (capped to what a new token may get); null when it never expires. */
export function tokenLifetimeDays(token: Pick<AccessToken, 'created_at' | 'expires_at'>): number | null {
  if (!token.expires_at) return null;
  const days = Math.round((Date.parse(`${token.expires_at}T00:00:00Z`) - Date.parse(`${token.created_at.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
  return Math.min(Math.max(days, 1), MAX_TOKEN_DAYS);
}

/** The expiry a rotation keeps the token's lifetime with: as many days from today, or the longest allowed for a token that never expired. */
export const sameLifetimeExpiry = (token: Pick<AccessToken, 'created_at' | 'expires_at'>) => isoDay(tokenLifetimeDays(token) ?? MAX_TOKEN_DAYS);

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

/** Why a token is on the expiry overview. */
export type ExpiryReason = 'expired' | 'within_7_days' | 'within_30_days' | 'never_used';

export interface OverviewToken {
  token: AccessToken;
  /** A group's own token, or a token of one of the group's service accounts. */
  kind: 'group' | 'service_account';
  group: { id: number; fullName: string };
  account?: { id: number; username: string; name: string };
  reasons: ExpiryReason[];
}

export interface ExpiryOverview {
  tokens: OverviewToken[];
  groups: number;
  /** Groups whose tokens could not be read, with what the instance said. */
  failures: Array<{ group: string; message: string }>;
}

// spec asks for parallel requests, never more than six in flight
export const OVERVIEW_CONCURRENCY = 6;

const ownedGroupSchema = loose({ id: z.number(), full_name: z.string(), parent_id: z.nullable(z.number()) });
const accountSchema = loose({ id: z.number(), username: z.string(), name: z.string() });

/** What makes a token worth a look: expired, expiring within 7 or 30 days, or never used. */
export function expiryReasons(token: AccessToken, now = new Date()): ExpiryReason[] {
  if (token.revoked) return [];
  const reasons: ExpiryReason[] = [];
  if (token.expires_at) {
    const days = Math.round((Date.parse(`${token.expires_at}T00:00:00Z`) - Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000);
    if (days <= 0) reasons.push('expired');
    else if (days <= 7) reasons.push('within_7_days');
    else if (days <= 30) reasons.push('within_30_days');
  }
  if (!token.last_used_at && !reasons.includes('expired')) reasons.push('never_used');
  return reasons;
}

type Task = () => Promise<OverviewToken[]>;

/**
 * Reads the tokens of every group the user owns (or every group, for an administrator who asks)
 * and of their service accounts, at most OVERVIEW_CONCURRENCY requests at a time, and keeps the
 * ones that expired, expire within 30 days, or were never used.
 */
export async function scanTokenExpiry(
  connection: Connection,
  options: { everywhere: boolean; onProgress?: (done: number, total: number) => void; signal?: AbortSignal },
): Promise<ExpiryOverview> {
  const groups = await requestAllPages(connection, '/groups', ownedGroupSchema, { query: options.everywhere ? { all_available: true } : { owned: true }, signal: options.signal });
  const failures: ExpiryOverview['failures'] = [];
  const found: OverviewToken[] = [];
  const keep = (token: AccessToken, entry: Omit<OverviewToken, 'token' | 'reasons'>) => {
    const reasons = expiryReasons(token);
    if (reasons.length) found.push({ token, reasons, ...entry });
  };
  let done = 0;
  let total = 0;
  const progress = () => options.onProgress?.(done, total);
  // a queue that grows: a top-level group adds one task per service account it has
  const queue: Array<{ label: string; run: Task }> = [];
  for (const group of groups) {
    const at = { id: group.id, fullName: group.full_name };
    queue.push({
      label: group.full_name,
      run: async () => {
        const tokens = await requestAllPages(connection, apiPath`/groups/${group.id}/access_tokens`, accessTokenSchema, { query: { revoked: false }, signal: options.signal });
        tokens.forEach((token) => keep(token, { kind: 'group', group: at }));
        return [];
      },
    });
    if (group.parent_id === null) {
      queue.push({
        label: `${group.full_name} service accounts`,
        run: async () => {
          const accounts = await requestAllPages(connection, apiPath`/groups/${group.id}/service_accounts`, accountSchema, { signal: options.signal });
          for (const account of accounts) {
            total++;
            queue.push({
              label: `${group.full_name}: ${account.username}`,
              run: async () => {
                const tokens = await requestAllPages(connection, apiPath`/groups/${group.id}/service_accounts/${account.id}/personal_access_tokens`, accessTokenSchema, { query: { revoked: false }, signal: options.signal });
                tokens.forEach((token) => keep(token, { kind: 'service_account', group: at, account: { id: account.id, username: account.username, name: account.name } }));
                return [];
              },
            });
          }
          return [];
        },
      });
    }
  }
  total = queue.length;
  progress();
  // drain in rounds: tasks a round adds (service accounts) run in the next
  for (let start = 0; start < queue.length; ) {
    const round = queue.slice(start);
    start = queue.length;
    const results = await mapWithConcurrency(round, OVERVIEW_CONCURRENCY, async (task) => {
      try {
        return await task.run();
      } finally {
        done++;
        progress();
      }
    }, options.signal);
    results.forEach((result, index) => {
      if (!result.ok) failures.push({ group: round[index].label, message: result.error instanceof Error ? result.error.message : String(result.error) });
    });
  }
  const urgency: Record<ExpiryReason, number> = { expired: 0, within_7_days: 1, within_30_days: 2, never_used: 3 };
  found.sort((a, b) => urgency[a.reasons[0]] - urgency[b.reasons[0]] || ((a.token.expires_at ?? '9999') < (b.token.expires_at ?? '9999') ? -1 : 1));
  return { tokens: found, groups: groups.length, failures };
}
