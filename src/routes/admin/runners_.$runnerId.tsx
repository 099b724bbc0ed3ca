import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RunnerScreen } from '../../features/runners/runner-screen.tsx';
import { loadRunner } from '../../features/runners/route-options.ts';
import { RUNNER_SEARCH_DEFAULTS, runnerSearchSchema } from '../../features/runners/search.ts';

export const Route = createFileRoute('/admin/runners_/$runnerId')({
  validateSearch: runnerSearchSchema,
  search: { middlewares: [stripSearchParams(RUNNER_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadRunner(context, Number(params.runnerId), deps),
  component: AdminRunnerRoute,
});

function AdminRunnerRoute() {
  const { runnerId } = Route.useParams();
  return <RunnerScreen runnerId={Number(runnerId)} fromAdmin search={Route.useSearch()} />;
}
