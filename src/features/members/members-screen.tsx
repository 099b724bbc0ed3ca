import { useEffect, useId, useMemo, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';

import { ROLES, membersQueries, type Member } from '../../api/members.ts';
import type { Scope, SourceKind } from '../../api/keys.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ListFilters } from '../../components/list-filters.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { FilteredEmptyState, SearchLink } from '../../components/search-link.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { PersonCell } from '../../components/person-cell.tsx';
import { Time } from '../../components/time.tsx';
import { Expiry, RoleBadge } from './badges.tsx';
import { MEMBERS_SEARCH_DEFAULTS, membersListParams, membersSearchSchema, type MembersSearch } from './search.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';
import { useCallerRole } from '../../components/use-my-access.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { RefusableButton } from '../../components/refusable-button.tsx';

// the forms (react-hook-form and the resolver) load after the list, not before its first row
const loadDialogs = chunk(() => import('./member-dialogs.tsx'));
const AddMemberDialog = lazyPart(loadDialogs, (module) => module.AddMemberDialog);
const EditMemberDialog = lazyPart(loadDialogs, (module) => module.EditMemberDialog);
const RemoveMemberDialog = lazyPart(loadDialogs, (module) => module.RemoveMemberDialog);

interface MembersScreenProps {
  kind: SourceKind;
  scope: Scope;
  /** The group's or project's name, for titles and confirmations; shown once it has loaded. */
  sourceName: string | undefined;
  /** Minimal Access exists on top-level groups only. */
  topLevelGroup: boolean;
  search: MembersSearch;
}

/** "1, 2, 3" -> [1, 2, 3]; null when the text is not a list of ids. */
function parseIds(text: string): number[] | null {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.some((part) => !/^\d+$/.test(part) || Number(part) < 1)) return null;
  return parts.map(Number);
}

function IdsFilter({ label, value, onApply }: { label: string; value: number[]; onApply: (ids: number[]) => void }) {
  const [draft, setDraft] = useState(value.join(', '));
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();
  useEffect(() => setDraft(value.join(', ')), [value]);
  const apply = () => {
    const ids = parseIds(draft);
    setInvalid(ids === null);
    if (ids) onApply(ids);
  };
  return (
    <span className="inline-field">
      <label className="inline-field">
        <span>{label}</span>
        <input
          className="input input--narrow"
          value={draft}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          placeholder="e.g. 12, 40"
          onChange={(event) => setDraft(event.target.value)}
          onBlur={apply}
          onKeyDown={(event) => event.key === 'Enter' && apply()}
        />
      </label>
      {invalid ? (
        <span className="field__error" id={errorId}>
          Whole numbers separated by commas
        </span>
      ) : null}
    </span>
  );
}

