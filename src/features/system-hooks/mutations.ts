import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createSystemHook, deleteSystemHook, deleteUrlVariable, setUrlVariable, systemHooksQueries, testSystemHook, updateSystemHook,
  type CreateHookVariables, type DeleteHookVariables, type DeleteUrlVariableVariables, type SetUrlVariableVariables, type TestHookVariables,
  type UpdateHookVariables,
} from '../../api/system-hooks.ts';
import { useConnection } from '../../api/react.ts';

export function useCreateHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: CreateHookVariables) => createSystemHook(connection, variables),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
  });
}

export function useUpdateHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateHookVariables) => updateSystemHook(connection, variables),
    onSuccess: (hook) => {
      queryClient.setQueryData(systemHooksQueries.detail(connection, hook.id).queryKey, hook);
      return queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() });
    },
  });
}

export function useDeleteHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: DeleteHookVariables) => deleteSystemHook(connection, variables),
    onSuccess: (_data, { hookId }) => {
      // the hook is gone: its detail and log must not be refetched (they would answer 404)
      queryClient.removeQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey });
      queryClient.removeQueries({ queryKey: systemHooksQueries.deliveries(connection, hookId).queryKey });
      return queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() });
    },
  });
}

/** Tests a hook; its delivery shows up in the log a moment later. */
export function useTestHook() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: TestHookVariables) => testSystemHook(connection, variables),
    onSuccess: (_answer, { hookId }) => queryClient.invalidateQueries({ queryKey: systemHooksQueries.deliveries(connection, hookId).queryKey }),
  });
}

export function useSetUrlVariable() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: SetUrlVariableVariables) => setUrlVariable(connection, variables),
    onSuccess: (_data, { hookId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey }),
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
      ]),
  });
}

export function useDeleteUrlVariable() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: DeleteUrlVariableVariables) => deleteUrlVariable(connection, variables),
    onSuccess: (_data, { hookId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.detail(connection, hookId).queryKey }),
        queryClient.invalidateQueries({ queryKey: systemHooksQueries.lists() }),
      ]),
  });
}
