import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { packagesQueries, type Package, type PackageScope } from '../../api/packages.ts';
import { GROUP_PACKAGE_TYPES, PACKAGE_STATUS_FILTERS, PACKAGE_TYPES, type PackageOrder } from '../../api/vocabulary.ts';
import { useConnection } from '../../api/react.ts';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect, SearchInput, SortControls } from '../../components/list-controls.tsx';
import { ListFilters } from '../../components/list-filters.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { QueryStates } from '../../components/query-states.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { Time } from '../../components/time.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { PackagePipelineLink, PackageStatusBadge, PackageTags, packageTypeLabel } from './package-bits.tsx';
import { PACKAGES_SEARCH_DEFAULTS, isFiltered, packageListParams, packagesSearchSchema, type PackagesSearch } from './search.ts';
import { BreakableText } from '../../components/breakable-text.tsx';

interface PackagesScreenProps {
  scope: PackageScope;
  /** The project's or group's full name, once loaded. */
  ownerName?: string;
  search: PackagesSearch;
}

/** A project's or group's package registry: every filter of spec 3, 4.6 in the URL. */
export function PackagesScreen({ scope, ownerName, search }: PackagesScreenProps) {
  return (
    <section className="screen" aria-labelledby="packages-heading">
      <header className="screen__header">
        <h1 id="packages-heading">{ownerName ? `Package registry of ${ownerName}` : 'Package registry'}</h1>
      </header>
      <PackageFilters group={'group' in scope} search={search} />
      <PackageList scope={scope} search={search} />
    </section>
  );
}

const STATUS_CHOICES = [
  { value: '', label: 'Default, deprecated and error' },
  ...PACKAGE_STATUS_FILTERS.map((status) => ({ value: status, label: status.replace(/_/g, ' ') })),
];

const ORDERS: ReadonlyArray<{ value: PackageOrder; label: string }> = [
  { value: 'created_at', label: 'Published' },
  { value: 'name', label: 'Name' },
  { value: 'version', label: 'Version' },
  { value: 'type', label: 'Type' },
];
const GROUP_ORDERS = [...ORDERS, { value: 'project_path' as const, label: 'Project' }];

function PackageFilters({ group, search }: { group: boolean; search: PackagesSearch }) {
  const wanted = useRequestedSearch(packagesSearchSchema, search);
  const setSearch = useSetSearch<PackagesSearch>();
  // spec 3, 4.6: a group cannot be filtered by terraform_module
  const types = group ? GROUP_PACKAGE_TYPES : PACKAGE_TYPES;
  const typeChoices = [{ value: '', label: 'Any' }, ...types.map((type) => ({ value: type, label: packageTypeLabel(type) }))];
  return (
    <ListFilters label="Filter packages" active={filtersSet(wanted, packagesSearchSchema, PACKAGES_SEARCH_DEFAULTS)} bar={false}>
      <div className="filter-bar">
        <SearchInput label="Package name" placeholder="Part of a name" value={wanted.package_name} onSearch={(name) => setSearch({ package_name: name.trim() })} />
        <SearchInput label="Version" placeholder="1.0.0" value={wanted.package_version} onSearch={(version) => setSearch({ package_version: version.trim() })} />
        <ChoiceSelect label="Type" value={wanted.package_type} options={typeChoices} onChange={(type) => setSearch({ package_type: type as PackagesSearch['package_type'] })} />
        <ChoiceSelect label="Status" value={wanted.status} options={STATUS_CHOICES} onChange={(status) => setSearch({ status: status as PackagesSearch['status'] })} />
        <label className="inline-field">
          <input type="checkbox" checked={wanted.include_versionless} onChange={(event) => setSearch({ include_versionless: event.target.checked })} />
          <span>Include versionless packages</span>
        </label>
        {group ? (
          <label className="inline-field">
            <input type="checkbox" checked={wanted.exclude_subgroups} onChange={(event) => setSearch({ exclude_subgroups: event.target.checked })} />
            <span>Exclude subgroups</span>
          </label>
        ) : null}
        <SortControls
          orders={group ? GROUP_ORDERS : ORDERS}
          orderBy={!group && wanted.order_by === 'project_path' ? 'created_at' : wanted.order_by}
          sort={wanted.sort}
          onChange={(change) => setSearch(change)}
        />
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as PackagesSearch['per_page'] })} />
      </div>
      {wanted.package_version && wanted.include_versionless ? (
        <p className="field__hint">With a version filter, versionless packages are not listed.</p>
      ) : null}
    </ListFilters>
  );
}

