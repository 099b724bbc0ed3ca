import { createFileRoute, redirect } from '@tanstack/react-router';

// a project's own address, as typed or cut back from a screen's, opens where every project link does
export const Route = createFileRoute('/projects/$projectId/')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/projects/$projectId/members', params, replace: true });
  },
});
