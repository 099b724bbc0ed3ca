import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ColumnDef } from '@tanstack/react-table';
import { projectsQueries, type ProjectRow } from '../../api/projects.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ChoiceSelect, VisibilityAndRoleFilters } from '../../components/choice-select.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { Paginator } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { Time } from '../../components/time.tsx';
import { ARCHIVED_CHOICES, PROJECT_SCOPES, PROJECT_SORTS, projectListParams, projectsSearchSchema, type ProjectsSearch } from './search.ts';

const columns: ColumnDef<ProjectRow>[] = [
  {
    id: 'project',
    header: 'Project',
    cell: ({ row: { original: project } }) => (
      <div className="name-cell">
        <span>
          <Link to="/projects/$projectId/members" params={{ projectId: String(project.id) }}>
            {project.name_with_namespace}
          </Link>
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

/** GET /projects with every filter in the URL: the user's, owned or starred projects, or all (administrators: every project). */
export function ProjectsScreen({ search }: { search: ProjectsSearch }) {
  const connection = useConnection();
  const isAdmin = Boolean(useActiveSession()?.connection.isAdmin);
  const params = projectListParams(search, isAdmin);
  const list = useQuery({ ...projectsQueries.list(connection, params), placeholderData: keepPreviousData });
  usePrefetch(list.data?.nextPage ? projectsQueries.list(connection, { ...params, page: list.data.nextPage }) : null);
  const setSearch = useSetSearch<ProjectsSearch>();
  const wanted = useRequestedSearch(projectsSearchSchema, search);
  const scope = wanted.scope ?? params.scope;
  const filtered = Boolean(search.search || search.visibility || search.min_access_level || search.archived !== 'exclude');
  const emptyTitles = { all: 'There are no projects yet.', owned: 'You own no project.', starred: 'You have starred no project.', member: 'You are not a member of any project.' };
  return (
    <section className="screen" aria-labelledby="projects-heading">
      <header className="screen__header">
        <h1 id="projects-heading">Projects</h1>
      </header>
      <div className="filter-bar" role="search" aria-label="Filter projects">
        <ChoiceSelect label="Show" value={scope} options={PROJECT_SCOPES.map((option) => (option.value === 'all' && !isAdmin ? { ...option, label: 'All projects I can see' } : option))} onChange={(value) => setSearch({ scope: value })} />
        <SearchInput label="Search projects" value={search.search} onSearch={(text) => setSearch({ search: text })} placeholder="Name, path or description" />
        <ChoiceSelect label="Sort by" value={wanted.sort} options={PROJECT_SORTS} onChange={(value) => setSearch({ sort: value })} />
        <VisibilityAndRoleFilters value={wanted} onChange={setSearch} />
        <ChoiceSelect label="Archived" value={wanted.archived} options={ARCHIVED_CHOICES} onChange={(value) => setSearch({ archived: value })} />
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as ProjectsSearch['per_page'] })} />
      </div>
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <FilteredEmptyState filtered={filtered} filteredTitle="No project matches these filters." emptyTitle={emptyTitles[params.scope]} clear={(previous) => ({ scope: previous.scope })} />
            ) : (
              <DataTable caption="Projects" columns={columns} data={page.items} getRowId={(project) => String(project.id)} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label="Projects pages" />
          </>
        )}
      </QueryStates>
    </section>
  );
}
