import type { QueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import type { Connection } from '../../api/http.ts';
import { membersQueries } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { re2Problem } from './re2.ts';
import { branchListParams, type BranchesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/**
 * The list loads before the first paint, with the caller's role and the protection rules beside
 * it. A regex RE2 would refuse is not sent, and a refused one (400) is left to the screen, which
 * shows the reason next to the filter that caused it.
 */
export function loadBranches(context: LoaderContext, projectId: number, search: BranchesSearch) {
  const me = context.session.getActive()?.connection;
  if (!me?.isAdmin) void context.queryClient.prefetchQuery(membersQueries.myAccess(context.api, { project: projectId }, me?.userId ?? 0));
  void context.queryClient.prefetchQuery(branchesQueries.protections(context.api, projectId));
  if (search.regex && re2Problem(search.regex)) return undefined;
  return context.queryClient.ensureQueryData(branchesQueries.list(context.api, projectId, branchListParams(search))).catch(() => undefined);
}
