import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { MERGE_REQUESTS_SEARCH_DEFAULTS, mergeRequestsRouteOptions } from '../../../../features/merge-requests/search.ts';
import { MergeRequestListScreen } from '../../../../features/merge-requests/merge-request-list-screen.tsx';
import { loadMergeRequests } from '../../../../features/merge-requests/route-options.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/')({
  ...mergeRequestsRouteOptions,
  search: { middlewares: [stripSearchParams(MERGE_REQUESTS_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => {
    const list = loadMergeRequests(context, { project: Number(params.projectId) }, deps);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return list;
  },
  component: ProjectMergeRequestsRoute,
});

function ProjectMergeRequestsRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <MergeRequestListScreen scope={{ project: Number(projectId) }} sourceName={project?.name_with_namespace} search={Route.useSearch()} />;
}
