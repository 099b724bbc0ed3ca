import { useRef, type ReactNode } from 'react';
import { rootRouteId, useRouterState } from '@tanstack/react-router';
import { CommandPaletteOnDemand, ContextSwitcherOnDemand, UserMenuOnDemand } from './deferred-menus.tsx';
import { usePreloadLikelyAreas } from './preload-likely-areas.ts';
import { Sidebar, useSidebarState } from './sidebar.tsx';
import { RateLimitStatus } from '../../components/rate-limit-status.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useSettled } from '../../components/list-hooks.ts';

const BUSY_AFTER_MS = 150;

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
        <RouteLink to="/" className="brand">
          Platform Console
        </RouteLink>
        <CommandPaletteOnDemand />
        <ContextSwitcherOnDemand />
        <RateLimitStatus />
        <UserMenuOnDemand />
      </header>
      <div className="shell__body">
        <Sidebar id="sidebar" expanded={sidebar.expanded} narrow={sidebar.narrow} onClose={sidebar.close} toggleRef={toggleRef} />
        <Main>{children}</Main>
      </div>
    </div>
  );
}

/**
 * The screen, marked busy (and dimmed by CSS) while the router loads the next screen or page: one
 * subscriber here, so the end of loading re-renders this element alone, not every screen's list.
 */
function Main({ children }: { children: ReactNode }) {
  const navigating = useRouterState({ select: (state) => state.status === 'pending' });
  // only a navigation that takes a while is marked: a quick one would restyle the whole screen twice for nothing
  const busy = useSettled(navigating, BUSY_AFTER_MS) && navigating;
  return (
    <main id="main" className="shell__main" tabIndex={-1} data-outlet-of={rootRouteId} aria-busy={busy || undefined}>
      {children}
    </main>
  );
}

/** An address the console has no screen for: a screen of its own, with a heading like every other. */
export function NotFoundScreen() {
  return (
    <section className="screen" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">Page not found</h1>
      <EmptyState title="There is no such page in the console.">
        <RouteLink to="/">Go to your home page</RouteLink>
      </EmptyState>
    </section>
  );
}
