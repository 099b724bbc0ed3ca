import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries } from '../../../api/groups.ts';
import { TokensScreen } from '../../../features/access-tokens/tokens-screen.tsx';
import { TOKENS_SEARCH_DEFAULTS, tokensSearchSchema } from '../../../features/access-tokens/search.ts';
import { loadGroupTokens } from '../../../features/access-tokens/route-options.ts';

export const Route = createFileRoute('/groups/$groupId/access-tokens')({
  validateSearch: tokensSearchSchema,
  search: { middlewares: [stripSearchParams(TOKENS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadGroupTokens(context, Number(params.groupId), deps),
  component: GroupTokensRoute,
});

function GroupTokensRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <TokensScreen groupId={Number(groupId)} groupName={group?.full_name} search={Route.useSearch()} />;
}
