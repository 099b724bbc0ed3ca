import { use } from 'react';
import { Outlet, createRootRouteWithContext, redirect, useRouterState } from '@tanstack/react-router';
import type { RouterContext } from '../router.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { EmptyState } from '../components/states.tsx';
import { chunk } from '../components/lazy-part.ts';

// the connect screen, often the first one, does not load the shell's menus; every other screen
// waits for them in the root loader, beside its own loader, so the shell never suspends: a
// suspended boundary would hold the first screen back by React's 300 ms reveal throttle
const loadShell = chunk(() => import('../features/shell/app-shell.tsx'));

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: ({ context, location }) => {
    // every screen but the connect screen needs a connection; come back here afterwards
    if (!context.session.getActive() && location.pathname !== '/connect') {
      throw redirect({ to: '/connect', search: { redirect: location.href } });
    }
  },
  loader: ({ location }) => (loadShell.loaded || location.pathname === '/connect' ? undefined : loadShell().then(() => undefined)),
  component: Root,
  notFoundComponent: () => <EmptyState title="There is no such page in the console." />,
});

function Root() {
  const bare = useRouterState({ select: (state) => state.location.pathname === '/connect' });
  if (bare) {
    return (
      <ToastProvider>
        <Outlet />
      </ToastProvider>
    );
  }
  // the root loader has loaded the shell already; `use` covers a render that came before it
  const { AppShell } = loadShell.loaded ?? use(loadShell());
  return (
    <ToastProvider>
      <AppShell>
        <Outlet />
      </AppShell>
    </ToastProvider>
  );
}
