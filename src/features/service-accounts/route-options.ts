import type { QueryClient } from '@tanstack/react-query';
import { ensureGroup } from '../../api/groups.ts';
import type { Connection } from '../../api/http.ts';
import { ensureMyAccess } from '../../api/members.ts';
import { serviceAccountsQueries, type ServiceAccountScope } from '../../api/service-accounts.ts';
import type { SessionStore } from '../../api/session.ts';
import { usersQueries } from '../../api/users.ts';
import { serviceAccountAccess } from './permissions.ts';
import { accountListParams, accountTokenListParams, type AccountTokensSearch, type AccountsSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

/**
 * Whether the caller may see the scope's service accounts, from what decides it: the group (a
 * subgroup has none) and the caller's role in it, both usually held by the shell already. Whoever
 * may not gets the screen's note, and the platform is not asked for a list it would refuse.
 */
async function mayView(context: LoaderContext, scope: ServiceAccountScope): Promise<boolean> {
  if (scope === 'instance') return Boolean(context.session.getActive()?.connection.isAdmin);
  // a role that could not be read is the screen's to say, with a retry: the loader asks for nothing more
  const [group, caller] = await Promise.all([ensureGroup(context.queryClient, context.api, scope.group), ensureMyAccess(context, scope).catch(() => undefined)]);
  return caller !== undefined && serviceAccountAccess(scope, { ...caller, canWrite: false }, { parentId: group.parent_id }).canView;
}

/** The caller's rights, then the list if they may see it. */
export async function loadServiceAccounts(context: LoaderContext, scope: ServiceAccountScope, search: AccountsSearch) {
  if (!(await mayView(context, scope))) return undefined;
  return context.queryClient.ensureQueryData(serviceAccountsQueries.list(context.api, scope, accountListParams(search)));
}

/** The caller's rights, then one account's tokens if they may see them; the account's profile (its name) loads alongside. */
export async function loadAccountTokens(context: LoaderContext, scope: ServiceAccountScope, userId: number, search: AccountTokensSearch) {
  void context.queryClient.prefetchQuery(usersQueries.detail(context.api, userId));
  if (!(await mayView(context, scope))) return undefined;
  return context.queryClient.ensureQueryData(serviceAccountsQueries.tokens(context.api, scope, userId, accountTokenListParams(search)));
}
