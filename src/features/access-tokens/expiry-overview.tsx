import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { accessTokensQueries, expiryReasons, rotateGroupToken, type ExpiryOverview, type ExpiryReason, type NewAccessToken, type OverviewToken } from '../../api/access-tokens.ts';
import { roleName } from '../../api/members.ts';
import { rotateAccountToken } from '../../api/service-accounts.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { EmptyState } from '../../components/states.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { SecretOnce } from '../../components/secret-once.tsx';
import { Time } from '../../components/time.tsx';
import { TokenExpiry } from '../../components/token-status.tsx';
import { useWrite } from '../../components/use-write.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// lazy keeps the form code out of the first paint; the cast keeps the dialog's generic type
const loadRotateDialog = chunk(() => import('../../components/rotate-token-dialog.tsx'));
const RotateTokenDialog = lazyPart(loadRotateDialog, (module) => module.RotateTokenDialog) as unknown as typeof import('../../components/rotate-token-dialog.tsx').RotateTokenDialog;

type OverviewRotation = { entry: OverviewToken; expiresAt?: string };

/** Rotates either kind of token on the overview: a group's own, or one of its service accounts'. */
function useRotateOverviewToken() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: ({ entry, expiresAt }: OverviewRotation) =>
      entry.kind === 'group' || !entry.account
        ? rotateGroupToken(connection, { groupId: entry.group.id, tokenId: entry.token.id, expiresAt })
        : rotateAccountToken(connection, { scope: { group: entry.group.id }, userId: entry.account.id, tokenId: entry.token.id, expiresAt }),
    refresh: ({ entry }) => queryClient.invalidateQueries({ queryKey: accessTokensQueries.group(entry.group.id) }),
  });
}

/** The rotation of one entry, mounted per opening: its write starts fresh each time. */
function RotateEntryDialog({ entry, onClose, onRotated }: { entry: OverviewToken; onClose: () => void; onRotated: (token: NewAccessToken) => void }) {
  const rotate = useRotateOverviewToken();
  return <RotateTokenDialog token={entry.token} mutation={rotate} variables={(_token, expiresAt): OverviewRotation => ({ entry, expiresAt })} onClose={onClose} onRotated={onRotated} />;
}

export const REASONS: Array<{ value: ExpiryReason; label: string }> = [
  { value: 'expired', label: 'Expired' },
  { value: 'within_7_days', label: 'Expire within 7 days' },
  { value: 'within_30_days', label: 'Expire within 30 days' },
  { value: 'never_used', label: 'Never used' },
];

export interface ExpirySearch {
  reason?: ExpiryReason;
  everywhere: boolean;
}

