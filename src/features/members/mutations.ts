import { useQueryClient } from '@tanstack/react-query';
import {
  addMember, membersQueries, removeMember, updateMember,
  type AddMemberVariables, type RemoveMemberVariables, type UpdateMemberVariables,
} from '../../api/members.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** Each mutation stays pending until the scope's lists are fresh again (the invalidation is returned). */
function useMembersMutation<V extends { scope: AddMemberVariables['scope'] }, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useWrite({
    send: run,
    refresh: (variables) => queryClient.invalidateQueries({ queryKey: membersQueries.scope(variables.scope) }),
  });
}

export function useAddMember() {
  const connection = useConnection();
  return useMembersMutation((variables: AddMemberVariables) => addMember(connection, variables));
}

export function useUpdateMember() {
  const connection = useConnection();
  return useMembersMutation((variables: UpdateMemberVariables) => updateMember(connection, variables));
}

export function useRemoveMember() {
  const connection = useConnection();
  return useMembersMutation((variables: RemoveMemberVariables) => removeMember(connection, variables));
}
