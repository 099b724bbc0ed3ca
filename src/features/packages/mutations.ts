import { useQueryClient } from '@tanstack/react-query';
import { deletePackage, deletePackageFile, packagesQueries, type PackageFileVariables, type PackageVariables } from '../../api/packages.ts';
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
