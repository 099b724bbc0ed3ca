import { useMemo, useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { issuesQueries, nextIssueCursor, type Issue, type IssueScope } from '../../api/issues.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { FilteredEmptyState, SearchTabs } from '../../components/search-link.tsx';
import { usePrefetch, useSetSearch, useViewState } from '../../components/list-hooks.ts';
import { PerPageSelect, SortControls } from '../../components/list-controls.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { LabelChipList } from '../../components/label-chip.tsx';
import { Time } from '../../components/time.tsx';
import { formatCount } from '../../lib/numbers.ts';
import { BreakableText } from '../../components/breakable-text.tsx';
import { FilterBar } from './filter-bar.tsx';
import { FiltersFold } from '../../components/list-filters.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { bulkTarget, type BulkTarget } from './bulk-target.ts';
import { ISSUES_SEARCH_DEFAULTS, ISSUE_ORDERS, clearTokens, isFiltered, issueFilters, issuesSearchSchema, type IssuesSearch } from './search.ts';
import { isOffsetPage, issueListOptions } from './route-options.ts';
import { IssueListKeysetPages } from './issue-list-keyset-pages.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the bulk panel (its pickers and the move dialog) loads after the list, not before its first row
const loadBulkEdit = chunk(() => import('./bulk-edit.tsx'));
const BulkEdit = lazyPart(loadBulkEdit, (module) => module.BulkEdit);

const NO_SELECTION: ReadonlyMap<number, BulkTarget> = new Map();

const SCOPE_TABS = [
  { value: 'assigned_to_me', label: 'Assigned to me' },
  { value: 'created_by_me', label: 'Created by me' },
  { value: 'all', label: 'All' },
] as const;

const STATE_TABS = [
  { value: 'opened', label: 'Open' },
  { value: 'closed', label: 'Closed' },
  { value: 'all', label: 'All' },
] as const;

interface IssueListScreenProps {
  scope: IssueScope;
  /** The group's or project's name once loaded; the instance list has none. */
  sourceName?: string;
  search: IssuesSearch;
}

function IssueTitle({ issue, reference }: { issue: Issue; reference: string }) {
  return (
    <div className="list-title">
      <RouteLink to="/projects/$projectId/issues/$issueIid" params={{ projectId: String(issue.project_id), issueIid: String(issue.iid) }} className="breakable">
        {issue.title}
      </RouteLink>
      <div className="muted">
        <BreakableText text={reference} />
        {issue.confidential ? (
          <>
            {' '}
            <span className="badge badge--warning">Confidential</span>
          </>
        ) : null}
        {issue.state === 'closed' ? (
          <>
            {' '}
            <span className="badge">Closed</span>
          </>
        ) : null}
      </div>
    </div>
  );
}

/** The state tabs with their counts: the counts come after the list, and re-render these tabs alone, not its rows. */
function IssueStateTabs({ scope, search }: { scope: IssueScope; search: IssuesSearch }) {
  const statistics = useQuery(issuesQueries.statistics(useConnection(), scope, issueFilters(search, scope === 'instance')));
  const counts = statistics.data?.statistics.counts;
  return (
    <>
      <SearchTabs
        label="Issue states"
        param="state"
        tabs={STATE_TABS}
        current={search.state}
        reset={['cursor']}
        badge={(state) => (counts ? <span className="badge">{formatCount(counts[state])}</span> : null)}
      />
      {statistics.error ? <p className="notice" role="note">The counts could not be read.</p> : null}
    </>
  );
}

/** An issue list of the instance, a group or a project: tabs with counts, the filter bar, sort, rows, pages and bulk edit. */
export function IssueListScreen({ scope, sourceName, search }: IssueListScreenProps) {
  const connection = useConnection();
  const session = useActiveSession();
  const instance = scope === 'instance';
  const list = useSuspenseQuery(issueListOptions(connection, scope, search));
  const navigate = useNavigate();
  const setSearch = useSetSearch<IssuesSearch>();
  const wanted = useRequestedSearch(issuesSearchSchema, search);
  const canWrite = Boolean(session?.connection.canWrite);
  const data = list.data;
  const items = data.items;
  const nextCursor = isOffsetPage(data) ? undefined : nextIssueCursor(data.nextUrl);
  usePreloadWhenIdle(loadBulkEdit, canWrite);
  // the next page is likely next: fetch it ahead
  usePrefetch(
    isOffsetPage(data)
      ? data.nextPage ? issueListOptions(connection, scope, { ...search, page: data.nextPage }) : null
      : nextCursor ? issueListOptions(connection, scope, { ...search, cursor: nextCursor }) : null,
  );

  // the selection belongs to one view: another filter, order or page starts it afresh
  const [selected, setSelected] = useViewState(JSON.stringify(search), NO_SELECTION);
  // once a bulk write ran, its report stays on screen after the selection empties
  const [bulkUsed, setBulkUsed] = useState(false);
  const toggle = (issue: Issue, on: boolean) =>
    setSelected((previous) => {
      const next = new Map(previous);
      if (on) next.set(issue.id, bulkTarget(issue));
      else next.delete(issue.id);
      return next;
    });
  const allSelected = items.length > 0 && items.every((issue) => selected.has(issue.id));
  const someSelected = items.some((issue) => selected.has(issue.id));

  const columns = useMemo<ColumnDef<Issue>[]>(() => {
    const reference = (issue: Issue) => (scope !== 'instance' && 'project' in scope ? (issue.references?.short ?? `#${issue.iid}`) : (issue.references?.full ?? `#${issue.iid}`));
    const base: ColumnDef<Issue>[] = [
      { id: 'issue', header: 'Issue', cell: ({ row: { original: issue } }) => <IssueTitle issue={issue} reference={reference(issue)} /> },
      {
        id: 'labels',
        header: 'Labels',
        cell: ({ row: { original: issue } }) => <LabelChipList labels={issue.labels} name={reference(issue)} />,
      },
      { id: 'milestone', header: 'Milestone', cell: ({ row }) => row.original.milestone?.title ?? <span className="muted">None</span> },
      {
        id: 'assignees',
        header: 'Assignees',
        cell: ({ row }) => (row.original.assignees.length ? row.original.assignees.map((user) => `@${user.username}`).join(', ') : <span className="muted">None</span>),
      },
      { id: 'due', header: 'Due', cell: ({ row }) => (row.original.due_date ? <span className="nowrap">{row.original.due_date}</span> : null) },
      { id: 'updated', header: 'Updated', cell: ({ row }) => <span className="nowrap"><Time value={row.original.updated_at} relative /></span> },
      { id: 'notes', header: 'Notes', cell: ({ row }) => <span aria-label={`${row.original.user_notes_count ?? 0} notes`}>{row.original.user_notes_count ?? 0}</span> },
    ];
    if (!canWrite) return base;
    return [
      {
        id: 'select',
        header: () => (
          <input
            type="checkbox"
            aria-label="Select all issues on this page"
            checked={allSelected}
            ref={(element) => {
              if (element) element.indeterminate = someSelected && !allSelected;
            }}
            onChange={(event) => {
              const on = event.target.checked;
              setSelected((previous) => {
                const next = new Map(previous);
                for (const issue of items) {
                  if (on) next.set(issue.id, bulkTarget(issue));
                  else next.delete(issue.id);
                }
                return next;
              });
            }}
          />
        ),
        cell: ({ row: { original: issue } }) => (
          <input type="checkbox" aria-label={`Select ${reference(issue)} ${issue.title}`} checked={selected.has(issue.id)} onChange={(event) => toggle(issue, event.target.checked)} />
        ),
      },
      ...base,
    ];
  }, [scope, canWrite, allSelected, someSelected, items, selected]);

  const heading = instance ? 'Issues' : sourceName ? `Issues of ${sourceName}` : 'Issues';
  const listName = `${STATE_TABS.find((tab) => tab.value === search.state)?.label ?? ''} issues`;
  return (
    <section className="screen" aria-labelledby="issues-heading">
      <header className="screen__header">
        <h1 id="issues-heading">{heading}</h1>
      </header>
      {instance ? (
        <SearchTabs label="Whose issues" param="scope" tabs={SCOPE_TABS} current={search.scope} reset={['cursor']} />
      ) : null}
      <IssueStateTabs scope={scope} search={search} />
      <FiltersFold active={filtersSet(search, issuesSearchSchema, ISSUES_SEARCH_DEFAULTS, ['state', 'scope', 'cursor'])}>
        <FilterBar scope={scope} search={search} onChange={(next) => void navigate({ to: '.', search: next as never, replace: true })} />
        <div className="filter-bar">
          <SortControls orders={ISSUE_ORDERS} orderBy={wanted.order_by} sort={wanted.sort} onChange={(change) => setSearch({ ...change, cursor: undefined })} />
          <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as IssuesSearch['per_page'], cursor: undefined })} />
        </div>
      </FiltersFold>
      {!canWrite ? <p className="notice" role="note">This token is read-only (it lacks the api scope): issues can be viewed, not changed.</p> : null}
      {canWrite && (selected.size || bulkUsed) ? (
        <>
          <p role="status">{`${selected.size} selected`}</p>
          <BulkEdit
            scope={scope}
            selected={[...selected.values()]}
            onDone={(failedIds) => {
              setBulkUsed(true);
              // the issues whose write failed stay selected, to try again or deselect
              setSelected((previous) => new Map([...previous].filter(([id]) => failedIds.includes(id))));
            }}
          />
        </>
      ) : null}
      {items.length === 0 ? (
        <FilteredEmptyState
          filtered={isFiltered(search)}
          filteredTitle="No issue matches these filters."
          emptyTitle={search.state === 'closed' ? 'No closed issues.' : search.state === 'opened' ? 'No open issues.' : 'No issues.'}
          clear={(previous) => clearTokens(previous as IssuesSearch)}
        />
      ) : (
        <DataTable caption={listName} columns={columns} data={items} getRowId={(issue) => String(issue.id)} />
      )}
      {isOffsetPage(data) ? (
        <Paginator page={data} label={`${listName} pages`} />
      ) : (
        <IssueListKeysetPages shown={items.length} first={!search.cursor} nextCursor={nextCursor} label={`${listName} pages`} />
      )}
    </section>
  );
}
