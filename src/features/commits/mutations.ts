import { useMutation, useQueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import { checkPick, cherryPickCommit, commitsQueries, revertCommit, type PickKind, type PickVariables } from '../../api/commits.ts';
import { useConnection } from '../../api/react.ts';

/** The dry run: writes nothing, so it invalidates nothing. */
export function useCheckPick(projectId: number, kind: PickKind) {
  const connection = useConnection();
  return useMutation({ mutationFn: (variables: PickVariables) => checkPick(connection, projectId, kind, variables) });
}

/** The real cherry-pick or revert; pending until the history and the branch list are fresh again. */
export function usePick(projectId: number, kind: PickKind) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: PickVariables) => (kind === 'cherry_pick' ? cherryPickCommit(connection, projectId, variables) : revertCommit(connection, projectId, variables)),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commitsQueries.project(projectId) }),
        queryClient.invalidateQueries({ queryKey: branchesQueries.project(projectId) }),
      ]),
  });
}
