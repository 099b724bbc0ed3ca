/**
 * A pipeline run entirely in memory: the plan, the graph and the interpreter together, with
 * no store and no runner queue. The worker does the same with the database; this is the
 * reference for its loop, the engine's own tests, and the engine's throughput figure.
 */
import type { JobPlan, PipelinePlan } from './config.ts';
import { allowedToFail, hasWarnings, nextSteps, pipelineStatus, shouldRetry, type JobState, type PipelineStatus } from './graph.ts';
import { runJob, type Workspace } from './script.ts';
import { jobEnvironment } from './variables.ts';

export interface SimulatedJob {
  name: string;
  status: JobState['status'];
  allowFailure: boolean;
  exitCode: number | null;
  attempts: number;
  log: string;
}

export interface SimulationResult {
  status: PipelineStatus;
  warnings: boolean;
  jobs: Map<string, SimulatedJob>;
  /** Job names in the order they started (a retry starts again). */
  started: string[];
}

/**
 * Runs a plan to the end: ready jobs run (in parallel), delayed ones start at once, manual ones
 * are played when `play` names them (or all with `play: true`), failures retry per `retry`.
 */
export async function simulatePipeline(
  plan: PipelinePlan,
  options: {
    predefined?: Record<string, string>;
    workspace?: () => Workspace;
    sleep?: (ms: number) => Promise<void>;
    timeScale?: number;
    play?: boolean | string[];
  } = {},
): Promise<SimulationResult> {
  const jobs = new Map<string, SimulatedJob>();
  const states = new Map<string, JobState>();
  const started: string[] = [];
  const byName = new Map(plan.jobs.map((job) => [job.name, job]));
  const files = new Map<string, string>();
  const sharedWorkspace: Workspace = {
    read: (path) => files.get(path) ?? null,
    write: (path, text, append) => files.set(path, append ? (files.get(path) ?? '') + text : text),
    list: () => [...files.keys()],
  };
  const set = (name: string, patch: Partial<SimulatedJob>) => {
    const job = byName.get(name)!;
    const current = jobs.get(name) ?? { name, status: 'created', allowFailure: job.allowFailure, exitCode: null, attempts: 0, log: '' };
    const next = { ...current, ...patch };
    jobs.set(name, next);
    states.set(name, { status: next.status, allowFailure: next.allowFailure });
  };
  const shouldPlay = (name: string) => options.play === true || (Array.isArray(options.play) && options.play.includes(name));

  const run = async (job: JobPlan): Promise<void> => {
    started.push(job.name);
    const attempts = (jobs.get(job.name)?.attempts ?? 0) + 1;
    set(job.name, { status: 'running', attempts });
    let log = '';
    const env = jobEnvironment({ plan, job, predefined: options.predefined ?? {}, jobPredefined: { CI_JOB_NAME: job.name, CI_JOB_STAGE: job.stage } });
    const result = await runJob(job, env, options.workspace?.() ?? sharedWorkspace, {
      sleep: options.sleep ?? (async () => {}),
      timeScale: options.timeScale ?? 0,
      onLog: (chunk) => {
        log += chunk;
      },
      now: () => 0,
    });
    if (result.exitCode === 0 && !result.timedOut) {
      set(job.name, { status: 'success', exitCode: 0, log });
      return;
    }
    const reason = result.timedOut ? 'job_execution_timeout' : 'script_failure';
    if (shouldRetry(job, { reason, attempts, exitCode: result.exitCode })) {
      set(job.name, { status: 'pending', log });
      return run(job);
    }
    set(job.name, { status: 'failed', exitCode: result.exitCode, allowFailure: allowedToFail(job, result.exitCode), log });
  };

  for (;;) {
    const steps = nextSteps(plan.jobs, states);
    const ready: JobPlan[] = [];
    for (const step of steps) {
      if (step.status === 'manual' && shouldPlay(step.name)) ready.push(byName.get(step.name)!);
      else if (step.status === 'pending' || step.status === 'scheduled') ready.push(byName.get(step.name)!);
      else set(step.name, { status: step.status });
    }
    if (ready.length === 0) break;
    await Promise.all(ready.map(run));
  }
  const all = [...states.values()];
  return { status: pipelineStatus(all), warnings: hasWarnings(all), jobs, started };
}
