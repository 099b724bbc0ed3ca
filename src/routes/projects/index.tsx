import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { projectsQueries } from '../../api/projects.ts';
import { ProjectsScreen } from '../../features/projects/projects-screen.tsx';
import { PROJECTS_SEARCH_DEFAULTS, projectListParams, projectsSearchSchema } from '../../features/projects/search.ts';

export const Route = createFileRoute('/projects/')({
  validateSearch: projectsSearchSchema,
  search: { middlewares: [stripSearchParams(PROJECTS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, api, session }, deps }) => queryClient.ensureQueryData(projectsQueries.list(api, projectListParams(deps, Boolean(session.getActive()?.connection.isAdmin)))),
  component: ProjectsRoute,
});

function ProjectsRoute() {
  return <ProjectsScreen search={Route.useSearch()} />;
}
