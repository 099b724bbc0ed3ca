import { useQueryClient } from '@tanstack/react-query';
import {
  assignRunner, deleteRunner, resetRunnerToken, runnersQueries, setRunnersPaused, unassignRunner, updateRunner,
  type RunnerProjectVariables, type SetPausedVariables, type UpdateRunnerVariables,
} from '../../api/runners.ts';
import type { Connection } from '../../api/http.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

export function useUpdateRunner() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: UpdateRunnerVariables) => updateRunner(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
    // pause and resume is a toggle; an edit of the settings is not
    toggleOf: ({ runnerId, body }) => (Object.keys(body).join() === 'paused' ? `runner ${runnerId}` : undefined),
    // the same pause again is meant once someone else resumed the runner meanwhile
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

/** Pause or resume many; resolves with the failures instead of failing, and refreshes lists and counts. */
export function useSetRunnersPaused() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: SetPausedVariables) => setRunnersPaused(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
    // the same runners paused again are meant once someone else resumed them meanwhile
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export function useDeleteRunner() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: { runnerId: number }) => deleteRunner(connection, variables),
    // the page being left must not refetch a runner that is gone
    onDone: (_data, { runnerId }) => queryClient.removeQueries({ queryKey: runnersQueries.runner(runnerId) }),
    refresh: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
  });
}

export function useResetRunnerToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: { runnerId: number }) => resetRunnerToken(connection, variables),
    refresh: ({ runnerId }) => queryClient.invalidateQueries({ queryKey: runnersQueries.runner(runnerId) }),
  });
}

/** Which projects a runner serves: its page and every fleet list show it, so all of them are read again. */
function useRunnerProjectsWrite<T>(send: (connection: Connection, variables: RunnerProjectVariables) => Promise<T>) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: RunnerProjectVariables) => send(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: runnersQueries.all() }),
  });
}

export const useAssignRunner = () => useRunnerProjectsWrite(assignRunner);
export const useUnassignRunner = () => useRunnerProjectsWrite(unassignRunner);
