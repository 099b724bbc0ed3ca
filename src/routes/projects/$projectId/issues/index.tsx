import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { projectsQueries } from '../../../../api/projects.ts';
import { ISSUES_SEARCH_DEFAULTS, issuesRouteOptions } from '../../../../features/issues/search.ts';
import { IssueListScreen } from '../../../../features/issues/issue-list-screen.tsx';
import { loadIssues } from '../../../../features/issues/route-options.ts';

export const Route = createFileRoute('/projects/$projectId/issues/')({
  ...issuesRouteOptions,
  search: { middlewares: [stripSearchParams(ISSUES_SEARCH_DEFAULTS)] },
  loader: ({ context, params, deps }) => {
    const list = loadIssues(context, { project: Number(params.projectId) }, deps);
    void context.queryClient.prefetchQuery(projectsQueries.detail(context.api, Number(params.projectId)));
    return list;
  },
  component: ProjectIssuesRoute,
});

function ProjectIssuesRoute() {
  const { projectId } = Route.useParams();
  const { api } = Route.useRouteContext();
  const project = useQuery(projectsQueries.detail(api, Number(projectId))).data;
  return <IssueListScreen scope={{ project: Number(projectId) }} sourceName={project?.name_with_namespace} search={Route.useSearch()} />;
}
