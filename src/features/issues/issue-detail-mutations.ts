import { useQueryClient } from '@tanstack/react-query';
import {
  cloneIssue, deleteIssue, getIssue, issuesQueries, moveIssue, setIssueSubscription, trackTime, updateIssue,
  type IssueChanges, type TimeTracking,
} from '../../api/issues.ts';
import { createNote, notesQueries, type Noteable } from '../../api/notes.ts';
import { useConnection } from '../../api/react.ts';
import { useTaskTicks } from '../../components/task-ticks.ts';
import { REPEAT_AFTER_MS, toggledField, useWrite } from '../../components/use-write.ts';

export interface IssueRef {
  projectId: number;
  iid: number;
}

/** What a write changed: the issue (its events ride under its key) or the thread. */
type Touches = 'issue' | 'thread';

/**
 * Toggles (a label, the subscription) go back and forth with the same inputs:
 * those writes may repeat once a double click is over (`repeatAfterMs`); creations may not.
 */
function useIssueWrite<V, R>(
  ref: IssueRef,
  touches: readonly Touches[],
  run: (variables: V) => Promise<R>,
  { onDone, toggle = true, toggleOf }: { onDone?: (data: R, variables: V) => void; toggle?: boolean; toggleOf?: (variables: V) => string | undefined } = {},
) {
  const refresh = useRefresh(ref, touches);
  return useWrite({ send: run, onDone, repeatAfterMs: toggle ? REPEAT_AFTER_MS : undefined, toggleOf, refresh });
}

/** Refetches what a write touched. */
function useRefresh(ref: IssueRef, touches: readonly Touches[]): () => Promise<unknown> {
  const queryClient = useQueryClient();
  const connection = useConnection();
  const noteable: Noteable = { projectId: ref.projectId, issueIid: ref.iid };
  return () =>
    Promise.all(
      touches.map((part) =>
        part === 'issue'
          ? queryClient.invalidateQueries({ queryKey: issuesQueries.detail(connection, ref.projectId, ref.iid).queryKey })
          : queryClient.invalidateQueries({ queryKey: notesQueries.thread(connection, noteable).queryKey }),
      ),
    );
}

/** After a comment is edited or deleted: the thread, and the issue (its count of comments). */
export function useRefreshNotes(ref: IssueRef): () => Promise<unknown> {
  return useRefresh(ref, ['thread', 'issue']);
}

/** An edit of the issue's fields: the issue, and the system notes it records. */
export function useUpdateIssue(ref: IssueRef) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useIssueWrite(
    ref,
    ['issue', 'thread'],
    (changes: IssueChanges) => updateIssue(connection, { ...ref, changes }),
    {
      onDone: (issue) => queryClient.setQueryData(issuesQueries.detail(connection, ref.projectId, ref.iid).queryKey, issue),
      toggleOf: toggledField<IssueChanges>(['state_event', 'confidential', 'discussion_locked']),
    },
  );
}

/** Ticks in the description: the issue (its task count) and the system notes the edit records. */
export function useIssueTaskTicks(ref: IssueRef, description: string) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const noteable: Noteable = { projectId: ref.projectId, issueIid: ref.iid };
  const queryKey = issuesQueries.detail(connection, ref.projectId, ref.iid).queryKey;
  return useTaskTicks({
    queryKey,
    description,
    read: () => getIssue(connection, ref.projectId, ref.iid),
    write: (next) => updateIssue(connection, { ...ref, changes: { description: next } }),
    refresh: () => Promise.all([queryClient.invalidateQueries({ queryKey }), queryClient.invalidateQueries({ queryKey: notesQueries.thread(connection, noteable).queryKey })]),
  });
}

export function useSetSubscription(ref: IssueRef) {
  const connection = useConnection();
  return useIssueWrite(ref, ['issue'], ({ subscribed }: { subscribed: boolean }) => setIssueSubscription(connection, { ...ref, subscribed }), { toggleOf: () => 'subscription' });
}

export function useTrackTime(ref: IssueRef) {
  const connection = useConnection();
  return useIssueWrite(ref, ['issue', 'thread'], (change: TimeTracking) => trackTime(connection, { ...ref, change }));
}

export type AddNoteVariables = { body: string; internal: boolean };

export function useAddNote(ref: IssueRef) {
  const connection = useConnection();
  return useIssueWrite(ref, ['thread', 'issue'], ({ body, internal }: AddNoteVariables) =>
    createNote(connection, { noteable: { projectId: ref.projectId, issueIid: ref.iid }, body, internal }), { toggle: false },
  );
}

export function useMoveIssue(ref: IssueRef) {
  const connection = useConnection();
  return useIssueWrite(ref, ['issue'], ({ toProjectId }: { toProjectId: number }) => moveIssue(connection, { ...ref, toProjectId }), { toggle: false });
}

export function useCloneIssue(ref: IssueRef) {
  const connection = useConnection();
  return useIssueWrite(ref, ['issue'], ({ toProjectId, withNotes }: { toProjectId: number; withNotes: boolean }) => cloneIssue(connection, { ...ref, toProjectId, withNotes }), { toggle: false });
}

export function useDeleteIssue(ref: IssueRef) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  return useWrite({
    send: () => deleteIssue(connection, ref),
    onDone: () => queryClient.removeQueries({ queryKey: issuesQueries.detail(connection, ref.projectId, ref.iid).queryKey }),
    // the lists that showed it
    refresh: () => queryClient.invalidateQueries({ queryKey: issuesQueries.scope({ project: ref.projectId }) }),
  });
}
