import type { QueryClient } from '@tanstack/react-query';
import type { Connection } from '../../api/http.ts';
import { whenRoleAllows } from '../../api/members.ts';
import { runnersQueries, type RunnerScope } from '../../api/runners.ts';
import type { SessionStore } from '../../api/session.ts';
import { fleetAccess } from './permissions.ts';
import { runnerJobsParams, runnerListParams, type RunnerSearch, type RunnersSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/**
 * The list blocks the first paint; the counts load after it. Who may not see the fleet gets the
 * screen's explanation, and the platform is not asked for a list it would refuse: the instance's
 * is for administrators, a group's or project's waits for the caller's role (the shell often holds it).
 */
export function loadFleet(context: LoaderContext, scope: RunnerScope, search: RunnersSearch) {
  const list = () => context.queryClient.ensureQueryData(runnersQueries.list(context.api, scope, runnerListParams(search)));
  if (scope === 'instance') return context.session.getActive()?.connection.isAdmin ? list() : undefined;
  return whenRoleAllows(context, scope, (caller) => fleetAccess(scope, { ...caller, canWrite: false }).canView, list);
}

/**
 * The runner blocks; an administrator's view of its jobs loads beside it. Anyone else's waits for
 * the screen to know the runner's owner and their role there (the jobs are its owners' to see).
 */
export function loadRunner(context: LoaderContext, runnerId: number, search: RunnerSearch) {
  const runner = context.queryClient.ensureQueryData(runnersQueries.detail(context.api, runnerId));
  if (context.session.getActive()?.connection.isAdmin) void context.queryClient.prefetchQuery(runnersQueries.jobs(context.api, runnerId, runnerJobsParams(search)));
  return runner;
}
