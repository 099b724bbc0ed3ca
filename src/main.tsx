import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createQueryClient } from './api/query-client.ts';
import { SessionStore, expiryWatcher, sessionConnection, whenConnectionChanges } from './api/session.ts';
import { ServicesContext } from './api/react.ts';
import { createAppRouter } from './router.tsx';
import { startRoutesOnPress } from './lib/press-preload.ts';
import './styles.css';

const queryClient = createQueryClient();
const session = new SessionStore();
// signing in, switching, signing out or expiring: no answer of one connection is shown to another
whenConnectionChanges(session, () => queryClient.clear());
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
// a deep link starts all it needs at once, before React's first render: the route's chunks, the
// shell, and the requests of the loaders kept in the entry; the first load then finds them in flight
if (session.getActive()) {
  const { pathname, search, hash } = router.state.location;
  // a failure here is the first load's to show (it runs the same loaders again)
  router.preloadRoute({ to: pathname, search, hash } as Parameters<typeof router.preloadRoute>[0]).catch(() => undefined);
}

startRoutesOnPress(document, {
  currentPath: () => router.state.location.pathname,
  // a failure is the navigation's to show (it runs the same loaders again)
  preload: (href) => void router.preloadRoute({ href } as Parameters<typeof router.preloadRoute>[0]).catch(() => undefined),
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesContext.Provider value={{ session, connection }}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ServicesContext.Provider>
  </StrictMode>,
);