function PackageList({ scope, search }: { scope: PackageScope; search: PackagesSearch }) {
  const connection = useConnection();
  const params = packageListParams(scope, search);
  const list = useQuery({ ...packagesQueries.list(connection, scope, params), placeholderData: keepPreviousData });
  usePrefetch(list.data?.nextPage ? packagesQueries.list(connection, scope, { ...params, page: list.data.nextPage }) : null);
  const group = 'group' in scope;
  const projectOf = (pkg: Package) => ('project' in scope ? scope.project : pkg.project_id);

  const columns: ColumnDef<Package>[] = [
    {
      id: 'name',
      header: 'Name',
      cell: ({ row: { original: pkg } }) => {
        const projectId = projectOf(pkg);
        // the single package answers only for default and deprecated ones, the ones with a web path
        return projectId && pkg._links.web_path ? (
          <RouteLink to="/projects/$projectId/packages/$packageId" params={{ projectId, packageId: pkg.id }}>
            <BreakableText text={pkg.name} />
          </RouteLink>
        ) : (
          <BreakableText text={pkg.name} />
        );
      },
    },
    { id: 'version', header: 'Version', cell: ({ row: { original: pkg } }) => (pkg.version ? <span className="breakable">{pkg.version}</span> : <span className="muted">versionless</span>) },
    { id: 'type', header: 'Type', cell: ({ row: { original: pkg } }) => packageTypeLabel(pkg.package_type) },
    { id: 'status', header: 'Status', cell: ({ row: { original: pkg } }) => <PackageStatusBadge status={pkg.status} /> },
    { id: 'tags', header: 'Tags', cell: ({ row: { original: pkg } }) => <PackageTags tags={pkg.tags} /> },
    ...(group
      ? [
          {
            id: 'project',
            header: 'Project',
            cell: ({ row: { original: pkg } }: { row: { original: Package } }) =>
              pkg.project_id ? (
                <RouteLink to="/projects/$projectId/packages/" params={{ projectId: pkg.project_id }}>
                  <BreakableText text={pkg.project_path ?? `Project ${pkg.project_id}`} />
                </RouteLink>
              ) : (
                <BreakableText text={pkg.project_path ?? ''} />
              ),
          },
        ]
      : []),
    { id: 'created', header: 'Published', cell: ({ row: { original: pkg } }) => <Time value={pkg.created_at} relative /> },
    {
      id: 'pipeline',
      header: 'Pipeline',
      cell: ({ row: { original: pkg } }) => {
        const projectId = projectOf(pkg);
        const pipeline = pkg.pipelines[0];
        return pipeline && projectId ? <PackagePipelineLink projectId={projectId} pipeline={pipeline} /> : <span className="muted">—</span>;
      },
    },
  ];

  return (
    <QueryStates query={list}>
      {(page) => (
        <>
          {page.items.length === 0 ? (
            <FilteredEmptyState
              filtered={isFiltered(search)}
              filteredTitle="No package matches these filters."
              emptyTitle={group ? 'No package in this group yet.' : 'This project has no packages yet.'}
              clear={(previous) => ({ order_by: previous.order_by, sort: previous.sort })}
            />
          ) : (
            <DataTable caption="Packages" columns={columns} data={page.items} getRowId={(pkg) => String(pkg.id)} stale={list.isPlaceholderData} />
          )}
          <Paginator page={page} label="Packages pages" />
        </>
      )}
    </QueryStates>
  );
}
