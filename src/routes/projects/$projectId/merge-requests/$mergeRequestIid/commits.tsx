import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { loadMergeRequestCommits } from '../../../../../features/merge-requests/detail-route-options.ts';
import { mergeRequestCommitsSearchSchema } from '../../../../../features/merge-requests/merge-request-commits-search.ts';
import { MergeRequestCommits } from '../../../../../features/merge-requests/merge-request-commits.tsx';
import { positiveIdParam } from '../../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/merge-requests/$mergeRequestIid/commits')({
  validateSearch: mergeRequestCommitsSearchSchema,
  search: { middlewares: [stripSearchParams({ page: 1 })] },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, params, deps }) => {
    const projectId = positiveIdParam(params.projectId);
    const iid = positiveIdParam(params.mergeRequestIid);
    // bad ids are the layout's not-found
    if (projectId === null || iid === null) return;
    return loadMergeRequestCommits(context, projectId, iid, deps.page);
  },
  component: CommitsRoute,
});

function CommitsRoute() {
  const { projectId, mergeRequestIid } = Route.useParams();
  const { page } = Route.useSearch();
  return <MergeRequestCommits projectId={Number(projectId)} iid={Number(mergeRequestIid)} page={page} />;
}
