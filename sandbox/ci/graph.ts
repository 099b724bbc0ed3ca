/**
 * The pipeline graph: which created jobs may move (to pending, manual, scheduled or skipped)
 * given the statuses of the others, and the composite status of a set of jobs (a stage, a
 * pipeline, a job's needs) by the platform's rules. Pure: the worker calls it after every change.
 */
import type { JobPlan, JobWhen } from './config.ts';

export const STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'pending', 'running',
  'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type JobStatus = (typeof STATUSES)[number];
export type PipelineStatus = JobStatus;

/** Statuses after which a job does not move again (unless retried or played). */
export const COMPLETED_STATUSES: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];
/** Statuses of a job that is neither finished nor waiting for a person or a time. */
export const ACTIVE_STATUSES: readonly JobStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running'];

export interface JobState {
  status: JobStatus;
  /** The effective allow_failure: true, or the job failed with one of its allowed exit codes. */
  allowFailure: boolean;
}

type Item = { status: JobStatus; allowFailure: boolean };
type Consumed = JobStatus | 'success_with_warnings' | 'ignored';

/**
 * The composite status of jobs, the platform's way: an allowed failure (or cancel) counts as
 * "success with warnings", a manual job that may fail is ignored (it does not block), and for
 * needs (`dag`) any skipped or ignored job makes the whole skipped. Null for no jobs.
 */
export function compositeStatus(items: Iterable<Item>, options: { dag?: boolean } = {}): JobStatus | null {
  const set = new Set<Consumed>();
  for (const item of items) {
    if (item.allowFailure && (item.status === 'failed' || item.status === 'canceled')) set.add('success_with_warnings');
    else if (item.allowFailure && item.status === 'manual') set.add('ignored');
    else set.add(item.status);
  }
  if (set.size === 0) return null;
  const only = (...allowed: Consumed[]) => [...set].every((s) => allowed.includes(s));
  const any = (...wanted: Consumed[]) => wanted.some((s) => set.has(s));
  if (options.dag && any('skipped', 'ignored')) return 'skipped';
  if (only('skipped', 'ignored')) return 'skipped';
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (only('created', 'success_with_warnings', 'ignored')) return 'created';
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing';
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (any('running', 'pending')) return 'running';
  if (any('waiting_for_resource')) return 'waiting_for_resource';
  if (any('manual')) return 'manual';
  if (any('scheduled')) return 'scheduled';
  if (any('preparing')) return 'preparing';
  if (any('created')) return 'running';
  return 'failed';
}

/** True when an allowed failure (or cancel) is among the jobs: "passed with warnings" when successful. */
export function hasWarnings(items: Iterable<Item>): boolean {
  for (const item of items) if (item.allowFailure && (item.status === 'failed' || item.status === 'canceled')) return true;
  return false;
}

/** The pipeline's status from its jobs (the latest try of each). An empty pipeline is `created`. */
export function pipelineStatus(jobs: Iterable<Item>): PipelineStatus {
  return compositeStatus(jobs) ?? 'created';
}

export type Step = { name: string; status: 'pending' | 'manual' | 'scheduled' | 'skipped' };

/** The statuses of the needs (or earlier stages) under which a job of each `when` may start. */
function validDependencyStatuses(when: JobWhen, dag: boolean): readonly JobStatus[] {
  switch (when) {
    case 'on_success':
    case 'manual':
    case 'delayed':
      return dag ? ['success'] : ['success', 'skipped'];
    case 'on_failure':
      return ['failed'];
    case 'always':
      return ['success', 'failed', 'skipped'];
  }
}

/**
 * The moves of the created jobs, given every job's state: a job whose needs (or earlier stages)
 * are complete becomes pending (on_success/on_failure/always), manual, scheduled (delayed), or
 * skipped when its `when` does not hold. Moves cascade within one call (a skipped job can skip
 * the jobs after it). Jobs absent from `states` count as created.
 */
export function nextSteps(jobs: readonly JobPlan[], states: ReadonlyMap<string, JobState> | Record<string, JobState>): Step[] {
  const current = new Map<string, JobState>();
  const get = (name: string): JobState | undefined =>
    current.get(name) ?? (states instanceof Map ? states.get(name) : (states as Record<string, JobState>)[name]);
  const steps: Step[] = [];
  const byStage = new Map<number, JobPlan[]>();
  const byName = new Map<string, JobPlan>();
  for (const job of jobs) {
    byName.set(job.name, job);
    const list = byStage.get(job.stageIndex);
    if (list) list.push(job);
    else byStage.set(job.stageIndex, [job]);
  }
  const stageIndexes = [...byStage.keys()].sort((a, b) => a - b);
  const stateOf = (job: JobPlan): Item => get(job.name) ?? { status: 'created', allowFailure: job.allowFailure };

  // The status of "every job of the stages before k", shared by the stage-ordered jobs of stage k;
  // forgotten whenever a move changes a status.
  const stagePrefix = new Map<number, JobStatus | null>();
  const beforeStage = (stageIndex: number): JobStatus | null => {
    if (stagePrefix.has(stageIndex)) return stagePrefix.get(stageIndex)!;
    const dependencies: Item[] = [];
    for (const index of stageIndexes) {
      if (index >= stageIndex) break;
      for (const earlier of byStage.get(index)!) dependencies.push(stateOf(earlier));
    }
    const status = compositeStatus(dependencies);
    stagePrefix.set(stageIndex, status);
    return status;
  };

  let changed = true;
  while (changed) {
    changed = false;
    for (const job of jobs) {
      const state = stateOf(job);
      if (state.status !== 'created') continue;
      const dag = job.needs !== null;
      const status =
        (job.needs !== null
          ? compositeStatus(
              job.needs.map((name) => {
                const need = byName.get(name);
                return need ? stateOf(need) : { status: 'skipped', allowFailure: false };
              }),
              { dag },
            )
          : beforeStage(job.stageIndex)) ?? 'success';
      if (!COMPLETED_STATUSES.includes(status)) continue;
      let next: Step['status'];
      if (!validDependencyStatuses(job.when, dag).includes(status)) next = 'skipped';
      else if (job.when === 'manual') next = 'manual';
      else if (job.when === 'delayed') next = 'scheduled';
      else next = 'pending';
      current.set(job.name, { status: next, allowFailure: state.allowFailure });
      steps.push({ name: job.name, status: next });
      stagePrefix.clear();
      changed = true;
    }
  }
  return steps;
}

