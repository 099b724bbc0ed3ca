import { useQueryClient } from '@tanstack/react-query';
import { boardsQueries, createBoard, createBoardList, deleteBoard, deleteBoardList, type ListSubject } from '../../api/boards.ts';
import type { Scope } from '../../api/keys.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** Each write stays pending until the scope's boards are fresh again. */
function useBoardsWrite<V extends { scope: Scope }, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useWrite({
    send: run,
    refresh: (variables) => queryClient.invalidateQueries({ queryKey: boardsQueries.scope(variables.scope) }),
  });
}

export function useCreateBoard() {
  const connection = useConnection();
  return useBoardsWrite((variables: { scope: Scope; name: string }) => createBoard(connection, variables));
}

export function useDeleteBoard() {
  const connection = useConnection();
  return useBoardsWrite((variables: { scope: Scope; boardId: number }) => deleteBoard(connection, variables));
}

export function useCreateList() {
  const connection = useConnection();
  return useBoardsWrite((variables: { scope: Scope; boardId: number; subject: ListSubject }) => createBoardList(connection, variables));
}

export function useRemoveList() {
  const connection = useConnection();
  return useBoardsWrite((variables: { scope: Scope; boardId: number; listId: number }) => deleteBoardList(connection, variables));
}
