import { useQueryClient } from '@tanstack/react-query';
import {
  scheduleBulkStorageMoves, scheduleStorageMove, storageMovesQueries, type BulkMoveVariables, type ScheduleMoveVariables,
} from '../../api/storage-moves.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

/**
 * Schedules one move; the project's storage changes once it finishes, so that is refetched too. A
 * move that failed may be scheduled again, to the same storage: a later press is a new one.
 */
export function useScheduleMove() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: ScheduleMoveVariables) => scheduleStorageMove(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    refresh: () => queryClient.invalidateQueries({ queryKey: storageMovesQueries.all() }),
  });
}

/** Moves all of a storage's repositories; the same storages again later move what is there by then: a new press. */
export function useBulkMove() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: BulkMoveVariables) => scheduleBulkStorageMoves(connection, variables),
    repeatAfterMs: REPEAT_AFTER_MS,
    refresh: () => queryClient.invalidateQueries({ queryKey: storageMovesQueries.all() }),
  });
}