/**
 * Whether a failed job is retried automatically: attempts so far (this one included) against
 * `retry:max`, the failure reason against `retry:when`, the exit code against `retry:exit_codes`.
 */
export function shouldRetry(job: Pick<JobPlan, 'retry'>, failure: { reason: string; attempts: number; exitCode?: number | null }): boolean {
  if (failure.attempts > job.retry.max) return false;
  if (job.retry.when.includes('always') || job.retry.when.includes(failure.reason)) return true;
  return failure.exitCode !== undefined && failure.exitCode !== null && (job.retry.exitCodes ?? []).includes(failure.exitCode);
}

/** The effective allow_failure of a finished job: allow_failure: true, or an allowed exit code. */
export function allowedToFail(job: Pick<JobPlan, 'allowFailure' | 'allowFailureExitCodes'>, exitCode: number | null): boolean {
  if (job.allowFailure) return true;
  return exitCode !== null && job.allowFailureExitCodes.includes(exitCode);
}

export interface DetailedStatus {
  icon: string;
  text: string;
  label: string;
  group: string;
  tooltip: string;
  has_details: boolean;
  details_path: string | null;
  illustration: null;
  favicon: string;
  action?: { icon: string; title: string; path: string; method: 'post'; button_title: string };
}

const LOOK: Record<JobStatus, { icon: string; text: string; label: string }> = {
  created: { icon: 'status_created', text: 'Created', label: 'created' },
  waiting_for_resource: { icon: 'status_pending', text: 'Waiting', label: 'waiting for resource' },
  preparing: { icon: 'status_preparing', text: 'Preparing', label: 'preparing' },
  pending: { icon: 'status_pending', text: 'Pending', label: 'pending' },
  running: { icon: 'status_running', text: 'Running', label: 'running' },
  success: { icon: 'status_success', text: 'Passed', label: 'passed' },
  failed: { icon: 'status_failed', text: 'Failed', label: 'failed' },
  canceled: { icon: 'status_canceled', text: 'Canceled', label: 'canceled' },
  skipped: { icon: 'status_skipped', text: 'Skipped', label: 'skipped' },
  manual: { icon: 'status_manual', text: 'Manual', label: 'manual action' },
  scheduled: { icon: 'status_scheduled', text: 'Scheduled', label: 'scheduled' },
};

/**
 * `detailed_status` of a pipeline or a job as the platform words it (a blocked pipeline, a
 * delayed one, passed with warnings, a failure allowed to fail), with the job's action
 * (retry, play, cancel, unschedule) when `jobPath` is given.
 */
export function detailedStatus(
  kind: 'pipeline' | 'job',
  status: JobStatus,
  options: { warnings?: boolean; allowFailure?: boolean; detailsPath?: string | null; jobPath?: string; retryable?: boolean } = {},
): DetailedStatus {
  let { icon, text, label } = LOOK[status];
  let group: string = status.replace(/_/g, '-');
  let tooltip = label;
  if (kind === 'pipeline' && status === 'manual') {
    text = 'Blocked';
    label = tooltip = 'waiting for manual action';
  } else if (kind === 'pipeline' && status === 'scheduled') {
    text = 'Delayed';
    label = tooltip = 'waiting for delayed job';
  } else if (status === 'success' && options.warnings) {
    icon = 'status_warning';
    text = 'Warning';
    label = tooltip = 'passed with warnings';
    group = 'success-with-warnings';
  } else if (kind === 'job' && status === 'failed' && options.allowFailure) {
    icon = 'status_warning';
    label = 'failed (allowed to fail)';
    tooltip = 'failed - (allowed to fail)';
    group = 'failed-with-warnings';
  } else if (kind === 'job' && status === 'scheduled') {
    label = tooltip = 'delayed manual action';
  }
  const out: DetailedStatus = {
    icon,
    text,
    label,
    group,
    tooltip,
    has_details: Boolean(options.detailsPath),
    details_path: options.detailsPath ?? null,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_${icon}.png`,
  };
  if (kind === 'job' && options.jobPath) {
    if (status === 'manual') out.action = { icon: 'play', title: 'Run', path: `${options.jobPath}/play`, method: 'post', button_title: 'Run job' };
    else if (status === 'scheduled') out.action = { icon: 'time-out', title: 'Unschedule', path: `${options.jobPath}/unschedule`, method: 'post', button_title: 'Unschedule job' };
    else if (ACTIVE_STATUSES.includes(status)) out.action = { icon: 'cancel', title: 'Cancel', path: `${options.jobPath}/cancel`, method: 'post', button_title: 'Cancel job' };
    else if (options.retryable !== false && status !== 'skipped') {
      out.action = { icon: 'retry', title: 'Retry', path: `${options.jobPath}/retry`, method: 'post', button_title: 'Run this job again' };
    }
  }
  return out;
}
