import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  accessTokensQueries, createGroupToken, revokeGroupToken, rotateGroupToken,
  type CreateTokenVariables, type RevokeTokenVariables, type RotateTokenVariables,
} from '../../api/access-tokens.ts';
import { useConnection } from '../../api/react.ts';

// the answers carry secrets: the mutation cache forgets them as soon as nobody watches
const FORGET_AT_ONCE = { gcTime: 0 } as const;

export function useCreateToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    ...FORGET_AT_ONCE,
    mutationFn: (variables: CreateTokenVariables) => createGroupToken(connection, variables),
    onSuccess: (_token, { groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}

/** Rotates a token; dialogs send it through useSendOnce (a repeated rotate revokes the family). */
export function useRotateToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    ...FORGET_AT_ONCE,
    mutationFn: (variables: RotateTokenVariables) => rotateGroupToken(connection, variables),
    onSuccess: (_token, { groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}

export function useRevokeToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: RevokeTokenVariables) => revokeGroupToken(connection, variables),
    onSuccess: (_data, { groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}
