import { errorText } from './error-panel.tsx';
import type { RoleFailure } from './use-my-access.ts';

/**
 * Where a screen would say what the caller's role allows: that the role could not be read (which
 * is not "no role"), what is held back for it, and a retry.
 */
export function RoleUnread({ failure, withheld = 'what it allows is not offered' }: { failure: RoleFailure | null; withheld?: string }) {
  if (!failure) return null;
  return (
    <p className="notice" role="note">
      Your role here could not be read ({errorText(failure.error)}), so {withheld}.{' '}
      <button type="button" className="button" onClick={failure.retry}>
        Try again
      </button>
    </p>
  );
}
