import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { BoardScreen } from '../../../features/boards/board-screen.tsx';
import { loadBoards } from '../../../features/boards/route-options.ts';
import { boardSearchSchema } from '../../../features/boards/search.ts';

export const Route = createFileRoute('/groups/$groupId/boards')({
  validateSearch: boardSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    prefetchGroup(context, Number(params.groupId));
    return loadBoards(context, { group: Number(params.groupId) }, deps.board);
  },
  component: GroupBoardsRoute,
});

function GroupBoardsRoute() {
  const { groupId } = Route.useParams();
  const { board } = Route.useSearch();
  const { api } = Route.useRouteContext();
  const navigate = Route.useNavigate();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return (
    <BoardScreen
      scope={{ group: Number(groupId) }}
      boardId={board}
      onSelectBoard={(next) => void navigate({ search: { board: next }, replace: true })}
      sourceName={group?.full_name}
    />
  );
}
