import { useEffect, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { mergeRequestsQueries, type Discussion } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import type { MergeRequestRef } from './merge-request-overview-mutations.ts';

/** Every thread of the request, oldest first: every page, one after the other, while the first is already on screen. */
export function useAllDiscussions(target: MergeRequestRef, enabled = true) {
  const connection = useConnection();
  const query = useInfiniteQuery({ ...mergeRequestsQueries.allDiscussions(connection, target.projectId, target.iid), enabled });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const discussions = useMemo(() => {
    const all = query.data?.pages.flatMap((page) => page.items).filter((discussion) => discussion.notes.length > 0) ?? [];
    const at = (discussion: Discussion) => Date.parse(discussion.notes[0].created_at) || 0;
    return all.map((discussion, index) => ({ discussion, index })).sort((a, b) => at(a.discussion) - at(b.discussion) || a.index - b.index).map(({ discussion }) => discussion);
  }, [query.data]);
  return { query, discussions };
}
