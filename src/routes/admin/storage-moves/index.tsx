import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { MovesScreen } from '../../../features/storage-moves/moves-screen.tsx';
import { loadMoves } from '../../../features/storage-moves/route-options.ts';
import { MOVES_SEARCH_DEFAULTS, movesSearchSchema } from '../../../features/storage-moves/search.ts';

export const Route = createFileRoute('/admin/storage-moves/')({
  validateSearch: movesSearchSchema,
  search: { middlewares: [stripSearchParams(MOVES_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadMoves(context, deps),
  component: StorageMovesRoute,
});

function StorageMovesRoute() {
  return <MovesScreen search={Route.useSearch()} />;
}
