import { useQueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import { checkPick, cherryPickCommit, commitsQueries, revertCommit, type PickKind, type PickVariables } from '../../api/commits.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** The dry run: writes nothing, so it invalidates nothing. */
export function useCheckPick(projectId: number, kind: PickKind) {
  const connection = useConnection();
  return useWrite({ send: (variables: PickVariables) => checkPick(connection, projectId, kind, variables), refresh: () => Promise.resolve() });
}

/** The real cherry-pick or revert; pending until the history and the branch list are fresh again. */
export function usePick(projectId: number, kind: PickKind) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: PickVariables) => (kind === 'cherry_pick' ? cherryPickCommit(connection, projectId, variables) : revertCommit(connection, projectId, variables)),
    refresh: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: commitsQueries.project(projectId) }),
        queryClient.invalidateQueries({ queryKey: branchesQueries.project(projectId) }),
      ]),
  });
}
