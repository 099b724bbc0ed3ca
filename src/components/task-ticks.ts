import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/errors.ts';
import type { TaskToggle } from './markdown.tsx';
import { REPEAT_AFTER_MS, useWrite } from './use-write.ts';

interface Described {
  description?: string | null;
}

export type TaskTick = { task: number; shown: string; next: string };

/** A conflict, refused before anything was sent: a 409 as the platform would answer a stale write. */
export class DescriptionChanged extends ApiError {
  constructor() {
    super(409, 'Someone changed the description since it was shown: the latest version is shown now. Tick the task again if it still needs it.');
  }
}

interface TaskTicksConfig<T extends Described> {
  /** The detail query the description is shown from. */
  queryKey: QueryKey;
  /** The description on screen. */
  description: string;
  /** The item straight from the server, past the cache (which holds the shown tick). */
  read: () => Promise<T>;
  write: (description: string) => Promise<T>;
  /** What else the write changed (system notes, lists). */
  refresh: () => Promise<unknown>;
}

/**
 * Ticks tasks in an issue's or a merge request's description, conflict-safe: the tick shows at once,
 * the latest description is read first, and the write goes only when it is still the one the box was
 * ticked on (otherwise someone else changed it meanwhile, and writing would undo their change).
 * Each task is a toggle: the second click of a double click is no untick.
 */
export function useTaskTicks<T extends Described>({ queryKey, description, read, write, refresh }: TaskTicksConfig<T>) {
  const queryClient = useQueryClient();
  const show = (text: string) => queryClient.setQueryData(queryKey, (item: T | undefined) => (item ? { ...item, description: text } : item));
  const tick = useWrite({
    send: async ({ shown, next }: TaskTick) => {
      const latest = await read();
      if ((latest.description ?? '') !== shown) {
        // a refusal refreshes nothing by itself: the latest replaces the shown tick here
        queryClient.setQueryData(queryKey, latest);
        throw new DescriptionChanged();
      }
      return write(next);
    },
    onDone: (item) => queryClient.setQueryData(queryKey, item),
    refresh,
    repeatAfterMs: REPEAT_AFTER_MS,
    toggleOf: ({ task }) => `task ${task}`,
  });
  const onToggleTask: TaskToggle = (task, _checked, next) => {
    if (next === description) return false;
    // after a refusal the server's text replaces the shown tick
    const taken = tick.mutate({ task, shown: description, next }, { onError: () => void queryClient.invalidateQueries({ queryKey }) });
    if (taken) show(next);
    return taken;
  };
  return { tick, onToggleTask };
}
