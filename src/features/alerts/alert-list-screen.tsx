import './alerts.css';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { alertsQueries, type Alert } from '../../api/alerts.ts';
import { ALERT_SORTS, ALERT_TABS, type AlertTab } from '../../api/vocabulary.ts';
import { useConnection } from '../../api/react.ts';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { SearchInput } from '../../components/list-controls.tsx';
import { CursorPages } from '../../components/paginator.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { RouteLink } from '../../components/route-link.tsx';
import { FilteredEmptyState, SearchTabs } from '../../components/search-link.tsx';
import { Time } from '../../components/time.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { formatCount } from '../../lib/numbers.ts';
import { SeverityBadge, statusLabel } from './alert-cells.tsx';
import { alertListParams, alertListSearchSchema, nextPageSearch, previousPageSearch, type AlertListSearch } from './search.ts';
import { AlertsScreen } from './alerts-screen.tsx';

const TAB_LABELS: Readonly<Record<AlertTab, string>> = { open: 'Open', triggered: 'Triggered', acknowledged: 'Acknowledged', resolved: 'Resolved', ignored: 'Ignored', all: 'All' };
const TABS = ALERT_TABS.map((value) => ({ value, label: TAB_LABELS[value] }));
/** "resolved " in "No resolved alerts"; nothing for the All tab ("No all alerts" is not English). */
const statusWord = (tab: AlertTab) => (tab === 'all' ? '' : `${TAB_LABELS[tab].toLowerCase()} `);

/** A project's alerts: status tabs with counts, search and sort in the URL, pages by cursor. */
export function AlertListScreen({ projectId, search }: { projectId: number; search: AlertListSearch }) {
  return (
    <AlertsScreen projectId={projectId} title="Alerts" links={['tester', 'settings']}>
      {(fullPath) => <AlertList projectId={projectId} fullPath={fullPath} search={search} />}
    </AlertsScreen>
  );
}

function AlertList({ projectId, fullPath, search }: { projectId: number; fullPath: string; search: AlertListSearch }) {
  const connection = useConnection();
  const wanted = useRequestedSearch(alertListSearchSchema, search);
  const setSearch = useSetSearch<AlertListSearch>({ paged: false });
  const params = alertListParams(search);
  const list = useQuery({ ...alertsQueries.list(connection, fullPath, params), placeholderData: keepPreviousData });
  const next = list.data?.pageInfo.hasNextPage && list.data.pageInfo.endCursor ? list.data.pageInfo.endCursor : undefined;
  usePrefetch(next ? alertsQueries.list(connection, fullPath, { ...params, after: next }) : null);
  const counts = list.data?.counts;
  const firstPage = !search.after;

  const columns: ColumnDef<Alert>[] = [
    { id: 'severity', header: 'Severity', cell: ({ row: { original } }) => <SeverityBadge severity={original.severity} /> },
    {
      id: 'title',
      header: 'Alert',
      cell: ({ row: { original } }) => (
        <RouteLink to="/projects/$projectId/alerts/$alertIid" params={{ projectId, alertIid: original.iid }}>
          {original.title || `Alert ${original.iid}`}
        </RouteLink>
      ),
    },
    { id: 'events', header: 'Events', cell: ({ row: { original } }) => formatCount(original.eventCount) },
    { id: 'started', header: 'Start time', cell: ({ row: { original } }) => <Time value={original.startedAt} relative /> },
    {
      id: 'assignees',
      header: 'Assignees',
      cell: ({ row: { original } }) => (original.assignees.length ? original.assignees.map((user) => `@${user.username}`).join(', ') : <span className="muted">Unassigned</span>),
    },
    { id: 'status', header: 'Status', cell: ({ row: { original } }) => statusLabel(original.status) },
  ];

  return (
    <>
      {/* six statuses with their counts: on a phone the tabs wrap rather than widen the page */}
      <div className="alert-tabs">
        <SearchTabs label="Alert statuses" param="tab" tabs={TABS} current={wanted.tab} reset={['after', 'trail']} badge={(tab) => (counts ? <span className="badge">{formatCount(counts[tab])}</span> : null)} />
      </div>
      <div className="filter-bar" role="search" aria-label="Filter alerts">
        <SearchInput label="Search alerts" value={wanted.search} onSearch={(text) => setSearch({ search: text, after: undefined, trail: [] })} />
        <ChoiceSelect label="Sort by" value={wanted.sort} options={ALERT_SORTS} onChange={(sort) => setSearch({ sort, after: undefined, trail: [] })} />
      </div>
      <QueryStates query={list}>
        {(data) => (
          <>
            {data.alerts.length === 0 ? (
              <FilteredEmptyState
                filtered={Boolean(search.search) || search.tab !== 'all'}
                filteredTitle={search.search ? `No ${statusWord(search.tab)}alerts match “${search.search}”.` : `No ${statusWord(search.tab)}alerts.`}
                emptyTitle="This project has no alerts."
                clear={() => ({ tab: 'all' })}
                clearLabel="Show all alerts"
              />
            ) : (
              <DataTable caption="Alerts" columns={columns} data={data.alerts} getRowId={(alert) => alert.iid} stale={list.isPlaceholderData} />
            )}
            <CursorPages
              label="Alert pages"
              empty={data.alerts.length === 0}
              back={{ to: !firstPage ? (current) => previousPageSearch(current as AlertListSearch) : undefined, rel: 'prev', text: 'Previous' }}
              next={next ? (current) => nextPageSearch(current as AlertListSearch, next) : undefined}
            />
          </>
        )}
      </QueryStates>
    </>
  );
}
