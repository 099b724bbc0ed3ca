import { chromium, type Page } from '@playwright/test';
import { DEMO_PIPELINES } from '../sandbox/seed/pipelines.ts';
import { chromiumLaunchOptions } from '../e2e/browser.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { firstPaints, type Target } from './paint-clock.ts';
import { emit, log, median, round } from './report.ts';

/**
 * The pipeline screens on the demo's biggest data, in a real browser on loopback, each a full
 * load of its address timed to the first frame that shows its content: the 200-job graph's first
 * job box, the 100,000-line log's first lines (and how many elements the document then holds,
 * and after a jump to the end), the 2,000-case test report's first case.
 */

const RUNS = 5;
const STEP_TIMEOUT_MS = 60_000;

const GRAPH_JOB: Target = { selector: '[role="region"][aria-label="Pipeline graph"] li', byFrame: true };
const LOG_LINE: Target = { selector: '[role="region"][aria-label^="Log lines of"] .log-line', byFrame: true };
const REPORT_CASE: Target = { caption: '^Test cases$', byFrame: true };

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

export async function pipelineDetailFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const headers = { 'PRIVATE-TOKEN': server.adminToken };
    const get = async <T>(path: string): Promise<T> => {
      const answer = await fetch(`${server.baseURL}/api/v4${path}`, { headers });
      if (!answer.ok) throw new Error(`GET ${path} answered ${answer.status}`);
      return (await answer.json()) as T;
    };
    const project = await get<{ id: number }>(`/projects/${encodeURIComponent(DEMO_PIPELINES.project)}`);
    const jobs = await get<Array<{ id: number; name: string }>>(`/projects/${project.id}/pipelines/${DEMO_PIPELINES.bigLogId}/jobs?per_page=100`);
    const logJob = jobs.find((job) => job.name === DEMO_PIPELINES.bigLogJob);
    if (!logJob) throw new Error(`pipeline ${DEMO_PIPELINES.bigLogId} has no job ${DEMO_PIPELINES.bigLogJob}`);

    const measure = (path: string, target: Target) => firstPaints(browser, server.baseURL, server.adminToken, path, target, { runs: RUNS, timeoutMs: STEP_TIMEOUT_MS });

    const { runs: graph, page: graphPage, context: graphContext } = await measure(`/projects/${project.id}/pipelines/${DEMO_PIPELINES.bigGraphId}`, GRAPH_JOB);
    const boxes = await graphPage.getByRole('region', { name: 'Pipeline graph' }).getByRole('listitem').count();
    await graphContext.close();
    log(`200-job graph: full load to the first job box painted ${graph.map((ms) => round(ms, 1)).join(', ')} ms; ${boxes} boxes in the page`);
    emit({ name: 'console.pipeline_graph_200_first_paint_ms', value: round(median(graph), 1), unit: 'ms' });

    const { runs: logRuns, page, context } = await measure(`/projects/${project.id}/jobs/${logJob.id}`, LOG_LINE);
    const nodesAtTop = await domNodes(page);
    await page.getByRole('button', { name: 'Scroll to end', exact: true }).click();
    await page.getByRole('region', { name: /^Log lines of / }).getByText('ERROR: Job failed: exit code 1').waitFor();
    const nodesAtEnd = await domNodes(page);
    log(`100,000-line log: full load to the first lines painted ${logRuns.map((ms) => round(ms, 1)).join(', ')} ms; elements in the document ${nodesAtTop} at the top, ${nodesAtEnd} at the end`);
    emit({ name: 'console.job_log_100k_first_lines_ms', value: round(median(logRuns), 1), unit: 'ms' });
    emit({ name: 'console.job_log_100k_dom_nodes', value: Math.max(nodesAtTop, nodesAtEnd), unit: 'count' });

    await context.close();
    const { runs: report, context: reportContext } = await measure(`/projects/${project.id}/pipelines/${DEMO_PIPELINES.bigLogId}/test-report`, REPORT_CASE);
    log(`2,000-case test report: full load to the first case painted ${report.map((ms) => round(ms, 1)).join(', ')} ms`);
    emit({ name: 'console.test_report_2000_first_paint_ms', value: round(median(report), 1), unit: 'ms' });
    await reportContext.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}
