import { useCallback, useRef, useSyncExternalStore } from 'react';
import type { Query } from '@tanstack/react-query';

/** The first poll's delay, its growth while nothing changes, and the slowest it gets. */
export const LIVE_FIRST_MS = 2000;
export const LIVE_GROWTH = 1.5;
export const LIVE_MAX_MS = 30_000;

/** Where a query's polling stands: the data last seen, when it came, and the delay it earned. */
export interface LiveStep {
  data: unknown;
  updatedAt: number;
  delay: number;
}

/**
 * The next poll after an answer: back to the first delay when the data changed (structural
 * sharing keeps the same object when it did not), otherwise a step slower, up to the maximum.
 * A call with no new answer (the query only started fetching) keeps the delay it had.
 */
export function nextLiveStep(previous: LiveStep | undefined, data: unknown, updatedAt: number): LiveStep {
  if (!previous) return { data, updatedAt, delay: LIVE_FIRST_MS };
  if (updatedAt === previous.updatedAt) return previous;
  if (data !== previous.data) return { data, updatedAt, delay: LIVE_FIRST_MS };
  return { data, updatedAt, delay: Math.min(Math.round(previous.delay * LIVE_GROWTH), LIVE_MAX_MS) };
}

function subscribeVisibility(onChange: () => void) {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}
const isVisible = () => document.visibilityState !== 'hidden';
const visibleOnServer = () => true;

type LiveQuery<TData> = Pick<Query<TData, any, any, any>, 'state' | 'queryHash'>;

/**
 * The `refetchInterval` function behind the hook, outside React: `moving` and `visible` are read
 * on each call; `steps` holds each query's backoff.
 */
export function liveInterval<TData>(moving: (data: TData) => boolean, visible: boolean, steps: Map<string, LiveStep>) {
  return (query: LiveQuery<TData>): number | false => {
    const { data, dataUpdatedAt } = query.state;
    if (!visible || data === undefined || !moving(data)) {
      steps.delete(query.queryHash);
      return false;
    }
    const step = nextLiveStep(steps.get(query.queryHash), data, dataUpdatedAt);
    steps.set(query.queryHash, step);
    return step.delay;
  };
}

/**
 * Live data: pass the result as a query's `refetchInterval`. It polls only while the tab is visible
 * and `moving(data)` says something can still change (a running pipeline), every 2 s, ×1.5 after
 * each unchanged answer up to 30 s, back to 2 s when the data changes; it stops by itself.
 */
export function useLiveRefetch<TData>(moving: (data: TData) => boolean): (query: LiveQuery<TData>) => number | false {
  const visible = useSyncExternalStore(subscribeVisibility, isVisible, visibleOnServer);
  const steps = useRef(new Map<string, LiveStep>());
  const latestMoving = useRef(moving);
  latestMoving.current = moving;
  // a new function when visibility changes: the query observer then stops, or restarts, its timer
  return useCallback(liveInterval((data: TData) => latestMoving.current(data), visible, steps.current), [visible]);
}
