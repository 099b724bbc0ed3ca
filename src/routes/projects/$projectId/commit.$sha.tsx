import { createFileRoute } from '@tanstack/react-router';
import { CommitScreen } from '../../../features/commits/commit-screen.tsx';
import { loadCommit } from '../../../features/commits/route-options.ts';

export const Route = createFileRoute('/projects/$projectId/commit/$sha')({
  loader: ({ context, params }) => loadCommit(context, Number(params.projectId), params.sha),
  component: CommitRoute,
});

function CommitRoute() {
  const { projectId, sha } = Route.useParams();
  return <CommitScreen key={sha} projectId={Number(projectId)} sha={sha} />;
}
