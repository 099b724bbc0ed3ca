import { useQueryClient } from '@tanstack/react-query';
import {
  createProtectionRule, deletePackage, deletePackageFile, deleteProtectionRule, packagesQueries, type PackageFileVariables, type PackageVariables,
} from '../../api/packages.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/**
 * Deleting a package refreshes the lists. Its own queries are the screen's to drop once it no
 * longer shows them: dropped while shown, they refetch a 404.
 */
export function useDeletePackage() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PackageVariables) => deletePackage(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: packagesQueries.lists() }),
  });
}

/** Deleting a file refreshes its package (files, versions) and the lists (a package may go with its last file). */
export function useDeletePackageFile() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PackageFileVariables) => deletePackageFile(connection, variables),
    refresh: ({ projectId, packageId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: packagesQueries.package(projectId, packageId) }),
        queryClient.invalidateQueries({ queryKey: packagesQueries.lists() }),
      ]),
  });
}

/** A rule's writes refresh the project's rules (and nothing else: a package's own answers do not name its rule). */
function useRulesWrite<TData, TVariables extends { projectId: number }>(send: (connection: ReturnType<typeof useConnection>, variables: TVariables) => Promise<TData>) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: TVariables) => send(connection, variables),
    refresh: ({ projectId }) => queryClient.invalidateQueries({ queryKey: packagesQueries.rules(connection, projectId).queryKey }),
  });
}

export const useCreateProtectionRule = () => useRulesWrite(createProtectionRule);
export const useDeleteProtectionRule = () => useRulesWrite(deleteProtectionRule);
