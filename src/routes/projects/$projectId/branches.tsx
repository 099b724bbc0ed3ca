import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { BranchesScreen } from '../../../features/branches/branches-screen.tsx';
import { loadBranches } from '../../../features/branches/route-options.ts';
import { BRANCHES_SEARCH_DEFAULTS, branchesSearchSchema } from '../../../features/branches/search.ts';

export const Route = createFileRoute('/projects/$projectId/branches')({
  validateSearch: branchesSearchSchema,
  search: { middlewares: [stripSearchParams(BRANCHES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return loadBranches(context, Number(params.projectId), deps);
  },
  component: ProjectBranchesRoute,
});

function ProjectBranchesRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <BranchesScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} defaultBranch={project?.default_branch} search={Route.useSearch()} />;
}
