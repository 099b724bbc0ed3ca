/**
 * The engine's throughput figure: pipelines of 20 jobs (three stages and a few needs, each job
 * echoing, sleeping and writing a file) planned and run to the end in memory, sleep scaled to
 * zero. The bench calls this; the worker's own figure adds its store and its queue on top.
 */
import { planPipeline, type PipelinePlan } from './config.ts';
import { simulatePipeline } from './simulate.ts';

export const TWENTY_JOB_PIPELINE = [
  'stages: [build, test, deploy]',
  ...Array.from({ length: 20 }, (_, i) => {
    const stage = ['build', 'test', 'deploy'][i % 3];
    const needs = stage === 'test' && i > 3 ? `\n  needs: [job${i - 1}]` : '';
    return `job${i}:\n  stage: ${stage}${needs}\n  script:\n    - echo "start $CI_JOB_NAME"\n    - sleep 1\n    - echo done > out${i}.txt\n    - cat out${i}.txt`;
  }),
].join('\n');

function plan(): PipelinePlan {
  const result = planPipeline(TWENTY_JOB_PIPELINE, { variables: { CI_PIPELINE_SOURCE: 'push' }, readFile: () => null });
  if (!result.ok) throw new Error(result.errors.join('; '));
  return result.plan;
}

/** Pipelines completed per second over about `durationMs` (each one planned from the YAML again). */
export async function measureEngineThroughput(durationMs = 2000): Promise<{ pipelinesPerSecond: number; pipelines: number }> {
  await simulatePipeline(plan()); // warm-up
  const started = performance.now();
  let pipelines = 0;
  while (performance.now() - started < durationMs) {
    const result = await simulatePipeline(plan(), { timeScale: 0 });
    if (result.status !== 'success') throw new Error(`pipeline ended ${result.status}`);
    pipelines += 1;
  }
  return { pipelinesPerSecond: pipelines / ((performance.now() - started) / 1000), pipelines };
}
