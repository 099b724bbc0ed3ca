import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MERGE_REQUEST_BOARD_SEARCH_DEFAULTS, mergeRequestBoardSearchSchema } from '../../features/merge-requests/search.ts';
import { MergeRequestBoardScreen } from '../../features/merge-requests/board-screen.tsx';
import { loadBoard } from '../../features/merge-requests/board-queries.ts';

/** The caller's review queue: the board of every open request, in every project, that asks them for a review. */
export const Route = createFileRoute('/merge-requests/board')({
  validateSearch: mergeRequestBoardSearchSchema,
  search: { middlewares: [stripSearchParams(MERGE_REQUEST_BOARD_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadBoard(context, 'instance', deps),
  component: ReviewQueueRoute,
});

function ReviewQueueRoute() {
  return <MergeRequestBoardScreen scope="instance" search={Route.useSearch()} />;
}
