import type { Locator, Page } from '@playwright/test';

/** The signed-in frame around every screen but /connect. Lazy locators; specs assert. */
export class Shell {
  constructor(readonly page: Page) {}

  /** `<nav aria-label="Areas">`: present once the shell has loaded. */
  get areas(): Locator {
    return this.page.getByRole('navigation', { name: 'Areas' });
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
