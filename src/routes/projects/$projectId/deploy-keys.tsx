import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { ProjectKeysScreen } from '../../../features/deploy-keys/project-keys-screen.tsx';
import { loadProjectDeployKeys } from '../../../features/deploy-keys/route-options.ts';
import { PROJECT_DEPLOY_KEYS_SEARCH_DEFAULTS, projectDeployKeysSearchSchema } from '../../../features/deploy-keys/search.ts';

export const Route = createFileRoute('/projects/$projectId/deploy-keys')({
  validateSearch: projectDeployKeysSearchSchema,
  search: { middlewares: [stripSearchParams(PROJECT_DEPLOY_KEYS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return loadProjectDeployKeys(context, Number(params.projectId), deps);
  },
  component: ProjectDeployKeysRoute,
});

function ProjectDeployKeysRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <ProjectKeysScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} search={Route.useSearch()} />;
}
