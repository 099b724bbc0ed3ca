import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import { commitsQueries, createCommit, type CommitCreate } from '../../api/commits.ts';
import { createFile, deleteFile, filesQueries, updateFile, type FileDeleteVariables, type FileSaveVariables } from '../../api/files.ts';
import { projectsQueries } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { repositoryQueries } from '../../api/repository.ts';
import { useWrite } from '../../components/use-write.ts';

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
  return useWrite({
    send: (variables: FileSaveVariables) => (isNew ? createFile(connection, variables) : updateFile(connection, variables)),
    refresh: ({ projectId }) => invalidateRepository(queryClient, projectId),
  });
}

export function useDeleteFile() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: FileDeleteVariables) => deleteFile(connection, variables),
    // after a network error the file is refetched: whether it is still there is the answer
    refresh: ({ projectId }, done) => invalidateRepository(queryClient, projectId, { refetchFiles: !done }),
  });
}

/** Several changes as one commit (POST /repository/commits with actions). */
export function useCommitChanges(projectId: number) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (body: CommitCreate) => createCommit(connection, projectId, body),
    refresh: () => invalidateRepository(queryClient, projectId),
  });
}
