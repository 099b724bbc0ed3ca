import type { Locator, Page } from '@playwright/test';

export type FollowList = 'Followers' | 'Following';

/** A person's page (/users/:id). Lazy locators; specs assert. */
export class UserPage {
  constructor(readonly page: Page) {}

  goto(userId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/users/${userId}${search}`);
  }

  /** The page's only h1 is the user's display name. */
  heading(name: string): Locator {
    return this.page.getByRole('heading', { level: 1, name, exact: true });
  }

  /**
   * One button whose name is the action it takes: "Follow", or "Unfollow" once followed. Absent
   * on one's own page; disabled for a read-only token.
   */
  get follow(): Locator {
    return this.page.getByRole('button', { name: 'Follow', exact: true });
  }

  get unfollow(): Locator {
    return this.page.getByRole('button', { name: 'Unfollow', exact: true });
  }

  /** `<nav aria-label="Follow lists">` with "Followers (N)" / "Following (N)"; aria-current on the one in view. */
  get lists(): Locator {
    return this.page.getByRole('navigation', { name: 'Follow lists' });
  }

  listLink(list: FollowList): Locator {
    return this.lists.getByRole('link', { name: new RegExp(`^${list} \\(\\d+\\)$`) });
  }

  /** The count the link carries, e.g. "Followers (48)" for 48. */
  async count(list: FollowList): Promise<number> {
    const name = (await this.listLink(list).textContent()) ?? '';
    const match = /\((\d+)\)/.exec(name);
    if (!match) throw new Error(`no count in "${name}"`);
    return Number(match[1]);
  }

  /** Captioned "Followers of <name>" or "Followed by <name>". */
  table(caption: string): Locator {
    return this.page.getByRole('table', { name: caption, exact: true });
  }

  /** The row linking to `name`, in the table captioned `caption`. */
  row(caption: string, name: string): Locator {
    return this.table(caption).getByRole('row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  rows(caption: string): Locator {
    return this.table(caption).getByRole('row').filter({ has: this.page.getByRole('link') });
  }

  /** Nobody in the list: a role="status" empty state. */
  get emptyState(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^(?!Shown: )/ });
  }

  /** `<nav aria-label="<caption> pages">` with "Previous", "Page N", "Next" links. */
  pageLink(caption: string, name: string): Locator {
    return this.page.getByRole('navigation', { name: `${caption} pages`, exact: true }).getByRole('link', { name, exact: true });
  }
}
