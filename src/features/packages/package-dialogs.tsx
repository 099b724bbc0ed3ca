import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { packagesQueries, type PackageDetail, type PackageFile } from '../../api/packages.ts';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useDeletePackage, useDeletePackageFile } from './mutations.ts';

const refusal = (error: Error | null) => (error ? `The platform refused: ${errorText(error)}` : null);

/** Deleting a package removes every file of this version; the list opens after it. */
export function DeletePackageDialog({ projectId, pkg, onClose }: { projectId: number; pkg: PackageDetail; onClose: () => void }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useDeletePackage();
  const title = `${pkg.name}${pkg.version ? ` ${pkg.version}` : ''}`;
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete package ${title}?`}
      description={`Package ${title} is removed with all its files. Builds and installs that depend on this version will fail. This cannot be undone.`}
      confirmLabel="Delete package"
      destructive
      write={remove}
      error={refusal(remove.error)}
      onConfirm={() =>
        remove.mutate(
          { projectId, packageId: pkg.id },
          {
            onSuccess: () => {
              notify(`Deleted package ${title}.`);
              // the package's queries go once its screen is gone: dropped while shown, they would refetch a 404
              void navigate({ to: '/projects/$projectId/packages', params: { projectId: String(projectId) } }).then(() =>
                queryClient.removeQueries({ queryKey: packagesQueries.package(projectId, pkg.id) }),
              );
            },
          },
        )
      }
    />
  );
}

/** Deleting one file of a package: the package stays, but a client that needs the file breaks. */
export function DeleteFileDialog({ projectId, pkg, file, onClose }: { projectId: number; pkg: PackageDetail; file: PackageFile; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeletePackageFile();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete file ${file.file_name}?`}
      description={`${file.file_name} is removed from ${pkg.name}${pkg.version ? ` ${pkg.version}` : ''}. Deleting files can break the package for the clients that install it. This cannot be undone.`}
      confirmLabel="Delete file"
      destructive
      write={remove}
      error={refusal(remove.error)}
      onConfirm={() =>
        remove.mutate(
          { projectId, packageId: pkg.id, fileId: file.id },
          {
            onSuccess: () => {
              notify(`Deleted file ${file.file_name}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}
