import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { PackagesScreen } from '../../../features/packages/packages-screen.tsx';
import { loadPackages } from '../../../features/packages/route-options.ts';
import { PACKAGES_SEARCH_DEFAULTS, packagesSearchSchema } from '../../../features/packages/search.ts';
import { idParams } from '../../../lib/route-params.ts';

export const Route = createFileRoute('/groups/$groupId/packages')({
  validateSearch: packagesSearchSchema,
  search: { middlewares: [stripSearchParams(PACKAGES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { groupId } = idParams(params);
    prefetchGroup(context, groupId);
    return loadPackages(context, { group: groupId }, deps);
  },
  component: GroupPackagesRoute,
});

function GroupPackagesRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <PackagesScreen scope={{ group: Number(groupId) }} ownerName={group?.full_name} search={Route.useSearch()} />;
}
