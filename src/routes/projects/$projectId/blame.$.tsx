import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { BlameScreen } from '../../../features/files/blame-screen.tsx';
import { prefetchFirstBlameLines } from '../../../features/files/blame-route-options.ts';
import { BLAME_SEARCH_DEFAULTS, blameSearchSchema } from '../../../features/files/blame-search.ts';

export const Route = createFileRoute('/projects/$projectId/blame/$')({
  validateSearch: blameSearchSchema,
  search: { middlewares: [stripSearchParams(BLAME_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ ref: search.ref }),
  loader: ({ context, params, deps, location, cause }) => {
    // a line click changes only the hash: its range is the screen's business, under the pinned commit
    if (cause !== 'stay') prefetchFirstBlameLines(context, Number(params.projectId), params._splat ?? '', deps.ref, location.hash);
  },
  component: BlameRoute,
});

function BlameRoute() {
  const { projectId, _splat } = Route.useParams();
  const { ref } = Route.useSearch();
  return <BlameScreen projectId={Number(projectId)} filePath={_splat ?? ''} gitRef={ref} />;
}
