import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { PipelinesScreen } from '../../../../features/pipelines/pipelines-screen.tsx';
import { loadPipelines } from '../../../../features/pipelines/route-options.ts';
import { PIPELINES_SEARCH_DEFAULTS, pipelinesSearchSchema } from '../../../../features/pipelines/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/')({
  validateSearch: pipelinesSearchSchema,
  search: { middlewares: [stripSearchParams(PIPELINES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const { projectId } = idParams(params);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    return loadPipelines(context, projectId, deps);
  },
  component: ProjectPipelinesRoute,
});

function ProjectPipelinesRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <PipelinesScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} search={Route.useSearch()} />;
}
