import { useMemo } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { MergeRequest, MergeRequestScope } from '../../api/merge-requests.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { FilteredEmptyState, SearchTabs } from '../../components/search-link.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect, SortControls } from '../../components/list-controls.tsx';
import { FiltersFold } from '../../components/list-filters.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { LabelChipList } from '../../components/label-chip.tsx';
import { Time } from '../../components/time.tsx';
import { BreakableText } from '../../components/breakable-text.tsx';
import { MergeRequestFilterForm } from './filter-form.tsx';
import { ApprovalsCell } from './approvals-cell.tsx';
import { MERGE_REQUESTS_SEARCH_DEFAULTS, MERGE_REQUEST_ORDERS, STATE_TABS, WHOSE_TABS, boardSearchOf, clearFilters, isFiltered, mergeRequestsSearchSchema, type MergeRequestsSearch } from './search.ts';
import { MergeRequestViews } from './board-links.tsx';
import { mergeRequestListOptions } from './route-options.ts';
import { mergeStatusWords } from './merge-status.ts';
import { RouteLink } from '../../components/route-link.tsx';

interface MergeRequestListScreenProps {
  scope: MergeRequestScope;
  /** The group's or project's name once loaded; the instance list has none. */
  sourceName?: string;
  search: MergeRequestsSearch;
}

/** A merge request list of the instance (with its whose tabs), a group or a project: state tabs, filters, sort, rows and pages. */
export function MergeRequestListScreen({ scope, sourceName, search }: MergeRequestListScreenProps) {
  const connection = useConnection();
  const me = useActiveSession()?.connection.username;
  const instance = scope === 'instance';
  const { data } = useSuspenseQuery(mergeRequestListOptions(connection, scope, search, me));
  const navigate = useNavigate();
  const setSearch = useSetSearch<MergeRequestsSearch>();
  const wanted = useRequestedSearch(mergeRequestsSearchSchema, search);
  usePrefetch(data.nextPage ? mergeRequestListOptions(connection, scope, { ...search, page: data.nextPage }, me) : null);

  const columns = useMemo<ColumnDef<MergeRequest>[]>(() => {
    const project = scope !== 'instance' && 'project' in scope;
    const reference = (request: MergeRequest) => (project ? (request.references?.short ?? `!${request.iid}`) : (request.references?.full ?? `!${request.iid}`));
    return [
      {
        id: 'request',
        header: 'Merge request',
        cell: ({ row: { original: request } }) => (
          <div className="list-title">
            <RouteLink to="/projects/$projectId/merge-requests/$mergeRequestIid" params={{ projectId: String(request.project_id), mergeRequestIid: String(request.iid) }} className="breakable">
              {request.title}
            </RouteLink>
            <div className="muted">
              <BreakableText text={reference(request)} />
              {request.draft ? (
                <>
                  {' '}
                  <span className="badge badge--warning">Draft</span>
                </>
              ) : null}
              {request.state !== 'opened' ? (
                <>
                  {' '}
                  <span className="badge">{request.state === 'merged' ? 'Merged' : request.state === 'closed' ? 'Closed' : request.state}</span>
                </>
              ) : null}
            </div>
          </div>
        ),
      },
      { id: 'author', header: 'Author', cell: ({ row }) => (row.original.author ? `@${row.original.author.username}` : <span className="muted">Unknown</span>) },
      {
        id: 'reviewers',
        header: 'Reviewers',
        cell: ({ row }) => (row.original.reviewers.length ? row.original.reviewers.map((user) => `@${user.username}`).join(', ') : <span className="muted">None</span>),
      },
      { id: 'approvals', header: 'Approvals', cell: ({ row }) => <ApprovalsCell request={row.original} /> },
      { id: 'status', header: 'Merge status', cell: ({ row }) => (row.original.state === 'opened' ? mergeStatusWords(row.original.detailed_merge_status) : <span className="muted">{mergeStatusWords('not_open')}</span>) },
      {
        id: 'labels',
        header: 'Labels',
        cell: ({ row: { original: request } }) => <LabelChipList labels={request.labels} name={reference(request)} />,
      },
      { id: 'target', header: 'Target', cell: ({ row }) => <BreakableText text={row.original.target_branch} /> },
      { id: 'updated', header: 'Updated', cell: ({ row }) => <span className="nowrap"><Time value={row.original.updated_at} relative /></span> },
    ];
  }, [scope]);

  const heading = instance ? 'Merge requests' : sourceName ? `Merge requests of ${sourceName}` : 'Merge requests';
  const listName = `${STATE_TABS.find((tab) => tab.value === search.state)?.label ?? ''} merge requests`;
  return (
    <section className="screen" aria-labelledby="merge-requests-heading">
      <header className="screen__header">
        <h1 id="merge-requests-heading">{heading}</h1>
        <MergeRequestViews scope={scope} search={boardSearchOf(search)} current="list" />
      </header>
      {instance ? (
        <SearchTabs label="Whose merge requests" param="whose" tabs={WHOSE_TABS} current={search.whose} />
      ) : null}
      <SearchTabs label="Merge request states" param="state" tabs={STATE_TABS} current={search.state} />
      <FiltersFold active={filtersSet(search, mergeRequestsSearchSchema, MERGE_REQUESTS_SEARCH_DEFAULTS, ['whose', 'state'])}>
        <MergeRequestFilterForm search={search} onChange={(next) => void navigate({ to: '.', search: next as never, replace: true })} />
        <div className="filter-bar">
          <SortControls orders={MERGE_REQUEST_ORDERS} orderBy={wanted.order_by} sort={wanted.sort} onChange={setSearch} />
          <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as MergeRequestsSearch['per_page'] })} />
        </div>
      </FiltersFold>
      {data.items.length === 0 ? (
        <FilteredEmptyState
          filtered={isFiltered(search)}
          filteredTitle="No merge request matches these filters."
          emptyTitle={`No ${listName.toLowerCase()}.`}
          clear={(previous) => clearFilters(previous as MergeRequestsSearch)}
        />
      ) : (
        <DataTable caption={listName} columns={columns} data={data.items} getRowId={(request) => String(request.id)} />
      )}
      <Paginator page={data} label={`${listName} pages`} />
    </section>
  );
}
