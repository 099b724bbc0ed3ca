import type { ReactNode } from 'react';

/** Shown by the router when a screen's data takes a moment (after defaultPendingMs). */
export function RoutePending() {
  return (
    <div className="state" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  );
}

/** An empty result: says what is empty and, when filters are on, what may have hidden things. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state--empty" role="status" aria-label={title}>
      <p className="state__title">{title}</p>
      {children ? <div className="state__body">{children}</div> : null}
    </div>
  );
}
