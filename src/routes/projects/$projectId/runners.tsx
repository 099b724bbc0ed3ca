import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { FleetScreen } from '../../../features/runners/fleet-screen.tsx';
import { loadFleet } from '../../../features/runners/route-options.ts';
import { RUNNERS_SEARCH_DEFAULTS, runnersSearchSchema } from '../../../features/runners/search.ts';

export const Route = createFileRoute('/projects/$projectId/runners')({
  validateSearch: runnersSearchSchema,
  search: { middlewares: [stripSearchParams(RUNNERS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const list = loadFleet(context, { project: Number(params.projectId) }, deps);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return list;
  },
  component: ProjectRunnersRoute,
});

function ProjectRunnersRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <FleetScreen scope={{ project: Number(projectId) }} scopeName={project?.name_with_namespace} search={Route.useSearch()} />;
}
