import type { Locator, Page } from '@playwright/test';

/** The branches screen (/projects/:id/branches). Lazy locators; specs assert. */
export class BranchesPage {
  constructor(readonly page: Page) {}

  goto(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/branches${search}`);
  }

  /** The screen's only h1, "Branches of <project>". */
  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  // -- filters: `role="search"` named "Filter branches"

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter branches' });
  }

  /** "Name contains" or "Regular expression (RE2)". */
  get match(): Locator {
    return this.filters.getByRole('combobox', { name: 'Match', exact: true });
  }

  /** The name search box (debounced; Enter applies at once). */
  get search(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Search branches' });
  }

  get regex(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Branch name regular expression' });
  }

  // -- the table: rows found by their row's Delete button, named "Delete <branch>"

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Branches' });
  }

  /** Names of the branches shown, from each row's Delete button. */
  async names(): Promise<string[]> {
    const labels = await this.table.getByRole('button', { name: /^Delete / }).evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label') ?? ''));
    return labels.map((label) => label.replace(/^Delete /, ''));
  }

  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('button', { name: `Delete ${name}`, exact: true }) });
  }

  deleteButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Delete ${name}`, exact: true });
  }

  protectButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Protect ${name}`, exact: true });
  }

  unprotectButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Unprotect ${name}`, exact: true });
  }

  /** A badge in a row: "default", "protected" or "merged" (text). */
  badge(name: string, badge: 'default' | 'protected' | 'merged'): Locator {
    return this.row(name).getByText(badge, { exact: true });
  }

  get newBranch(): Locator {
    return this.page.getByRole('button', { name: 'New branch', exact: true });
  }

  get deleteMerged(): Locator {
    return this.page.getByRole('button', { name: 'Delete merged branches', exact: true });
  }

  /** Inline `role="alert"` messages: a refused regex, a failed list. */
  alert(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('alert').filter({ hasText: text });
  }

  /** The open dialog (Radix Dialog or AlertDialog). */
  get dialog(): Locator {
    return this.page.getByRole('dialog').or(this.page.getByRole('alertdialog'));
  }

  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  dialogButton(name: string | RegExp): Locator {
    return this.dialog.getByRole('button', { name });
  }
}
