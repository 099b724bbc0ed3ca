import { useQueryClient } from '@tanstack/react-query';
import {
  addInstanceDeployKey, addProjectDeployKey, deleteDeployKey, deployKeysQueries, enableDeployKey, updateDeployKey, type AddDeployKeyValues,
} from '../../api/deploy-keys.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** A key belongs to several lists at once (projects, the instance's): every change refreshes them all. */
function useInvalidateKeys() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: deployKeysQueries.all() });
}

export function useAddProjectDeployKey() {
  const connection = useConnection();
  const invalidate = useInvalidateKeys();
  return useWrite({
    send: (variables: { projectId: number; values: AddDeployKeyValues }) => addProjectDeployKey(connection, variables),
    refresh: () => invalidate(),
  });
}

export function useAddInstanceDeployKey() {
  const connection = useConnection();
  const invalidate = useInvalidateKeys();
  return useWrite({
    send: (variables: { values: Omit<AddDeployKeyValues, 'can_push'> }) => addInstanceDeployKey(connection, variables),
    refresh: () => invalidate(),
  });
}

export function useEnableDeployKey() {
  const connection = useConnection();
  const invalidate = useInvalidateKeys();
  return useWrite({
    send: (variables: { projectId: number; keyId: number }) => enableDeployKey(connection, variables),
    refresh: () => invalidate(),
  });
}

export function useUpdateDeployKey() {
  const connection = useConnection();
  const invalidate = useInvalidateKeys();
  return useWrite({
    send: (variables: { projectId: number; keyId: number; changes: { title?: string; can_push?: boolean } }) => updateDeployKey(connection, variables),
    refresh: () => invalidate(),
  });
}

export function useDeleteDeployKey() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateKeys();
  return useWrite({
    send: (variables: { projectId: number; keyId: number }) => deleteDeployKey(connection, variables),
    onDone: (_data, { projectId, keyId }) => queryClient.removeQueries({ queryKey: deployKeysQueries.detail(connection, projectId, keyId).queryKey }),
    refresh: () => invalidate(),
  });
}
