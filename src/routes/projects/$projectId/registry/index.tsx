import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { RepositoriesScreen } from '../../../../features/registry/repositories-screen.tsx';
import { loadRepositories } from '../../../../features/registry/route-options.ts';
import { REPOSITORIES_SEARCH_DEFAULTS, repositoriesSearchSchema } from '../../../../features/registry/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/registry/')({
  validateSearch: repositoriesSearchSchema,
  search: { middlewares: [stripSearchParams(REPOSITORIES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { projectId } = idParams(params);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    return loadRepositories(context, { project: projectId }, deps);
  },
  component: ProjectRegistryRoute,
});

function ProjectRegistryRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <RepositoriesScreen scope={{ project: Number(projectId) }} scopeName={project?.name_with_namespace} search={Route.useSearch()} />;
}
