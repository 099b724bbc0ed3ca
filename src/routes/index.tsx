import { createFileRoute } from '@tanstack/react-router';
import { HomeScreen } from '../features/shell/home-screen.tsx';
import { homeQueries } from '../features/shell/home-queries.ts';

export const Route = createFileRoute('/')({
  loader: ({ context: { queryClient, api } }) => Promise.all([queryClient.ensureQueryData(homeQueries.groups(api)), queryClient.ensureQueryData(homeQueries.projects(api))]),
  component: HomeScreen,
});
