import { createFileRoute } from '@tanstack/react-router';
import { NewHookScreen } from '../../../features/system-hooks/new-hook-screen.tsx';

export const Route = createFileRoute('/admin/hooks/new')({
  component: NewHookScreen,
});
