import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient, type FetchQueryOptions } from '@tanstack/react-query';
import { whenIdle } from '../lib/idle.ts';

/** Fetches the page the user is likely to open next, once per distinct query. */
export function usePrefetch(options: FetchQueryOptions<any, any, any, any> | null): void {
  const queryClient = useQueryClient();
  const key = JSON.stringify(options?.queryKey ?? null);
  // after the screen is painted: the request and its parsing must not delay the rows shown now
  useEffect(() => (options ? whenIdle(() => void queryClient.prefetchQuery(options)) : undefined), [key]);
}

/**
 * False until the browser has been idle once since the screen mounted: what a screen adds to its
 * rows (counts, details) asks then, so loopback answers re-rendering the screen before its first
 * frame do not hold the rows back.
 */
export function useIdleSinceMount(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  return idle;
}

/** Changes some search params of this screen in place; a new filter starts again at page 1. */
export function useSetSearch<T>(options: { paged: boolean } = { paged: true }) {
  const navigate = useNavigate();
  return useCallback(
    (changes: Partial<T>) =>
      void navigate({ to: '.', search: ((previous: T) => ({ ...previous, ...changes, ...(options.paged ? { page: 1 } : {}) })) as never, replace: true }),
    [navigate, options.paged],
  );
}

/** The value once it has held for `delayMs`: typed text once typing pauses (a search asks the API once per pause, not per key). */
export function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * State that belongs to one view of a list (its filters, order and page), such as a selection:
 * another view starts from `initial` (a constant) again. Stamped with the view rather than reset by
 * an effect, which would render and commit the whole page a second time on arrival.
 */
export function useViewState<T>(viewKey: string, initial: T): [T, (change: T | ((previous: T) => T)) => void] {
  const [state, setState] = useState({ view: viewKey, value: initial });
  const set = useCallback(
    (change: T | ((previous: T) => T)) =>
      setState((previous) => {
        const current = previous.view === viewKey ? previous.value : initial;
        return { view: viewKey, value: typeof change === 'function' ? (change as (previous: T) => T)(current) : change };
      }),
    [viewKey, initial],
  );
  return [state.view === viewKey ? state.value : initial, set];
}
