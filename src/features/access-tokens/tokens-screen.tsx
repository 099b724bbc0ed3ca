import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';

import { accessTokensQueries, type AccessToken, type NewAccessToken } from '../../api/access-tokens.ts';
import { tokenColumns } from '../../components/token-status.tsx';
import { GroupRoleGate } from '../../components/role-gate.tsx';
import { yourGroupRole } from '../../api/members.ts';
import { TOKENS_ROLE } from './route-options.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { TokenFilters } from '../../components/token-filters.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { SecretOnce } from '../../components/secret-once.tsx';
import { useNotify } from '../../components/toast.tsx';
import { tokenListParams, tokensSearchSchema, type TokensSearch } from './search.ts';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the forms load after the list, not before its first row
const loadDialogs = chunk(() => import('./token-dialogs.tsx'));
const CreateTokenDialog = lazyPart(loadDialogs, (module) => module.CreateTokenDialog);
const RotateTokenDialog = lazyPart(loadDialogs, (module) => module.RotateTokenDialog);
const RevokeTokenDialog = lazyPart(loadDialogs, (module) => module.RevokeTokenDialog);

function DateRange({ label, after, before, onChange }: { label: string; after?: string; before?: string; onChange: (after?: string, before?: string) => void }) {
  return (
    <fieldset className="inline-field date-range">
      <legend className="sr-only">{label}</legend>
      <label className="inline-field">
        <span>{label} after</span>
        <input className="input" type="date" value={after ?? ''} onChange={(event) => onChange(event.target.value || undefined, before)} />
      </label>
      <label className="inline-field">
        <span>before</span>
        <input className="input" type="date" aria-label={`${label} before`} value={before ?? ''} onChange={(event) => onChange(after, event.target.value || undefined)} />
      </label>
    </fieldset>
  );
}

interface TokensScreenProps {
  groupId: number;
  groupName: string | undefined;
  search: TokensSearch;
}

/** A group's access tokens for its Owners; anyone else is told the role it takes and theirs (administrators see every group's). */
export function TokensScreen(props: TokensScreenProps) {
  return (
    <GroupRoleGate
      groupId={props.groupId}
      title={props.groupName ? `Access tokens of ${props.groupName}` : 'Access tokens'}
      refusal={({ isAdmin, role }) => (isAdmin || role >= TOKENS_ROLE ? null : `Only Owners of this group can see its access tokens. ${yourGroupRole(role)}`)}
    >
      <TokensList {...props} />
    </GroupRoleGate>
  );
}

/** Every filter of the platform, create, rotate and revoke for Owners. */
function TokensList({ groupId, groupName, search }: TokensScreenProps) {
  const connection = useConnection();
  const me = useActiveSession()?.connection;
  const notify = useNotify();
  const params = tokenListParams(search);
  const page = useSuspenseQuery(accessTokensQueries.list(connection, groupId, params)).data;
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<AccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  // the one copy of a new secret, until its dialog closes
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const name = groupName ?? 'this group';
  // only Owners and administrators get this far
  const canManage = Boolean(me?.canWrite);

  // the next page is likely next: fetch it ahead
  usePrefetch(page.nextPage ? accessTokensQueries.list(connection, groupId, { ...params, page: page.nextPage }) : null);
  usePreloadWhenIdle(loadDialogs, canManage);

  const wanted = useRequestedSearch(tokensSearchSchema, search);
  const setSearch = useSetSearch<TokensSearch>();
  const showSecret = (title: string) => (token: NewAccessToken) => setSecret({ title, value: token.token });

  const columns = useMemo(
    () => tokenColumns({ role: true, actions: canManage ? { rotate: setRotating, revoke: setRevoking } : undefined }),
    [canManage],
  );

  const filtered = Boolean(search.search || search.state || search.revoked !== undefined || search.created_after || search.created_before || search.expires_after || search.expires_before || search.last_used_after || search.last_used_before);
  return (
    <section className="screen" aria-labelledby="tokens-heading">
      <header className="screen__header">
        <h1 id="tokens-heading">{groupName ? `Access tokens of ${groupName}` : 'Access tokens'}</h1>
        {canManage ? (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New token
          </button>
        ) : null}
      </header>
      {!me?.canWrite ? (
        <p className="notice" role="note">This token is read-only (it lacks the api scope): tokens can be viewed, not created, rotated or revoked.</p>
      ) : null}
      <TokenFilters search={search} wanted={wanted} setSearch={setSearch} />
      <details className="filter-more" open={Boolean(search.created_after || search.created_before || search.expires_after || search.expires_before || search.last_used_after || search.last_used_before)}>
        <summary>Date filters</summary>
        <div className="filter-bar">
          <DateRange label="Created" after={search.created_after} before={search.created_before} onChange={(after, before) => setSearch({ created_after: after, created_before: before })} />
          <DateRange label="Expires" after={search.expires_after} before={search.expires_before} onChange={(after, before) => setSearch({ expires_after: after, expires_before: before })} />
          <DateRange label="Last used" after={search.last_used_after} before={search.last_used_before} onChange={(after, before) => setSearch({ last_used_after: after, last_used_before: before })} />
        </div>
      </details>
      {page.items.length === 0 ? (
        <FilteredEmptyState filtered={filtered} filteredTitle="No token matches these filters." emptyTitle={`${name} has no access tokens.`} />
      ) : (
        <DataTable caption="Access tokens" columns={columns} data={page.items} getRowId={(token) => String(token.id)} />
      )}
      <Paginator page={page} label="Access tokens pages" />
      {canManage ? (
        <>
          {creating ? <CreateTokenDialog onClose={() => setCreating(false)} groupId={groupId} groupName={name} onCreated={showSecret('Your new access token')} /> : null}
          {rotating ? <RotateTokenDialog token={rotating} groupId={groupId} onClose={() => setRotating(null)} onRotated={showSecret('The rotated access token')} /> : null}
          {revoking ? <RevokeTokenDialog token={revoking} groupId={groupId} onClose={() => setRevoking(null)} onRevoked={(token) => notify(`Revoked ${token.name}.`)} /> : null}
        </>
      ) : null}
      <SecretOnce secret={secret?.value ?? null} title={secret?.title ?? ''} onDone={() => setSecret(null)} />
    </section>
  );
}
