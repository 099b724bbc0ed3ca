import type { QueryClient } from '@tanstack/react-query';
import { alertsQueries } from '../../api/alerts.ts';
import type { Connection } from '../../api/http.ts';
import { projectsQueries } from '../../api/projects.ts';
import { alertListParams, type AlertListSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** GraphQL names a project by its full path: the project is read first (usually already cached). */
async function projectPath(context: LoaderContext, projectId: number): Promise<string> {
  return (await context.queryClient.ensureQueryData(projectsQueries.detail(context.api, projectId))).path_with_namespace;
}

/** The list; a failure shows on the screen with a retry, not as the route's error. */
export async function loadAlerts(context: LoaderContext, projectId: number, search: AlertListSearch) {
  const fullPath = await projectPath(context, projectId).catch(() => null);
  if (fullPath) await context.queryClient.ensureQueryData(alertsQueries.list(context.api, fullPath, alertListParams(search))).catch(() => undefined);
}

export async function loadAlert(context: LoaderContext, projectId: number, iid: number) {
  const fullPath = await projectPath(context, projectId).catch(() => null);
  if (fullPath) await context.queryClient.ensureQueryData(alertsQueries.detail(context.api, fullPath, iid)).catch(() => undefined);
}

export async function loadIntegrations(context: LoaderContext, projectId: number) {
  const fullPath = await projectPath(context, projectId).catch(() => null);
  if (fullPath) await context.queryClient.ensureQueryData(alertsQueries.integrations(context.api, fullPath)).catch(() => undefined);
}
