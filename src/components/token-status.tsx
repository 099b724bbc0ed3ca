import type { ColumnDef } from './data-table.tsx';
import { tokenState, type AccessToken } from '../api/access-tokens.ts';
import { roleName } from '../api/members.ts';
import { daysUntil, formatDate } from '../lib/time.ts';
import { Time } from './time.tsx';
import { formatCountOf } from '../lib/numbers.ts';

/** "Expires in 5 days" on tokens a month or less from expiry, marked within a week; "Expired" after; a revoked token's date plainly. */
export function TokenExpiry({ token }: { token: Pick<AccessToken, 'expires_at' | 'revoked'> }) {
  const date = token.expires_at;
  if (!date) return <span className="muted">Never</span>;
  // a revoked token expires for nobody: no countdown, no warning
  if (token.revoked) return <span className="nowrap muted">{formatDate(date)}</span>;
  const days = daysUntil(date);
  if (days <= 0) return <span className="expiry expiry--soon">Expired {formatDate(date)}</span>;
  return (
    <span className={days <= 7 ? 'expiry expiry--soon' : 'expiry'}>
      <span className="nowrap">{formatDate(date)}</span>
      {days <= 30 ? <span className="muted"> (expires in {formatCountOf(days, 'day', 'days')})</span> : null}
    </span>
  );
}

/** Active, Revoked or Expired, from the token's flags and date. */
export function TokenStateBadge({ token }: { token: Pick<AccessToken, 'active' | 'revoked' | 'expires_at'> }) {
  const state = tokenState(token);
  return <span className={`badge state-badge--${state}`}>{state === 'active' ? 'Active' : state === 'revoked' ? 'Revoked' : 'Expired'}</span>;
}

interface TokenColumnsOptions {
  /** Tokens that act with a role (group tokens) show it. */
  role: boolean;
  /** Rotate and revoke buttons on active tokens, for callers allowed to use them. */
  actions?: { rotate: (token: AccessToken) => void; revoke: (token: AccessToken) => void };
}

/** The columns every token list shows. */
export function tokenColumns(options: TokenColumnsOptions): ColumnDef<AccessToken>[] {
  const { actions } = options;
  return [
    {
      id: 'name',
      header: 'Token',
      cell: ({ row: { original: token } }) => (
        <div>
          <strong>{token.name}</strong>
          {token.description ? <div className="muted">{token.description}</div> : null}
        </div>
      ),
    },
    { id: 'state', header: 'State', cell: ({ row }) => <TokenStateBadge token={row.original} /> },
    ...(options.role ? [{ id: 'role', header: 'Role', cell: ({ row }) => (row.original.access_level !== undefined ? roleName(row.original.access_level) : '') } satisfies ColumnDef<AccessToken>] : []),
    { id: 'scopes', header: 'Scopes', cell: ({ row }) => row.original.scopes.join(', ') },
    { id: 'expires', header: 'Expires', cell: ({ row }) => <TokenExpiry token={row.original} /> },
    { id: 'used', header: 'Last used', cell: ({ row }) => <Time value={row.original.last_used_at} relative fallback="Never used" /> },
    { id: 'created', header: 'Created', cell: ({ row }) => <span className="nowrap"><Time value={row.original.created_at} dateOnly /></span> },
    ...(actions
      ? [
          {
            id: 'actions',
            header: () => <span className="sr-only">Actions</span>,
            cell: ({ row: { original: token } }) =>
              tokenState(token) === 'active' ? (
                <span className="row-actions">
                  <button type="button" className="button" aria-label={`Rotate ${token.name}`} onClick={() => actions.rotate(token)}>
                    Rotate
                  </button>
                  <button type="button" className="button button--danger-quiet" aria-label={`Revoke ${token.name}`} onClick={() => actions.revoke(token)}>
                    Revoke
                  </button>
                </span>
              ) : null,
          } satisfies ColumnDef<AccessToken>,
        ]
      : []),
  ];
}
