import type { Locator, Page } from '@playwright/test';

/**
 * A pipeline's detail (/projects/:id/pipelines/:id and its tabs) and a job's page
 * (/projects/:id/jobs/:id). Lazy locators; specs assert. Each getter names the accessibility
 * contract it relies on.
 */
export class PipelinePage {
  constructor(readonly page: Page) {}

  goto(projectId: number, pipelineId: number, tab: '' | 'jobs' | 'test-report' | 'variables' = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/pipelines/${pipelineId}${tab ? `/${tab}` : ''}`);
  }

  /** The one h1: "Pipeline #12". */
  heading(pipelineId: number): Locator {
    return this.page.getByRole('heading', { level: 1, name: new RegExp(`^Pipeline #${pipelineId}\\b`) });
  }

  /** `<nav aria-label="Pipeline">` with a link per tab. */
  tab(name: 'Graph' | 'Jobs' | 'Test report' | 'Variables'): Locator {
    return this.page.getByRole('navigation', { name: 'Pipeline' }).getByRole('link', { name });
  }

  /** The graph: `role="region"` named "Pipeline graph". */
  get graph(): Locator {
    return this.page.getByRole('region', { name: 'Pipeline graph' });
  }

  /** The needs lines: an `<svg role="img">` named "N needs links". */
  get needsLinks(): Locator {
    return this.graph.getByRole('img', { name: /needs links?$/ });
  }

  /** A stage's jobs: `<ul aria-label="Jobs of stage build">`, one `listitem` a job. */
  stage(name: string): Locator {
    return this.graph.getByRole('list', { name: `Jobs of stage ${name}` });
  }

  /** A job's box in the graph: the list item holding the link named for the job. */
  graphJob(name: string): Locator {
    return this.graph.getByRole('listitem').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  /** The action of a job, named "Run deploy", "Retry build", "Cancel test". */
  jobAction(action: 'Run' | 'Retry' | 'Cancel', jobName: string): Locator {
    return this.page.getByRole('button', { name: `${action} ${jobName}`, exact: true });
  }

  get searchCases(): Locator {
    return this.page.getByRole('searchbox', { name: 'Search test cases' });
  }

  /** `<table>` captioned "Test cases". */
  get casesTable(): Locator {
    return this.page.getByRole('table', { name: 'Test cases' });
  }

  get outputDialog(): Locator {
    return this.page.getByRole('dialog');
  }
}

export class JobPage {
  constructor(readonly page: Page) {}

  goto(projectId: number, jobId: number, line?: number): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/jobs/${jobId}${line ? `#L${line}` : ''}`);
  }

  /** "Job build #12". */
  heading(jobName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: new RegExp(`^Job ${jobName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });
  }

  /** The log's scroll box: `role="region"` named "Log lines of <job>". */
  logLines(jobName: string): Locator {
    return this.page.getByRole('region', { name: `Log lines of ${jobName}` });
  }

  /** A log line's number: a link named by the number (`#L12`). */
  lineLink(number: number): Locator {
    return this.page.getByRole('link', { name: String(number), exact: true });
  }

  /** A section's header: a button with `aria-expanded`, named by its header text. */
  section(header: string | RegExp): Locator {
    return this.page.getByRole('button', { name: header });
  }
}
