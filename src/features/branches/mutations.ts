import { useQueryClient } from '@tanstack/react-query';
import {
  branchesQueries, createBranch, deleteBranch, deleteMergedBranches, protectBranch, unprotectBranch,
  type CreateBranchVariables, type ProjectRef, type ProtectBranchVariables,
} from '../../api/branches.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

function useInvalidateProject() {
  const queryClient = useQueryClient();
  return (projectId: ProjectRef) => queryClient.invalidateQueries({ queryKey: branchesQueries.project(projectId) });
}

export function useCreateBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: CreateBranchVariables) => createBranch(connection, variables),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}

export function useDeleteBranch() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: { projectId: ProjectRef; name: string }) => deleteBranch(connection, variables),
    // the branch is gone: its detail would answer 404 on a refetch
    onDone: (_data, { projectId, name }) => queryClient.removeQueries({ queryKey: branchesQueries.detail(connection, projectId, name).queryKey }),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}

/** The platform answers 202 and deletes in the background: refresh now and once more a moment later. */
export function useDeleteMergedBranches() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: { projectId: ProjectRef }) => deleteMergedBranches(connection, variables),
    onDone: (_data, { projectId }) => void setTimeout(() => void invalidate(projectId), 2000),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}

export function useProtectBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: ProtectBranchVariables) => protectBranch(connection, variables),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}

export function useUnprotectBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: { projectId: ProjectRef; name: string }) => unprotectBranch(connection, variables),
    refresh: ({ projectId }) => invalidate(projectId),
  });
}
