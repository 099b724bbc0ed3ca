import type { Locator, Page } from '@playwright/test';

/**
 * An issue list (/issues, /groups/:id/issues, /projects/:id/issues). Lazy locators; specs
 * assert. Each getter names the accessibility contract it relies on.
 */
export class IssueListPage {
  constructor(readonly page: Page) {}

  /** `role="search"` named "Filter issues": the tokens and the form that adds one. */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter issues' });
  }

  /** A token's text, e.g. `label is not wontfix`, in the list named "Active filters". */
  token(text: string): Locator {
    return this.filters.getByRole('list', { name: 'Active filters' }).getByText(text, { exact: true });
  }

  /** Each token's button is labelled "Remove filter <token text>". */
  removeToken(text: string): Locator {
    return this.filters.getByRole('button', { name: `Remove filter ${text}`, exact: true });
  }

  /** Field (select "Filter by"), operator (select "Operator"), value ("Value"), then "Add filter". */
  async addFilter(field: string, operator: 'is' | 'is not', value: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Add a filter' });
    await form.getByRole('combobox', { name: 'Filter by' }).selectOption({ label: field });
    await form.getByRole('combobox', { name: 'Operator' }).selectOption({ label: operator });
    // a combobox with suggestions (an input with a datalist), or a select for fixed values
    await form.getByLabel('Value').fill(value);
    await form.getByLabel('Value').press('Enter');
  }

  /** The table is named by its caption: "Open issues", "Closed issues", "All issues". */
  table(name = 'Open issues'): Locator {
    return this.page.getByRole('table', { name });
  }

  /** Body rows only: the header row holds column headers, not cells. */
  rows(name = 'Open issues'): Locator {
    return this.table(name).getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  row(title: string, name = 'Open issues'): Locator {
    return this.rows(name).filter({ has: this.page.getByRole('link', { name: title, exact: true }) });
  }

  /** `<nav aria-label="Issue states">`: links "Open <count>", "Closed <count>", "All <count>". */
  stateTab(name: string): Locator {
    return this.page.getByRole('navigation', { name: 'Issue states' }).getByRole('link', { name });
  }

  get selectAll(): Locator {
    return this.page.getByRole('checkbox', { name: 'Select all issues on this page' });
  }

  /** `<form aria-label="Edit selected issues">` of the bulk panel. */
  get bulkForm(): Locator {
    return this.page.getByRole('form', { name: 'Edit selected issues' });
  }

  get moveForm(): Locator {
    return this.page.getByRole('form', { name: 'Move selected issues' });
  }

  /** The bulk panel's outcome, a `role="status"` line: "20 of 20 changed." */
  outcome(text: string): Locator {
    return this.page.getByRole('region', { name: 'Bulk edit' }).getByRole('status').filter({ hasText: text });
  }
}
