import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { NewFileScreen } from '../../../features/files/file-editor.tsx';
import { loadProject } from '../../../features/files/route-options.ts';
import { REF_SEARCH_DEFAULTS, refSearchSchema } from '../../../features/files/search.ts';

export const Route = createFileRoute('/projects/$projectId/new/$')({
  validateSearch: refSearchSchema,
  search: { middlewares: [stripSearchParams(REF_SEARCH_DEFAULTS)] },
  loader: ({ context, params }) => loadProject(context, Number(params.projectId)),
  component: NewFileRoute,
});

function NewFileRoute() {
  const { projectId, _splat } = Route.useParams();
  const { ref } = Route.useSearch();
  return <NewFileScreen projectId={Number(projectId)} directory={_splat ?? ''} urlRef={ref} />;
}
