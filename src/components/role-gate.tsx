import type { ReactNode } from 'react';
import { useActiveSession } from '../api/react.ts';
import { useCallerRole } from './use-my-access.ts';
import { ErrorPanel } from './error-panel.tsx';
import { RefusedScreen } from './refused-screen.tsx';
import { RoutePending } from './states.tsx';

/**
 * A group screen for some callers only: their role is read (an administrator's is not asked), and
 * whoever `refusal` turns away is told why, under the screen's title, instead of seeing it.
 */
export function GroupRoleGate({ groupId, title, refusal, children }: { groupId: number; title: string; refusal: (caller: { isAdmin: boolean; role: number }) => string | null; children: ReactNode }) {
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const { role, known, failure } = useCallerRole({ group: groupId }, isAdmin);
  if (failure) return <ErrorPanel error={failure.error} onRetry={failure.retry} />;
  if (!known) return <RoutePending />;
  const reason = refusal({ isAdmin, role });
  return reason ? <RefusedScreen title={title} reason={reason} /> : children;
}
