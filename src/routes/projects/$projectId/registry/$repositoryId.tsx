import { createFileRoute } from '@tanstack/react-router';
import { RepositoryScreen } from '../../../../features/registry/repository-screen.tsx';
import { loadRepository } from '../../../../features/registry/route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/registry/$repositoryId')({
  loader: ({ context, params }) => {
    const { projectId, repositoryId } = idParams(params);
    return loadRepository(context, projectId, repositoryId);
  },
  component: RepositoryRoute,
});

function RepositoryRoute() {
  const { projectId, repositoryId } = Route.useParams();
  // another image is another screen: its bulk delete form starts afresh
  return <RepositoryScreen key={repositoryId} projectId={Number(projectId)} repositoryId={Number(repositoryId)} />;
}
