import { useState } from 'react';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useActiveSession, useConnection } from '../../api/react.ts';
import {
  RUNNER_STATUSES, RUNNER_TYPES, exportRunners, runnersQueries,
  type Runner, type RunnerFilters, type RunnerScope, type SetPausedData,
} from '../../api/runners.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { downloadText } from '../../components/download.ts';
import { errorText } from '../../components/error-panel.tsx';
import { useIdleSinceMount, usePrefetch, useSetSearch, useViewState } from '../../components/list-hooks.ts';
import { PerPageSelect, SearchInput } from '../../components/list-controls.tsx';
import { ListFilters } from '../../components/list-filters.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { FilteredEmptyState, SearchLink } from '../../components/search-link.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import { toCsv } from '../../lib/csv.ts';
import { useSetRunnersPaused } from './mutations.ts';
import { fleetAccess, runnerChangeRefusal, type RunnerCaller } from './permissions.ts';
import { RunnerStatus, RunnerVersion, typeLabel } from './runner-badges.tsx';
import { RUNNERS_SEARCH_DEFAULTS, isFiltered, runnerFilters, runnerListParams, runnersSearchSchema, type RunnersSearch } from './search.ts';
import { newestMajorMinor } from './version-drift.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';
import { useCallerRole, type RoleFailure } from '../../components/use-my-access.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { AssignableRunners } from './assignable-runners.tsx';
import { RefusableCheckbox } from '../../components/refusable-button.tsx';

interface FleetScreenProps {
  scope: RunnerScope;
  /** The group's or project's full name, once loaded. */
  scopeName?: string;
  search: RunnersSearch;
}

const scopeKind = (scope: RunnerScope) => (scope === 'instance' ? 'instance' : 'group' in scope ? 'group' : 'project');

/** The caller's rights on a scope's fleet; the role is asked only where it matters. */
function useFleetCaller(scope: RunnerScope): { caller: RunnerCaller; pending: boolean; failure: RoleFailure | null; version: string | null } {
  const me = useActiveSession()?.connection;
  const isAdmin = Boolean(me?.isAdmin);
  const { role, known, failure } = useCallerRole(scope === 'instance' ? null : scope, isAdmin);
  return {
    caller: { isAdmin, canWrite: Boolean(me?.canWrite), scopes: me?.scopes, role },
    pending: !known,
    failure,
    version: me?.version ?? null,
  };
}

/** A runner fleet: the instance's for administrators, a group's for Owners, a project's for Maintainers. */
export function FleetScreen({ scope, scopeName, search }: FleetScreenProps) {
  const { caller, pending, failure, version } = useFleetCaller(scope);
  const access = fleetAccess(scope, caller);
  const title = scope === 'instance' ? 'Runner fleet' : scopeName ? `Runners of ${scopeName}` : 'Runners';
  return (
    <section className="screen" aria-labelledby="runners-heading">
      <header className="screen__header">
        <h1 id="runners-heading">{title}</h1>
      </header>
      <RoleUnread failure={failure} withheld="the runners are not shown" />
      {pending ? null : access.canView ? (
        <>
          <FleetList scope={scope} search={search} caller={caller} instanceVersion={version} />
          {scope !== 'instance' && 'project' in scope && caller.canWrite ? <AssignableRunners projectId={scope.project} /> : null}
        </>
      ) : (
        <p className="notice" role="note">
          {access.reason}
        </p>
      )}
    </section>
  );
}

const STATUS_COUNTS: ReadonlyArray<{ label: string; filters: RunnerFilters; search: Partial<RunnersSearch> }> = RUNNER_STATUSES.map((status) => ({
  label: status.label,
  filters: { status: status.value },
  search: { status: status.value },
}));
const TYPE_COUNTS: ReadonlyArray<{ label: string; filters: RunnerFilters; search: Partial<RunnersSearch> }> = RUNNER_TYPES.map((type) => ({
  label: type.label,
  filters: { type: type.value },
  search: { type: type.value },
}));

