import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ServiceAccountsScreen } from '../../features/service-accounts/accounts-screen.tsx';
import { loadServiceAccounts } from '../../features/service-accounts/route-options.ts';
import { ACCOUNTS_SEARCH_DEFAULTS, accountsSearchSchema } from '../../features/service-accounts/search.ts';

export const Route = createFileRoute('/admin/service-accounts')({
  validateSearch: accountsSearchSchema,
  search: { middlewares: [stripSearchParams(ACCOUNTS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadServiceAccounts(context, 'instance', deps),
  component: InstanceServiceAccountsRoute,
});

function InstanceServiceAccountsRoute() {
  return <ServiceAccountsScreen scope="instance" search={Route.useSearch()} />;
}
