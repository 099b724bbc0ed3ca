import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { whenRoleAllows } from '../../api/members.ts';
import { packagesQueries, type PackageScope } from '../../api/packages.ts';
import { projectsQueries } from '../../api/projects.ts';
import type { SessionStore } from '../../api/session.ts';
import { rulesRefusal } from './protection-access.ts';
import { packageListParams, type PackagesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection };

/** The list's page; a failed list shows on the screen (with its retry), not as the route's error. */
export function loadPackages(context: LoaderContext, scope: PackageScope, search: PackagesSearch) {
  return context.queryClient.ensureQueryData(packagesQueries.list(context.api, scope, packageListParams(scope, search))).catch(() => undefined);
}

export const PACKAGE_FILES_PER_PAGE = 20;

/** The package, with its project (for the install steps) and its page of files asked beside it. */
export function loadPackage(context: LoaderContext, projectId: number, packageId: number, filesPage: number) {
  void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
  void context.queryClient.prefetchQuery(packagesQueries.files(context.api, projectId, packageId, { page: filesPage, per_page: PACKAGE_FILES_PER_PAGE }));
  return context.queryClient.ensureQueryData(packagesQueries.detail(context.api, projectId, packageId));
}

/** The package protection rules, for whom the screen shows them: below Maintainer, or with a read-only token, it says why and they are not asked for. */
export function loadProtectionRules(context: LoaderContext & { session: SessionStore }, projectId: number) {
  void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
  const canWrite = Boolean(context.session.getActive()?.connection.canWrite);
  return whenRoleAllows(context, { project: projectId }, (caller) => rulesRefusal({ ...caller, canWrite }) === null, () => context.queryClient.ensureQueryData(packagesQueries.rules(context.api, projectId))).catch(() => undefined);
}