/** Tokens of every group the user owns, and of their service accounts, that need attention. */
export function ExpiryOverviewScreen({ search }: { search: ExpirySearch }) {
  const connection = useConnection();
  const session = useActiveSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [progress, setProgress] = useState({ done: 0, total: 0 });
  const [rotating, setRotating] = useState<OverviewToken | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const options = accessTokensQueries.expiry(connection, search.everywhere, (done, total) => setProgress({ done, total }));
  const overview = useQuery(options);
  usePreloadWhenIdle(loadRotateDialog, Boolean(overview.data));
  const isAdmin = Boolean(session?.connection.isAdmin);
  const canWrite = Boolean(session?.connection.canWrite);
  const shown = useMemo(
    () => (overview.data?.tokens ?? []).filter((entry) => !search.reason || entry.reasons.includes(search.reason)),
    [overview.data, search.reason],
  );
  const counts = useMemo(() => {
    const byReason = Object.fromEntries(REASONS.map((reason) => [reason.value, 0])) as Record<ExpiryReason, number>;
    for (const entry of overview.data?.tokens ?? []) for (const reason of entry.reasons) byReason[reason]++;
    return byReason;
  }, [overview.data]);
  const setSearch = (changes: Partial<ExpirySearch>) => void navigate({ to: '.', search: ((previous: ExpirySearch) => ({ ...previous, ...changes })) as never, replace: true });
  // the rotated token leaves the list; its successor takes its place if it needs attention too
  const replaceRotated = (entry: OverviewToken, rotated: NewAccessToken) => {
    const { token: _secret, ...successor } = rotated;
    const reasons = expiryReasons(successor);
    queryClient.setQueryData<ExpiryOverview>(options.queryKey, (old) =>
      old ? { ...old, tokens: old.tokens.flatMap((item) => (item.token.id !== entry.token.id ? [item] : reasons.length ? [{ ...item, token: successor, reasons }] : [])) } : old,
    );
  };

  const columns = useMemo<ColumnDef<OverviewToken>[]>(
    () => [
      {
        id: 'token',
        header: 'Token',
        cell: ({ row: { original: entry } }) => (
          <div>
            <strong>{entry.token.name}</strong>
            <div className="muted">
              {entry.kind === 'group' ? `Group token (${roleName(entry.token.access_level ?? 0)})` : `Service account @${entry.account?.username}`}
            </div>
          </div>
        ),
      },
      {
        id: 'group',
        header: 'Group',
        cell: ({ row: { original: entry } }) => (
          <Link to="/groups/$groupId/access-tokens" params={{ groupId: String(entry.group.id) }}>
            {entry.group.fullName}
          </Link>
        ),
      },
      { id: 'why', header: 'Needs attention', cell: ({ row }) => row.original.reasons.map((reason) => REASONS.find((item) => item.value === reason)?.label).join(', ') },
      { id: 'expires', header: 'Expires', cell: ({ row }) => <TokenExpiry token={row.original.token} /> },
      { id: 'used', header: 'Last used', cell: ({ row }) => <Time value={row.original.token.last_used_at} relative fallback="Never used" /> },
      { id: 'scopes', header: 'Scopes', cell: ({ row }) => row.original.token.scopes.join(', ') },
      {
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: entry } }) => (
          <button type="button" className="button" disabled={!canWrite} title={canWrite ? undefined : 'A read-only token cannot rotate tokens'} aria-label={`Rotate ${entry.token.name} of ${entry.kind === 'group' ? entry.group.fullName : `@${entry.account?.username}`}`} onClick={() => setRotating(entry)}>
            Rotate
          </button>
        ),
      },
    ],
    [canWrite],
  );

  return (
    <section className="screen" aria-labelledby="expiry-heading">
      <h1 id="expiry-heading">Token expiry overview</h1>
      <p className="muted">Group access tokens and service-account tokens of {search.everywhere ? 'every group on the instance' : 'every group you own'} that expired, expire within 30 days, or were never used.</p>
      <div className="filter-bar" role="search" aria-label="Filter the overview">
        <label className="inline-field">
          <span>Show</span>
          <select className="input" value={search.reason ?? ''} onChange={(event) => setSearch({ reason: (event.target.value || undefined) as ExpiryReason | undefined })}>
            <option value="">Everything that needs attention</option>
            {REASONS.map((reason) => (
              <option key={reason.value} value={reason.value}>
                {reason.label} ({counts[reason.value]})
              </option>
            ))}
          </select>
        </label>
        {isAdmin ? (
          <label className="checkbox">
            <input type="checkbox" checked={search.everywhere} onChange={(event) => setSearch({ everywhere: event.target.checked })} /> Every group on the instance (administrator)
          </label>
        ) : null}
        <button type="button" className="button" onClick={() => void overview.refetch()} disabled={overview.isFetching}>
          Check again
        </button>
      </div>
      {overview.isFetching ? (
        <div className="scan-progress">
          <label htmlFor="expiry-progress">
            Checking groups and service accounts: {progress.done} of {progress.total || '…'}
          </label>
          <progress id="expiry-progress" max={progress.total || 1} value={progress.done} />
        </div>
      ) : null}
      {overview.error ? <ErrorPanel error={overview.error} onRetry={() => void overview.refetch()} /> : null}
      {overview.data && overview.data.failures.length ? (
        <details className="notice" role="note">
          <summary>
            {overview.data.failures.length} of the checks failed; their tokens are not listed.
          </summary>
          <ul>
            {overview.data.failures.map((failure) => (
              <li key={failure.group}>
                {failure.group}: {failure.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {overview.data ? (
        shown.length === 0 ? (
          <EmptyState title={overview.data.groups === 0 ? 'You own no groups, so there are no group tokens to check.' : search.reason ? 'No token falls in this category.' : `Nothing needs attention in ${formatCount(overview.data.groups)} groups.`} />
        ) : (
          <DataTable caption="Tokens that need attention" columns={columns} data={shown} getRowId={(entry) => `${entry.kind}-${entry.token.id}`} stale={overview.isFetching} />
        )
      ) : null}
      {/* an empty list's own words already say how many groups were read */}
      {overview.data && shown.length > 0 ? <p className="muted" role="status">{`${formatCount(shown.length)} tokens in ${formatCount(overview.data.groups)} groups.`}</p> : null}
      {rotating ? (
        <RotateEntryDialog
          entry={rotating}
          onClose={() => setRotating(null)}
          onRotated={(token: NewAccessToken) => {
            replaceRotated(rotating, token);
            setSecret(token.token);
          }}
        />
      ) : null}
      <SecretOnce secret={secret} title="The rotated access token" onDone={() => setSecret(null)} />
    </section>
  );
}
