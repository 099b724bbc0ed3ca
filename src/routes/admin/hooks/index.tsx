import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { HooksScreen } from '../../../features/system-hooks/hooks-screen.tsx';
import { loadHooks } from '../../../features/system-hooks/route-options.ts';
import { HOOKS_SEARCH_DEFAULTS, hooksSearchSchema } from '../../../features/system-hooks/search.ts';

export const Route = createFileRoute('/admin/hooks/')({
  validateSearch: hooksSearchSchema,
  search: { middlewares: [stripSearchParams(HOOKS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadHooks(context, deps),
  component: SystemHooksRoute,
});

function SystemHooksRoute() {
  return <HooksScreen search={Route.useSearch()} />;
}
