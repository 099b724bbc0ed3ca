import { useMemo, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';

import type { AccessToken, NewAccessToken } from '../../api/access-tokens.ts';
import { serviceAccountsQueries, type ServiceAccountScope } from '../../api/service-accounts.ts';
import { useConnection } from '../../api/react.ts';
import { usersQueries } from '../../api/users.ts';
import { DataTable } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { TokenFilters } from '../../components/token-filters.tsx';
import { RoutePending } from '../../components/states.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { SecretOnce } from '../../components/secret-once.tsx';
import { tokenColumns } from '../../components/token-status.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { Note } from '../../components/note.tsx';
import { RoleUnread } from '../../components/role-unread.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { useNotify } from '../../components/toast.tsx';
import { AccountsLink } from './links.tsx';
import { accountTokenListParams, accountTokensSearchSchema, type AccountTokensSearch } from './search.ts';
import { useServiceAccountAccess } from './use-service-account-access.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the forms load after the list, not before its first row
const loadDialogs = chunk(() => import('./account-token-dialogs.tsx'));
const CreateAccountTokenDialog = lazyPart(loadDialogs, (module) => module.CreateAccountTokenDialog);
const RotateAccountTokenDialog = lazyPart(loadDialogs, (module) => module.RotateAccountTokenDialog);
const RevokeAccountTokenDialog = lazyPart(loadDialogs, (module) => module.RevokeAccountTokenDialog);

interface AccountTokensScreenProps {
  scope: ServiceAccountScope;
  userId: number;
  search: AccountTokensSearch;
}

/** One service account's personal access tokens: state, expiry and use; create, rotate and revoke for those who manage it. */
export function AccountTokensScreen({ scope, userId, search }: AccountTokensScreenProps) {
  const connection = useConnection();
  const access = useServiceAccountAccess(scope);
  const account = useQuery(usersQueries.detail(connection, userId)).data;
  const accountName = account?.name ?? `service account ${userId}`;
  if (access.pending) return <RoutePending />;
  return (
    <section className="screen" aria-labelledby="account-tokens-heading">
      <p>
        <AccountsLink scope={scope}>{scope === 'instance' ? 'All instance service accounts' : `All service accounts of ${access.groupName ?? 'this group'}`}</AccountsLink>
      </p>
      {access.canView ? (
        <TokensList scope={scope} userId={userId} accountName={accountName} username={account?.username} search={search} canManage={access.canManage} />
      ) : (
        <header className="screen__header">
          <h1 id="account-tokens-heading">Tokens of {accountName}</h1>
        </header>
      )}
      <Note>{access.reason}</Note>
      <RoleUnread failure={access.failure} withheld="the account’s tokens are not shown" />
    </section>
  );
}

interface TokensListProps {
  scope: ServiceAccountScope;
  userId: number;
  accountName: string;
  username: string | undefined;
  search: AccountTokensSearch;
  canManage: boolean;
}

function TokensList({ scope, userId, accountName, username, search, canManage }: TokensListProps) {
  const connection = useConnection();
  const notify = useNotify();
  const params = accountTokenListParams(search);
  const page = useSuspenseQuery(serviceAccountsQueries.tokens(connection, scope, userId, params)).data;
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<AccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  // the one copy of a new secret, until its dialog closes
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);

  // the next page is likely next: fetch it ahead
  usePrefetch(page.nextPage ? serviceAccountsQueries.tokens(connection, scope, userId, { ...params, page: page.nextPage }) : null);
  usePreloadWhenIdle(loadDialogs, canManage);

  const wanted = useRequestedSearch(accountTokensSearchSchema, search);
  const setSearch = useSetSearch<AccountTokensSearch>();
  const showSecret = (title: string) => (token: NewAccessToken) => setSecret({ title, value: token.token });

  const columns = useMemo(
    () => tokenColumns({ role: false, actions: canManage ? { rotate: setRotating, revoke: setRevoking } : undefined }),
    [canManage],
  );

  const filtered = Boolean(search.search || search.state || search.revoked !== undefined);
  return (
    <>
      <header className="screen__header">
        <h1 id="account-tokens-heading">Tokens of {accountName}</h1>
        {canManage ? (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New token
          </button>
        ) : null}
      </header>
      {username ? <p className="muted">@{username}: personal access tokens of a service account, the only way it signs in.</p> : null}
      <TokenFilters search={search} wanted={wanted} setSearch={setSearch} />
      {page.items.length === 0 ? (
        <FilteredEmptyState filtered={filtered} filteredTitle="No token matches these filters." emptyTitle={`${accountName} has no tokens.`} />
      ) : (
        <DataTable caption="Tokens" columns={columns} data={page.items} getRowId={(token) => String(token.id)} />
      )}
      <Paginator page={page} label="Tokens pages" />
      {canManage ? (
        <>
          {creating ? <CreateAccountTokenDialog onClose={() => setCreating(false)} scope={scope} userId={userId} accountName={accountName} onCreated={showSecret(`New token of ${accountName}`)} /> : null}
          {rotating ? <RotateAccountTokenDialog token={rotating} scope={scope} userId={userId} onClose={() => setRotating(null)} onRotated={showSecret(`Rotated token of ${accountName}`)} /> : null}
          {revoking ? (
            <RevokeAccountTokenDialog token={revoking} scope={scope} userId={userId} accountName={accountName} onClose={() => setRevoking(null)} onRevoked={(token) => notify(`Revoked ${token.name}.`)} />
          ) : null}
        </>
      ) : null}
      <SecretOnce secret={secret?.value ?? null} title={secret?.title ?? ''} onDone={() => setSecret(null)} />
    </>
  );
}