/** Totals from one-row pages (`x-total`), never from loading the fleet; "—" where the platform did not count. */
function FleetCounts({ scope, search }: { scope: RunnerScope; search: RunnersSearch }) {
  // asked once the list is painted: the rows come first
  const asked = useIdleSinceMount();
  return (
    <div className="fleet-counts">
      <CountList scope={scope} label="Runners by status" counts={STATUS_COUNTS} active={search} asked={asked} />
      <CountList scope={scope} label="Runners by type" counts={TYPE_COUNTS} active={search} asked={asked} />
    </div>
  );
}

function CountList({ scope, label, counts, active, asked }: { scope: RunnerScope; label: string; counts: typeof STATUS_COUNTS; active: RunnersSearch; asked: boolean }) {
  return (
    <ul className="chip-list" aria-label={label}>
      {counts.map((count) => (
        // a count is the filter in force when the list shows its status (or type), whatever else is filtered
        <CountItem key={count.label} scope={scope} {...count} asked={asked} current={Object.entries(count.search).every(([key, value]) => active[key as keyof RunnersSearch] === value)} />
      ))}
    </ul>
  );
}

function CountItem({ scope, label, filters, search, current, asked }: { scope: RunnerScope; label: string; filters: RunnerFilters; search: Partial<RunnersSearch>; current: boolean; asked: boolean }) {
  const connection = useConnection();
  const count = useQuery({ ...runnersQueries.count(connection, scope, filters), enabled: asked });
  const shown = count.isPending ? '…' : count.data === null || count.data === undefined ? '—' : formatCount(count.data);
  const spoken = count.isPending ? 'loading' : count.data === null || count.data === undefined ? 'not counted' : `${count.data} runners`;
  return (
    <li>
      <SearchLink search={() => ({ ...search })} current={current} className="chip" aria-label={`${label}: ${spoken}`}>
        <span>{label}</span> <strong>{shown}</strong>
      </SearchLink>
    </li>
  );
}

interface FleetListProps {
  scope: RunnerScope;
  search: RunnersSearch;
  caller: RunnerCaller;
  instanceVersion: string | null;
}

const NO_SELECTION: ReadonlySet<number> = new Set();

const CSV_HEADER = ['id', 'description', 'name', 'runner_type', 'status', 'paused', 'online', 'is_shared', 'job_execution_status', 'created_at', 'created_by'];

const csvRows = (runners: Runner[]) =>
  runners.map((runner) => [
    runner.id, runner.description, runner.name, runner.runner_type, runner.status, runner.paused, runner.online, runner.is_shared,
    runner.job_execution_status, runner.created_at, runner.created_by?.username,
  ]);

