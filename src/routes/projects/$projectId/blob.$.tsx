import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { BlobScreen } from '../../../features/files/blob-screen.tsx';
import { loadFile } from '../../../features/files/route-options.ts';
import { REF_SEARCH_DEFAULTS, refSearchSchema } from '../../../features/files/search.ts';

export const Route = createFileRoute('/projects/$projectId/blob/$')({
  validateSearch: refSearchSchema,
  search: { middlewares: [stripSearchParams(REF_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadFile(context, Number(params.projectId), params._splat ?? '', deps.ref),
  component: BlobRoute,
});

function BlobRoute() {
  const { projectId, _splat } = Route.useParams();
  const { ref } = Route.useSearch();
  return <BlobScreen projectId={Number(projectId)} path={_splat ?? ''} urlRef={ref} />;
}
