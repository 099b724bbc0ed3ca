import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { BoardScreen } from '../../../features/boards/board-screen.tsx';
import { loadBoards } from '../../../features/boards/route-options.ts';
import { boardSearchSchema } from '../../../features/boards/search.ts';

export const Route = createFileRoute('/projects/$projectId/boards')({
  validateSearch: boardSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return loadBoards(context, { project: Number(params.projectId) }, deps.board);
  },
  component: ProjectBoardsRoute,
});

function ProjectBoardsRoute() {
  const { projectId } = Route.useParams();
  const { board } = Route.useSearch();
  const { api } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return (
    <BoardScreen
      scope={{ project: Number(projectId) }}
      boardId={board}
      onSelectBoard={(next) => void navigate({ search: { board: next }, replace: true })}
      sourceName={project?.name_with_namespace}
    />
  );
}
