import { lazy, Suspense } from 'react';
import { Outlet, createRootRouteWithContext, redirect, useRouterState } from '@tanstack/react-router';
import type { RouterContext } from '../router.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { EmptyState, RoutePending } from '../components/states.tsx';

// the connect screen, often the first one, does not load the shell's menus
const AppShell = lazy(() => import('../features/shell/app-shell.tsx').then((module) => ({ default: module.AppShell })));

export const Route = createRootRouteWithContext<RouterContext>()({
  beforeLoad: ({ context, location }) => {
    // every screen but the connect screen needs a connection; come back here afterwards
    if (!context.session.getActive() && location.pathname !== '/connect') {
      throw redirect({ to: '/connect', search: { redirect: location.href } });
    }
  },
  component: Root,
  notFoundComponent: () => <EmptyState title="There is no such page in the console." />,
});

function Root() {
  const bare = useRouterState({ select: (state) => state.location.pathname === '/connect' });
  return (
    <ToastProvider>
      {bare ? (
        <Outlet />
      ) : (
        <Suspense fallback={<RoutePending />}>
          <AppShell>
            <Outlet />
          </AppShell>
        </Suspense>
      )}
    </ToastProvider>
  );
}
