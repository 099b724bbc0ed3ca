import { createFileRoute } from '@tanstack/react-router';
import { accessTokensQueries } from '../../api/access-tokens.ts';
import { SelfTokenScreen } from '../../features/access-tokens/self-token-screen.tsx';

export const Route = createFileRoute('/access-tokens/self')({
  loader: ({ context: { queryClient, api, session } }) => {
    const active = session.getActive();
    return active?.connection.isBot ? queryClient.ensureQueryData(accessTokensQueries.ownGroup(api, active.connection.userId)) : null;
  },
  component: SelfTokenScreen,
});
