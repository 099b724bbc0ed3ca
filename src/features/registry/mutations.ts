import { useQueryClient } from '@tanstack/react-query';
import { useConnection } from '../../api/react.ts';
import { bulkDeleteTags, deleteRepository, deleteTag, registryQueries, updateCleanupPolicy, type BulkDeleteVariables, type CleanupPolicyValues } from '../../api/registry.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

/** Any registry write changes counts and lists beside its own object: the area's queries are refreshed. */
function useInvalidateRegistry() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: registryQueries.all() });
}

export function useDeleteRepository() {
  const connection = useConnection();
  const invalidate = useInvalidateRegistry();
  return useWrite({ send: (variables: { projectId: number; repositoryId: number }) => deleteRepository(connection, variables), refresh: () => invalidate() });
}

export function useDeleteTag() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRegistry();
  return useWrite({
    send: (variables: { projectId: number; repositoryId: number; tagName: string }) => deleteTag(connection, variables),
    onDone: (_data, { projectId, repositoryId, tagName }) => queryClient.removeQueries({ queryKey: registryQueries.tag(connection, projectId, repositoryId, tagName).queryKey }),
    refresh: () => invalidate(),
  });
}

export function useBulkDeleteTags() {
  const connection = useConnection();
  const invalidate = useInvalidateRegistry();
  return useWrite({ send: (variables: BulkDeleteVariables) => bulkDeleteTags(connection, variables), refresh: () => invalidate() });
}

export function useUpdateCleanupPolicy() {
  const connection = useConnection();
  const invalidate = useInvalidateRegistry();
  return useWrite({
    send: (variables: { projectId: number; values: CleanupPolicyValues }) => updateCleanupPolicy(connection, variables),
    refresh: () => invalidate(),
    // the same policy saved again is meant once someone else changed it meanwhile
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}
