import { createFileRoute, redirect } from '@tanstack/react-router';

// a group's own address, as typed or cut back from a screen's, opens where every group link does
export const Route = createFileRoute('/groups/$groupId/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/groups/$groupId/members', params, replace: true });
  },
});
