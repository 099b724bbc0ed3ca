import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { DurationsScreen } from '../../../../features/pipelines/durations-screen.tsx';
import { PIPELINE_CHART_SEARCH_DEFAULTS, pipelineChartSearchSchema } from '../../../../features/pipelines/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/charts')({
  validateSearch: pipelineChartSearchSchema,
  search: { middlewares: [stripSearchParams(PIPELINE_CHART_SEARCH_DEFAULTS)] },
  // without a ref in the URL the chart is of the default branch, which the project names
  loader: ({ context, params }) => context.queryClient.ensureQueryData(projectsQueries.detail(context.api, idParams(params).projectId)),
  component: PipelineDurationsRoute,
});

function PipelineDurationsRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <DurationsScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} defaultBranch={project?.default_branch} search={Route.useSearch()} />;
}
