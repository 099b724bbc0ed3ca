import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { prefetchMyAccess } from '../../../../api/members.ts';
import { RunPipelineScreen } from '../../../../features/pipelines/run-pipeline-screen.tsx';
import { runPipelineSearchSchema } from '../../../../features/pipelines/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/pipelines/new')({
  validateSearch: runPipelineSearchSchema,
  search: { middlewares: [stripSearchParams({ ref: '' })] },
  // the project names the default branch and the full path the CI file's variables are asked by
  loader: ({ context, params }) => {
    const { projectId } = idParams(params);
    prefetchMyAccess(context, { project: projectId });
    return context.queryClient.ensureQueryData(projectsQueries.detail(context.api, projectId));
  },
  component: RunPipelineRoute,
});

function RunPipelineRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return (
    <RunPipelineScreen
      projectId={Number(projectId)}
      projectName={project?.name_with_namespace}
      fullPath={project?.path_with_namespace}
      defaultBranch={project?.default_branch}
      initialRef={Route.useSearch().ref}
    />
  );
}
