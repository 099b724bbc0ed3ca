import type { ColumnDef } from '../../components/data-table.tsx';
import { projectsQueries, type ProjectRow } from '../../api/projects.ts';
import { useConnection } from '../../api/react.ts';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { ScopedListScreen } from '../../components/scoped-list-screen.tsx';
import { Time } from '../../components/time.tsx';
import { ARCHIVED_CHOICES, PROJECT_SCOPES, PROJECT_SORTS, projectListParams, projectsSearchSchema, type ProjectsSearch } from './search.ts';
import { RouteLink } from '../../components/route-link.tsx';

const columns: ColumnDef<ProjectRow>[] = [
  {
    id: 'project',
    header: 'Project',
    cell: ({ row: { original: project } }) => (
      <div className="name-cell">
        <span>
          <RouteLink to="/projects/$projectId/members" params={{ projectId: String(project.id) }}>
            {project.name_with_namespace}
          </RouteLink>
          {project.archived ? <span className="badge badge--warning">Archived</span> : null}
        </span>
        {project.description ? <span className="muted">{project.description}</span> : null}
      </div>
    ),
  },
  { id: 'visibility', header: 'Visibility', cell: ({ row }) => <span className="badge">{row.original.visibility}</span> },
  { id: 'stars', header: 'Stars', cell: ({ row }) => row.original.star_count ?? 0 },
  { id: 'activity', header: 'Last activity', cell: ({ row }) => <Time value={row.original.last_activity_at} relative fallback="never" /> },
];

const emptyTitles = { all: 'There are no projects yet.', owned: 'You own no project.', starred: 'You have starred no project.', member: 'You are not a member of any project.' };

/** GET /projects with every filter in the URL: the user's, owned or starred projects, or all (administrators: every project). */
export function ProjectsScreen({ search }: { search: ProjectsSearch }) {
  const connection = useConnection();
  return (
    <ScopedListScreen
      title="Projects"
      noun={{ one: 'project', many: 'projects' }}
      search={search}
      schema={projectsSearchSchema}
      toParams={projectListParams}
      query={(params) => projectsQueries.list(connection, params)}
      columns={columns}
      scopes={PROJECT_SCOPES}
      sorts={PROJECT_SORTS}
      searchPlaceholder="Name, path or description"
      extraFilters={(wanted, setSearch) => <ChoiceSelect label="Archived" value={wanted.archived} options={ARCHIVED_CHOICES} onChange={(value) => setSearch({ archived: value })} />}
      filtered={Boolean(search.search || search.visibility || search.min_access_level || search.archived !== 'exclude')}
      emptyTitles={emptyTitles}
    />
  );
}
