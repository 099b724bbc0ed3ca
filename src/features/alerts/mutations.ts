import { useQueryClient } from '@tanstack/react-query';
import {
  alertsQueries, createAlertIssue, createHttpIntegration, createPrometheusIntegration, destroyHttpIntegration, resetIntegrationToken, sendTestAlert, setAlertAssignees,
  setIntegrationActive, updateAlertStatus, updateHttpIntegration, type AlertRef, type AlertStatus, type CreateHttpIntegrationVariables, type Integration,
  type TestAlertVariables, type UpdateHttpIntegrationVariables,
} from '../../api/alerts.ts';
import { useConnection } from '../../api/react.ts';
import { REPEAT_AFTER_MS, useWrite } from '../../components/use-write.ts';

/** Everything of one project's alerts area: lists, details, integrations. */
function useInvalidateProject() {
  const queryClient = useQueryClient();
  return (projectPath: string) => queryClient.invalidateQueries({ queryKey: [...alertsQueries.all(), { project: projectPath }] });
}

// an integration added, deleted and added again under the same name: a later press is a new one
export function useCreateHttpIntegration() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: CreateHttpIntegrationVariables) => createHttpIntegration(connection, variables), refresh: ({ projectPath }) => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

export function useCreatePrometheusIntegration() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: { projectPath: string; active: boolean }) => createPrometheusIntegration(connection, variables), refresh: ({ projectPath }) => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

export function useUpdateHttpIntegration(projectPath: string) {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: UpdateHttpIntegrationVariables) => updateHttpIntegration(connection, variables), refresh: () => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

/** Activate or deactivate; pressing again later (to undo) is a new press. */
export function useSetIntegrationActive(projectPath: string) {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({
    send: (variables: { integration: Pick<Integration, 'id' | 'type'>; active: boolean }) => setIntegrationActive(connection, variables.integration, variables.active),
    refresh: () => invalidate(projectPath),
    repeatAfterMs: REPEAT_AFTER_MS,
  });
}

/** A new key; the old one is refused from the answer on. A later reset is a new press. */
export function useResetIntegrationToken(projectPath: string) {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (integration: Pick<Integration, 'id' | 'type'>) => resetIntegrationToken(connection, integration), refresh: () => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

export function useDestroyIntegration(projectPath: string) {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (id: string) => destroyHttpIntegration(connection, id), refresh: () => invalidate(projectPath) });
}

export function useUpdateAlertStatus() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: AlertRef & { status: AlertStatus }) => updateAlertStatus(connection, variables), refresh: ({ projectPath }) => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

export function useSetAlertAssignees() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: AlertRef & { assigneeUsernames: string[] }) => setAlertAssignees(connection, variables), refresh: ({ projectPath }) => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}

export function useCreateAlertIssue() {
  const connection = useConnection();
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: AlertRef) => createAlertIssue(connection, variables), refresh: ({ projectPath }) => invalidate(projectPath) });
}

/**
 * A test alert; sending the same payload again later is on purpose (it adds an event), so the
 * same input may go again once a double click's time has passed.
 */
export function useSendTestAlert(projectPath: string) {
  const invalidate = useInvalidateProject();
  return useWrite({ send: (variables: TestAlertVariables) => sendTestAlert(variables), refresh: () => invalidate(projectPath), repeatAfterMs: REPEAT_AFTER_MS });
}
