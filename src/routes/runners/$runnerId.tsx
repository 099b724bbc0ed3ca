import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { RunnerScreen } from '../../features/runners/runner-screen.tsx';
import { loadRunner } from '../../features/runners/route-options.ts';
import { RUNNER_SEARCH_DEFAULTS, runnerSearchSchema } from '../../features/runners/search.ts';

export const Route = createFileRoute('/runners/$runnerId')({
  validateSearch: runnerSearchSchema,
  search: { middlewares: [stripSearchParams(RUNNER_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => loadRunner(context, Number(params.runnerId), deps),
  component: RunnerRoute,
});

function RunnerRoute() {
  const { runnerId } = Route.useParams();
  return <RunnerScreen runnerId={Number(runnerId)} fromAdmin={false} search={Route.useSearch()} />;
}
