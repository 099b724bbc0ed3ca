import { useMemo } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate} from '@tanstack/react-router';
import { BILLABLE_SORTS, membersQueries, type BillableMember } from '../../api/members.ts';
import { useConnection } from '../../api/react.ts';
import { PersonCell } from '../../components/person-cell.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { GroupRoleGate } from '../../components/role-gate.tsx';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { SearchLink } from '../../components/search-link.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { Expiry, RoleBadge } from './badges.tsx';
import { billableSearchSchema, type BillableSearch } from './search.ts';
import { billableRefusal } from './billable-access.ts';
import { BreakableText } from '../../components/breakable-text.tsx';

const MEMBERSHIP_TYPES: Record<string, string> = {
  group_member: 'Group member',
  project_member: 'Project member',
  group_invite: 'Through an invited group',
  project_invite: 'Through a group invited to a project',
};

// `member` is undefined when the URL names someone who is not on the page in view: the id still loads the list
function MembershipsPanel({ groupId, member, memberId, onClose }: { groupId: number; member: BillableMember | undefined; memberId: number; onClose: () => void }) {
  const connection = useConnection();
  const memberships = useQuery(membersQueries.billableMemberships(connection, groupId, memberId));
  return (
    <Dialog open onOpenChange={(open) => (!open ? onClose() : undefined)} title={member ? `Memberships of ${member.name}` : 'Memberships'} description="Direct memberships in this group, its subgroups and its projects.">
      {memberships.isPending ? <RoutePending /> : null}
      {memberships.error ? <ErrorPanel error={memberships.error} onRetry={() => void memberships.refetch()} /> : null}
      {memberships.data && memberships.data.items.length === 0 ? <EmptyState title="No direct membership: access comes through an invited group." /> : null}
      {memberships.data && memberships.data.items.length > 0 ? (
        <ul className="memberships" aria-label="Memberships">
          {memberships.data.items.map((membership) => (
            <li key={membership.id}>
              <strong>{membership.source_full_name}</strong>
              <span>
                <RoleBadge level={membership.access_level.integer_value} /> since <Time value={membership.created_at} dateOnly /> · expires <Expiry date={membership.expires_at} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

/** A top-level group's seats for its Owners and administrators; anyone else is told what it takes. */
export function BillableMembersScreen({ group, search }: { group: { id: number; full_name: string; full_path: string; parent_id: number | null }; search: BillableSearch }) {
  return (
    <GroupRoleGate groupId={group.id} title={`Billable members of ${group.full_name}`} refusal={(caller) => billableRefusal(group, caller)}>
      <BillableMembersList groupId={group.id} groupName={group.full_name} search={search} />
    </GroupRoleGate>
  );
}

/** Who takes a seat in a top-level group: search, every sort, and each member's memberships. */
function BillableMembersList({ groupId, groupName, search }: { groupId: number; groupName: string; search: BillableSearch }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const { member: memberId, ...listParams } = search;
  const list = useSuspenseQuery(membersQueries.billable(connection, groupId, listParams)).data;
  // the next page is likely next: fetch it ahead
  usePrefetch(list.nextPage ? membersQueries.billable(connection, groupId, { ...listParams, page: list.nextPage }) : null);
  const wanted = useRequestedSearch(billableSearchSchema, search);
  const setSearch = useSetSearch<BillableSearch>();
  const columns = useMemo<ColumnDef<BillableMember>[]>(
    () => [
      {
        id: 'member',
        header: 'Member',
        cell: ({ row: { original: member } }) => (
          <PersonCell person={member}>
                {member.is_last_owner ? <span className="badge">Last Owner</span> : null}
          </PersonCell>
        ),
      },
      { id: 'type', header: 'Membership', cell: ({ row }) => MEMBERSHIP_TYPES[row.original.membership_type ?? ''] ?? row.original.membership_type ?? '' },
      { id: 'email', header: 'Email', cell: ({ row }) => (row.original.email ? <BreakableText text={row.original.email} /> : <span className="muted">Not public</span>) },
      { id: 'activity', header: 'Last activity', cell: ({ row }) => <Time value={row.original.last_activity_on} relative fallback="never" /> },
      { id: 'login', header: 'Last sign-in', cell: ({ row }) => <Time value={row.original.last_login_at} relative fallback="never" /> },
      {
        id: 'memberships',
        header: () => <span className="sr-only">Memberships</span>,
        cell: ({ row: { original: member } }) => (
          <SearchLink search={(previous) => ({ ...previous, member: member.id })} className="button" aria-label={`Memberships of ${member.name}`}>
            Memberships
          </SearchLink>
        ),
      },
    ],
    [],
  );
  const selected = list.items.find((member) => member.id === memberId);
  return (
    <section className="screen" aria-labelledby="billable-heading">
      <header className="screen__header">
        <h1 id="billable-heading">Billable members of {groupName}</h1>
      </header>
      <p className="muted">Members who take a seat: active people with a role above Guest anywhere in this group, its subgroups, projects and invited groups.</p>
      <div className="filter-bar" role="search" aria-label="Filter billable members">
        <SearchInput label="Search billable members" value={search.search} onSearch={(text) => setSearch({ search: text })} placeholder="Name, username or public email" />
        <label className="inline-field">
          <span>Sort by</span>
          <select className="input" value={wanted.sort} onChange={(event) => setSearch({ sort: event.target.value as BillableSearch['sort'] })}>
            {BILLABLE_SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {sort.label}
              </option>
            ))}
          </select>
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as BillableSearch['per_page'] })} />
      </div>
      {list.items.length === 0 ? (
        <EmptyState title={search.search ? `No billable member matches “${search.search}”.` : 'Nobody takes a seat in this group.'} />
      ) : (
        <DataTable caption="Billable members" columns={columns} data={list.items} getRowId={(member) => String(member.id)} />
      )}
      <Paginator page={list} label="Billable members pages" />
      {memberId !== undefined ? (
        <MembershipsPanel groupId={groupId} memberId={memberId} member={selected} onClose={() => void navigate({ to: '.', search: ((previous: BillableSearch) => ({ ...previous, member: undefined })) as never })} />
      ) : null}
    </section>
  );
}
