import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ChangesScreen } from '../../../features/files/changes-screen.tsx';
import { loadProject } from '../../../features/files/route-options.ts';
import { CHANGES_SEARCH_DEFAULTS, changesSearchSchema } from '../../../features/files/search.ts';

export const Route = createFileRoute('/projects/$projectId/changes')({
  validateSearch: changesSearchSchema,
  search: { middlewares: [stripSearchParams(CHANGES_SEARCH_DEFAULTS)] },
  loader: ({ context, params }) => loadProject(context, Number(params.projectId)),
  component: ChangesRoute,
});

function ChangesRoute() {
  const { projectId } = Route.useParams();
  const { ref, path } = Route.useSearch();
  return <ChangesScreen projectId={Number(projectId)} urlRef={ref} directory={path} />;
}