function FleetList({ scope, search, caller, instanceVersion }: FleetListProps) {
  const connection = useConnection();
  const params = runnerListParams(search);
  const page = useSuspenseQuery(runnersQueries.list(connection, scope, params)).data;
  const ids = page.items.map((runner) => runner.id);
  // versions and tags are only in the details: fetched for this page alone, six at a time, once the rows are painted
  const idle = useIdleSinceMount();
  const details = useQuery({ ...runnersQueries.details(connection, ids), enabled: idle && ids.length > 0 }).data ?? {};
  const wanted = useRequestedSearch(runnersSearchSchema, search);
  const setSearch = useSetSearch<RunnersSearch>();
  const [outcome, setOutcome] = useState<{ paused: boolean; data: SetPausedData } | null>(null);
  const [exporting, setExporting] = useState<{ done: number; total: number | null } | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const setPaused = useSetRunnersPaused();
  usePrefetch(page.nextPage ? runnersQueries.list(connection, scope, { ...params, page: page.nextPage }) : null);

  // a new page or filter starts a new selection
  const [selected, setSelected] = useViewState(JSON.stringify(params), NO_SELECTION);

  const reference = newestMajorMinor([instanceVersion, ...Object.values(details).map((runner) => runner.version)]);
  const refusal = (runner: Runner) => runnerChangeRefusal(scope, caller, runner.runner_type);
  const selectable = page.items.filter((runner) => refusal(runner) === null);
  const allSelected = selectable.length > 0 && selectable.every((runner) => selected.has(runner.id));
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const detailLink = (runner: Runner) =>
    scope === 'instance' ? (
      <RouteLink to="/admin/runners/$runnerId" params={{ runnerId: String(runner.id) }}>
        #{runner.id}
      </RouteLink>
    ) : (
      <RouteLink to="/runners/$runnerId" params={{ runnerId: String(runner.id) }}>
        #{runner.id}
      </RouteLink>
    );

  const columns: ColumnDef<Runner>[] = [
    {
      id: 'select',
      header: () => (
        <input
          type="checkbox"
          aria-label="Select all runners on this page"
          checked={allSelected}
          disabled={selectable.length === 0}
          onChange={(event) => setSelected(event.target.checked ? new Set(selectable.map((runner) => runner.id)) : NO_SELECTION)}
        />
      ),
      cell: ({ row: { original: runner } }) => (
        <RefusableCheckbox label={`Select runner #${runner.id}`} refusal={refusal(runner)} checked={selected.has(runner.id)} onChange={(on) => toggle(runner.id, on)} />
      ),
    },
    {
      id: 'runner',
      header: 'Runner',
      cell: ({ row: { original: runner } }) => (
        <div>
          {detailLink(runner)} <span>{runner.description || runner.name || ''}</span>
        </div>
      ),
    },
    { id: 'type', header: 'Type', cell: ({ row: { original: runner } }) => typeLabel(runner.runner_type) },
    { id: 'status', header: 'Status', cell: ({ row: { original: runner } }) => <RunnerStatus runner={runner} /> },
    {
      id: 'version',
      header: 'Version',
      cell: ({ row: { original: runner } }) => (details[runner.id] ? <RunnerVersion version={details[runner.id].version} reference={reference} /> : <span className="muted">…</span>),
    },
    { id: 'tags', header: 'Tags', cell: ({ row: { original: runner } }) => details[runner.id]?.tag_list.join(', ') ?? '' },
    { id: 'jobs', header: 'Jobs', cell: ({ row: { original: runner } }) => (runner.job_execution_status === 'active' ? 'Running a job' : 'Idle') },
  ];

  const applyPaused = (paused: boolean) => {
    setOutcome(null);
    setPaused.mutate(
      { runnerIds: [...selected], paused },
      {
        onSuccess: (data) => {
          setOutcome({ paused, data });
          setSelected(new Set(data.failures.map((failure) => failure.runnerId)));
          // the failed runners stay selected, and pausing is a set, not a toggle: a press may send them again
          if (data.failures.length) setPaused.reset();
        },
      },
    );
  };

  const exportCsv = async () => {
    setExportError(null);
    setExporting({ done: 0, total: null });
    try {
      const runners = await exportRunners(connection, scope, runnerFilters(search), { onProgress: (done, total) => setExporting({ done, total }) });
      const name = scope === 'instance' ? 'instance' : 'group' in scope ? `group-${scope.group}` : `project-${scope.project}`;
      downloadText(`runners-${name}-${new Date().toISOString().slice(0, 10)}.csv`, toCsv(CSV_HEADER, csvRows(runners)), 'text/csv;charset=utf-8');
    } catch (error) {
      setExportError(errorText(error));
    } finally {
      setExporting(null);
    }
  };

  const filtered = isFiltered(search);
  const canChangeAny = selectable.length > 0;
  const readOnlyReason = runnerChangeRefusal(scope, caller, scope === 'instance' ? 'instance_type' : 'group' in scope ? 'group_type' : 'project_type');
  return (
    <>
      <FleetCounts scope={scope} search={search} />
      {readOnlyReason ? (
        <p className="notice" role="note">
          {readOnlyReason} Runners can be viewed, not paused or resumed.
        </p>
      ) : scopeKind(scope) !== 'instance' && !caller.isAdmin ? (
        <p className="notice" role="note">
          Instance runners show here for reference; only administrators can pause them.
        </p>
      ) : null}
      <ListFilters label="Filter runners" active={filtersSet(wanted, runnersSearchSchema, RUNNERS_SEARCH_DEFAULTS)}>
        <label className="inline-field">
          <span>Type</span>
          <select className="input" value={wanted.type ?? ''} onChange={(event) => setSearch({ type: (event.target.value || undefined) as RunnersSearch['type'] })}>
            <option value="">Any</option>
            {RUNNER_TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {type.label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Status</span>
          <select className="input" value={wanted.status ?? ''} onChange={(event) => setSearch({ status: (event.target.value || undefined) as RunnersSearch['status'] })}>
            <option value="">Any</option>
            {RUNNER_STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Paused</span>
          <select
            className="input"
            value={wanted.paused === undefined ? '' : String(wanted.paused)}
            onChange={(event) => setSearch({ paused: event.target.value === '' ? undefined : event.target.value === 'true' })}
          >
            <option value="">Any</option>
            <option value="true">Paused</option>
            <option value="false">Not paused</option>
          </select>
        </label>
        <SearchInput
          label="Tags (comma-separated, all must match)"
          placeholder="docker, linux"
          value={search.tag_list.join(', ')}
          onSearch={(text) => setSearch({ tag_list: text.split(',').map((tag) => tag.trim()).filter(Boolean) })}
        />
        <SearchInput label="Version prefix" placeholder="17.8" value={search.version_prefix} onSearch={(text) => setSearch({ version_prefix: text.trim() })} />
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as RunnersSearch['per_page'] })} />
      </ListFilters>
      <p className="muted">
        Offline includes stale runners. Versions compare major.minor with the newest of the instance ({instanceVersion ?? 'unknown'}) and this page’s runners; patch releases are not drift.
      </p>
      <div className="filter-bar" role="toolbar" aria-label="Selected runners">
        <span role="status">{selected.size === 0 ? 'No runner selected' : `${selected.size} selected`}</span>
        {canChangeAny ? (
          <>
            <button type="button" className="button" disabled={selected.size === 0 || setPaused.isPending} onClick={() => applyPaused(true)}>
              Pause selected
            </button>
            <button type="button" className="button" disabled={selected.size === 0 || setPaused.isPending} onClick={() => applyPaused(false)}>
              Resume selected
            </button>
          </>
        ) : null}
        <button type="button" className="button" disabled={exporting !== null} aria-busy={exporting !== null || undefined} onClick={() => void exportCsv()}>
          {exporting ? `Exporting ${exporting.done}${exporting.total !== null ? ` of ${exporting.total}` : ''}…` : 'Export CSV'}
        </button>
      </div>
      {setPaused.isPending ? (
        <p role="status">{`Updating ${selected.size} runners…`}</p>
      ) : outcome ? (
        <BulkOutcome outcome={outcome} />
      ) : null}
      {exportError ? (
        <div className="form-error" role="alert">
          The export failed: {exportError}
        </div>
      ) : null}
      {page.items.length === 0 ? (
        <FilteredEmptyState filtered={filtered} filteredTitle="No runner matches these filters." emptyTitle="There are no runners here." />
      ) : (
        <DataTable caption="Runners" columns={columns} data={page.items} getRowId={(runner) => String(runner.id)} />
      )}
      <Paginator page={page} label="Runners pages" />
    </>
  );
}

function BulkOutcome({ outcome: { paused, data } }: { outcome: { paused: boolean; data: SetPausedData } }) {
  const verb = paused ? 'Paused' : 'Resumed';
  return (
    <div>
      <p role="status">{`${verb} ${formatCountOf(data.done.length, 'runner', 'runners')}.`}</p>
      {data.failures.length ? (
        <div className="form-error" role="alert">
          <p>{`${data.failures.length} could not be ${paused ? 'paused' : 'resumed'} (still selected):`}</p>
          <ul>
            {data.failures.map((failure) => (
              <li key={failure.runnerId}>{`#${failure.runnerId}: ${failure.message}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
