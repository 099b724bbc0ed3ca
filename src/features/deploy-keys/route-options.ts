import type { QueryClient } from '@tanstack/react-query';
import { deployKeysQueries } from '../../api/deploy-keys.ts';
import type { Connection } from '../../api/http.ts';
import { whenRoleAllows } from '../../api/members.ts';
import { projectKeysRefusal } from './permissions.ts';
import type { SessionStore } from '../../api/session.ts';
import type { InstanceDeployKeysSearch, ProjectDeployKeysSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/** A project's keys are its Maintainers': others get the screen's explanation (the list is not asked for), and errors show beside the actions. */
export function loadProjectDeployKeys(context: LoaderContext, projectId: number, search: ProjectDeployKeysSearch) {
  return whenRoleAllows(context, { project: projectId }, (caller) => projectKeysRefusal({ ...caller, canWrite: false }) === null, () => context.queryClient.ensureQueryData(deployKeysQueries.project(context.api, projectId, search))).catch(() => undefined);
}

/** Only administrators are sent to GET /deploy_keys. */
export function loadInstanceDeployKeys(context: LoaderContext, search: InstanceDeployKeysSearch) {
  if (!context.session.getActive()?.connection.isAdmin) return undefined;
  return context.queryClient.ensureQueryData(deployKeysQueries.instance(context.api, { page: search.page, per_page: search.per_page, public: search.public })).catch(() => undefined);
}
