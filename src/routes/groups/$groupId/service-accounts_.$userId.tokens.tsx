import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { AccountTokensScreen } from '../../../features/service-accounts/account-tokens-screen.tsx';
import { loadAccountTokens } from '../../../features/service-accounts/route-options.ts';
import { ACCOUNT_TOKENS_SEARCH_DEFAULTS, accountTokensSearchSchema } from '../../../features/service-accounts/search.ts';

export const Route = createFileRoute('/groups/$groupId/service-accounts_/$userId/tokens')({
  validateSearch: accountTokensSearchSchema,
  search: { middlewares: [stripSearchParams(ACCOUNT_TOKENS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadAccountTokens(context, { group: Number(params.groupId) }, Number(params.userId), deps),
  component: GroupAccountTokensRoute,
});

function GroupAccountTokensRoute() {
  const { groupId, userId } = Route.useParams();
  return <AccountTokensScreen scope={{ group: Number(groupId) }} userId={Number(userId)} search={Route.useSearch()} />;
}
