import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { searchSchema } from '../lib/search-params.ts';
import { ConnectScreen } from '../features/auth/connect-screen.tsx';

const connectSearchSchema = searchSchema(() => z.object({
  redirect: z.catch(z.optional(z.string()), undefined),
}));

export const Route = createFileRoute('/connect')({
  validateSearch: connectSearchSchema,
  component: ConnectRoute,
});

function ConnectRoute() {
  const { redirect } = Route.useSearch();
  const { session } = Route.useRouteContext();
  return <ConnectScreen redirect={redirect} expired={session.expiredFrom !== null} />;
}
