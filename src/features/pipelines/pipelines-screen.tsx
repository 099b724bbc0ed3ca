import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  PIPELINE_SOURCES, PIPELINE_STATUSES, canCancelPipeline, canRetryPipeline, isPipelineMoving, pipelinesQueries, type Pipeline, type PipelineActionVariables, type PipelineDetail,
} from '../../api/pipelines.ts';
import type { Page } from '../../api/pagination.ts';
import { useConnection } from '../../api/react.ts';
import { CiStatusBadge, ciStatusText } from '../../components/ci-status.tsx';
import { ChoiceSelect } from '../../components/choice-select.tsx';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { useIdleSinceMount, usePrefetch, useSetSearch } from '../../components/list-hooks.ts';
import { PerPageSelect, SearchInput, SortControls } from '../../components/list-controls.tsx';
import { ListFilters } from '../../components/list-filters.tsx';
import { Paginator } from '../../components/paginator.tsx';
import { filtersSet } from '../../lib/search-params.ts';
import { QueryStates } from '../../components/query-states.tsx';
import { FilteredEmptyState, SearchTabs } from '../../components/search-link.tsx';
import { Time } from '../../components/time.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useLiveRefetch } from '../../components/use-live-refetch.ts';
import { useProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { useRequestedSearch } from '../../components/use-requested-search.ts';
import type { Write } from '../../components/use-write.ts';
import { formatDuration, secondsSince } from '../../lib/duration.ts';
import { deleteRefusal, runRefusal, useCancelPipeline, useRetryPipeline } from '../../components/pipeline-writes.ts';
import { pipelineListParams } from './route-options.ts';
import { PIPELINES_SEARCH_DEFAULTS, PIPELINE_ORDER_LABELS, PIPELINE_TABS, isFiltered, jumpToDate, pipelinesSearchSchema, type PipelinesSearch } from './search.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the confirmation loads once the rows are there, not before their first paint
const loadDialogs = chunk(() => import('./pipeline-dialogs.tsx'));
const DeletePipelineDialog = lazyPart(loadDialogs, (module) => module.DeletePipelineDialog);

interface PipelinesScreenProps {
  projectId: number;
  projectName?: string;
  search: PipelinesSearch;
}

/** A project's pipelines: every filter of the platform in the URL, live while any is running. */
export function PipelinesScreen({ projectId, projectName, search }: PipelinesScreenProps) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const run = runRefusal(caller);
  const params = { projectId: String(projectId) };
  return (
    <section className="screen" aria-labelledby="pipelines-heading">
      <header className="screen__header">
        <h1 id="pipelines-heading">{projectName ? `Pipelines of ${projectName}` : 'Pipelines'}</h1>
        <div className="row-actions">
          <Link to="/projects/$projectId/pipelines/charts" params={params} className="button">
            Durations chart
          </Link>
          {pending ? null : run ? (
            <span className="button" aria-disabled="true" title={run}>
              Run pipeline
            </span>
          ) : (
            <Link to="/projects/$projectId/pipelines/new" params={params} search={search.ref ? { ref: search.ref } : {}} className="button button--primary">
              Run pipeline
            </Link>
          )}
        </div>
      </header>
      <RoleUnread failure={failure} />
      {!pending && run ? (
        <p className="notice" role="note">
          {run} Pipelines can be viewed here.
        </p>
      ) : null}
      <SearchTabs label="Pipeline scopes" param="scope" tabs={PIPELINE_TABS} current={(PIPELINE_TABS.some((tab) => tab.value === search.scope) ? search.scope : '') as never} />
      <PipelineFilters search={search} />
      <PipelineList projectId={projectId} search={search} runRefused={run} deleteRefused={deleteRefusal(caller)} />
    </section>
  );
}

