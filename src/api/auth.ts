import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, type Connection } from './http.ts';
import { flag, loose } from './schema.ts';
import type { SavedConnection } from './session.ts';

export const currentUserSchema = loose({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatar_url: z.nullable(z.string()),
  web_url: z.string(),
  is_admin: flag,
  bot: flag,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const versionSchema = loose({ version: z.string(), revision: z.nullish(z.string()) });

export const tokenSelfSchema = loose({
  id: z.number(),
  name: z.string(),
  scopes: z.array(z.string()),
  expires_at: z.nullable(z.string()),
  active: flag,
});

function isInstanceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const connectFormSchema = z.object({
  instanceUrl: z.string().check(
    z.trim(),
    z.minLength(1, 'Enter the address of the instance'),
    z.refine(isInstanceUrl, 'Enter a full http:// or https:// address, like https://gitlab.example.com'),
  ),
  token: z.string().check(z.trim(), z.minLength(1, 'Enter an access token')),
  remember: z.boolean(),
});
export type ConnectInput = z.infer<typeof connectFormSchema>;

/** The instance origin from what the user typed, with `/api/v4` or a trailing slash removed. */
export function normaliseInstanceUrl(value: string): string {
  const url = new URL(value.trim());
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  return `${url.origin}${path}`;
}

/**
 * Checks a token against an instance with GET /user and GET /version, and learns its scopes.
 * Errors say what failed: the address, the network, or the token.
 */
export async function checkConnection(input: ConnectInput): Promise<Omit<SavedConnection, 'id'>> {
  const instanceUrl = normaliseInstanceUrl(input.instanceUrl);
  const connection: Connection = { instanceUrl, token: input.token.trim() };
  let user: CurrentUser;
  try {
    user = await request(connection, '/user', currentUserSchema, { timeoutMs: 15_000 });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'network') throw new ApiError(0, `Could not reach ${instanceUrl}. Check the address, that the instance is up, and that it allows this origin (or start the console with --target).`, 'network');
    if (error.status === 401) throw new ApiError(401, `The instance refused this token (${error.message}). It may be mistyped, expired or revoked.`, 'http', { token: [error.message] });
    if (error.status === 403) throw new ApiError(403, `This token may not read your user profile (${error.message}). Use a token with the api or read_api scope.`, 'http', { token: [error.message] });
    if (error.status === 404 || error.kind === 'parse') throw new ApiError(error.status, `${instanceUrl} does not look like an instance of the platform: GET /api/v4/user answered ${error.status === 404 ? '404' : 'something else'}.`, error.kind);
    throw error;
  }
  const [version, token] = await Promise.all([
    request(connection, '/version', versionSchema).catch(() => null),
    request(connection, '/personal_access_tokens/self', tokenSelfSchema).catch(() => null),
  ]);
  return {
    instanceUrl,
    userId: user.id,
    username: user.username,
    name: user.name,
    avatarUrl: user.avatar_url,
    isAdmin: user.is_admin,
    isBot: user.bot,
    scopes: token?.scopes ?? null,
    // a token whose scopes cannot be read is trusted until the instance says otherwise
    canWrite: token ? token.scopes.includes('api') : true,
    version: version?.version ?? null,
    apiOnly: version?.revision === 'sandbox',
    remember: input.remember,
  };
}
