import { describe, expect, it } from 'vitest';
import { planPipeline, type JobPlan } from './config.ts';
import { allowedToFail, compositeStatus, detailedStatus, nextSteps, pipelineStatus, shouldRetry, type JobState, type JobStatus } from './graph.ts';

function jobs(yaml: string): JobPlan[] {
  const result = planPipeline(yaml, { variables: {}, readFile: () => null });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.plan.jobs;
}

function states(entries: Record<string, JobStatus | [JobStatus, boolean]>): Map<string, JobState> {
  return new Map(
    Object.entries(entries).map(([name, value]) => [
      name,
      Array.isArray(value) ? { status: value[0], allowFailure: value[1] } : { status: value, allowFailure: false },
    ]),
  );
}

const s = (status: JobStatus, allowFailure = false) => ({ status, allowFailure });

describe('compositeStatus', () => {
  it.each<[string, Array<{ status: JobStatus; allowFailure: boolean }>, JobStatus | null, boolean?]>([
    ['nothing', [], null],
    ['all success', [s('success'), s('success')], 'success'],
    ['success and skipped', [s('success'), s('skipped')], 'success'],
    ['only skipped', [s('skipped'), s('skipped')], 'skipped'],
    ['allowed failure is success with warnings', [s('success'), s('failed', true)], 'success'],
    ['a failure fails', [s('success'), s('failed')], 'failed'],
    ['running wins over created', [s('running'), s('created')], 'running'],
    ['pending and created', [s('pending'), s('created')], 'pending'],
    ['success and created is running', [s('success'), s('created')], 'running'],
    ['a blocking manual job blocks', [s('success'), s('manual'), s('created')], 'manual'],
    ['a non-blocking manual job is ignored', [s('success'), s('manual', true)], 'success'],
    ['only a non-blocking manual job: skipped', [s('manual', true)], 'skipped'],
    ['delayed job waits', [s('success'), s('scheduled')], 'scheduled'],
    ['canceled with successes', [s('canceled'), s('success')], 'canceled'],
    ['canceled and failed', [s('canceled'), s('failed')], 'failed'],
    ['needs: a skipped need skips', [s('success'), s('skipped')], 'skipped', true],
    ['needs: an ignored manual need skips', [s('manual', true)], 'skipped', true],
  ])('%s', (_label, items, expected, dag) => {
    expect(compositeStatus(items, { dag })).toBe(expected);
  });

  it('pipelineStatus of no jobs is created', () => {
    expect(pipelineStatus([])).toBe('created');
  });
});

