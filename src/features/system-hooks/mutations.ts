import { useQueryClient } from '@tanstack/react-query';
import {
  createSystemHook, deleteSystemHook, deleteUrlVariable, setUrlVariable, systemHooksQueries, testSystemHook, updateSystemHook,
  type CreateHookVariables, type DeleteHookVariables, type DeleteUrlVariableVariables, type SetUrlVariableVariables, type TestHookVariables,
  type UpdateHookVariables,
} from '../../api/system-hooks.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

export function useCreateHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: CreateHookVariables) => createSystemHook(connection, variables),
    // after an uncertain add the list is not on screen: it is fetched anyway, so it shows whether the hook was made
    refresh: (_variables, done) => queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists(), refetchType: done ? 'active' : 'all' }),
  });
}

/** Saves the settings; the form stays, so the same values saved again later (after a variable went) is a new press. */
export function useUpdateHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: UpdateHookVariables) => updateSystemHook(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    onDone: (hook) => queryClient.setQueryData(systemHooksQueries.detail(connection, hook.id).queryKey, hook),
    refresh: ({ hookId }, done) =>
      Promise.all([
        // after a success the answer is the detail; otherwise it is fetched to show what the server holds
        done ? null : queryClient.invalidateQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey }),
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
      ]),
  });
}

export function useDeleteHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: DeleteHookVariables) => deleteSystemHook(connection, variables),
    // the hook is gone: its detail and log must not be refetched (they would answer 404)
    onDone: (_data, { hookId }) => {
      queryClient.removeQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey });
      queryClient.removeQueries({ queryKey: systemHooksQueries.deliveries(connection, hookId).queryKey });
    },
    refresh: () => queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
  });
}

/** Tests a hook; its delivery shows up in the log a moment later. A later press tests again. */
export function useTestHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: TestHookVariables) => testSystemHook(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    refresh: ({ hookId }) => queryClient.invalidateQueries({ queryKey: systemHooksQueries.deliveries(connection, hookId).queryKey }),
  });
}

/** Sets a variable; set, removed and set again later, the same key and value are a new press. */
export function useSetUrlVariable() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: SetUrlVariableVariables) => setUrlVariable(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    refresh: ({ hookId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey }),
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
      ]),
  });
}

/** Removes a variable; removed, set and removed again later, the same key is a new press. */
export function useDeleteUrlVariable() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: DeleteUrlVariableVariables) => deleteUrlVariable(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    refresh: ({ hookId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey }),
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
      ]),
  });
}
