import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { PackageScreen } from '../../../../features/packages/package-screen.tsx';
import { loadPackage } from '../../../../features/packages/route-options.ts';
import { PACKAGE_SEARCH_DEFAULTS, packageSearchSchema } from '../../../../features/packages/search.ts';
import { idParams } from '../../../../lib/route-params.ts';

export const Route = createFileRoute('/projects/$projectId/packages/$packageId')({
  validateSearch: packageSearchSchema,
  search: { middlewares: [stripSearchParams(PACKAGE_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => ({ page: search.page }),
  loader: ({ context, params, deps }) => {
    const { projectId, packageId } = idParams(params);
    return loadPackage(context, projectId, packageId, deps.page);
  },
  component: PackageRoute,
});

function PackageRoute() {
  const { projectId, packageId } = Route.useParams();
  // another package (a version link) is another screen: its dialogs and downloads start afresh
  return <PackageScreen key={packageId} projectId={Number(projectId)} packageId={Number(packageId)} page={Route.useSearch().page} />;
}
