import { useQueryClient } from '@tanstack/react-query';
import {
  scheduleBulkStorageMoves, scheduleStorageMove, storageMovesQueries, type BulkMoveVariables, type ScheduleMoveVariables,
} from '../../api/storage-moves.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** Schedules one move; the project's storage changes once it finishes, so that is refetched too. */
export function useScheduleMove() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: ScheduleMoveVariables) => scheduleStorageMove(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: storageMovesQueries.all() }),
  });
}

export function useBulkMove() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: BulkMoveVariables) => scheduleBulkStorageMoves(connection, variables),
    refresh: () => queryClient.invalidateQueries({ queryKey: storageMovesQueries.all() }),
  });
}
