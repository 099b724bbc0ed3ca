import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { graphqlRequest } from './graphql.ts';
import { TAGS_QUERY, tagsVariables } from './graphql-reads.ts';
import { request, requestPage, send, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { flag, loose } from './schema.ts';

/**
 * The container registry (spec 3, 2.7 and 4.7; what the spec does not show from the platform's
 * public API documentation: delete repository, tag list, tag details, delete tag, tag protection
 * rules, the project's `container_expiration_policy`).
 */

/** Repository states while a delete runs (the platform's `status` values); null when none is. */
export const REPOSITORY_DELETE_STATES = ['delete_scheduled', 'delete_ongoing', 'delete_failed'] as const;

/** A delete that has not finished or failed: the list follows it live. */
export function isRepositoryDeleting(status: string | null | undefined): boolean {
  return status === 'delete_scheduled' || status === 'delete_ongoing';
}

/**
 * A tag as the list sends it: the platform names only `name`, `path` and `location`; the digest,
 * size and manifest creation time come along when the instance sends them (the sandbox does),
 * else from the tag's details.
 */
export const registryTagSchema = loose({
  name: z.string(),
  path: z.string(),
  location: z.string(),
  digest: z.nullish(z.string()),
  revision: z.nullish(z.string()),
  short_revision: z.nullish(z.string()),
  total_size: z.nullish(z.number()),
  created_at: z.nullish(z.string()),
});
export type RegistryTag = z.infer<typeof registryTagSchema>;

/** GET .../tags/:tag_name: the same record, where the platform always fills the manifest's digest, revision, size and creation time. */
export const registryTagDetailsSchema = registryTagSchema;
export type RegistryTagDetails = z.infer<typeof registryTagDetailsSchema>;

export const registryRepositorySchema = loose({
  id: z.number(),
  /** Empty for the project's root image. */
  name: z.string(),
  path: z.string(),
  project_id: z.optional(z.number()),
  location: z.string(),
  created_at: z.nullish(z.string()),
  cleanup_policy_started_at: z.nullish(z.string()),
  status: z.nullish(z.string()),
  tags_count: z.optional(z.number()),
  tags: z.optional(z.array(loose({ name: z.string(), path: z.string(), location: z.string() }))),
  /** Deduplicated total size in bytes; only when asked (`size=true`) and when the instance knows it. */
  size: z.nullish(z.number()),
  delete_api_path: z.optional(z.string()),
});
export type RegistryRepository = z.infer<typeof registryRepositorySchema>;

/** A tag protection rule (`/projects/:id/registry/protection/tag/rules`): `tag_name_pattern` is RE2. */
export const tagProtectionRuleSchema = loose({
  id: z.number(),
  project_id: z.optional(z.number()),
  tag_name_pattern: z.string(),
  minimum_access_level_for_push: z.nullish(z.string()),
  minimum_access_level_for_delete: z.nullish(z.string()),
});
export type TagProtectionRule = z.infer<typeof tagProtectionRuleSchema>;

/** The platform's allowed values for a project's cleanup policy (its ContainerExpirationPolicy). */
export const CLEANUP_CADENCES = ['1d', '7d', '14d', '1month', '3month'] as const;
export const CLEANUP_KEEP_N = [1, 5, 10, 25, 50, 100] as const;
export const CLEANUP_OLDER_THAN = ['7d', '14d', '30d', '60d', '90d'] as const;

export const cleanupPolicySchema = loose({
  cadence: z.nullish(z.string()),
  enabled: flag,
  keep_n: z.nullish(z.number()),
  older_than: z.nullish(z.string()),
  /** The delete expression (`name_regex`, which the policy still calls so). */
  name_regex: z.nullish(z.string()),
  name_regex_keep: z.nullish(z.string()),
  next_run_at: z.nullish(z.string()),
});
export type CleanupPolicy = z.infer<typeof cleanupPolicySchema>;

const projectCleanupSchema = loose({
  id: z.number(),
  container_registry_access_level: z.optional(z.string()),
  container_expiration_policy: z.nullish(cleanupPolicySchema),
});
export type ProjectCleanup = z.infer<typeof projectCleanupSchema>;

/** Whose images a list shows. */
export type RegistryScope = { project: number } | { group: number };

export interface RepositoryListParams {
  page: number;
  per_page: number;
}

/** The most tags a page of the platform's GraphQL connection holds: a 10,000-tag image takes 100 requests. */
export { TAG_PAGE_SIZE } from './graphql-reads.ts';

const graphTagSchema = loose({
  name: z.string(),
  path: z.string(),
  location: z.string(),
  digest: z.nullish(z.string()),
  revision: z.nullish(z.string()),
  shortRevision: z.nullish(z.string()),
  // BigInt: a string on the platform
  totalSize: z.nullish(z.union([z.string(), z.number()])),
  createdAt: z.nullish(z.string()),
});

const tagsDataSchema = loose({
  containerRepository: z.nullable(
    loose({
      tags: z.nullish(loose({ nodes: z.array(graphTagSchema), pageInfo: loose({ hasNextPage: z.boolean(), endCursor: z.nullish(z.string()) }) })),
    }),
  ),
});

/** A GraphQL tag in the REST record's names, so one `RegistryTag` serves the list, the details and the preview. */
export function fromGraphTag(tag: z.infer<typeof graphTagSchema>): RegistryTag {
  const size = tag.totalSize === null || tag.totalSize === undefined ? null : Number(tag.totalSize);
  return {
    name: tag.name,
    path: tag.path,
    location: tag.location,
    digest: tag.digest ?? null,
    revision: tag.revision ?? null,
    short_revision: tag.shortRevision ?? null,
    total_size: size !== null && Number.isFinite(size) ? size : null,
    created_at: tag.createdAt ?? null,
  };
}

export interface TagsPage {
  items: RegistryTag[];
  /** The cursor of the next page; absent on the last. */
  next?: string;
}

/** One page of a repository's tags by name; `after` is the previous page's end cursor. */
export async function fetchTagsPage(connection: Connection, repositoryId: number, after: string | null, signal?: AbortSignal): Promise<TagsPage> {
  const data = await graphqlRequest(connection, TAGS_QUERY, tagsVariables(repositoryId, after), tagsDataSchema, signal);
  const tags = data.containerRepository?.tags;
  if (!tags) throw new ApiError(404, 'Image not found, or you may not read its registry.', 'http');
  const items = tags.nodes.map(fromGraphTag);
  return tags.pageInfo.hasNextPage && tags.pageInfo.endCursor ? { items, next: tags.pageInfo.endCursor } : { items };
}

export const registryQueries = {
  all: () => ['registry'] as const,
  lists: () => [...registryQueries.all(), 'list'] as const,
  /**
   * A project's repositories with their tag counts, or a group's (the platform sends no tags or
   * tag counts for groups, spec 3, 9).
   */
  repositories: (connection: Connection, scope: RegistryScope, params: RepositoryListParams) =>
    queryOptions({
      queryKey: [...registryQueries.lists(), scope, params] as const,
      queryFn: ({ signal }) =>
        'project' in scope
          ? requestPage(connection, apiPath`/projects/${scope.project}/registry/repositories`, registryRepositorySchema, { query: { ...params, tags_count: true }, signal })
          : requestPage(connection, apiPath`/groups/${scope.group}/registry/repositories`, registryRepositorySchema, { query: { ...params }, signal }),
    }),
  /** One repository with its tag count and size. */
  repository: (connection: Connection, repositoryId: number) =>
    queryOptions({
      queryKey: [...registryQueries.all(), 'repository', repositoryId] as const,
      queryFn: ({ signal }) =>
        request(connection, apiPath`/registry/repositories/${repositoryId}`, registryRepositorySchema, { query: { tags_count: true, size: true }, signal }),
    }),
  /** A repository's tags by name, page after page (the connection's end cursor leads to the next). */
  tags: (connection: Connection, projectId: number, repositoryId: number) =>
    infiniteQueryOptions({
      queryKey: [...registryQueries.all(), 'tags', { project: projectId, repository: repositoryId }] as const,
      queryFn: ({ pageParam, signal }) => fetchTagsPage(connection, repositoryId, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next ?? null,
    }),
  tag: (connection: Connection, projectId: number, repositoryId: number, tagName: string) =>
    queryOptions({
      queryKey: [...registryQueries.all(), 'tag', { project: projectId, repository: repositoryId }, tagName] as const,
      queryFn: ({ signal }) =>
        request(connection, apiPath`/projects/${projectId}/registry/repositories/${repositoryId}/tags/${tagName}`, registryTagDetailsSchema, { signal }),
    }),
  protectionRules: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...registryQueries.all(), 'protection', { project: projectId }] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}/registry/protection/tag/rules`, z.array(tagProtectionRuleSchema), { signal }),
      staleTime: 60_000,
    }),
  /** The project's cleanup policy, from GET /projects/:id. */
  cleanupPolicy: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...registryQueries.all(), 'cleanup-policy', { project: projectId }] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}`, projectCleanupSchema, { signal }),
    }),
};

