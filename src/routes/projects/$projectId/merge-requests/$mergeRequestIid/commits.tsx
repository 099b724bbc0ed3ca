import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { loadMergeRequestCommits } from '../../../../../features/merge-requests/detail-route-options.ts';
import { mergeRequestCommitsSearchSchema } from '../../../../../features/merge-requests/merge-request-commits-search.ts';
import { MergeRequestCommits } from '../../../../../features/merge-requests/merge-request-commits.tsx';
import { idParams } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid/commits')({
  validateSearch: mergeRequestCommitsSearchSchema,
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, params, deps }) => {
    const { projectId, mergeRequestIid } = idParams(params);
    return loadMergeRequestCommits(context, projectId, mergeRequestIid, deps.page);
  },
  component: CommitsRoute,
});

function CommitsRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  const { page } = Route.useSearch();
  return <MergeRequestCommits projectId={Number(projectId)} iid={Number(mergeRequestIid)} page={page} />;
}
