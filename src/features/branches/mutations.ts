import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  branchesQueries, createBranch, deleteBranch, deleteMergedBranches, protectBranch, unprotectBranch,
  type CreateBranchVariables, type ProjectRef, type ProtectBranchVariables,
} from '../../api/branches.ts';
import { useConnection } from '../../api/react.ts';

function useInvalidateProject() {
  const queryClient = useQueryClient();
  return (projectId: ProjectRef) => queryClient.invalidateQueries({ queryKey: branchesQueries.project(projectId) });
}

export function useCreateBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (variables: CreateBranchVariables) => createBranch(connection, variables),
    onSuccess: (_branch, { projectId }) => invalidate(projectId),
  });
}

export function useDeleteBranch() {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (variables: { projectId: ProjectRef; name: string }) => deleteBranch(connection, variables),
    onSuccess: (_data, { projectId, name }) => {
      // the branch is gone: its detail would answer 404 on a refetch
      queryClient.removeQueries({ queryKey: branchesQueries.detail(connection, projectId, name).queryKey });
      return invalidate(projectId);
    },
  });
}

/** The platform answers 202 and deletes in the background: refresh now and once more a moment later. */
export function useDeleteMergedBranches() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (variables: { projectId: ProjectRef }) => deleteMergedBranches(connection, variables),
    onSuccess: (_data, { projectId }) => {
      setTimeout(() => void invalidate(projectId), 2000);
      return invalidate(projectId);
    },
  });
}

export function useProtectBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (variables: ProtectBranchVariables) => protectBranch(connection, variables),
    onSuccess: (_data, { projectId }) => invalidate(projectId),
  });
}

export function useUnprotectBranch() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useMutation({
    mutationFn: (variables: { projectId: ProjectRef; name: string }) => unprotectBranch(connection, variables),
    onSuccess: (_data, { projectId }) => invalidate(projectId),
  });
}