export function MembersScreen({ kind, scope, sourceName: loadedName, topLevelGroup, search }: MembersScreenProps) {
  const sourceName = loadedName ?? (kind === 'group' ? 'this group' : 'this project');
  const connection = useConnection();
  const session = useActiveSession();
  const { tab } = search;
  const params = membersListParams(search);
  const list = useSuspenseQuery(membersQueries.list(connection, scope, tab, params));
  const me = session?.connection;
  // not awaited by the route: actions appear once the caller's role is known
  const myAccess = useCallerRole(scope, Boolean(me?.isAdmin));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  const page = list.data;
  // the next page is likely next: fetch it ahead
  usePrefetch(page.nextPage ? membersQueries.list(connection, scope, tab, { ...params, page: page.nextPage }) : null);

  // on the "all" tab, which rows are direct memberships here (only those are edited here)
  const ids = page.items.map((member) => member.id);
  const direct = useQuery({
    ...membersQueries.list(connection, scope, 'direct', { page: 1, per_page: 100, user_ids: ids }),
    enabled: tab === 'all' && ids.length > 0,
  });
  const directIds = useMemo(() => new Set(direct.data?.items.map((member) => member.id) ?? []), [direct.data]);

  const manageLevel = kind === 'group' ? 50 : 40;
  const role = me?.isAdmin ? 60 : myAccess.role;
  const roleKnown = myAccess.known;
  const canWrite = Boolean(me?.canWrite);
  const canManage = canWrite && role >= manageLevel;
  const roles = ROLES.map((item) => item.value).filter(
    (value) => (value !== 5 || (kind === 'group' && topLevelGroup)) && (kind === 'group' || value !== 50 || role >= 50),
  );

  usePreloadWhenIdle(loadDialogs, canManage);

  const wanted = useRequestedSearch(membersSearchSchema, search);
  const setSearch = useSetSearch<MembersSearch>();

  const columns = useMemo<ColumnDef<Member>[]>(() => {
    const showEmail = page.items.some((member) => member.email);
    const showSaml = page.items.some((member) => member.group_saml_identity);
    const base: ColumnDef<Member>[] = [
      {
        id: 'member',
        header: 'Member',
        cell: ({ row: { original: member } }) => (
          <PersonCell person={member}>
                {member.id === me?.userId ? <span className="badge">You</span> : null}
                {member.state !== 'active' ? <span className="badge badge--warning">{member.state}</span> : null}
                {member.membership_state === 'awaiting' ? <span className="badge badge--warning">Awaiting approval</span> : null}
          </PersonCell>
        ),
      },
      {
        id: 'role',
        header: 'Role',
        cell: ({ row: { original: member } }) => (
          <div>
            <RoleBadge level={member.access_level} />
            {tab === 'all' && direct.data ? <div className="muted">{directIds.has(member.id) ? 'Direct member' : 'Inherited or invited'}</div> : null}
          </div>
        ),
      },
      { id: 'expires', header: 'Access expires', cell: ({ row }) => <Expiry date={row.original.expires_at} /> },
      {
        id: 'added',
        header: 'Added',
        cell: ({ row: { original: member } }) => (
          <div>
            <span className="nowrap"><Time value={member.created_at} dateOnly /></span>
            {member.created_by ? <div className="muted">by {member.created_by.name}</div> : null}
          </div>
        ),
      },
    ];
    if (showEmail) base.push({ id: 'email', header: 'Email', cell: ({ row }) => <BreakableText text={row.original.email ?? ''} /> });
    if (showSaml) base.push({ id: 'saml', header: 'SSO identity', cell: ({ row }) => (row.original.group_saml_identity ? <BreakableText text={row.original.group_saml_identity.extern_uid} /> : <span className="muted">None</span>) });
    if (search.show_seat_info) base.push({ id: 'seat', header: 'Seat', cell: ({ row }) => (row.original.is_using_seat ? 'Uses a seat' : 'No seat') });
    if (canManage) {
      base.push({
        id: 'actions',
        header: () => <span className="sr-only">Actions</span>,
        cell: ({ row: { original: member } }) => {
          if (tab === 'all' && !directIds.has(member.id)) return <span className="muted">Managed where granted</span>;
          const ownerLocked = kind === 'project' && member.access_level === 50 && role < 50;
          const refusal = ownerLocked ? 'Only Owners can change an Owner.' : null;
          return (
            <span className="row-actions">
              <RefusableButton refusal={refusal} className="button" aria-label={`Edit ${member.name}`} onClick={() => setEditing(member)}>
                Edit
              </RefusableButton>
              <RefusableButton refusal={refusal} className="button button--danger-quiet" aria-label={`Remove ${member.name}`} onClick={() => setRemoving(member)}>
                Remove
              </RefusableButton>
            </span>
          );
        },
      });
    }
    return base;
  }, [page.items, tab, direct.data, directIds, search.show_seat_info, canManage, kind, role, me?.userId]);

  const filtered = Boolean(search.query || search.user_ids.length || search.skip_users.length || search.state);
  const listName = tab === 'direct' ? 'Direct members' : 'All members';
  return (
    <section className="screen" aria-labelledby="members-heading">
      <header className="screen__header">
        <h1 id="members-heading">{loadedName ? `Members of ${loadedName}` : 'Members'}</h1>
        {canManage ? (
          <button type="button" className="button button--primary" onClick={() => setAdding(true)}>
            Add member
          </button>
        ) : null}
      </header>
      {!canWrite ? (
        <p className="notice" role="note">This token is read-only (it lacks the api scope): members can be viewed, not changed.</p>
      ) : myAccess.failure ? (
        <RoleUnread failure={myAccess.failure} withheld="changes are not offered" />
      ) : roleKnown && !canManage ? (
        <p className="notice" role="note">
          Only {kind === 'group' ? 'Owners of this group' : 'Maintainers and Owners of this project'} can add, change or remove members.
        </p>
      ) : null}
      <nav aria-label="Member lists" className="tabs">
        <SearchLink search={(previous) => ({ ...previous, tab: 'direct', page: 1, state: undefined })} current={tab === 'direct'} className="tabs__tab">
          Direct members
        </SearchLink>
        <SearchLink search={(previous) => ({ ...previous, tab: 'all', page: 1, skip_users: [] })} current={tab === 'all'} className="tabs__tab">
          All members
        </SearchLink>
      </nav>
      <ListFilters label="Filter members" active={filtersSet(search, membersSearchSchema, MEMBERS_SEARCH_DEFAULTS, ['tab'])}>
        <SearchInput label="Search members" value={search.query} onSearch={(query) => setSearch({ query })} placeholder="Name, username or email" />
        <IdsFilter label="Only user IDs" value={search.user_ids} onApply={(userIds) => setSearch({ user_ids: userIds })} />
        {tab === 'direct' ? <IdsFilter label="Skip user IDs" value={search.skip_users} onApply={(skipUsers) => setSearch({ skip_users: skipUsers })} /> : null}
        {tab === 'all' ? (
          <label className="inline-field">
            <span>State</span>
            <select className="input" value={wanted.state ?? ''} onChange={(event) => setSearch({ state: (event.target.value || undefined) as MembersSearch['state'] })}>
              <option value="">Any</option>
              <option value="active">Active</option>
              <option value="awaiting">Awaiting approval</option>
            </select>
          </label>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={wanted.show_seat_info} onChange={(event) => setSearch({ show_seat_info: event.target.checked })} /> Show seat use
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as MembersSearch['per_page'] })} />
      </ListFilters>
      {page.items.length === 0 ? (
        <FilteredEmptyState
          filtered={filtered}
          filteredTitle="No member matches these filters."
          emptyTitle={tab === 'direct' ? `${sourceName} has no direct members.` : `${sourceName} has no members.`}
          clear={(previous) => ({ tab: previous.tab })}
        />
      ) : (
        <DataTable caption={listName} columns={columns} data={page.items} getRowId={(member) => String(member.id)} />
      )}
      <Paginator page={page} label={`${listName} pages`} />
      {/* a dialog is mounted while open only: a closed one built its form and schema on every load of the list */}
      {canManage ? (
        <>
          {adding ? <AddMemberDialog onClose={() => setAdding(false)} scope={scope} sourceName={sourceName} roles={roles} /> : null}
          {editing ? <EditMemberDialog member={editing} onClose={() => setEditing(null)} scope={scope} roles={roles} /> : null}
          {removing ? <RemoveMemberDialog member={removing} onClose={() => setRemoving(null)} scope={scope} sourceName={sourceName} isGroup={kind === 'group'} /> : null}
        </>
      ) : null}
    </section>
  );
}
