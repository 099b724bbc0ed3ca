import type { Locator, Page } from '@playwright/test';

/**
 * Repository storage moves: /admin/storage-moves. Lazy locators; specs assert.
 * Each getter names the accessibility contract it relies on.
 */
export class StorageMovesPage {
  constructor(readonly page: Page) {}

  goto(): Promise<unknown> {
    return this.page.goto('/admin/storage-moves');
  }

  /** The screen's one h1: "Repository storage moves". */
  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Repository storage moves' });
  }

  /** Why things are missing: a `<p role="note">` in the main area. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  /** `<form aria-label="Schedule a move">`: kind radios, search, the pick, the destination. */
  get scheduleForm(): Locator {
    return this.page.getByRole('form', { name: 'Schedule a move' });
  }

  get projectSearch(): Locator {
    return this.scheduleForm.getByRole('searchbox', { name: 'Search projects' });
  }

  /** The `<select>` of search results; its hint names the current storage ("Currently on default."). */
  get projectPick(): Locator {
    return this.scheduleForm.getByRole('combobox', { name: 'Project', exact: true });
  }

  get destination(): Locator {
    return this.scheduleForm.getByRole('combobox', { name: 'Destination storage' });
  }

  get schedule(): Locator {
    return this.scheduleForm.getByRole('button', { name: 'Schedule move', exact: true });
  }

  /** `<form aria-label="Move all projects of a storage">`, confirmed in an alert dialog. */
  get bulkForm(): Locator {
    return this.page.getByRole('form', { name: 'Move all projects of a storage' });
  }

  /** Named by its `<caption>`; newest move first. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Project repository moves', exact: true });
  }

  /** The newest move of a project, found by the cell holding its full path. */
  latestRow(pathWithNamespace: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name: pathWithNamespace, exact: true }) }).first();
  }

  /** The first cell of a row is the move's state. */
  stateOf(row: Locator): Locator {
    return row.getByRole('cell').first();
  }
}