const STATUS_CHOICES = [{ value: '', label: 'Any' }, ...PIPELINE_STATUSES.map((status) => ({ value: status, label: `${ciStatusText(status)} (${status})` }))];
const SOURCE_CHOICES = [{ value: '', label: 'Any' }, ...PIPELINE_SOURCES.map((source) => ({ value: source, label: source.replace(/_/g, ' ') }))];

function PipelineFilters({ search }: { search: PipelinesSearch }) {
  const wanted = useRequestedSearch(pipelinesSearchSchema, search);
  const setSearch = useSetSearch<PipelinesSearch>();
  const [jumpDay, setJumpDay] = useState(wanted.updated_before);
  useEffect(() => setJumpDay(wanted.updated_before), [wanted.updated_before]);
  const dated = Boolean(wanted.updated_after || wanted.updated_before || wanted.sha || wanted.name || wanted.yaml_errors);
  return (
    <ListFilters label="Filter pipelines" active={filtersSet(wanted, pipelinesSearchSchema, PIPELINES_SEARCH_DEFAULTS, ['scope'])} bar={false}>
      <div className="filter-bar">
        <ChoiceSelect label="Status" value={wanted.status} options={STATUS_CHOICES} onChange={(status) => setSearch({ status: status as PipelinesSearch['status'] })} />
        <ChoiceSelect label="Source" value={wanted.source} options={SOURCE_CHOICES} onChange={(source) => setSearch({ source: source as PipelinesSearch['source'] })} />
        <SearchInput label="Branch or tag" placeholder="main" value={wanted.ref} onSearch={(ref) => setSearch({ ref: ref.trim() })} />
        <SearchInput label="Triggered by (username)" placeholder="root" value={wanted.username} onSearch={(username) => setSearch({ username: username.trim().replace(/^@/, '') })} />
        <SortControls
          orders={PIPELINE_ORDER_LABELS}
          orderBy={wanted.order_by}
          sort={wanted.sort}
          onChange={(change) => setSearch(change)}
        />
        <PerPageSelect value={wanted.per_page} onChange={(perPage) => setSearch({ per_page: perPage as PipelinesSearch['per_page'] })} />
      </div>
      <details className="filter-more" open={dated}>
        <summary>Dates, commit, name and CI file errors</summary>
        <div className="filter-bar">
          <DayInput label="Updated from" value={wanted.updated_after} max={wanted.updated_before} onChange={(day) => setSearch({ updated_after: day })} />
          <DayInput label="Updated until" value={wanted.updated_before} min={wanted.updated_after} onChange={(day) => setSearch({ updated_before: day })} />
          <form
            className="inline-field"
            aria-label="Jump to date"
            onSubmit={(event) => {
              event.preventDefault();
              if (jumpDay) setSearch(jumpToDate(jumpDay));
            }}
          >
            <DayInput label="Jump to date" value={jumpDay} onChange={setJumpDay} />
            <button type="submit" className="button" disabled={!jumpDay}>
              Jump
            </button>
          </form>
          <SearchInput label="Commit SHA" placeholder="a91957a8…" value={wanted.sha} onSearch={(sha) => setSearch({ sha: sha.trim() })} />
          <SearchInput label="Pipeline name" value={wanted.name} onSearch={(name) => setSearch({ name })} />
          <label className="inline-field">
            <input type="checkbox" checked={wanted.yaml_errors} onChange={(event) => setSearch({ yaml_errors: event.target.checked })} />
            <span>Only with CI file errors</span>
          </label>
        </div>
        <p className="field__hint">
          Dates are whole days in UTC, both included. Jump to date lists pipelines by last update, newest first, starting at the end of that day.
        </p>
      </details>
    </ListFilters>
  );
}

