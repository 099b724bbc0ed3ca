import { useQueryClient } from '@tanstack/react-query';
import { approvalsQueries, createApprovalRule, deleteApprovalRule, updateApprovalRule, updateApprovalSettings } from '../../api/approvals.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

/** Each write stays pending until the approvals of the project are fresh again. */
function useApprovalsWrite<V, R>(run: (variables: V) => Promise<R>, options: { repeatAfterMs?: number } = {}) {
  const queryClient = useQueryClient();
  return useWrite({ send: run, refresh: () => queryClient.invalidateQueries({ queryKey: approvalsQueries.all() }), ...options });
}

export function useUpdateApprovalSettings() {
  const connection = useConnection();
  // the same settings saved again are meant once someone else changed them meanwhile
  return useApprovalsWrite((variables: Parameters<typeof updateApprovalSettings>[1]) => updateApprovalSettings(connection, variables), { repeatAfterMs: REPEAT_AFTER_MS });
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
