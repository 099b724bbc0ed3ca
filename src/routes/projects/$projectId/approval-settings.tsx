import { createFileRoute } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { approvalsQueries } from '../../../api/approvals.ts';
import { prefetchMyAccess } from '../../../api/members.ts';
import { projectsQueries } from '../../../api/projects.ts';
import { ApprovalSettingsScreen } from '../../../features/approvals/approval-settings-screen.tsx';

export const Route = createFileRoute('/projects/$projectId/approval-settings')({
  loader: async ({ context, params }) => {
    const projectId = Number(params.projectId);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, projectId));
    void context.queryClient.prefetchQuery(approvalsQueries.rules(context.api, { projectId }));
    prefetchMyAccess(context, { project: projectId });
    await context.queryClient.ensureQueryData(approvalsQueries.settings(context.api, projectId));
  },
  component: ApprovalSettingsRoute,
});

function ApprovalSettingsRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <ApprovalSettingsScreen projectId={Number(projectId)} projectName={project?.name_with_namespace} />;
}
