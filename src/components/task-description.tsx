import { ProjectMarkdown } from './note-editor.tsx';
import type { useTaskTicks } from './task-ticks.ts';
import { WriteOutcome } from './write-outcome.tsx';
import { formatCountOf } from '../lib/numbers.ts';

interface TaskDescriptionProps {
  projectId: number;
  description: string;
  tasks?: { count: number; completed_count: number } | null;
  /** Present when the caller may edit the description: its task boxes tick. */
  ticks?: ReturnType<typeof useTaskTicks>;
}

/** An issue's or a merge request's description, its task count, and its boxes ticked where the caller may edit. */
export function TaskDescription({ projectId, description, tasks, ticks }: TaskDescriptionProps) {
  return (
    <>
      {tasks && tasks.count ? (
        <p className="muted">
          {tasks.completed_count} of {formatCountOf(tasks.count, 'task', 'tasks')} completed
        </p>
      ) : null}
      {description.trim() ? <ProjectMarkdown projectId={projectId} source={description} onToggleTask={ticks?.onToggleTask} tasksBusy={ticks?.tick.isPending} /> : <p className="muted">No description.</p>}
      {ticks ? <WriteOutcome write={ticks.tick} /> : null}
    </>
  );
}
