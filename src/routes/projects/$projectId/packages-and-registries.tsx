import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { packagesQueries } from '../../../api/packages.ts';
import { projectsQueries } from '../../../api/projects.ts';
import { ProtectionScreen } from '../../../features/packages/protection-screen.tsx';
import { idParams } from '../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/packages-and-registries')({
  loader: ({ context, params }) => {
    const { projectId } = idParams(params);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    // refused below Maintainer: the screen says why, the loader does not fail
    return context.queryClient.ensureQueryData(packagesQueries.rules(context.api, projectId)).catch(() => undefined);
  },
  component: ProtectionRoute,
});

function ProtectionRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <ProtectionScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} />;
}
