import { createFileRoute } from '@tanstack/react-router';
import { groupsQueries } from '../../api/groups.ts';
import { SelfTokenScreen } from '../../features/access-tokens/self-token-screen.tsx';

export const Route = createFileRoute('/access-tokens/self')({
  loader: ({ context: { queryClient, api } }) => queryClient.ensureQueryData(groupsQueries.search(api, '')),
  component: SelfTokenScreen,
});
