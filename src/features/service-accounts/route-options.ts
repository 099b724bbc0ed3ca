import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { ensureGroup } from '../../api/groups.ts';
import type { Connection } from '../../api/http.ts';
import { ensureMyAccess } from '../../api/members.ts';
import { serviceAccountsQueries, type ServiceAccountScope } from '../../api/service-accounts.ts';
import type { SessionStore } from '../../api/session.ts';
import { usersQueries } from '../../api/users.ts';
import { accountListParams, accountTokenListParams, type AccountTokensSearch, type AccountsSearch } from './search.ts';

type LoaderContext = { queryClient: QueryClient; api: Connection; session: SessionStore };

// a caller who may not see the list gets a note saying why (from their role), not an error screen
const refusedAsNull = (error: unknown) => {
  if (error instanceof ApiError && error.status === 403) return null;
  throw error;
};

/** What decides the caller's rights: the group (top-level or not) and their role in it, fetched beside the list. */
function loadAccess(context: LoaderContext, scope: ServiceAccountScope): Array<Promise<unknown>> {
  if (scope === 'instance') return [];
  const group = ensureGroup(context.queryClient, context.api, scope.group);
  return [group, ensureMyAccess(context, scope)];
}

const mayAsk = (context: LoaderContext, scope: ServiceAccountScope) => scope !== 'instance' || Boolean(context.session.getActive()?.connection.isAdmin);

/** The list and the caller's rights, in parallel; an instance list is not asked for by a non-administrator. */
export function loadServiceAccounts(context: LoaderContext, scope: ServiceAccountScope, search: AccountsSearch) {
  const list = mayAsk(context, scope) ? context.queryClient.ensureQueryData(serviceAccountsQueries.list(context.api, scope, accountListParams(search))).catch(refusedAsNull) : null;
  return Promise.all([list, ...loadAccess(context, scope)]);
}

/** One account's tokens and the caller's rights; the account's profile (its name) loads alongside. */
export function loadAccountTokens(context: LoaderContext, scope: ServiceAccountScope, userId: number, search: AccountTokensSearch) {
  const tokens = mayAsk(context, scope)
    ? context.queryClient.ensureQueryData(serviceAccountsQueries.tokens(context.api, scope, userId, accountTokenListParams(search))).catch(refusedAsNull)
    : null;
  void context.queryClient.prefetchQuery(usersQueries.detail(context.api, userId));
  return Promise.all([tokens, ...loadAccess(context, scope)]);
}
