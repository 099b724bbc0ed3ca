import { useMemo, useState } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';

import { ACCOUNT_SORTS, serviceAccountsQueries, type ServiceAccount, type ServiceAccountScope } from '../../api/service-accounts.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { PerPageSelect } from '../../components/list-controls.tsx';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { Note } from '../../components/note.tsx';
import { RoleUnread } from '../../components/role-unread.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { useNotify } from '../../components/toast.tsx';
import { AccountTokensLink } from './links.tsx';
import { accountListParams, accountSortOf, accountSortParams, accountsSearchSchema, type AccountSort, type AccountsSearch } from './search.ts';
import { useServiceAccountAccess } from './use-service-account-access.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the forms load after the list, not before its first row
const loadDialogs = chunk(() => import('./account-dialogs.tsx'));
const CreateAccountDialog = lazyPart(loadDialogs, (module) => module.CreateAccountDialog);
const EditAccountDialog = lazyPart(loadDialogs, (module) => module.EditAccountDialog);
const DeleteAccountDialog = lazyPart(loadDialogs, (module) => module.DeleteAccountDialog);

interface ServiceAccountsScreenProps {
  scope: ServiceAccountScope;
  search: AccountsSearch;
}

/** A top-level group's service accounts, or the instance's: list, create, edit and delete. */
export function ServiceAccountsScreen({ scope, search }: ServiceAccountsScreenProps) {
  const access = useServiceAccountAccess(scope);
  const title = scope === 'instance' ? 'Instance service accounts' : access.groupName ? `Service accounts of ${access.groupName}` : 'Service accounts';
  if (access.pending) return <RoutePending />;
  return (
    <section className="screen" aria-labelledby="service-accounts-heading">
      {access.canView ? (
        <AccountsList scope={scope} search={search} title={title} canManage={access.canManage} groupName={access.groupName ?? 'this group'} />
      ) : (
        <header className="screen__header">
          <h1 id="service-accounts-heading">{title}</h1>
        </header>
      )}
      <Note>{access.reason}</Note>
      <RoleUnread failure={access.failure} withheld="its service accounts are not shown" />
    </section>
  );
}

interface AccountsListProps {
  scope: ServiceAccountScope;
  search: AccountsSearch;
  title: string;
  canManage: boolean;
  groupName: string;
}

function AccountsList({ scope, search, title, canManage, groupName }: AccountsListProps) {
  const connection = useConnection();
  const notify = useNotify();
  const params = accountListParams(search);
  const page = useSuspenseQuery(serviceAccountsQueries.list(connection, scope, params)).data;
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ServiceAccount | null>(null);
  const [deleting, setDeleting] = useState<ServiceAccount | null>(null);
  const groupId = scope === 'instance' ? null : scope.group;

  // the next page is likely next: fetch it ahead
  usePrefetch(page.nextPage ? serviceAccountsQueries.list(connection, scope, { ...params, page: page.nextPage }) : null);
  usePreloadWhenIdle(loadDialogs, canManage);

  const wanted = useRequestedSearch(accountsSearchSchema, search);
  const setSearch = useSetSearch<AccountsSearch>();

  const columns = useMemo<ColumnDef<ServiceAccount>[]>(() => {
    const tokensScope: ServiceAccountScope = groupId === null ? 'instance' : { group: groupId };
    const base: ColumnDef<ServiceAccount>[] = [
      {
        id: 'name',
        header: 'Service account',
        cell: ({ row: { original: account } }) => (
          <div>
            <strong>{account.name}</strong>
            <div className="muted">@{account.username}</div>
          </div>
        ),
      },
      { id: 'email', header: 'Email', cell: ({ row }) => (row.original.email ? <BreakableText text={row.original.email} /> : <span className="muted">Not shown</span>) },
      {
        id: 'tokens',
        header: 'Tokens',
        cell: ({ row: { original: account } }) => (
          <AccountTokensLink scope={tokensScope} userId={account.id} label={`Tokens of ${account.name}`}>
            Tokens
          </AccountTokensLink>
        ),
      },
    ];
    if (canManage) {
      base.push({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: account } }) => (
          <span className="row-actions">
            <button type="button" className="button" aria-label={`Edit ${account.name}`} onClick={() => setEditing(account)}>
              Edit
            </button>
            <button type="button" className="button button--danger-quiet" aria-label={`Delete ${account.name}`} onClick={() => setDeleting(account)}>
              Delete
            </button>
          </span>
        ),
      });
    }
    return base;
  }, [canManage, groupId]);

  return (
    <>
      <header className="screen__header">
        <h1 id="service-accounts-heading">{title}</h1>
        {canManage ? (
          <button type="button" className="button button--primary" onClick={() => setCreating(true)}>
            New service account
          </button>
        ) : null}
      </header>
      <div className="filter-bar" role="group" aria-label="List options">
        <label className="inline-field">
          <span>Sort by</span>
          <select className="input" value={accountSortOf(wanted)} onChange={(event) => setSearch(accountSortParams(event.target.value as AccountSort))}>
            {ACCOUNT_SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as AccountsSearch['per_page'] })} />
      </div>
      {page.items.length === 0 ? (
        <EmptyState title={groupId === null ? 'This instance has no service accounts.' : `${groupName} has no service accounts.`} />
      ) : (
        <DataTable caption="Service accounts" columns={columns} data={page.items} getRowId={(account) => String(account.id)} />
      )}
      <Paginator page={page} label="Service accounts pages" />
      {canManage ? (
        <>
          {creating ? (
            <CreateAccountDialog
              onClose={() => setCreating(false)}
              scope={scope}
              groupName={groupName}
              onCreated={(account) => notify(`Created the service account ${account.name} (@${account.username}).`)}
            />
          ) : null}
          {editing ? <EditAccountDialog account={editing} scope={scope} onClose={() => setEditing(null)} onSaved={(account) => notify(`Saved ${account.name}.`)} /> : null}
          {deleting ? (
            <DeleteAccountDialog
              account={deleting}
              scope={scope}
              onClose={() => setDeleting(null)}
              onDeleted={(account, hard) => notify(hard ? `Deleted ${account.name}, its contributions and the groups it owned alone.` : `Deleted ${account.name}.`)}
            />
          ) : null}
        </>
      ) : null}
    </>
  );
}
