import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { groupsQueries, type Group } from '../../api/groups.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ChoiceSelect, VisibilityAndRoleFilters } from '../../components/choice-select.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { GROUP_SCOPES, GROUP_SORTS, groupListParams, groupsSearchSchema, type GroupsSearch } from './search.ts';

const columns: ColumnDef<Group>[] = [
  {
    id: 'group',
    header: 'Group',
    cell: ({ row: { original: group } }) => (
      <div className="name-cell">
        <Link to="/groups/$groupId/members" params={{ groupId: String(group.id) }}>
          {group.full_name}
        </Link>
        <span className="muted">{group.full_path}</span>
      </div>
    ),
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <span className="badge">{row.original.visibility}</span> },
  { id: 'description', header: 'Description', cell: ({ row }) => row.original.description || <span className="muted">None</span> },
];

/** GET /groups with every filter in the URL: the user's groups, those they own, or all (administrators: every group). */
export function GroupsScreen({ search }: { search: GroupsSearch }) {
  const connection = useConnection();
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const params = groupListParams(search, isAdmin);
  const list = useQuery({ ...groupsQueries.list(connection, params), placeholderData: keepPreviousData });
  usePrefetch(list.data?.nextPage ? groupsQueries.list(connection, { ...params, page: list.data.nextPage }) : null);
  const setSearch = useSetSearch<GroupsSearch>();
  const wanted = useRequestedSearch(groupsSearchSchema, search);
  const scope = wanted.scope ?? params.scope;
  const filtered = Boolean(search.search || search.visibility || search.min_access_level || search.top_level_only);
  return (
    <section className="screen" aria-labelledby="groups-heading">
      <header className="screen__header">
        <h1 id="groups-heading">Groups</h1>
      </header>
      <div className="filter-bar" role="search" aria-label="Filter groups">
        <ChoiceSelect label="Show" value={scope} options={GROUP_SCOPES.map((option) => (option.value === 'all' && !isAdmin ? { ...option, label: 'All groups I can see' } : option))} onChange={(value) => setSearch({ scope: value })} />
        <SearchInput label="Search groups" value={search.search} onSearch={(text) => setSearch({ search: text })} placeholder="Name or path" />
        <ChoiceSelect label="Sort by" value={wanted.sort} options={GROUP_SORTS} onChange={(value) => setSearch({ sort: value })} />
        <VisibilityAndRoleFilters value={wanted} onChange={setSearch} />
        <label className="checkbox">
          <input type="checkbox" checked={wanted.top_level_only} onChange={(event) => setSearch({ top_level_only: event.target.checked })} /> Top-level groups only
        </label>
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as GroupsSearch['per_page'] })} />
      </div>
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <FilteredEmptyState
                filtered={filtered}
                filteredTitle="No group matches these filters."
                emptyTitle={params.scope === 'all' ? 'There are no groups yet.' : params.scope === 'owned' ? 'You own no group.' : 'You are not a member of any group.'}
                clear={(previous) => ({ scope: previous.scope })}
              />
            ) : (
              <DataTable caption="Groups" columns={columns} data={page.items} getRowId={(group) => String(group.id)} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label="Groups pages" />
          </>
        )}
      </QueryStates>
    </section>
  );
}
