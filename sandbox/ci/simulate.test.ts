import { describe, expect, it } from 'vitest';
import { planPipeline, type PipelinePlan } from './config.ts';
import { simulatePipeline } from './simulate.ts';
import { TWENTY_JOB_PIPELINE } from './throughput.ts';

function plan(yaml: string, variables: Record<string, string> = {}): PipelinePlan {
  const result = planPipeline(yaml, { variables, readFile: () => null });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.plan;
}

describe('simulatePipeline', () => {
  it('runs stages in order and needs before stages', async () => {
    const result = await simulatePipeline(
      plan(`
build:
  stage: build
  script: [sleep 1, echo built > app.txt]
lint:
  stage: test
  needs: []
  script: echo lint
test:
  stage: test
  needs: [build]
  script: cat app.txt
deploy:
  stage: deploy
  script: echo deploy
`),
    );
    expect(result.status).toBe('success');
    expect(result.started.slice(0, 2).sort()).toEqual(['build', 'lint']);
    expect(result.started.indexOf('test')).toBeGreaterThan(result.started.indexOf('build'));
    expect(result.started[result.started.length - 1]).toBe('deploy');
    expect(result.jobs.get('test')!.log).toContain('built\n');
  });

  it('fails, skips the rest, runs on_failure and always jobs', async () => {
    const result = await simulatePipeline(
      plan(`
build:
  stage: build
  script: exit 4
test:
  stage: test
  script: echo never
notify:
  stage: test
  when: on_failure
  script: echo failed
report:
  stage: deploy
  when: always
  script: echo report
`),
    );
    expect(result.status).toBe('failed');
    expect([...result.jobs.values()].map((j) => [j.name, j.status])).toEqual([
      ['build', 'failed'],
      ['test', 'skipped'],
      ['notify', 'success'],
      ['report', 'success'],
    ]);
    expect(result.jobs.get('build')!.exitCode).toBe(4);
  });

  it('passes with warnings on an allowed exit code, and retries up to retry:max', async () => {
    const result = await simulatePipeline(
      plan(`
flaky:
  retry: 2
  script: exit 1
soft:
  allow_failure: { exit_codes: [3] }
  script: exit 3
`),
    );
    expect(result.jobs.get('flaky')!.attempts).toBe(3);
    expect(result.status).toBe('failed');
    const soft = await simulatePipeline(plan('soft:\n  allow_failure: { exit_codes: [3] }\n  script: exit 3\nok:\n  script: "true"\n'));
    expect(soft.status).toBe('success');
    expect(soft.warnings).toBe(true);
  });

  it('stops at a blocking manual job until it is played', async () => {
    const yaml = 'gate:\n  stage: build\n  when: manual\n  allow_failure: false\n  script: echo go\nafter:\n  stage: test\n  script: echo after\n';
    const blocked = await simulatePipeline(plan(yaml));
    expect(blocked.status).toBe('manual');
    expect(blocked.jobs.get('after')).toBeUndefined();
    const played = await simulatePipeline(plan(yaml), { play: ['gate'] });
    expect(played.status).toBe('success');
  });

  it('runs the throughput figure\'s 20-job pipeline to success', async () => {
    const result = await simulatePipeline(plan(TWENTY_JOB_PIPELINE));
    expect(result.status).toBe('success');
    expect(result.jobs.size).toBe(20);
  });
});
