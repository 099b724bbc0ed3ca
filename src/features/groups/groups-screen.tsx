import type { ColumnDef } from '../../components/data-table.tsx';
import { groupsQueries, type Group } from '../../api/groups.ts';
import { useConnection } from '../../api/react.ts';
import { ScopedListScreen } from '../../components/scoped-list-screen.tsx';
import { GROUP_SCOPES, GROUP_SORTS, groupListParams, groupsSearchSchema, type GroupsSearch } from './search.ts';
import { RouteLink } from '../../components/route-link.tsx';

const columns: ColumnDef<Group>[] = [
  {
    id: 'group',
    header: 'Group',
    cell: ({ row: { original: group } }) => (
      <div className="name-cell">
        <RouteLink to="/groups/$groupId/members" params={{ groupId: String(group.id) }}>
          {group.full_name}
        </RouteLink>
        <span className="muted">{group.full_path}</span>
      </div>
    ),
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <span className="badge">{row.original.visibility}</span> },
  { id: 'description', header: 'Description', cell: ({ row }) => row.original.description || <span className="muted">None</span> },
];

const emptyTitles = { all: 'There are no groups yet.', owned: 'You own no group.', member: 'You are not a member of any group.' };

/** GET /groups with every filter in the URL: the user's groups, those they own, or all (administrators: every group). */
export function GroupsScreen({ search }: { search: GroupsSearch }) {
  const connection = useConnection();
  return (
    <ScopedListScreen
      title="Groups"
      noun={{ one: 'group', many: 'groups' }}
      search={search}
      schema={groupsSearchSchema}
      toParams={groupListParams}
      query={(params) => groupsQueries.list(connection, params)}
      columns={columns}
      scopes={GROUP_SCOPES}
      sorts={GROUP_SORTS}
      searchPlaceholder="Name or path"
      extraFilters={(wanted, setSearch) => (
        <label className="checkbox">
          <input type="checkbox" checked={wanted.top_level_only} onChange={(event) => setSearch({ top_level_only: event.target.checked })} /> Top-level groups only
        </label>
      )}
      filtered={Boolean(search.search || search.visibility || search.min_access_level || search.top_level_only)}
      emptyTitles={emptyTitles}
    />
  );
}
