import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { mergeRequestsQueries } from '../../../../../api/merge-requests.ts';
import { DiffViewer } from '../../../../../features/merge-requests/diff-viewer.tsx';
import { DIFF_SEARCH_DEFAULTS, diffSearchSchema, type DiffSearch } from '../../../../../features/merge-requests/diff-search.ts';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid/changes')({
  validateSearch: diffSearchSchema,
  search: { middlewares: [stripSearchParams(DIFF_SEARCH_DEFAULTS)] },
  // the first page of files paints the tab; the others load beside it
  loader: ({ context, params }) => {
    const { projectId, mergeRequestIid } = idParams(params);
    return context.queryClient.ensureQueryData(mergeRequestsQueries.diffs(context.api, projectId, mergeRequestIid, 1));
  },
  component: ChangesRoute,
});

function ChangesRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const onSearch = (changes: Partial<DiffSearch>) => void navigate({ search: (previous) => ({ ...previous, ...changes }), replace: true, resetScroll: false });
  return <DiffViewer projectId={Number(projectId)} iid={Number(mergeRequestIid)} search={search} onSearch={onSearch} />;
}
