import { createRouter } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { routeTree } from './routeTree.gen.ts';
import type { Connection } from './api/http.ts';
import type { SessionStore } from './api/session.ts';
import { RoutePending } from './components/states.tsx';
import { RouteError } from './components/error-panel.tsx';

export interface RouterContext {
  queryClient: QueryClient;
  session: SessionStore;
  api: Connection;
}

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // loaders go through React Query's cache, so the router keeps none of its own
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: RoutePending,
    defaultPendingMs: 400,
    // once shown, the pending screen gives way as soon as the route is ready (the router's default
    // holds it 500 ms, which on a slow link delays the first rows themselves)
    defaultPendingMinMs: 0,
    defaultErrorComponent: RouteError,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

