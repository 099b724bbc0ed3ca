import type { ReactNode } from 'react';

/** Why something is missing or limited (a role, a read-only token): a `role="note"`, or nothing when there is no reason. */
export function Note({ children }: { children?: ReactNode }) {
  return children ? (
    <p className="notice" role="note">
      {children}
    </p>
  ) : null;
}
