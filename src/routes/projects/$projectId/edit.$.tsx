import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { EditFileScreen } from '../../../features/files/file-editor.tsx';
import { loadProject } from '../../../features/files/route-options.ts';
import { REF_SEARCH_DEFAULTS, refSearchSchema } from '../../../features/files/search.ts';

export const Route = createFileRoute('/projects/$projectId/edit/$')({
  validateSearch: refSearchSchema,
  search: { middlewares: [stripSearchParams(REF_SEARCH_DEFAULTS)] },
  // the editor fetches the file itself, fresh: a cached copy would start the edit from an old version
  loader: ({ context, params }) => loadProject(context, Number(params.projectId)),
  component: EditRoute,
});

function EditRoute() {
  const { projectId, _splat } = Route.useParams();
  const { ref } = Route.useSearch();
  return <EditFileScreen projectId={Number(projectId)} path={_splat ?? ''} urlRef={ref} />;
}
