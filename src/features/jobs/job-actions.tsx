import { canCancelJob, canPlayJob, canRetryJob, type Job } from '../../api/jobs.ts';
import { WriteOutcome } from '../../components/write-outcome.tsx';
import { useCancelJob, usePlayJob, useRetryJob } from './mutations.ts';

type ActionJob = Pick<Job, 'id' | 'name' | 'status'>;

/** The action a job's status offers: Play a manual job, Retry a finished one, Cancel a moving one. */
export function jobAction(job: ActionJob): 'play' | 'retry' | 'cancel' | null {
  if (canPlayJob(job)) return 'play';
  if (canCancelJob(job)) return 'cancel';
  if (canRetryJob(job)) return 'retry';
  return null;
}

const LABELS = { play: 'Run', retry: 'Retry', cancel: 'Cancel' } as const;
const SYMBOLS = { play: '▶', retry: '↻', cancel: '■' } as const;

/**
 * One job's action button, named for the job ("Retry build"), one write per press. `compact`
 * shows a symbol (the graph's boxes), the name staying the button's label.
 */
export function JobActionButton({ projectId, job, compact = false, onDone }: { projectId: number; job: ActionJob; compact?: boolean; onDone?: (job: Job) => void }) {
  const action = jobAction(job);
  const retry = useRetryJob();
  const cancel = useCancelJob();
  const play = usePlayJob();
  if (!action) return null;
  const write = action === 'retry' ? retry : action === 'cancel' ? cancel : play;
  const label = `${LABELS[action]} ${job.name}`;
  const press = () => write.mutate({ projectId, jobId: job.id }, { onSuccess: (data) => onDone?.(data) });
  return (
    <>
      <button
        type="button"
        className={compact ? 'icon-button' : 'button'}
        aria-label={label}
        title={compact ? label : undefined}
        disabled={write.isPending}
        aria-busy={write.isPending || undefined}
        onClick={press}
      >
        {compact ? <span aria-hidden="true">{SYMBOLS[action]}</span> : LABELS[action]}
      </button>
      {compact ? (
        <div className="graph-job__outcome">
          <WriteOutcome write={write} />
        </div>
      ) : (
        <WriteOutcome write={write} />
      )}
    </>
  );
}
