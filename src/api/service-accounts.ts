import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { loose } from './schema.ts';
import {
  accessTokenSchema, createTokenSchema, newAccessTokenSchema, tokenScopeOptions,
  type NewAccessToken, type TokenListParams,
} from './access-tokens.ts';
import { ACCOUNT_SORTS } from './vocabulary.ts';
export { ACCOUNT_SORTS };

/** Where service accounts live: a top-level group (spec 1, 4.4), or the whole instance (administrators). */
export type ServiceAccountScope = { group: number } | 'instance';

/** spec 1, 4.4: the ServiceAccount entity. */
export const serviceAccountSchema = loose({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  email: z.nullish(z.string()),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;


export interface AccountListParams {
  page: number;
  per_page: number;
  order_by: 'id' | 'username';
  sort: 'asc' | 'desc';
}

/** The token filters a service account's list offers (the group list takes those of 4.2). */
export type AccountTokenListParams = Pick<TokenListParams, 'page' | 'per_page' | 'state' | 'revoked' | 'search' | 'sort'>;

/**
 * Scopes a service account's personal access token may carry (spec 1, 4.5), with what each allows.
 * The group endpoint accepts every personal scope; the list is the platform's.
 */
export const SERVICE_ACCOUNT_TOKEN_SCOPES = tokenScopeOptions([
  'api', 'read_api', 'read_user', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'create_runner', 'manage_runner',
  'self_rotate', 'k8s_proxy', 'ai_features', 'read_service_ping', 'sudo', 'admin_mode',
]);

const accountsPath = (scope: ServiceAccountScope) => (scope === 'instance' ? '/service_accounts' : apiPath`/groups/${scope.group}/service_accounts`);

/** Empty filters are left out of the query. */

export const serviceAccountsQueries = {
  all: () => ['service-accounts'] as const,
  scope: (scope: ServiceAccountScope) => [...serviceAccountsQueries.all(), scope] as const,
  /** A page of the scope's service accounts (the instance's include every group's). */
  list: (connection: Connection, scope: ServiceAccountScope, params: AccountListParams) =>
    queryOptions({
      queryKey: [...serviceAccountsQueries.scope(scope), params] as const,
      queryFn: ({ signal }) => requestPage(connection, accountsPath(scope), serviceAccountSchema, { query: { ...params }, signal }),
    }),
  account: (scope: ServiceAccountScope, userId: number) => [...serviceAccountsQueries.scope(scope), { account: userId }] as const,
  /**
   * A service account's tokens: through the group's endpoint, or for an instance account through
   * the personal access tokens API (`user_id=`, administrators only).
   */
  tokens: (connection: Connection, scope: ServiceAccountScope, userId: number, params: AccountTokenListParams) =>
    queryOptions({
      queryKey: [...serviceAccountsQueries.account(scope, userId), 'tokens', params] as const,
      queryFn: ({ signal }) =>
        scope === 'instance'
          ? requestPage(connection, '/personal_access_tokens', accessTokenSchema, { query: { ...withoutEmpty(params), user_id: userId }, signal })
          : requestPage(connection, apiPath`/groups/${scope.group}/service_accounts/${userId}/personal_access_tokens`, accessTokenSchema, { query: withoutEmpty(params), signal }),
    }),
};

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
// the platform's username rule: letters, digits, _ - and ., not starting with - or ., not ending in . - _ .git or .atom
const USERNAME = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;

const accountName = z.string().check(z.trim(), z.maxLength(255, 'At most 255 characters'));
const accountUsername = z.string().check(
  z.trim(),
  z.maxLength(255, 'At most 255 characters'),
  z.refine((value) => value === '' || (USERNAME.test(value) && !/[._-]$/.test(value) && !/\.(git|atom)$/.test(value)), 'Letters, digits, _, - and . only; not starting with - or . and not ending in ., -, _, .git or .atom'),
);

const accountEmail = z.string().check(z.trim(), z.refine((value) => value === '' || EMAIL.test(value), 'Enter an email address, like name@example.com'));

/** spec 1, 4.4: every field may be left out, and the platform generates it. */
export const createAccountSchema = z.object({
  name: accountName,
  username: accountUsername,
  email: accountEmail,
});
export type CreateAccountInput = z.input<typeof createAccountSchema>;
export type CreateAccountValues = z.output<typeof createAccountSchema>;

/** An update names every field (the form starts from the account's values): the platform ignores blank ones. */
export const updateAccountSchema = z.object({
  name: accountName.check(z.minLength(1, 'Give the account a name')),
  username: accountUsername.check(z.minLength(1, 'Give the account a username')),
});
export type UpdateAccountInput = z.input<typeof updateAccountSchema>;
export type UpdateAccountValues = z.output<typeof updateAccountSchema>;

/** The instance's update (18.2) also takes the email; a new address waits for confirmation. */
export const updateInstanceAccountSchema = z.extend(updateAccountSchema, {
  email: accountEmail.check(z.minLength(1, 'Give the account an email address')),
});
export type UpdateInstanceAccountInput = z.input<typeof updateInstanceAccountSchema>;
export type UpdateInstanceAccountValues = z.output<typeof updateInstanceAccountSchema>;

/** A group token's rules without the role: a personal access token has none. */
export const createAccountTokenSchema = z.omit(createTokenSchema, { access_level: true });
export type CreateAccountTokenInput = z.input<typeof createAccountTokenSchema>;
export type CreateAccountTokenValues = z.output<typeof createAccountTokenSchema>;

export type CreateAccountVariables = { scope: ServiceAccountScope; values: CreateAccountValues };
/** A group's accounts take name and username; the instance's the email too. */
export type UpdateAccountVariables =
  | { scope: { group: number }; userId: number; values: UpdateAccountValues }
  | { scope: 'instance'; userId: number; values: UpdateInstanceAccountValues };
export type DeleteAccountVariables = { scope: ServiceAccountScope; userId: number; hardDelete: boolean };
export type CreateAccountTokenVariables = { scope: ServiceAccountScope; userId: number; values: CreateAccountTokenValues };
export type RotateAccountTokenVariables = { scope: ServiceAccountScope; userId: number; tokenId: number; expiresAt?: string };
export type RevokeAccountTokenVariables = { scope: ServiceAccountScope; userId: number; tokenId: number };

/** Creates a service account; fields left empty are generated by the platform. */
export function createServiceAccount(connection: Connection, { scope, values }: CreateAccountVariables): Promise<ServiceAccount> {
  return request(connection, accountsPath(scope), serviceAccountSchema, { method: 'POST', body: withoutEmpty(values) });
}

/**
 * Updates a service account: a group's through its group, an instance account through
 * `PATCH /service_accounts/:id` (18.2), which reaches every service account.
 */
export function updateServiceAccount(connection: Connection, { scope, userId, values }: UpdateAccountVariables): Promise<ServiceAccount> {
  const path = scope === 'instance' ? apiPath`/service_accounts/${userId}` : apiPath`/groups/${scope.group}/service_accounts/${userId}`;
  return request(connection, path, serviceAccountSchema, { method: 'PATCH', body: values });
}

/**
 * Deletes a service account: with `hardDelete` its contributions and solely owned groups go too.
 * The instance's are users to the platform: they go through `DELETE /users/:id`.
 */
export async function deleteServiceAccount(connection: Connection, { scope, userId, hardDelete }: DeleteAccountVariables): Promise<void> {
  const path = scope === 'instance' ? apiPath`/users/${userId}` : apiPath`/groups/${scope.group}/service_accounts/${userId}`;
  await send(connection, path, { method: 'DELETE', query: { hard_delete: hardDelete } });
}

/** Creates a personal access token for a service account; the answer carries the secret, once. */
export function createAccountToken(connection: Connection, { scope, userId, values }: CreateAccountTokenVariables): Promise<NewAccessToken> {
  const path = scope === 'instance' ? apiPath`/users/${userId}/personal_access_tokens` : apiPath`/groups/${scope.group}/service_accounts/${userId}/personal_access_tokens`;
  return request(connection, path, newAccessTokenSchema, {
    method: 'POST',
    body: { name: values.name, description: values.description || undefined, scopes: values.scopes, expires_at: values.expires_at },
  });
}

/** Rotates once: the old secret stops working at once, the answer carries the new one. */
export function rotateAccountToken(connection: Connection, { scope, userId, tokenId, expiresAt }: RotateAccountTokenVariables): Promise<NewAccessToken> {
  const path = scope === 'instance' ? apiPath`/personal_access_tokens/${tokenId}/rotate` : apiPath`/groups/${scope.group}/service_accounts/${userId}/personal_access_tokens/${tokenId}/rotate`;
  return request(connection, path, newAccessTokenSchema, { method: 'POST', body: expiresAt ? { expires_at: expiresAt } : {} });
}

export async function revokeAccountToken(connection: Connection, { scope, userId, tokenId }: RevokeAccountTokenVariables): Promise<void> {
  const path = scope === 'instance' ? apiPath`/personal_access_tokens/${tokenId}` : apiPath`/groups/${scope.group}/service_accounts/${userId}/personal_access_tokens/${tokenId}`;
  await send(connection, path, { method: 'DELETE' });
}

