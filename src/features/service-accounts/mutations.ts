import { useQueryClient } from '@tanstack/react-query';
import {
  createAccountToken, createServiceAccount, deleteServiceAccount, revokeAccountToken, rotateAccountToken, serviceAccountsQueries, updateServiceAccount,
  type CreateAccountTokenVariables, type CreateAccountVariables, type DeleteAccountVariables,
  type RevokeAccountTokenVariables, type RotateAccountTokenVariables, type UpdateAccountVariables,
} from '../../api/service-accounts.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';
import { usersQueries } from '../../api/users.ts';

/**
 * Account changes refresh every service-account list (the instance's lists a group's accounts
 * too) and what is cached of users, since a service account is one. Each mutation stays pending
 * until they are fresh (the invalidation is returned).
 */
function useAccountMutation<V, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useWrite({
    send: run,
    refresh: () =>
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
  return useWrite({
    send: (variables: CreateAccountTokenVariables) => createAccountToken(connection, variables),
    refresh: ({ scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}

/** Rotates a token (sent once per press: a repeated rotate revokes the family). */
export function useRotateAccountToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: RotateAccountTokenVariables) => rotateAccountToken(connection, variables),
    refresh: ({ scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}

export function useRevokeAccountToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: RevokeAccountTokenVariables) => revokeAccountToken(connection, variables),
    refresh: ({ scope, userId }) => queryClient.invalidateQueries({ queryKey: serviceAccountsQueries.account(scope, userId) }),
  });
}
