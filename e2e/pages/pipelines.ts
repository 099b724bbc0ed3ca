import type { Locator, Page } from '@playwright/test';

/** The pipelines list (/projects/:id/pipelines). Lazy locators; specs assert. */
export class PipelinesPage {
  constructor(readonly page: Page) {}

  goto(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/pipelines${search}`);
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  // -- filters: `role="search"` named "Filter pipelines"

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter pipelines' });
  }

  get status(): Locator {
    return this.filters.getByRole('combobox', { name: 'Status', exact: true });
  }

  get ref(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Branch or tag' });
  }

  /** The date range and the other rarer filters sit in a disclosure. */
  async openMoreFilters(): Promise<void> {
    const more = this.filters.getByText('Dates, commit, name and CI file errors');
    if (!(await this.updatedFrom.isVisible())) await more.click();
  }

  get updatedFrom(): Locator {
    return this.filters.getByLabel('Updated from');
  }

  get updatedUntil(): Locator {
    return this.filters.getByLabel('Updated until');
  }

  get jumpForm(): Locator {
    return this.filters.getByRole('form', { name: 'Jump to date' });
  }

  tab(name: string): Locator {
    return this.page.getByRole('navigation', { name: 'Pipeline scopes' }).getByRole('link', { name, exact: true });
  }

  // -- the table: a row is found by its pipeline link, "Pipeline #<id>…"

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Pipelines' });
  }

  row(pipelineId: number): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('link', { name: new RegExp(`^Pipeline #${pipelineId}(:|$)`) }) });
  }

  /** The ids of the rows shown, in order. */
  async ids(): Promise<number[]> {
    const labels = await this.table.getByRole('link', { name: /^Pipeline #\d+/ }).evaluateAll((links) => links.map((link) => link.getAttribute('aria-label') ?? ''));
    return labels.map((label) => Number(/^Pipeline #(\d+)/.exec(label)![1]));
  }

  action(pipelineId: number, verb: 'Retry' | 'Cancel' | 'Delete'): Locator {
    return this.table.getByRole('button', { name: `${verb} pipeline #${pipelineId}`, exact: true });
  }
}

/** The run form (/projects/:id/pipelines/new). */
export class RunPipelinePage {
  constructor(readonly page: Page) {}

  goto(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/pipelines/new${search}`);
  }

  get form(): Locator {
    return this.page.getByRole('form', { name: 'Run pipeline' });
  }

  get ref(): Locator {
    return this.form.getByRole('combobox', { name: 'Run for branch or tag' });
  }

  key(row: number): Locator {
    return this.form.getByRole('textbox', { name: `Key of variable ${row}`, exact: true });
  }

  /** A text box, or a select when the CI file offers options. */
  value(row: number): Locator {
    return this.form.getByLabel(`Value of variable ${row}`, { exact: true });
  }

  type(row: number): Locator {
    return this.form.getByRole('combobox', { name: `Type of variable ${row}`, exact: true });
  }

  get addVariable(): Locator {
    return this.form.getByRole('button', { name: 'Add variable' });
  }

  get submit(): Locator {
    return this.form.getByRole('button', { name: /^Run pipeline|^Running/ });
  }
}
