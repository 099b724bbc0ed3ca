import { useEffect, useMemo } from 'react';
import { useInfiniteQuery, useQueries, useSuspenseInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { MergeRequest, MergeRequestScope } from '../../api/merge-requests.ts';
import type { Page } from '../../api/pagination.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { FilteredEmptyState } from '../../components/search-link.tsx';
import { BOARD_COLUMNS, boardColumns, mergedWindowStart, placeRequest, type ApprovalCount } from './board-columns.ts';
import { BoardColumn } from './board-column.tsx';
import { MergeRequestViews } from './board-links.tsx';
import { boardQueries } from './board-queries.ts';
import { approvalsInViewOptions } from './approvals-in-view.ts';
import { MergeRequestFilterForm } from './filter-form.tsx';
import { boardSearchOf, clearFilters, isFiltered, listSearchOf, type MergeRequestBoardSearch } from './search.ts';
import '../../components/board-layout.css';
import './board.css';
import { formatCount, formatCountOf } from '../../lib/numbers.ts';

interface MergeRequestBoardScreenProps {
  /** A project's or group's board; the instance: the caller's review queue across every project. */
  scope: MergeRequestScope;
  search: MergeRequestBoardSearch;
  /** The group's or project's name once loaded. */
  sourceName?: string;
}

const requestsOf = (data: InfiniteData<Page<MergeRequest>> | undefined) => data?.pages.flatMap((page) => page.items) ?? [];

/** Asks for the next page as soon as one arrives, until there is none: the board shows every open request. */
function useEveryPage(query: { hasNextPage: boolean; isFetchingNextPage: boolean; isError: boolean; fetchNextPage: () => Promise<unknown> }) {
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
}

/**
 * The merge request board: open requests of a project or group (or the caller's review queue) in
 * columns by review state, filtered as the list is, every filter in the URL. Read-only.
 */
export function MergeRequestBoardScreen({ scope, search, sourceName }: MergeRequestBoardScreenProps) {
  const connection = useConnection();
  const me = useActiveSession()?.connection.username;
  const navigate = useNavigate();
  const queries = boardQueries(connection, scope, search, me);
  const open = useSuspenseInfiniteQuery(queries.open);
  const merged = useInfiniteQuery(queries.merged);
  useEveryPage(open);
  useEveryPage(merged);

  const requests = useMemo(() => [...requestsOf(open.data), ...requestsOf(merged.data)], [open.data, merged.data]);
  // only requests blocked outside review wait for their approvals to find their column: those are asked for at once
  const undecided = useMemo(() => requests.filter((request) => placeRequest(request)?.needsApprovals), [requests]);
  const decided = useQueries({
    queries: undecided.map((request) => approvalsInViewOptions(connection, request.project_id, request.iid)),
    combine: (results) => new Map(results.flatMap((result, index) => (result.data ? [[undecided[index].id, result.data] as const] : []))),
  });
  const columns = useMemo(
    () => boardColumns(requests, (request): ApprovalCount | undefined => decided.get(request.id), mergedWindowStart(new Date())),
    [requests, decided],
  );

  const instance = scope === 'instance';
  const fullReference = instance || 'group' in scope;
  const openLoading = open.hasNextPage || open.isFetchingNextPage;
  const openTotal = open.data.pages[0]?.total;
  const loaded = requestsOf(open.data).length;
  const heading = instance ? 'My review queue' : sourceName ? `Merge request board of ${sourceName}` : 'Merge request board';
  const nothing = !openLoading && loaded === 0 && merged.isSuccess && !merged.hasNextPage && columns.merged.length === 0;

  return (
    <section className="screen mr-board" aria-labelledby="mr-board-heading">
      <header className="screen__header">
        <h1 id="mr-board-heading">{heading}</h1>
        <MergeRequestViews scope={scope} search={search} current="board" />
      </header>
      {instance ? <p className="muted">Open merge requests of every project that ask you for a review{me ? ` (@${me})` : ''}.</p> : null}
      <MergeRequestFilterForm
        key={JSON.stringify(search)}
        search={listSearchOf(search)}
        onChange={(next) => void navigate({ to: '.', search: boardSearchOf(next) as never, replace: true })}
      />
      <p className="mr-board__progress" role="status">
        {openLoading
          ? `Loading open merge requests: ${formatCount(loaded)}${openTotal !== undefined ? ` of ${formatCount(openTotal)}` : ''}…`
          : formatCountOf(loaded, 'open merge request', 'open merge requests')}
        {undecided.length > decided.size ? `; checking the approvals of ${undecided.length - decided.size}` : ''}
      </p>
      {open.isFetchNextPageError ? <ErrorPanel error={open.error} onRetry={() => void open.fetchNextPage()} /> : null}
      {merged.isError ? <ErrorPanel error={merged.error} onRetry={() => void (merged.data ? merged.fetchNextPage() : merged.refetch())} /> : null}
      {nothing ? (
        <FilteredEmptyState
          filtered={isFiltered(listSearchOf(search))}
          filteredTitle="No merge request matches these filters."
          emptyTitle={instance ? 'No merge request is waiting for your review.' : 'No open merge request, and none merged in the last 7 days.'}
          clear={(previous) => boardSearchOf(clearFilters(listSearchOf(previous as MergeRequestBoardSearch)))}
        />
      ) : null}
      <div className="board" role="group" aria-label="Board columns: merge requests by review state">
        {BOARD_COLUMNS.map((column) => (
          <BoardColumn
            key={column.key}
            columnKey={column.key}
            title={column.title}
            requests={columns[column.key].map((card) => card.request)}
            fullReference={fullReference}
            loading={column.key === 'merged' ? merged.isPending || merged.hasNextPage : openLoading}
          />
        ))}
      </div>
    </section>
  );
}
