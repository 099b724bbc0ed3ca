import type { QueryClient } from '@tanstack/react-query';
import { branchesQueries } from '../../api/branches.ts';
import type { Connection } from '../../api/http.ts';
import { prefetchMyAccess } from '../../api/members.ts';
import type { SessionStore } from '../../api/session.ts';
import { regexCheckQuery } from './regex-check.ts';
import { branchListParams, type BranchesSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/**
 * The list loads before the first paint, with the caller's role and the protection rules beside
 * it. A regex RE2 refuses is not sent (RE2's own port decides, loaded only when there is a regex);
 * the screen shows the reason, or a refusal from the server, next to the filter that caused it.
 */
export async function loadBranches(context: LoaderContext, projectId: number, search: BranchesSearch) {
  prefetchMyAccess(context, { project: projectId });
  void context.queryClient.prefetchQuery(branchesQueries.protections(context.api, projectId));
  if (search.regex && (await context.queryClient.ensureQueryData(regexCheckQuery(search.regex)))) return undefined;
  return context.queryClient.ensureQueryData(branchesQueries.list(context.api, projectId, branchListParams(search))).catch(() => undefined);
}
