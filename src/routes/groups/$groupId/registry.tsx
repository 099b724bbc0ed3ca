import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { RepositoriesScreen } from '../../../features/registry/repositories-screen.tsx';
import { loadRepositories } from '../../../features/registry/route-options.ts';
import { REPOSITORIES_SEARCH_DEFAULTS, repositoriesSearchSchema } from '../../../features/registry/search.ts';
import { idParams } from '../../../lib/route-params.ts';

export const Route = createFileRoute('/groups/$groupId/registry')({
  validateSearch: repositoriesSearchSchema,
  search: { middlewares: [stripSearchParams(REPOSITORIES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { groupId } = idParams(params);
    prefetchGroup(context, groupId);
    return loadRepositories(context, { group: groupId }, deps);
  },
  component: GroupRegistryRoute,
});

function GroupRegistryRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <RepositoriesScreen scope={{ group: Number(groupId) }} scopeName={group?.full_name} search={Route.useSearch()} />;
}
