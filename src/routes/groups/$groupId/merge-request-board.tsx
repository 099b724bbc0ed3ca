import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { groupsQueries, prefetchGroup } from '../../../api/groups.ts';
import { MERGE_REQUEST_BOARD_SEARCH_DEFAULTS, mergeRequestBoardSearchSchema } from '../../../features/merge-requests/search.ts';
import { MergeRequestBoardScreen } from '../../../features/merge-requests/board-screen.tsx';
import { loadBoard } from '../../../features/merge-requests/board-queries.ts';

export const Route = createFileRoute('/groups/$groupId/merge-request-board')({
  validateSearch: mergeRequestBoardSearchSchema,
  search: { middlewares: [stripSearchParams(MERGE_REQUEST_BOARD_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    prefetchGroup(context, Number(params.groupId));
    return loadBoard(context, { group: Number(params.groupId) }, deps);
  },
  component: GroupMergeRequestBoardRoute,
});

function GroupMergeRequestBoardRoute() {
  const { groupId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const group = useQuery(groupsQueries.detail(api, Number(groupId))).data;
  return <MergeRequestBoardScreen scope={{ group: Number(groupId) }} sourceName={group?.full_name} search={Route.useSearch()} />;
}
