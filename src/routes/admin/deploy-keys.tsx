import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { InstanceKeysScreen } from '../../features/deploy-keys/instance-keys-screen.tsx';
import { loadInstanceDeployKeys } from '../../features/deploy-keys/route-options.ts';
import { INSTANCE_DEPLOY_KEYS_SEARCH_DEFAULTS, instanceDeployKeysSearchSchema } from '../../features/deploy-keys/search.ts';

export const Route = createFileRoute('/admin/deploy-keys')({
  validateSearch: instanceDeployKeysSearchSchema,
  search: { middlewares: [stripSearchParams(INSTANCE_DEPLOY_KEYS_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => loadInstanceDeployKeys(context, deps),
  component: InstanceDeployKeysRoute,
});

function InstanceDeployKeysRoute() {
  return <InstanceKeysScreen search={Route.useSearch()} />;
}
