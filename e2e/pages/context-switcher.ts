import type { Locator, Page } from '@playwright/test';

/** The shell's group and project picker. Lazy locators; specs assert. */
export class ContextSwitcher {
  constructor(readonly page: Page) {}

  /** A Radix Popover trigger: a button named by its text. */
  get trigger(): Locator {
    return this.page.getByRole('button', { name: 'Switch group or project', exact: true });
  }

  /** The open popover is a role="dialog" named by aria-label. */
  get panel(): Locator {
    return this.page.getByRole('dialog', { name: 'Switch group or project' });
  }

  /** `<input type="search" aria-label>`, debounced. */
  get search(): Locator {
    return this.panel.getByRole('searchbox', { name: 'Search groups and projects' });
  }

  /** Sections labelled by their headings "Groups" and "Projects" (regions), each a list of links. */
  section(name: 'Groups' | 'Projects'): Locator {
    return this.panel.getByRole('region', { name, exact: true });
  }

  /** A group link reads its full name ("Acme Engineering / Backend"), a project its name with namespace. */
  link(section: 'Groups' | 'Projects', fullName: string): Locator {
    return this.section(section).getByRole('link', { name: fullName, exact: true });
  }
}
