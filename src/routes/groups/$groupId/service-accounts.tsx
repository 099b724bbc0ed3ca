import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ServiceAccountsScreen } from '../../../features/service-accounts/accounts-screen.tsx';
import { loadServiceAccounts } from '../../../features/service-accounts/route-options.ts';
import { ACCOUNTS_SEARCH_DEFAULTS, accountsSearchSchema } from '../../../features/service-accounts/search.ts';

export const Route = createFileRoute('/groups/$groupId/service-accounts')({
  validateSearch: accountsSearchSchema,
  search: { middlewares: [stripSearchParams(ACCOUNTS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadServiceAccounts(context, { group: Number(params.groupId) }, deps),
  component: GroupServiceAccountsRoute,
});

function GroupServiceAccountsRoute() {
  const { groupId } = Route.useParams();
  return <ServiceAccountsScreen scope={{ group: Number(groupId) }} search={Route.useSearch()} />;
}
