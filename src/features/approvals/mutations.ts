import { useQueryClient } from '@tanstack/react-query';
import { approvalsQueries, createApprovalRule, deleteApprovalRule, updateApprovalRule, updateApprovalSettings } from '../../api/approvals.ts';
import { useConnection } from '../../api/react.ts';
import { useWrite } from '../../components/use-write.ts';

/** Each write stays pending until the approvals of the project are fresh again. */
function useApprovalsWrite<V, R>(run: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useWrite({ send: run, refresh: () => queryClient.invalidateQueries({ queryKey: approvalsQueries.all() }) });
}

export function useUpdateApprovalSettings() {
  const connection = useConnection();
  return useApprovalsWrite((variables: Parameters<typeof updateApprovalSettings>[1]) => updateApprovalSettings(connection, variables));
}

export function useCreateApprovalRule() {
  const connection = useConnection();
  return useApprovalsWrite((variables: Parameters<typeof createApprovalRule>[1]) => createApprovalRule(connection, variables));
}

export function useUpdateApprovalRule() {
  const connection = useConnection();
  return useApprovalsWrite((variables: Parameters<typeof updateApprovalRule>[1]) => updateApprovalRule(connection, variables));
}

export function useDeleteApprovalRule() {
  const connection = useConnection();
  return useApprovalsWrite((variables: Parameters<typeof deleteApprovalRule>[1]) => deleteApprovalRule(connection, variables));
}
