import type { Locator, Page } from '@playwright/test';

/** The signed-in frame around every screen but /connect. Lazy locators; specs assert. */
export class Shell {
  constructor(readonly page: Page) {}

  /** The sidebar, `<nav aria-label="Areas">`: shown on wide screens, a closed drawer on narrow ones. */
  get areas(): Locator {
    return this.page.getByRole('navigation', { name: 'Areas' });
  }

  /** The header's button that shows and hides the sidebar (`aria-expanded`, `aria-controls`): there once the shell has loaded, at any width. */
  get navigationToggle(): Locator {
    return this.page.getByRole('banner').getByRole('button', { name: 'Navigation', exact: true });
  }

  /** A section of the sidebar (role="group" named by its label): "Your work", "Manage", "Code", "Admin"… */
  section(name: string): Locator {
    return this.areas.getByRole('group', { name, exact: true });
  }

  /** The command palette's trigger in the header; Ctrl+K opens it too. */
  get paletteTrigger(): Locator {
    return this.page.getByRole('banner').getByRole('button', { name: /^Search or go to/ });
  }

  /** The open palette: a modal dialog with a combobox and a listbox of options grouped by kind. */
  get palette(): Locator {
    return this.page.getByRole('dialog', { name: 'Search or go to' });
  }

  get paletteInput(): Locator {
    return this.palette.getByRole('combobox', { name: 'Search screens, groups and projects' });
  }

  /** An option of the palette's results within one kind: "Screens", "Groups" or "Projects". */
  paletteOption(kind: string, name: string | RegExp): Locator {
    return this.palette.getByRole('group', { name: kind }).getByRole('option', { name });
  }

  /**
   * The account menu's trigger: a button whose accessible name (aria-label) starts "Account:" and
   * carries the user's name and badges, e.g. "Account: Administrator, administrator".
   */
  get account(): Locator {
    return this.page.getByRole('button', { name: /^Account:/ });
  }

  /** The open account menu (Radix DropdownMenu: role="menu" with role="menuitem" entries). */
  get accountMenu(): Locator {
    return this.page.getByRole('menu');
  }

  menuItem(name: string): Locator {
    return this.accountMenu.getByRole('menuitem', { name, exact: true });
  }

  /** Opens the account menu and chooses "Sign out". */
  async signOut(): Promise<void> {
    await this.account.click();
    await this.menuItem('Sign out').click();
  }
}
