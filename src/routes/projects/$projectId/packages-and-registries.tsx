import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../api/projects.ts';
import { ProtectionScreen } from '../../../features/packages/protection-screen.tsx';
import { loadProtectionRules } from '../../../features/packages/route-options.ts';
import { idParams } from '../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/packages-and-registries')({
  loader: ({ context, params }) => loadProtectionRules(context, idParams(params).projectId),
  component: ProtectionRoute,
});

function ProtectionRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <ProtectionScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} />;
}
