import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { loadTree } from '../../../features/files/route-options.ts';
import { REF_SEARCH_DEFAULTS, refSearchSchema } from '../../../features/files/search.ts';
import { TreeScreen } from '../../../features/files/tree-screen.tsx';

export const Route = createFileRoute('/projects/$projectId/tree/$')({
  validateSearch: refSearchSchema,
  search: { middlewares: [stripSearchParams(REF_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadTree(context, Number(params.projectId), params._splat ?? '', deps.ref),
  component: TreeRoute,
});

function TreeRoute() {
  const { projectId, _splat } = Route.useParams();
  const { ref } = Route.useSearch();
  return <TreeScreen projectId={Number(projectId)} path={_splat ?? ''} urlRef={ref} />;
}
