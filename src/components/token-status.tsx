import { tokenState, type AccessToken } from '../api/access-tokens.ts';
import { daysUntil, formatDate } from '../lib/time.ts';

/** "Expires in 5 days" on tokens a month or less from expiry, marked within a week; "Expired" after. */
export function TokenExpiry({ date }: { date: string | null }) {
  if (!date) return <span className="muted">Never</span>;
  const days = daysUntil(date);
  if (days <= 0) return <span className="expiry expiry--soon">Expired {formatDate(date)}</span>;
  return (
    <span className={days <= 7 ? 'expiry expiry--soon' : 'expiry'}>
      <span className="nowrap">{formatDate(date)}</span>
      {days <= 30 ? <span className="muted"> (expires in {days === 1 ? '1 day' : `${days} days`})</span> : null}
    </span>
  );
}

/** Active, Revoked or Expired, from the token's flags and date. */
export function TokenStateBadge({ token }: { token: Pick<AccessToken, 'active' | 'revoked' | 'expires_at'> }) {
  const state = tokenState(token);
  return <span className={`badge state-badge--${state}`}>{state === 'active' ? 'Active' : state === 'revoked' ? 'Revoked' : 'Expired'}</span>;
}
