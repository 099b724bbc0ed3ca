import { useRef } from 'react';
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

/**
 * Rotates exactly once per `arm()`: a second rotate of the same token would be reuse of a revoked
 * token and revoke its whole family, so a double click must not send two requests.
 */
export function useRotateToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const sent = useRef(false);
  const mutation = useMutation({
    ...FORGET_AT_ONCE,
    mutationFn: (variables: RotateTokenVariables) => rotateGroupToken(connection, variables),
    onSuccess: (_token, { groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
  return {
    ...mutation,
    /** Allows one more rotate: when the dialog opens for a token. */
    arm: () => {
      sent.current = false;
      mutation.reset();
    },
    rotateOnce: (variables: RotateTokenVariables, options?: Parameters<typeof mutation.mutate>[1]) => {
      if (sent.current) return;
      sent.current = true;
      mutation.mutate(variables, options);
    },
  };
}

export function useRevokeToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: RevokeTokenVariables) => revokeGroupToken(connection, variables),
    onSuccess: (_data, { groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}
