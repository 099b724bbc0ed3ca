import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import type { Connection } from '../../api/http.ts';
import { prefetchMyAccess } from '../../api/members.ts';
import { runnersQueries, type RunnerScope } from '../../api/runners.ts';
import type { SessionStore } from '../../api/session.ts';
import { runnerJobsParams, runnerListParams, type RunnerSearch, type RunnersSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/**
 * The list blocks the first paint; the counts and the caller's role load alongside. Who may not
 * see the fleet gets the screen's explanation, not an error page: a non-administrator is not even
 * sent to /runners/all, and a 403 on a group's or project's list is left to the screen.
 */
export function loadFleet(context: LoaderContext, scope: RunnerScope, search: RunnersSearch) {
  const me = context.session.getActive()?.connection;
  if (scope === 'instance' && !me?.isAdmin) return undefined;
  const list = context.queryClient.ensureQueryData(runnersQueries.list(context.api, scope, runnerListParams(search)));
  if (scope === 'instance' || me?.isAdmin) return list;
  prefetchMyAccess(context, scope);
  return list.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 403) return undefined;
    throw error;
  });
}

/** The runner blocks; its jobs (which may be refused to readers) load beside it. */
export function loadRunner(context: LoaderContext, runnerId: number, search: RunnerSearch) {
  const runner = context.queryClient.ensureQueryData(runnersQueries.detail(context.api, runnerId));
  void context.queryClient.prefetchQuery(runnersQueries.jobs(context.api, runnerId, runnerJobsParams(search)));
  return runner;
}
