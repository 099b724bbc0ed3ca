import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  createDiscussion, getMergeRequest, mergeRequestsQueries, replyToDiscussion, resolveDiscussion, updateMergeRequest, type DiffPosition, type MergeRequestChanges,
} from '../../api/merge-requests.ts';
import { createNote } from '../../api/notes.ts';
import { useConnection } from '../../api/react.ts';
import { useTaskTicks } from '../../components/task-ticks.ts';
import { REPEAT_AFTER_MS, toggledField, useWrite } from '../../components/use-write.ts';

export interface MergeRequestRef {
  projectId: number;
  iid: number;
}

/** What a write changed: the request (and what lists show of it), its threads. */
type Touches = 'request' | 'discussions';

/**
 * Toggles (resolve, close, draft) go back and forth with the same inputs: they may repeat once a
 * double click is over; creations (a thread, a reply, a comment) may not.
 */
function useMergeRequestWrite<V, R>(
  ref: MergeRequestRef,
  touches: readonly Touches[],
  send: (variables: V) => Promise<R>,
  options: { toggle: boolean; toggleOf?: (variables: V) => string | undefined; onDone?: (data: R) => void },
) {
  const queryClient = useQueryClient();
  return useWrite({
    send,
    onDone: options.onDone,
    repeatAfterMs: options.toggle ? REPEAT_AFTER_MS : undefined,
    toggleOf: options.toggleOf,
    refresh: () => refreshTouched(queryClient, ref, touches),
  });
}

function refreshTouched(queryClient: QueryClient, ref: MergeRequestRef, touches: readonly Touches[]) {
  return Promise.all(
    touches.map((part) =>
      part === 'request'
        ? // the detail, the reviewers and the lists this request shows in
          queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.all(), predicate: (query) => !query.queryKey.includes('discussions') })
        : queryClient.invalidateQueries({ queryKey: [...mergeRequestsQueries.one(ref.projectId, ref.iid), 'discussions'] }),
    ),
  );
}

/** Close, reopen, draft, ready, reviewers: the request, and the system notes the change records. */
export function useUpdateMergeRequest(ref: MergeRequestRef) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useMergeRequestWrite(ref, ['request', 'discussions'], (changes: MergeRequestChanges) => updateMergeRequest(connection, { ...ref, changes }), {
    toggle: true,
    // draft and ready change the title's prefix
    toggleOf: toggledField<MergeRequestChanges>(['state_event', 'title', 'discussion_locked']),
    onDone: (request) => queryClient.setQueryData(mergeRequestsQueries.detail(connection, ref.projectId, ref.iid).queryKey, request),
  });
}

/** Ticks in the description: the request (its task count, what lists show) and the system notes the edit records. */
export function useMergeRequestTaskTicks(ref: MergeRequestRef, description: string) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useTaskTicks({
    queryKey: mergeRequestsQueries.detail(connection, ref.projectId, ref.iid).queryKey,
    description,
    read: () => getMergeRequest(connection, ref.projectId, ref.iid),
    write: (next) => updateMergeRequest(connection, { ...ref, changes: { description: next } }),
    refresh: () => refreshTouched(queryClient, ref, ['request', 'discussions']),
  });
}

/** After a comment is edited or deleted: the threads, and the request (its count of comments, whether its threads are resolved). */
export function useRefreshThreads(ref: MergeRequestRef): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return () => refreshTouched(queryClient, ref, ['discussions', 'request']);
}

/** Resolving a thread changes whether the request may merge (`blocking_discussions_resolved`): the request too. */
export function useResolveDiscussion(ref: MergeRequestRef) {
  const connection = useConnection();
  return useMergeRequestWrite(ref, ['discussions', 'request'], ({ discussionId, resolved }: { discussionId: string; resolved: boolean }) =>
    resolveDiscussion(connection, { ...ref, discussionId, resolved }), { toggle: true, toggleOf: ({ discussionId }) => discussionId },
  );
}

/** A reply reopens a resolved thread, as on the platform: the request too. */
export function useReplyToDiscussion(ref: MergeRequestRef) {
  const connection = useConnection();
  return useMergeRequestWrite(ref, ['discussions', 'request'], ({ discussionId, body }: { discussionId: string; body: string }) =>
    replyToDiscussion(connection, { ...ref, discussionId, body }), { toggle: false },
  );
}

/** A thread on the request, or on a line of its changes with `position`. */
export function useStartThread(ref: MergeRequestRef) {
  const connection = useConnection();
  return useMergeRequestWrite(ref, ['discussions', 'request'], ({ body, position }: { body: string; position?: LinePosition }) => createDiscussion(connection, { ...ref, body, position }), {
    toggle: false,
  });
}

export type LinePosition = Omit<DiffPosition, 'position_type'>;

/** A lone comment (a note): nothing to resolve. */
export function useAddComment(ref: MergeRequestRef) {
  const connection = useConnection();
  return useMergeRequestWrite(ref, ['discussions', 'request'], ({ body }: { body: string }) =>
    createNote(connection, { noteable: { projectId: ref.projectId, mergeRequestIid: ref.iid }, body }), { toggle: false },
  );
}