function DayInput({ label, value, min, max, onChange }: { label: string; value: string; min?: string; max?: string; onChange: (day: string) => void }) {
  return (
    <label className="inline-field">
      <span>{label}</span>
      <input type="date" className="input" value={value} min={min || undefined} max={max || undefined} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

const anyMoving = (page: Page<Pipeline>) => page.items.some((pipeline) => isPipelineMoving(pipeline.status));

interface PipelineListProps {
  projectId: number;
  search: PipelinesSearch;
  runRefused: string | null;
  deleteRefused: string | null;
}

function PipelineList({ projectId, search, runRefused, deleteRefused }: PipelineListProps) {
  const connection = useConnection();
  const notify = useNotify();
  const params = pipelineListParams(search);
  const live = useLiveRefetch(anyMoving);
  const list = useQuery({ ...pipelinesQueries.list(connection, projectId, params), placeholderData: keepPreviousData, refetchInterval: live });
  usePrefetch(list.data?.nextPage ? pipelinesQueries.list(connection, projectId, { ...params, page: list.data.nextPage }) : null);
  const details = useRowDetails(projectId, list.data?.items);
  const retry = useRetryPipeline();
  const cancel = useCancelPipeline();
  const [deleting, setDeleting] = useState<Pipeline | null>(null);
  usePreloadWhenIdle(loadDialogs, deleteRefused === null && Boolean(list.data?.items.length));
  const [actionError, setActionError] = useState<string | null>(null);

  const act = (write: Write<PipelineDetail, PipelineActionVariables>, pipeline: Pipeline, done: string) => {
    setActionError(null);
    write.mutate(
      { projectId, pipelineId: pipeline.id },
      { onSuccess: () => notify(`${done} pipeline #${pipeline.id}.`), onError: (error) => setActionError(`Pipeline #${pipeline.id}: ${errorText(error)}`) },
    );
  };

  const detailOf = (pipeline: Pipeline) => details.data?.[pipeline.id];
  const columns: ColumnDef<Pipeline>[] = [
    { id: 'status', header: 'Status', cell: ({ row: { original } }) => <CiStatusBadge status={original.status} tooltip={detailOf(original)?.detailed_status?.tooltip} /> },
    { id: 'pipeline', header: 'Pipeline', cell: ({ row: { original } }) => <PipelineCell projectId={projectId} pipeline={original} detail={detailOf(original)} /> },
    { id: 'ref', header: 'Ref and commit', cell: ({ row: { original } }) => <RefCell projectId={projectId} pipeline={original} detail={detailOf(original)} /> },
    { id: 'user', header: 'Triggered by', cell: ({ row: { original } }) => <UserCell detail={detailOf(original)} /> },
    { id: 'times', header: 'Duration and queue', cell: ({ row: { original } }) => <TimesCell detail={detailOf(original)} /> },
    {
      id: 'updated',
      header: 'Created and updated',
      cell: ({ row: { original } }) => (
        <div className="nowrap">
          <Time value={original.created_at} relative />
          <div className="muted">
            updated <Time value={original.updated_at} relative fallback="never" />
          </div>
        </div>
      ),
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Actions</span>,
      cell: ({ row: { original: pipeline } }) => (
        <div className="row-actions">
          {!runRefused && canRetryPipeline(pipeline.status) ? (
            <button type="button" className="button" disabled={retry.isPending} aria-label={`Retry pipeline #${pipeline.id}`} onClick={() => act(retry, pipeline, 'Retried')}>
              Retry
            </button>
          ) : null}
          {!runRefused && canCancelPipeline(pipeline.status) ? (
            <button type="button" className="button" disabled={cancel.isPending} aria-label={`Cancel pipeline #${pipeline.id}`} onClick={() => act(cancel, pipeline, 'Canceled')}>
              Cancel
            </button>
          ) : null}
          {deleteRefused ? null : (
            <button type="button" className="button button--danger-quiet" aria-label={`Delete pipeline #${pipeline.id}`} onClick={() => setDeleting(pipeline)}>
              Delete
            </button>
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <FormError message={actionError} write={retry.isUncertain ? retry : cancel} />
      <QueryStates query={list}>
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <FilteredEmptyState
                filtered={isFiltered(search)}
                filteredTitle="No pipeline matches these filters."
                emptyTitle={search.scope ? 'No pipeline in this tab.' : 'This project has no pipelines yet.'}
                clear={(previous) => ({ scope: previous.scope })}
              />
            ) : (
              <DataTable caption="Pipelines" columns={columns} data={page.items} getRowId={(pipeline) => String(pipeline.id)} stale={list.isPlaceholderData} />
            )}
            <Paginator page={page} label="Pipelines pages" />
          </>
        )}
      </QueryStates>
      {deleting ? (
        <DeletePipelineDialog projectId={projectId} pipeline={deleting} onClose={() => setDeleting(null)} />
      ) : null}
    </>
  );
}

/**
 * The single pipelines behind the page's rows, asked once the rows are painted (loopback answers
 * re-rendering the page before its first frame would hold the rows back), as one query: the
 * rows fill in together, and again for the rows the live list shows changed.
 */
function useRowDetails(projectId: number, items: Pipeline[] | undefined) {
  const connection = useConnection();
  const idle = useIdleSinceMount();
  return useQuery({ ...pipelinesQueries.rowDetails(connection, projectId, items ?? []), enabled: idle && Boolean(items?.length), placeholderData: keepPreviousData });
}

interface CellProps {
  projectId: number;
  pipeline: Pipeline;
  detail: PipelineDetail | undefined;
}

function PipelineCell({ projectId, pipeline, detail }: CellProps) {
  return (
    <div>
      <RouteLink to="/projects/$projectId/pipelines/$pipelineId" params={{ projectId, pipelineId: pipeline.id }} aria-label={`Pipeline #${pipeline.id}${pipeline.name ? `: ${pipeline.name}` : ''}`}>
        #{pipeline.id}
      </RouteLink>
      {pipeline.iid ? <span className="muted"> (IID #{pipeline.iid})</span> : null}
      {pipeline.name ? <div className="breakable">{pipeline.name}</div> : null}
      <div className="muted">
        {pipeline.source ? <span className="badge">{pipeline.source.replace(/_/g, ' ')}</span> : null}
        {detail?.yaml_errors ? (
          <span className="badge badge--warning" title={detail.yaml_errors}>
            CI file error
          </span>
        ) : null}
      </div>
    </div>
  );
}

function RefCell({ projectId, pipeline, detail }: CellProps) {
  return (
    <div>
      <span className="breakable">
        <span className="sr-only">{detail?.tag ? 'Tag ' : 'Ref '}</span>
        {pipeline.ref ?? ''}
      </span>
      {detail?.tag ? <span className="badge">tag</span> : null}
      <div>
        <RouteLink to="/projects/$projectId/commit/$sha" params={{ projectId, sha: pipeline.sha }} aria-label={`Commit ${pipeline.sha.slice(0, 8)}`}>
          <code>{pipeline.sha.slice(0, 8)}</code>
        </RouteLink>
      </div>
    </div>
  );
}

function UserCell({ detail }: { detail: PipelineDetail | undefined }) {
  const user = detail?.user;
  if (!user) return <span className="muted">—</span>;
  return (
    <RouteLink to="/users/$userId" params={{ userId: user.id }} title={user.name}>
      @{user.username}
    </RouteLink>
  );
}

function TimesCell({ detail }: { detail: PipelineDetail | undefined }) {
  if (!detail) return null;
  const running = isPipelineMoving(detail.status) && detail.started_at;
  const duration = running ? secondsSince(detail.started_at) : detail.duration;
  return (
    <div className="nowrap">
      <div>
        <span className="sr-only">Duration </span>
        {duration !== null && duration !== undefined ? `${formatDuration(duration)}${running ? ' so far' : ''}` : <span className="muted">not started</span>}
      </div>
      {detail.queued_duration !== null && detail.queued_duration !== undefined ? <div className="muted">queued {formatDuration(detail.queued_duration)}</div> : null}
      {detail.finished_at ? (
        <div className="muted">
          finished <Time value={detail.finished_at} relative />
        </div>
      ) : null}
    </div>
  );
}