describe('nextSteps', () => {
  const stagePlan = jobs(`
build:
  stage: build
  script: x
test:
  stage: test
  script: x
cleanup:
  stage: test
  when: on_failure
  script: x
report:
  stage: deploy
  when: always
  script: x
ship:
  stage: deploy
  when: manual
  allow_failure: false
  script: x
later:
  stage: deploy
  when: delayed
  start_in: 1 min
  script: x
`);

  it('starts the first stage only', () => {
    expect(nextSteps(stagePlan, new Map())).toEqual([{ name: 'build', status: 'pending' }]);
  });

  it('waits while an earlier stage runs', () => {
    expect(nextSteps(stagePlan, states({ build: 'running' }))).toEqual([]);
  });

  it('after success: next stage pending, on_failure skipped; then always/manual/delayed', () => {
    expect(nextSteps(stagePlan, states({ build: 'success' }))).toEqual([
      { name: 'test', status: 'pending' },
      { name: 'cleanup', status: 'skipped' },
    ]);
    expect(nextSteps(stagePlan, states({ build: 'success', test: 'success', cleanup: 'skipped' }))).toEqual([
      { name: 'report', status: 'pending' },
      { name: 'ship', status: 'manual' },
      { name: 'later', status: 'scheduled' },
    ]);
  });

  it('after a failure: on_failure runs, on_success jobs are skipped in cascade, always runs', () => {
    expect(nextSteps(stagePlan, states({ build: 'failed' }))).toEqual([
      { name: 'test', status: 'skipped' },
      { name: 'cleanup', status: 'pending' },
    ]);
    expect(nextSteps(stagePlan, states({ build: 'failed', test: 'skipped', cleanup: 'success' }))).toEqual([
      { name: 'report', status: 'pending' },
      { name: 'ship', status: 'skipped' },
      { name: 'later', status: 'skipped' },
    ]);
  });

  it('an allowed failure lets the next stage run', () => {
    expect(nextSteps(stagePlan, states({ build: ['failed', true] }))).toEqual([
      { name: 'test', status: 'pending' },
      { name: 'cleanup', status: 'skipped' },
    ]);
  });

  it('follows needs across stages without waiting for whole stages', () => {
    const dag = jobs(`
a:
  stage: build
  script: x
slow:
  stage: build
  script: x
b:
  stage: test
  needs: [a]
  script: x
c:
  stage: deploy
  needs: [b]
  script: x
free:
  stage: deploy
  needs: []
  script: x
`);
    expect(nextSteps(dag, new Map())).toEqual([
      { name: 'a', status: 'pending' },
      { name: 'slow', status: 'pending' },
      { name: 'free', status: 'pending' },
    ]);
    expect(nextSteps(dag, states({ a: 'success', slow: 'running', free: 'running' }))).toEqual([{ name: 'b', status: 'pending' }]);
    expect(nextSteps(dag, states({ a: 'failed', slow: 'running', free: 'running' }))).toEqual([
      { name: 'b', status: 'skipped' },
      { name: 'c', status: 'skipped' },
    ]);
  });

  it('a blocking manual job holds the later stages; a non-blocking one does not', () => {
    const blocking = jobs('gate:\n  stage: build\n  when: manual\n  allow_failure: false\n  script: x\nafter:\n  stage: test\n  script: x\n');
    expect(nextSteps(blocking, states({ gate: 'manual' }))).toEqual([]);
    expect(pipelineStatus([s('manual'), s('created')])).toBe('manual');
    const optional = jobs('gate:\n  stage: build\n  when: manual\n  script: x\nafter:\n  stage: test\n  script: x\n');
    expect(nextSteps(optional, states({ gate: ['manual', true] }))).toEqual([{ name: 'after', status: 'pending' }]);
  });
});

describe('retries and allowed failures', () => {
  it('retries within max and for the listed reasons', () => {
    expect(shouldRetry({ retry: { max: 2, when: ['always'] } }, { reason: 'script_failure', attempts: 1 })).toBe(true);
    expect(shouldRetry({ retry: { max: 2, when: ['always'] } }, { reason: 'script_failure', attempts: 3 })).toBe(false);
    expect(shouldRetry({ retry: { max: 1, when: ['runner_system_failure'] } }, { reason: 'script_failure', attempts: 1 })).toBe(false);
    const byCode = { retry: { max: 2, when: [], exitCodes: [137] } };
    expect(shouldRetry(byCode, { reason: 'script_failure', attempts: 1, exitCode: 137 })).toBe(true);
    expect(shouldRetry(byCode, { reason: 'script_failure', attempts: 1, exitCode: 1 })).toBe(false);
  });

  it('allows a failure by flag or by exit code', () => {
    expect(allowedToFail({ allowFailure: false, allowFailureExitCodes: [137] }, 137)).toBe(true);
    expect(allowedToFail({ allowFailure: false, allowFailureExitCodes: [137] }, 1)).toBe(false);
    expect(allowedToFail({ allowFailure: true, allowFailureExitCodes: [] }, 1)).toBe(true);
  });
});

describe('detailedStatus', () => {
  it('words pipelines and jobs as the platform does', () => {
    expect(detailedStatus('pipeline', 'success', { warnings: true, detailsPath: '/g/p/-/pipelines/1' })).toMatchObject({
      icon: 'status_warning', text: 'Warning', label: 'passed with warnings', group: 'success-with-warnings', has_details: true,
    });
    expect(detailedStatus('pipeline', 'manual')).toMatchObject({ text: 'Blocked', label: 'waiting for manual action', group: 'manual' });
    expect(detailedStatus('job', 'failed', { allowFailure: true })).toMatchObject({ label: 'failed (allowed to fail)', group: 'failed-with-warnings' });
    expect(detailedStatus('job', 'manual', { jobPath: '/g/p/-/jobs/3' }).action).toMatchObject({ title: 'Run', path: '/g/p/-/jobs/3/play' });
    expect(detailedStatus('job', 'failed', { jobPath: '/g/p/-/jobs/3' }).action).toMatchObject({ title: 'Retry' });
  });
});
