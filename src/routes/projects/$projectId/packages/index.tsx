import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { PackagesScreen } from '../../../../features/packages/packages-screen.tsx';
import { loadPackages } from '../../../../features/packages/route-options.ts';
import { PACKAGES_SEARCH_DEFAULTS, packagesSearchSchema } from '../../../../features/packages/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/packages/')({
  validateSearch: packagesSearchSchema,
  search: { middlewares: [stripSearchParams(PACKAGES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { projectId } = idParams(params);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    return loadPackages(context, { project: projectId }, deps);
  },
  component: ProjectPackagesRoute,
});

function ProjectPackagesRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <PackagesScreen scope={{ project: Number(projectId) }} ownerName={project?.name_with_namespace} search={Route.useSearch()} />;
}
