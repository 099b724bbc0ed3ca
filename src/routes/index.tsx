import { createFileRoute } from '@tanstack/react-router';
import { groupsQueries } from '../api/groups.ts';
import { projectsQueries } from '../api/projects.ts';
import { HomeScreen } from '../features/shell/home-screen.tsx';

export const Route = createFileRoute('/')({
  loader: ({ context: { queryClient, api } }) =>
    Promise.all([queryClient.ensureQueryData(groupsQueries.search(api, '')), queryClient.ensureQueryData(projectsQueries.search(api, ''))]),
  component: HomeScreen,
});
