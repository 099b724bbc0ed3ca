import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { ServiceAccountScope } from '../../api/service-accounts.ts';

/** The scope's list of service accounts. */
export function AccountsLink({ scope, className, children }: { scope: ServiceAccountScope; className?: string; children: ReactNode }) {
  return scope === 'instance' ? (
    <Link to="/admin/service-accounts" className={className}>
      {children}
    </Link>
  ) : (
    <Link to="/groups/$groupId/service-accounts" params={{ groupId: String(scope.group) }} className={className}>
      {children}
    </Link>
  );
}

/** One account's tokens page; `label` names the link for assistive technology when the text is short. */
export function AccountTokensLink({ scope, userId, label, children }: { scope: ServiceAccountScope; userId: number; label?: string; children: ReactNode }) {
  return scope === 'instance' ? (
    <Link to="/admin/service-accounts/$userId/tokens" params={{ userId: String(userId) }} aria-label={label}>
      {children}
    </Link>
  ) : (
    <Link to="/groups/$groupId/service-accounts/$userId/tokens" params={{ groupId: String(scope.group), userId: String(userId) }} aria-label={label}>
      {children}
    </Link>
  );
}
