import { roleName } from '../../api/members.ts';
import { daysUntil, formatDate } from '../../lib/time.ts';
import { formatCountOf } from '../../lib/numbers.ts';

export function RoleBadge({ level }: { level: number }) {
  return <span className={`badge badge--role badge--role-${level}`}>{roleName(level)}</span>;
}

/** The expiry date, with a warning when it is a week or less away. */
export function Expiry({ date }: { date: string | null | undefined }) {
  if (!date) return <span className="muted">Never</span>;
  const days = daysUntil(date);
  const soon = days <= 7;
  return (
    <span className={soon ? 'expiry expiry--soon' : 'expiry'}>
      <span className="nowrap">{formatDate(date)}</span>
      {days >= 0 ? <span className="muted"> ({days === 0 ? 'today' : `in ${formatCountOf(days, 'day', 'days')}`})</span> : <span className="muted"> (expired)</span>}
    </span>
  );
}
