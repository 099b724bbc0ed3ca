import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { whenIdle } from '../../lib/idle.ts';
import { preloadMenus } from './deferred-menus.tsx';

// the areas a session goes to next; their code is fetched while the browser is idle
const LIKELY_ROUTES = ['/groups/', '/projects/', '/groups/$groupId/members', '/groups/$groupId/access-tokens', '/groups/$groupId/service-accounts', '/projects/$projectId/members', '/projects/$projectId/issues/', '/groups/$groupId/issues', '/groups/$groupId/billable-members', '/users/', '/users/$userId'] as const;

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** Whether fetching ahead is welcome: not when the user asked to save data, nor on a 2G-like link. */
export function fetchAheadAllowed(connection: NetworkInformation | undefined): boolean {
  return !connection || (!connection.saveData && connection.effectiveType !== '2g' && connection.effectiveType !== 'slow-2g');
}

/**
 * Loads the likely areas' code once the current screen's data is in and the browser is idle, one
 * chunk per idle period, so a first visit elsewhere waits only for data. Nothing is fetched ahead
 * under Save-Data or on a slow connection.
 */
export function usePreloadLikelyAreas(): void {
  const router = useRouter();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!fetchAheadAllowed((navigator as Navigator & { connection?: NetworkInformation }).connection)) return;
    const steps = [preloadMenus, ...LIKELY_ROUTES.map((id) => () => void router.loadRouteChunk(router.routesById[id]))];
    let cancel: (() => void) | undefined;
    const next = () => {
      steps.shift()?.();
      cancel = steps.length ? whenIdle(next) : undefined;
    };
    // the screen's own requests first: its loaders have resolved and no query is fetching
    const stopWatching = () => {
      unsubscribeQueries();
      unsubscribeRouter();
    };
    const startWhenQuiet = () => {
      if (cancel || router.state.status !== 'idle' || queryClient.isFetching() > 0) return;
      stopWatching();
      cancel = whenIdle(next);
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe(startWhenQuiet);
    const unsubscribeRouter = router.subscribe('onResolved', startWhenQuiet);
    startWhenQuiet();
    return () => {
      stopWatching();
      cancel?.();
    };
  }, [router, queryClient]);
}
