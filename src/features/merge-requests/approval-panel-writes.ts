import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { approvalsQueries, approveMergeRequest, resetApprovals, unapproveMergeRequest, type Approvals } from '../../api/approvals.ts';
import { ApiError } from '../../api/errors.ts';
import { mergeMergeRequest, mergeRequestsQueries, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

interface RequestRef {
  projectId: number;
  iid: number;
}

/** A write on one request, pending until its refresh is done. */
function useRequestWrite<V, R>(ref: RequestRef, run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useWrite({ send: run, refresh: () => refreshRequest(queryClient, ref) });
}

/** The request's keys (its detail, approvals, approval state, diffs) fetched again; lists of requests go stale, since they show approvals and merge status. */
async function refreshRequest(queryClient: QueryClient, { projectId, iid }: RequestRef) {
  void queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.all(), refetchType: 'none' });
  await queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.one(projectId, iid) });
}

/** The approvals answer of a write is the panel's new state: shown at once, before the refetch. */
function useShowApprovals(ref: RequestRef) {
  const queryClient = useQueryClient();
  const connection = useConnection();
  return (data: Approvals) => queryClient.setQueryData(approvalsQueries.approvals(connection, ref.projectId, ref.iid).queryKey, data);
}

/** An approval given (with the head the reviewer was looking at) or withdrawn. */
export type ApprovalVariables =
  | {
      approve: true;
      /** The head the reviewer was looking at. */
      sha: string;
      /** Only when the project asks for re-authentication; sent once, kept nowhere. */
      password?: string;
    }
  | { approve: false };

/**
 * Approve and Revoke: one toggle, since each takes the other's place under the pointer. A double
 * click's second press on the button that took the first's place is dropped, and the same head may
 * be approved again after a revoke (the last write differs, so it is no repeat).
 */
export function useApproval(ref: RequestRef) {
  const connection = useConnection();
  const show = useShowApprovals(ref);
  const queryClient = useQueryClient();
  return useWrite({
    send: (variables: ApprovalVariables) =>
      variables.approve ? approveMergeRequest(connection, { ...ref, sha: variables.sha, password: variables.password }) : unapproveMergeRequest(connection, ref),
    onDone: show,
    refresh: () => refreshRequest(queryClient, ref),
    toggleOf: () => 'approval',
    // a bot's Reset approvals is another write: approving the same head after it is a new press
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

export function useResetApprovals(ref: RequestRef) {
  const connection = useConnection();
  return useRequestWrite(ref, (_: void) => resetApprovals(connection, ref));
}

export function useMerge(ref: RequestRef) {
  const connection = useConnection();
  return useRequestWrite(ref, (options: Parameters<typeof mergeMergeRequest>[1]['options']) => mergeMergeRequest(connection, { ...ref, options }));
}

/** Refetches the request and all that hangs off it (diffs, commits, approvals): after a 409, what changed is shown. */
export function useReloadRequest({ projectId, iid }: RequestRef) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.one(projectId, iid) });
}

/** 409 on approve or merge: the source branch moved on since the page was loaded. */
export const isNewCommits = (error: unknown) => error instanceof ApiError && error.status === 409;

/** The head the reviewer is looking at: the one loaded with the request, never asked again before a write. */
export function loadedHead(request: MergeRequestDetail): string | undefined {
  return request.diff_refs?.head_sha ?? request.sha ?? undefined;
}
