import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { MERGE_REQUEST_BOARD_SEARCH_DEFAULTS, mergeRequestBoardSearchSchema } from '../../../features/merge-requests/search.ts';
import { MergeRequestBoardScreen } from '../../../features/merge-requests/board-screen.tsx';
import { loadBoard } from '../../../features/merge-requests/board-queries.ts';

export const Route = createFileRoute('/projects/$projectId/merge-request-board')({
  validateSearch: mergeRequestBoardSearchSchema,
  search: { middlewares: [stripSearchParams(MERGE_REQUEST_BOARD_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return loadBoard(context, { project: Number(params.projectId) }, deps);
  },
  component: ProjectMergeRequestBoardRoute,
});

function ProjectMergeRequestBoardRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <MergeRequestBoardScreen scope={{ project: Number(projectId) }} sourceName={project?.name_with_namespace} search={Route.useSearch()} />;
}
