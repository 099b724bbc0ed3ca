import { useEffect, useRef, type ReactNode } from 'react';
import { Link, useRouter } from '@tanstack/react-router';
import { CommandPaletteOnDemand, ContextSwitcherOnDemand, UserMenuOnDemand, preloadMenus } from './deferred-menus.tsx';
import { Sidebar, useSidebarState } from './sidebar.tsx';

// the areas a session goes to next; their code is fetched while the browser is idle
const LIKELY_ROUTES = ['/groups/', '/projects/', '/groups/$groupId/members', '/groups/$groupId/access-tokens', '/groups/$groupId/service-accounts', '/projects/$projectId/members', '/groups/$groupId/billable-members', '/users/', '/users/$userId'] as const;

/** Loads the likely areas' code once the shell is idle, so a first visit waits only for data. */
function usePreloadLikelyAreas() {
  const router = useRouter();
  useEffect(() => {
    const load = () => {
      preloadMenus();
      for (const id of LIKELY_ROUTES) void router.loadRouteChunk(router.routesById[id]);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(load, { timeout: 2000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(load, 200);
    return () => clearTimeout(timer);
  }, [router]);
}

export function AppShell({ children }: { children: ReactNode }) {
  usePreloadLikelyAreas();
  const sidebar = useSidebarState();
  const toggleRef = useRef<HTMLButtonElement>(null);
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <button
          ref={toggleRef}
          type="button"
          className="button sidebar__toggle"
          aria-label="Navigation"
          aria-expanded={sidebar.expanded}
          aria-controls="sidebar"
          onClick={sidebar.toggle}
        >
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 18 18">
            <path d="M2 4h14M2 9h14M2 14h14" stroke="currentColor" strokeWidth="2" />
          </svg>
        </button>
        <Link to="/" className="brand">
          Platform Console
        </Link>
        <CommandPaletteOnDemand />
        <ContextSwitcherOnDemand />
        <UserMenuOnDemand />
      </header>
      <div className="shell__body">
        <Sidebar id="sidebar" expanded={sidebar.expanded} narrow={sidebar.narrow} onClose={sidebar.close} toggleRef={toggleRef} />
        <main id="main" className="shell__main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}
