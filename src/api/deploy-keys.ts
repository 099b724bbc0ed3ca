import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, requestAllIds, requestAllPages, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';

/** Entity DeployKey: the MD5 `fingerprint` is left out on FIPS instances. */
export const deployKeySchema = loose({
  id: z.number(),
  title: z.string(),
  created_at: z.nullish(z.string()),
  expires_at: z.nullish(z.string()),
  key: z.nullish(z.string()),
  usage_type: z.nullish(z.string()),
  fingerprint: z.nullish(z.string()),
  fingerprint_sha256: z.nullish(z.string()),
});
export type DeployKey = z.infer<typeof deployKeySchema>;

/** DeployKeysProject: the key as one project has it, with its write access there. */
export const projectDeployKeySchema = z.extend(deployKeySchema, { can_push: flag });
export type ProjectDeployKey = z.infer<typeof projectDeployKeySchema>;

/** ProjectIdentity, as the instance list names the projects a key is enabled in. */
export const keyProjectSchema = loose({
  id: z.number(),
  name: z.nullish(z.string()),
  name_with_namespace: z.nullish(z.string()),
  path_with_namespace: z.nullish(z.string()),
});
export type KeyProject = z.infer<typeof keyProjectSchema>;
const projects = z.pipe(z.nullish(z.array(keyProjectSchema)), z.transform((items) => items ?? []));

export const instanceDeployKeySchema = z.extend(deployKeySchema, {
  projects_with_write_access: projects,
  projects_with_readonly_access: projects,
});
export type InstanceDeployKey = z.infer<typeof instanceDeployKeySchema>;

export interface DeployKeyListParams {
  page: number;
  per_page: number;
}

export type DeployKeyScope = 'instance' | { project: number };

export const deployKeysQueries = {
  all: () => ['deploy-keys'] as const,
  scope: (scope: DeployKeyScope) => [...deployKeysQueries.all(), scope] as const,
  /** GET /deploy_keys: administrators only; `public` narrows to the instance-wide keys. */
  instance: (connection: Connection, params: DeployKeyListParams & { public?: boolean }) =>
    queryOptions({
      queryKey: [...deployKeysQueries.scope('instance'), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, '/deploy_keys', instanceDeployKeySchema, { query: withoutEmpty(params), signal }),
    }),
  project: (connection: Connection, projectId: number, params: DeployKeyListParams) =>
    queryOptions({
      queryKey: [...deployKeysQueries.scope({ project: projectId }), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, apiPath`/projects/${projectId}/deploy_keys`, projectDeployKeySchema, { query: withoutEmpty(params), signal }),
    }),
  detail: (connection: Connection, projectId: number, keyId: number) =>
    queryOptions({
      queryKey: [...deployKeysQueries.scope({ project: projectId }), 'detail', keyId] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}/deploy_keys/${keyId}`, projectDeployKeySchema, { signal }),
    }),
  /** The ids of every key enabled in the project, to tell which keys are already there. */
  projectKeyIds: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...deployKeysQueries.scope({ project: projectId }), 'ids'] as const,
      queryFn: ({ signal }) => requestAllIds(connection, apiPath`/projects/${projectId}/deploy_keys`, projectDeployKeySchema, { signal }),
    }),
  /**
   * Keys the caller could enable elsewhere: every key for administrators (GET /deploy_keys), else
   * the keys of the projects they maintain (GET /users/:id/project_deploy_keys; a 403 there means none).
   */
  enableable: (connection: Connection, caller: { userId: number; isAdmin: boolean }) =>
    queryOptions({
      queryKey: [...deployKeysQueries.all(), 'enableable', caller] as const,
      queryFn: ({ signal }) => enableableKeys(connection, caller, signal),
      staleTime: 10_000,
    }),
};

async function enableableKeys(connection: Connection, caller: { userId: number; isAdmin: boolean }, signal?: AbortSignal): Promise<DeployKey[]> {
  if (caller.isAdmin) return requestAllPages(connection, '/deploy_keys', instanceDeployKeySchema, { signal });
  try {
    return await requestAllPages(connection, apiPath`/users/${caller.userId}/project_deploy_keys`, deployKeySchema, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return [];
    throw error;
  }
}

// -- writes

export interface AddDeployKeyValues {
  title: string;
  key: string;
  can_push: boolean;
  /** `YYYY-MM-DD`, or empty for no expiry. */
  expires_at: string;
}

export function addProjectDeployKey(connection: Connection, { projectId, values }: { projectId: number; values: AddDeployKeyValues }): Promise<ProjectDeployKey> {
  const { expires_at: expiresAt, ...rest } = values;
  return request(connection, apiPath`/projects/${projectId}/deploy_keys`, projectDeployKeySchema, {
    method: 'POST',
    body: { ...rest, key: rest.key.trim(), ...(expiresAt ? { expires_at: expiresAt } : {}) },
  });
}

/** POST /deploy_keys (administrators): an instance-wide key any project's Maintainer may enable. */
export function addInstanceDeployKey(connection: Connection, { values }: { values: Omit<AddDeployKeyValues, 'can_push'> }): Promise<DeployKey> {
  const { expires_at: expiresAt, ...rest } = values;
  return request(connection, '/deploy_keys', deployKeySchema, { method: 'POST', body: { ...rest, key: rest.key.trim(), ...(expiresAt ? { expires_at: expiresAt } : {}) } });
}

/** Enabled read-only; write access is then set with an update. */
export function enableDeployKey(connection: Connection, { projectId, keyId }: { projectId: number; keyId: number }): Promise<DeployKey> {
  return request(connection, apiPath`/projects/${projectId}/deploy_keys/${keyId}/enable`, deployKeySchema, { method: 'POST' });
}

export function updateDeployKey(
  connection: Connection,
  { projectId, keyId, changes }: { projectId: number; keyId: number; changes: { title?: string; can_push?: boolean } },
): Promise<ProjectDeployKey> {
  return request(connection, apiPath`/projects/${projectId}/deploy_keys/${keyId}`, projectDeployKeySchema, { method: 'PUT', body: changes });
}

/** Removes the key from the project; a project key no other project uses leaves the instance. */
export async function deleteDeployKey(connection: Connection, { projectId, keyId }: { projectId: number; keyId: number }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/deploy_keys/${keyId}`, { method: 'DELETE' });
}

/** The form's field names: the project route prefixes model errors with `deploy_key.`; fingerprint errors are the key's. */
export function deployKeyFieldErrors(error: unknown): unknown {
  if (!(error instanceof ApiError) || !error.fieldErrors) return error;
  const renamed: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const name = field.replace(/^deploy_key\./, '');
    if (name !== 'fingerprint_sha256' && name !== 'fingerprint') {
      (renamed[name] ??= []).push(...messages);
      continue;
    }
    for (const message of messages) {
      // "cannot be generated" only repeats that the key is invalid
      if (message === 'cannot be generated') continue;
      (renamed.key ??= []).push(message === 'has already been taken' ? 'is already a deploy key elsewhere that you cannot reach: enable it from a project you maintain, or ask an administrator' : `fingerprint ${message}`);
    }
  }
  return new ApiError(error.status, error.message, error.kind, renamed, error.retryAfter);
}
