import type { QueryClient } from '@tanstack/react-query';
import { deployKeysQueries } from '../../api/deploy-keys.ts';
import type { Connection } from '../../api/http.ts';
import { prefetchMyAccess } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import type { InstanceDeployKeysSearch, ProjectDeployKeysSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/** A project's keys are its Maintainers': others get the screen's explanation, and errors show beside the actions. */
export function loadProjectDeployKeys(context: LoaderContext, projectId: number, search: ProjectDeployKeysSearch) {
  prefetchMyAccess(context, { project: projectId });
  return context.queryClient.ensureQueryData(deployKeysQueries.project(context.api, projectId, search)).catch(() => undefined);
}

/** Only administrators are sent to GET /deploy_keys. */
export function loadInstanceDeployKeys(context: LoaderContext, search: InstanceDeployKeysSearch) {
  if (!context.session.getActive()?.connection.isAdmin) return undefined;
  return context.queryClient.ensureQueryData(deployKeysQueries.instance(context.api, { page: search.page, per_page: search.per_page, public: search.public })).catch(() => undefined);
}
