import type { Locator, Page } from '@playwright/test';

/**
 * The blame of one file (/projects/:id/blame/<path>?ref=…#L…). Lazy locators; specs assert.
 * Contract: a `role="table"` named "Blame of <path>" whose rows carry a rowheader link named
 * "Line <n>"; a selected line's row has `aria-current="true"`.
 */
export class BlamePage {
  constructor(
    readonly page: Page,
    readonly filePath: string,
  ) {}

  goto(projectId: number, options: { ref?: string; hash?: string } = {}): Promise<unknown> {
    const search = options.ref ? `?ref=${encodeURIComponent(options.ref)}` : '';
    return this.page.goto(`/projects/${projectId}/blame/${this.filePath}${search}${options.hash ? `#${options.hash}` : ''}`);
  }

  heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Blame of ${this.filePath}`, exact: true });
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: `Blame of ${this.filePath}`, exact: true });
  }

  lineLink(line: number): Locator {
    return this.table.getByRole('link', { name: `Line ${line}`, exact: true });
  }

  /** The row of one line: its commit cell (on a group's first line), number and text. */
  row(line: number): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('rowheader').getByRole('link', { name: `Line ${line}`, exact: true }) });
  }

  /** "About 50,000 lines" while estimated, "50,000 lines" once the end is known. */
  get lineCount(): Locator {
    return this.page.getByRole('status').filter({ hasText: /lines$/ });
  }

  get goToLine(): Locator {
    return this.page.getByRole('textbox', { name: 'Go to line' });
  }

  get copyLink(): Locator {
    return this.page.getByRole('button', { name: /^Copy link to / });
  }

  retry(rangeText: RegExp | string): Locator {
    return this.table.getByRole('button', { name: typeof rangeText === 'string' ? `Retry ${rangeText}` : rangeText });
  }

  /** Elements in the whole document: the screen must stay small however long the file. */
  domNodes(): Promise<number> {
    return this.page.evaluate(() => document.querySelectorAll('*').length);
  }

  /** Scrolls the blame list by `pixels` with the mouse wheel over it. */
  async scrollBy(pixels: number): Promise<void> {
    await this.table.hover();
    await this.page.mouse.wheel(0, pixels);
  }
}
