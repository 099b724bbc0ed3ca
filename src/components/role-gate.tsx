import type { ReactNode } from 'react';
import { useActiveSession } from '../api/react.ts';
import { useMyAccess } from './use-my-access.ts';
import { ErrorPanel } from './error-panel.tsx';
import { RefusedScreen } from './refused-screen.tsx';
import { RoutePending } from './states.tsx';

/**
 * A group screen for some callers only: their role is read (an administrator's is not asked), and
 * whoever `refusal` turns away is told why, under the screen's title, instead of seeing it.
 */
export function GroupRoleGate({ groupId, title, refusal, children }: { groupId: number; title: string; refusal: (caller: { isAdmin: boolean; role: number }) => string | null; children: ReactNode }) {
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const role = useMyAccess({ group: groupId });
  if (!isAdmin && role.isPending) return <RoutePending />;
  if (!isAdmin && role.isError) return <ErrorPanel error={role.error} onRetry={() => void role.refetch()} />;
  const reason = refusal({ isAdmin, role: role.data ?? 0 });
  return reason ? <RefusedScreen title={title} reason={reason} /> : children;
}
