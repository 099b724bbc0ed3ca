import type { Locator, Page } from '@playwright/test';

/**
 * The runner fleet (/admin/runners, /groups/:id/runners, /projects/:id/runners). Lazy locators;
 * specs assert. Each getter names the accessibility contract it relies on.
 */
export class RunnerFleetPage {
  constructor(readonly page: Page) {}

  goto(search = ''): Promise<unknown> {
    return this.page.goto(`/admin/runners${search}`);
  }

  /** The screen's only h1. */
  heading(name: string): Locator {
    return this.page.getByRole('heading', { level: 1, name, exact: true });
  }

  /** Why the fleet or its actions are missing: a `<p role="note">`. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  // -- counts: `<ul aria-label>` lists of links named "<Label>: <n> runners" (or "not counted")

  countList(name: 'Runners by status' | 'Runners by type'): Locator {
    return this.page.getByRole('list', { name, exact: true });
  }

  count(list: 'Runners by status' | 'Runners by type', label: string): Locator {
    return this.countList(list).getByRole('link', { name: new RegExp(`^${label}: `) });
  }

  // -- filters: `role="search"` named "Filter runners"; selects wrapped by their labels

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter runners' });
  }

  get type(): Locator {
    return this.filters.getByRole('combobox', { name: 'Type', exact: true });
  }

  get status(): Locator {
    return this.filters.getByRole('combobox', { name: 'Status', exact: true });
  }

  get paused(): Locator {
    return this.filters.getByRole('combobox', { name: 'Paused', exact: true });
  }

  /** `<input type="search" aria-label>`: debounced; Enter applies at once. */
  get tags(): Locator {
    return this.filters.getByRole('searchbox', { name: /^Tags/ });
  }

  get versionPrefix(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Version prefix' });
  }

  // -- selection and actions: a `role="toolbar"` named "Selected runners"

  get toolbar(): Locator {
    return this.page.getByRole('toolbar', { name: 'Selected runners' });
  }

  action(name: 'Pause selected' | 'Resume selected' | 'Export CSV'): Locator {
    return this.toolbar.getByRole('button', { name });
  }

  /** The header checkbox of the table. */
  get selectPage(): Locator {
    return this.table.getByRole('checkbox', { name: 'Select all runners on this page' });
  }

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Runners', exact: true });
  }

  /** Data rows (the header row holds column headers, not cells). */
  get rows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  row(runnerId: number): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: `#${runnerId}`, exact: true }) });
  }

  select(runnerId: number): Locator {
    return this.table.getByRole('checkbox', { name: `Select runner #${runnerId}`, exact: true });
  }

  /** Outcome lines after an action: `role="status"` paragraphs in `main`. */
  outcome(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('status').filter({ hasText: text });
  }
}

/** One runner (/admin/runners/:id or /runners/:id). */
export class RunnerPage {
  constructor(readonly page: Page) {}

  goto(runnerId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/admin/runners/${runnerId}${search}`);
  }

  heading(runnerId: number): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Runner #${runnerId}`, exact: true });
  }

  /** Header actions, shown only to those who may change the runner. */
  button(name: 'Pause runner' | 'Resume runner' | 'Edit settings' | 'Reset token' | 'Delete runner'): Locator {
    return this.page.getByRole('main').getByRole('button', { name, exact: true });
  }

  /** The edit form, in a Radix dialog named by its title. */
  get editDialog(): Locator {
    return this.page.getByRole('dialog', { name: /^Edit runner #/ });
  }

  field(label: string): Locator {
    return this.editDialog.getByLabel(label, { exact: true });
  }

  /** The page's sections are `<section aria-labelledby>`: regions named by their h2 (Status, Version, Settings, Jobs). */
  section(name: 'Status' | 'Version' | 'Settings' | 'Groups and projects' | 'Jobs'): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  get jobFilters(): Locator {
    return this.page.getByRole('search', { name: 'Filter jobs' });
  }

  get jobsTable(): Locator {
    return this.page.getByRole('table', { name: 'Jobs', exact: true });
  }
}
