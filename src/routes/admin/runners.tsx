import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { FleetScreen } from '../../features/runners/fleet-screen.tsx';
import { loadFleet } from '../../features/runners/route-options.ts';
import { RUNNERS_SEARCH_DEFAULTS, runnersSearchSchema } from '../../features/runners/search.ts';

export const Route = createFileRoute('/admin/runners')({
  validateSearch: runnersSearchSchema,
  search: { middlewares: [stripSearchParams(RUNNERS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadFleet(context, 'instance', deps),
  component: InstanceRunnersRoute,
});

function InstanceRunnersRoute() {
  return <FleetScreen scope="instance" search={Route.useSearch()} />;
}
