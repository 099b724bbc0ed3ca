import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { searchSchema } from '../../lib/search-params.ts';
import { usersQueries } from '../../api/users.ts';
import { PeopleScreen } from '../../features/users/people-screen.tsx';

const peopleSearchSchema = searchSchema(() => z.object({
  search: z.catch(z.optional(z.string()), undefined),
}));

export const Route = createFileRoute('/users/')({
  validateSearch: peopleSearchSchema,
  loaderDeps: ({ search }) => ({ search: search.search ?? '' }),
  loader: ({ context: { queryClient, api }, deps }) => queryClient.ensureInfiniteQueryData(usersQueries.directory(api, deps.search)),
  component: PeopleRoute,
});

function PeopleRoute() {
  return <PeopleScreen search={Route.useSearch().search ?? ''} />;
}
