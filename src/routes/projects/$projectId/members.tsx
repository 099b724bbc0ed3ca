import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { MEMBERS_SEARCH_DEFAULTS, membersRouteOptions } from '../../../features/members/search.ts';
import { projectsQueries } from '../../../api/projects.ts';
import { MembersScreen } from '../../../features/members/members-screen.tsx';
import { loadMembers } from '../../../features/members/route-options.ts';

export const Route = createFileRoute('/projects/$projectId/members')({
  ...membersRouteOptions,
  search: { middlewares: [stripSearchParams(MEMBERS_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => loadMembers(context, { project: Number(params.projectId) }, deps, () => context.queryClient.ensureQueryData(projectsQueries.detail(context.api, Number(params.projectId)))),
  component: ProjectMembersRoute,
});

function ProjectMembersRoute() {
  const { projectId } = Route.useParams();
  const search = Route.useSearch();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <MembersScreen kind="project" scope={{ project: Number(projectId) }} sourceName={project?.name_with_namespace} topLevelGroup={false} search={search} />;
}
