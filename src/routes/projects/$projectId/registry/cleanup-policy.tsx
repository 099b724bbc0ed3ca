import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { PolicyScreen } from '../../../../features/registry/policy-screen.tsx';
import { loadCleanupPolicy } from '../../../../features/registry/route-options.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/registry/cleanup-policy')({
  loader: ({ context, params }) => {
    const { projectId } = idParams(params);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    return loadCleanupPolicy(context, projectId);
  },
  component: CleanupPolicyRoute,
});

function CleanupPolicyRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  // the form starts from what the project holds: another project is another form
  return <PolicyScreen key={projectId} projectId={Number(projectId)} projectName={project?.name_with_namespace} />;
}
