import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import { commitsQueries, createCommit, type CommitCreate } from '../../api/commits.ts';
import { createFile, deleteFile, filesQueries, updateFile, type FileDeleteVariables, type FileSaveVariables } from '../../api/files.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { repositoryQueries } from '../../api/repository.ts';

/** A commit changes files, trees, the branch (maybe a new one) and the history: all of the project's repository keys. */
function invalidateRepository(queryClient: QueryClient, projectId: number, options: { refetchFiles: boolean } = { refetchFiles: true }) {
  return Promise.all([
    // after a delete the screen still showing the file leaves it: refetching it now would only flash a 404
    queryClient.invalidateQueries({ queryKey: filesQueries.project(projectId), refetchType: options.refetchFiles ? 'active' : 'none' }),
    queryClient.invalidateQueries({ queryKey: repositoryQueries.project(projectId) }),
    queryClient.invalidateQueries({ queryKey: branchesQueries.project(projectId) }),
    queryClient.invalidateQueries({ queryKey: commitsQueries.project(projectId) }),
    // the first commit turns an empty repository into one with a default branch
    queryClient.invalidateQueries({ queryKey: [...projectsQueries.all(), { project: projectId }] }),
  ]);
}

/** Creates (`isNew`) or updates one file in a commit. */
export function useSaveFile(isNew: boolean) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: FileSaveVariables) => (isNew ? createFile(connection, variables) : updateFile(connection, variables)),
    onSuccess: (_answer, { projectId }) => invalidateRepository(queryClient, projectId),
  });
}

export function useDeleteFile() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: FileDeleteVariables) => deleteFile(connection, variables),
    onSuccess: (_answer, { projectId }) => invalidateRepository(queryClient, projectId, { refetchFiles: false }),
  });
}

/** Several changes as one commit (POST /repository/commits with actions). */
export function useCommitChanges(projectId: number) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommitCreate) => createCommit(connection, projectId, body),
    onSuccess: () => invalidateRepository(queryClient, projectId),
  });
}
