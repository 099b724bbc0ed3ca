import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createAccountToken, createServiceAccount, deleteServiceAccount, revokeAccountToken, rotateAccountToken, serviceAccountsQueries, updateServiceAccount,
  type CreateAccountTokenVariables, type CreateAccountVariables, type DeleteAccountVariables,
  type RevokeAccountTokenVariables, type RotateAccountTokenVariables, type UpdateAccountVariables,
} from '../../api/service-accounts.ts';
import { useConnection } from '../../api/react.ts';
import { usersQueries } from '../../api/users.ts';

// the answers carry secrets: the mutation cache forgets them as soon as nobody watches
const FORGET_AT_ONCE = { gcTime: 0 } as const;

/**
 * Account changes refresh every service-account list (the instance's lists a group's accounts
 * too) and what is cached of users, since a service account is one. Each mutation stays pending
 * until they are fresh (the invalidation is returned).
 */
function useAccountMutation<V, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.all() }),
        queryClient.invalidateQueries({ queryKey: usersQueries.all() }),
      ]),
  });
}

export function useCreateServiceAccount() {
  const connection = useConnection();
  return useAccountMutation((variables: CreateAccountVariables) => createServiceAccount(connection, variables));
}

export function useUpdateServiceAccount() {
  const connection = useConnection();
  return useAccountMutation((variables: UpdateAccountVariables) => updateServiceAccount(connection, variables));
}

export function useDeleteServiceAccount() {
  const connection = useConnection();
  return useAccountMutation((variables: DeleteAccountVariables) => deleteServiceAccount(connection, variables));
}

export function useCreateAccountToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    ...FORGET_AT_ONCE,
    mutationFn: (variables: CreateAccountTokenVariables) => createAccountToken(connection, variables),
    onSuccess: (_token, { scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}

/** Rotates a token; dialogs send it through useSendOnce (a repeated rotate revokes the family). */
export function useRotateAccountToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    ...FORGET_AT_ONCE,
    mutationFn: (variables: RotateAccountTokenVariables) => rotateAccountToken(connection, variables),
    onSuccess: (_token, { scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}

export function useRevokeAccountToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: RevokeAccountTokenVariables) => revokeAccountToken(connection, variables),
    onSuccess: (_data, { scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}
