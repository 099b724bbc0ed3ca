import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  deleteRunner, resetRunnerToken, runnersQueries, setRunnersPaused, updateRunner,
  type SetPausedVariables, type UpdateRunnerVariables,
} from '../../api/runners.ts';
import { useConnection } from '../../api/react.ts';

export function useUpdateRunner() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateRunnerVariables) => updateRunner(connection, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
  });
}

/** Pause or resume many; resolves with the failures instead of failing, and refreshes lists and counts. */
export function useSetRunnersPaused() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SetPausedVariables) => setRunnersPaused(connection, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
  });
}

export function useDeleteRunner() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: { runnerId: number }) => deleteRunner(connection, variables),
    onSuccess: (_data, { runnerId }) => {
      // the page being left must not refetch a runner that is gone
      queryClient.removeQueries({ queryKey: runnersQueries.runner(runnerId) });
      return queryClient.invalidateQueries({ queryKey: runnersQueries.all() });
    },
  });
}

export function useResetRunnerToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    // the answer carries the new secret: the mutation cache forgets it as soon as nobody watches
    gcTime: 0,
    mutationFn: (variables: { runnerId: number }) => resetRunnerToken(connection, variables),
    onSuccess: (_data, { runnerId }) => queryClient.invalidateQueries({ queryKey: runnersQueries.runner(runnerId) }),
  });
}
