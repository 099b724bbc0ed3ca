import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { DEMO_PIPELINES } from '../seed/demo.ts';
import { jobsOf, settle } from './pipelines-fixtures.ts';

let h: Harness;
const project = encodeURIComponent(DEMO_PIPELINES.project);

beforeAll(() => {
  h = createHarness({ seed: 'demo' });
  // the running pipeline's jobs run as soon as the worker starts: no waiting on their sleeps
  h.sandbox.config.ciTimeScale = 0;
});

afterAll(() => h.close());

describe('demo seed: pipelines', () => {
  it('has 5,000 pipelines on the gateway over months, of every outcome and several sources', async () => {
    const list = await h.get(`/projects/${project}/pipelines?per_page=100`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total')).toBe(String(DEMO_PIPELINES.count));
    const { db } = h.sandbox;
    const statuses = db.prepare('SELECT DISTINCT status FROM ci_pipelines WHERE id <= ?').pluck().all(DEMO_PIPELINES.count) as string[];
    expect(statuses).toEqual(expect.arrayContaining(['success', 'failed', 'canceled', 'manual']));
    const sources = db.prepare('SELECT DISTINCT source FROM ci_pipelines WHERE id <= ?').pluck().all(DEMO_PIPELINES.count) as string[];
    expect(sources).toEqual(expect.arrayContaining(['push', 'schedule', 'web', 'api', 'trigger']));
    const span = db.prepare('SELECT min(created_at) AS first, max(created_at) AS last FROM ci_pipelines WHERE id <= ?').get(DEMO_PIPELINES.count) as { first: string; last: string };
    expect(Date.parse(span.last) - Date.parse(span.first)).toBeGreaterThan(90 * 86_400_000);
    expect((await h.get(`/projects/${project}/pipelines/${DEMO_PIPELINES.blockedId}`)).body).toMatchObject({ status: 'manual', tag: true });
  });

  it('numbers the gateway pipelines in the order they were created, each after its commit', () => {
    const rows = h.sandbox.db.prepare('SELECT id, created_at, committed_at FROM ci_pipelines WHERE id <= ? ORDER BY id').all(DEMO_PIPELINES.count) as Array<{ id: number; created_at: string; committed_at: string }>;
    const outOfOrder = rows.filter((row, index) => index > 0 && row.created_at < rows[index - 1].created_at).map((row) => row.id);
    expect(outOfOrder).toEqual([]);
    expect(rows.filter((row) => row.created_at < row.committed_at).map((row) => row.id)).toEqual([]);
  });

  it('gives every job of the runner fleet a real pipeline', () => {
    const orphans = h.sandbox.db.prepare('SELECT count(*) FROM ci_builds WHERE pipeline_id IS NULL OR pipeline_id NOT IN (SELECT id FROM ci_pipelines)').pluck().get();
    expect(orphans).toBe(0);
  });

  it('has a 200-job graph with needs, a 100,000-line log and a 2,000-case report', async () => {
    const graph = await h.get(`/projects/${project}/pipelines/${DEMO_PIPELINES.bigGraphId}/jobs?per_page=1`);
    expect(graph.headers.get('x-total')).toBe('200');
    const stages = h.sandbox.db.prepare('SELECT count(DISTINCT stage) FROM ci_builds WHERE pipeline_id = ?').pluck().get(DEMO_PIPELINES.bigGraphId);
    expect(stages).toBe(10);
    const jobs = await jobsOf(h, project as unknown as number, DEMO_PIPELINES.bigLogId);
    const logJob = jobs.find((job) => job.name === DEMO_PIPELINES.bigLogJob)!;
    expect(logJob.status).toBe('failed');
    const started = performance.now();
    const trace = await h.get(`/projects/${project}/jobs/${logJob.id}/trace`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(trace.text.split('\n').length - 1).toBe(DEMO_PIPELINES.bigLogLines);
    expect(trace.text).toContain('section_start:');
    const summary = await h.get(`/projects/${project}/pipelines/${DEMO_PIPELINES.bigLogId}/test_report_summary`);
    expect(summary.body.total.count).toBe(DEMO_PIPELINES.bigReportCases);
    expect(summary.body.total.failed).toBeGreaterThan(0);
    const report = await h.get(`/projects/${project}/pipelines/${DEMO_PIPELINES.bigLogId}/test_report`);
    expect(report.body.total_count).toBe(DEMO_PIPELINES.bigReportCases);
  });

  it('finishes the pipeline that was running, its jobs picked by online runners of the fleet', async () => {
    const pipeline = await settle(h, project as unknown as number, DEMO_PIPELINES.runningId, (p) => p.status !== 'running', 20_000);
    expect(pipeline.status).toBe('success');
    const jobs = await jobsOf(h, project as unknown as number, DEMO_PIPELINES.runningId);
    expect(jobs.map((job) => job.status)).toEqual(['success', 'success', 'success', 'success']);
    const unit = jobs.find((job) => job.name === 'unit-tests')!;
    expect(unit.coverage).toBe(81.4);
    expect(unit.runner).toMatchObject({ online: true, paused: false });
    const report = await h.get(`/projects/${project}/pipelines/${DEMO_PIPELINES.runningId}/test_report_summary`);
    expect(report.body.total.count).toBe(4);
  });
});
