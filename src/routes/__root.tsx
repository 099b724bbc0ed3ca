import { Outlet, createRootRouteWithContext, redirect, useRouterState } from '@tanstack/react-router';
import type { RouterContext } from '../router.tsx';
import { ToastProvider } from '../components/toast.tsx';
import { RoutePending } from '../components/states.tsx';
import { chunk, useChunk, usePreloadWhenIdle } from '../components/lazy-part.ts';

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
  notFoundComponent: NotFound,
});

function Root() {
  // by the screen shown, not the address: on the way from /connect the address changes first, and
  // the shell would frame the connect screen until the next screen is loaded
  const bare = useRouterState({ select: (state) => state.matches.at(-1)?.routeId === '/connect' });
  // the connect screen leads to the shell: its code comes while the token is typed
  usePreloadWhenIdle(loadShell, bare);
  const shell = useChunk(loadShell, !bare);
  if (bare) {
    return (
      <ToastProvider>
        <Outlet />
      </ToastProvider>
    );
  }
  // the root loader has loaded the shell already; a render before it waits without suspending
  if (!shell) return <RoutePending />;
  const { AppShell } = shell;
  return (
    <ToastProvider>
      <AppShell>
        <Outlet />
      </AppShell>
    </ToastProvider>
  );
}

// shown inside the shell, so its code (and its link home) comes with the shell's, not the entry's
function NotFound() {
  const shell = useChunk(loadShell, true);
  return shell ? <shell.NotFoundScreen /> : <RoutePending />;
}