/** DELETE /projects/:id/registry/repositories/:repository_id: 202, the removal runs in the background. */
export async function deleteRepository(connection: Connection, { projectId, repositoryId }: { projectId: number; repositoryId: number }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/registry/repositories/${repositoryId}`, { method: 'DELETE' });
}

/** DELETE .../tags/:tag_name: 403 with the reason when a protection rule covers the tag. */
export async function deleteTag(connection: Connection, { projectId, repositoryId, tagName }: { projectId: number; repositoryId: number; tagName: string }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/registry/repositories/${repositoryId}/tags/${tagName}`, { method: 'DELETE' });
}

/** The bulk delete's parameters as spec 3, 4.7 names them; empty ones are left out. */
export interface BulkDeleteRules {
  name_regex_delete: string;
  name_regex_keep?: string;
  keep_n?: number;
  older_than?: string;
}

export interface BulkDeleteVariables {
  projectId: number;
  repositoryId: number;
  rules: BulkDeleteRules;
}

/** The rules as the request's body: blank expressions and ages are not sent, keep_n 0 is. */
export function bulkDeleteBody(rules: BulkDeleteRules): Record<string, string | number> {
  const body: Record<string, string | number> = { name_regex_delete: rules.name_regex_delete };
  if (rules.name_regex_keep) body.name_regex_keep = rules.name_regex_keep;
  if (rules.keep_n !== undefined) body.keep_n = rules.keep_n;
  if (rules.older_than) body.older_than = rules.older_than;
  return body;
}

/** DELETE .../repositories/:repository_id/tags: 202, the tags go in the background; at most once an hour per repository. */
export async function bulkDeleteTags(connection: Connection, { projectId, repositoryId, rules }: BulkDeleteVariables): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/registry/repositories/${repositoryId}/tags`, { method: 'DELETE', body: bulkDeleteBody(rules) });
}

export interface CleanupPolicyValues {
  enabled: boolean;
  cadence: string;
  keep_n: number | null;
  older_than: string | null;
  name_regex: string;
  name_regex_keep: string;
}

/** PUT /projects/:id with `container_expiration_policy_attributes`: the saved policy back. */
export async function updateCleanupPolicy(connection: Connection, { projectId, values }: { projectId: number; values: CleanupPolicyValues }): Promise<ProjectCleanup> {
  return request(connection, apiPath`/projects/${projectId}`, projectCleanupSchema, {
    method: 'PUT',
    body: { container_expiration_policy_attributes: values },
  });
}
