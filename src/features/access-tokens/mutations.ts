import { useQueryClient } from '@tanstack/react-query';
import {
  accessTokensQueries, createGroupToken, revokeGroupToken, rotateGroupToken,
  type CreateTokenVariables, type RevokeTokenVariables, type RotateTokenVariables,
} from '../../api/access-tokens.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

export function useCreateToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: CreateTokenVariables) => createGroupToken(connection, variables),
    refresh: ({ groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}

/** Rotates a token (sent once per press: a repeated rotate revokes the family). */
export function useRotateToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: RotateTokenVariables) => rotateGroupToken(connection, variables),
    refresh: ({ groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}

export function useRevokeToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: RevokeTokenVariables) => revokeGroupToken(connection, variables),
    refresh: ({ groupId }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(groupId) }),
  });
}
