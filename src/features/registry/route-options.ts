import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { registryQueries, type RegistryScope } from '../../api/registry.ts';
import type { RepositoriesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** A project's or a group's repositories; a refusal shows on the screen, not as the route's error. */
export function loadRepositories(context: LoaderContext, scope: RegistryScope, search: RepositoriesSearch) {
  const params = { page: search.page, per_page: search.per_page };
  return context.queryClient.ensureQueryData(registryQueries.repositories(context.api, scope, params)).catch(() => undefined);
}

/** One repository, and the first page of its tags beside it. */
export function loadRepository(context: LoaderContext, projectId: number, repositoryId: number) {
  void context.queryClient.prefetchInfiniteQuery(registryQueries.tags(context.api, projectId, repositoryId)).catch(() => undefined);
  return context.queryClient.ensureQueryData(registryQueries.repository(context.api, repositoryId)).catch(() => undefined);
}

export function loadCleanupPolicy(context: LoaderContext, projectId: number) {
  void context.queryClient.prefetchQuery(registryQueries.repositories(context.api, { project: projectId }, { page: 1, per_page: 100 }));
  return context.queryClient.ensureQueryData(registryQueries.cleanupPolicy(context.api, projectId)).catch(() => undefined);
}
