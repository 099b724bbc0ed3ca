import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { usersQueries } from '../../api/users.ts';
import { UserScreen } from '../../features/users/user-screen.tsx';
import { USER_SEARCH_DEFAULTS, userSearchSchema } from '../../features/users/search.ts';

export const Route = createFileRoute('/users/$userId')({
  validateSearch: userSearchSchema,
  search: { middlewares: [stripSearchParams(USER_SEARCH_DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient, api }, params, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(usersQueries.detail(api, Number(params.userId))),
      queryClient.ensureQueryData(usersQueries.follows(api, Number(params.userId), deps.tab, { page: deps.page, per_page: deps.per_page })),
    ]),
  component: UserRoute,
});

function UserRoute() {
  const { userId } = Route.useParams();
  // one screen per person: a write pressed on one (Follow) is not a repeat of the same press on another
  return <UserScreen key={userId} userId={Number(userId)} search={Route.useSearch()} />;
}
