import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createQueryClient } from './api/query-client.ts';
import { SessionStore, expiryWatcher, sessionConnection, whenConnectionChanges } from './api/session.ts';
import { ServicesContext } from './api/react.ts';
import { createAppRouter } from './router.tsx';
import { startRoutesOnPress } from './lib/press-preload.ts';
import { keepFocusThroughDisable } from './lib/keep-focus.ts';
import { handFocusToNewScreen } from './lib/screen-focus.ts';
import { forgetEarly } from './api/early.ts';
import { firstRequests, knownFrom, sendFirstRequests } from './api/first-requests.ts';
import './styles.css';

const queryClient = createQueryClient();
const session = new SessionStore();
// signing in, switching, signing out or expiring: no answer of one connection is shown to another
whenConnectionChanges(session, () => {
  queryClient.clear();
  forgetEarly();
});
const connection = sessionConnection(
  session,
  expiryWatcher(session, () => {
    // the token no longer works: forget it, reconnect and come back here
    if (router.state.location.pathname === '/connect') return;
    const here = router.state.location.href;
    session.expire(here);
    void router.navigate({ to: '/connect', search: { redirect: here } });
  }),
);
const router = createAppRouter({ queryClient, session, api: connection });
// a slow answer does not keep the shell from showing longer than this
const FIRST_RENDER_WAIT_MS = 300;
// a deep link starts all it needs at once, before React's first render: the route's chunks, the
// shell, and the requests of its loaders
const firstScreenStarted = session.getActive() ? startFirstScreen() : Promise.resolve();

/**
 * Loads the deep link's route (its chunks and loaders) before React's first render, or for
 * FIRST_RENDER_WAIT_MS at most: rendering the shell first held the loaders' requests back by the
 * whole render (some 170 ms at 4x CPU), and rendering it while the route loaded drew the shell
 * twice (some 45 ms at 4x). A loaded router is not loaded again by its provider.
 */
function startFirstScreen(): Promise<void> {
  // a failure is the router's to show: it keeps it in the route's match
  const loaded = router.load().catch(() => undefined);
  return Promise.race([loaded, new Promise<void>((resolve) => setTimeout(resolve, FIRST_RENDER_WAIT_MS))]);
}

// what the query cache already holds spares a pressed link's requests a wait (api/first-requests.ts)
const known = knownFrom(queryClient);

startRoutesOnPress(document, {
  currentPath: () => router.state.location.pathname,
  preload: (href) => {
    // the screen's first requests go out before its route's code has run (api/first-requests.ts)
    const active = session.getActive();
    const url = new URL(href, location.origin);
    if (active) sendFirstRequests(active.connection, active.token, firstRequests(url.pathname, url.search, url.hash, active.connection, known));
    // a failure is the navigation's to show (it runs the same loaders again)
    void router.preloadRoute({ href } as Parameters<typeof router.preloadRoute>[0]).catch(() => undefined);
  },
});

// a button disabled while its write is sent gets the keyboard's focus back once it is enabled
keepFocusThroughDisable(document);
// a pressed link that leaves with its screen hands the focus to what replaces it
handFocusToNewScreen({
  currentMatches: () => router.state.matches,
  beforeScreenRender: (listener) => router.subscribe('onBeforeRouteMount', listener),
  outletOf: (routeId) => document.querySelector<HTMLElement>(`[data-outlet-of="${CSS.escape(routeId)}"]`),
});

void firstScreenStarted.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ServicesContext.Provider value={{ session, connection }}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ServicesContext.Provider>
    </StrictMode>,
  ),
);
