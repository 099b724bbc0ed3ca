import { createFileRoute } from '@tanstack/react-router';
import { HookScreen } from '../../../features/system-hooks/hook-screen.tsx';
import { loadHook } from '../../../features/system-hooks/route-options.ts';

export const Route = createFileRoute('/admin/hooks/$hookId')({
  loader: ({ context, params }) => loadHook(context, Number(params.hookId)),
  component: SystemHookRoute,
});

function SystemHookRoute() {
  return <HookScreen hookId={Number(Route.useParams().hookId)} />;
}
