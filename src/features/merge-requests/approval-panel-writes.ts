import { useQueryClient } from '@tanstack/react-query';
import { approvalsQueries, approveMergeRequest, resetApprovals, unapproveMergeRequest, type Approvals } from '../../api/approvals.ts';
import { ApiError } from '../../api/errors.ts';
import { mergeMergeRequest, mergeRequestsQueries, type MergeRequestDetail } from '../../api/merge-requests.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

interface RequestRef {
  projectId: number;
  iid: number;
}

/**
 * A write on one request: pending until the request's keys (its detail, approvals, approval state,
 * diffs) are fresh again; lists of requests go stale, since they show approvals and merge status.
 */
function useRequestWrite<V, R>({ projectId, iid }: RequestRef, run: (variables: V) => Promise<R>, onDone?: (data: R) => void) {
  const queryClient = useQueryClient();
  return useWrite({
    send: run,
    onDone,
    refresh: async () => {
      void queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.all(), refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: mergeRequestsQueries.one(projectId, iid) });
    },
  });
}

/** The approvals answer of a write is the panel's new state: shown at once, before the refetch. */
function useShowApprovals(ref: RequestRef) {
  const queryClient = useQueryClient();
  const connection = useConnection();
  return (data: Approvals) => queryClient.setQueryData(approvalsQueries.approvals(connection, ref.projectId, ref.iid).queryKey, data);
}

export interface ApproveVariables {
  /** The head the reviewer was looking at. */
  sha: string;
  /** Only when the project asks for re-authentication; sent once, kept nowhere. */
  password?: string;
}

export function useApprove(ref: RequestRef) {
  const connection = useConnection();
  const show = useShowApprovals(ref);
  return useRequestWrite(ref, ({ sha, password }: ApproveVariables) => approveMergeRequest(connection, { ...ref, sha, password }), show);
}

export function useUnapprove(ref: RequestRef) {
  const connection = useConnection();
  const show = useShowApprovals(ref);
  return useRequestWrite(ref, (_: void) => unapproveMergeRequest(connection, ref), show);
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
