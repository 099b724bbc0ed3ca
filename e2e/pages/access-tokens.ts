import type { Locator, Page } from '@playwright/test';

export type TokenStateName = 'Active' | 'Revoked' | 'Expired';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A group's access tokens (/groups/:id/access-tokens). Lazy locators; specs assert. Each getter
 * names the accessibility contract it relies on.
 */
export class AccessTokensPage {
  constructor(readonly page: Page) {}

  goto(groupId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/access-tokens${search}`);
  }

  /** The screen's only h1: "Access tokens of <group full name>". */
  heading(groupName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Access tokens of ${groupName}`, exact: true });
  }

  /** In the header beside the h1, for Owners and administrators only; dialogs live in portals outside `main`. */
  get newToken(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: 'New token', exact: true });
  }

  /** Why actions are missing: a `<p role="note">`. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  /** A route that failed to load: the error panel is a role="alert" with a title and the instance's message. */
  get errorPanel(): Locator {
    return this.page.getByRole('main').getByRole('alert');
  }

  // -- filters

  /** The filter bar: `role="search"` named "Filter tokens". */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter tokens' });
  }

  /** `<input type="search" aria-label>`: debounced, applied to `search=` (Enter applies at once). */
  get search(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Search tokens by name' });
  }

  /** A `<select>` wrapped by its label "State": Any, Active, Inactive (revoked or expired) → `state=`. */
  get state(): Locator {
    return this.filters.getByRole('combobox', { name: 'State', exact: true });
  }

  /** A checkbox wrapped by its label → `revoked=true`. */
  get revokedOnly(): Locator {
    return this.filters.getByRole('checkbox', { name: 'Revoked only', exact: true });
  }

  /** A combobox wrapped by its label "Sort by"; options named by what they do ("Name, A to Z"). */
  get sortBy(): Locator {
    return this.filters.getByRole('combobox', { name: 'Sort by', exact: true });
  }

  get perPage(): Locator {
    return this.filters.getByRole('combobox', { name: 'Per page', exact: true });
  }

  /** Nothing matched: the empty state is a role="status" named by what hid the rows (the paginator's is named "Shown: …"). */
  get emptyState(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^(?!Shown: )/ });
  }

  // -- the list

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Access tokens', exact: true });
  }

  /** Body rows: the header row holds column headers, body rows hold cells. */
  get rows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /**
   * The rows of the token called `name` (a rotated token keeps its name, so there may be several);
   * its first cell is named by the token's name, then its description. With `state`: only rows
   * whose State cell is that badge.
   */
  row(name: string, state?: TokenStateName): Locator {
    let rows = this.rows.filter({ has: this.page.getByRole('cell', { name: new RegExp(`^${escapeRegExp(name)}( |$)`) }) });
    if (state) rows = rows.filter({ has: this.page.getByRole('cell', { name: state, exact: true }) });
    return rows;
  }

  /** Row actions are buttons labelled with the token's name (aria-label "Rotate <name>"); active tokens only. */
  rotateButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Rotate ${name}`, exact: true });
  }

  revokeButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Revoke ${name}`, exact: true });
  }

  /** Any row action at all: none may show to those without the right. */
  get rowActions(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: /^(Rotate|Revoke) / });
  }

  // -- dialogs (Radix, portalled): named by their titles

  createDialog(groupName: string): CreateTokenDialog {
    return new CreateTokenDialog(this.page.getByRole('dialog', { name: `New access token for ${groupName}`, exact: true }));
  }

  /** The secret shown once: "Your new access token" after create, "The rotated access token" after rotate. */
  secretDialog(title: 'Your new access token' | 'The rotated access token'): SecretDialog {
    return new SecretDialog(this.page.getByRole('dialog', { name: title, exact: true }));
  }

  rotateDialog(tokenName: string): RotateTokenDialog {
    return new RotateTokenDialog(this.page.getByRole('alertdialog', { name: `Rotate ${tokenName}?`, exact: true }));
  }

  revokeDialog(tokenName: string): RevokeTokenDialog {
    return new RevokeTokenDialog(this.page.getByRole('alertdialog', { name: `Revoke ${tokenName}?`, exact: true }));
  }

  /** Success toasts: Radix Toast items are list items of the "Notifications" region. */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem').filter({ hasText: text });
  }
}

/** The create form: every control has a `<label for>` (Field), errors in aria-describedby with aria-invalid. */
export class CreateTokenDialog {
  constructor(readonly root: Locator) {}

  get name(): Locator {
    return this.root.getByLabel('Token name', { exact: true });
  }

  get description(): Locator {
    return this.root.getByLabel('Description', { exact: true });
  }

  /** `<select>` labelled "Role"; options are the role names, Guest to Owner. */
  get role(): Locator {
    return this.root.getByLabel('Role', { exact: true });
  }

  /** `<input type="date">` labelled "Expires on", limited by min/max to tomorrow … one year ahead. */
  get expiresOn(): Locator {
    return this.root.getByLabel('Expires on', { exact: true });
  }

  /** `<fieldset>` with the legend "Scopes": a group of checkboxes. */
  get scopes(): Locator {
    return this.root.getByRole('group', { name: 'Scopes', exact: true });
  }

  /** Each checkbox is labelled by its scope name; what the scope allows is visible beside it and its accessible description. */
  scope(value: string): Locator {
    return this.scopes.getByRole('checkbox', { name: value, exact: true });
  }

  /** Reads "Creating…" (disabled, aria-busy) while the request runs. */
  get submit(): Locator {
    return this.root.getByRole('button', { name: 'Create token', exact: true });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }

  /** A failure that belongs to no field is a role="alert" inside the dialog. */
  get formError(): Locator {
    return this.root.getByRole('alert');
  }
}

/** The dialog that shows a new secret once (components/secret-once.tsx). */
export class SecretDialog {
  constructor(readonly root: Locator) {}

  /** A read-only `<input>` with `<label for>` "Token". */
  get token(): Locator {
    return this.root.getByRole('textbox', { name: 'Token', exact: true });
  }

  get copy(): Locator {
    return this.root.getByRole('button', { name: 'Copy token', exact: true });
  }

  /** What copying did, in a role="status" line. */
  get copyStatus(): Locator {
    return this.root.getByRole('status');
  }

  /** The warning that the secret is shown once: a role="note". */
  get warning(): Locator {
    return this.root.getByRole('note');
  }

  /** Closes the dialog, and the console forgets the secret. */
  get done(): Locator {
    return this.root.getByRole('button', { name: 'I have stored the token', exact: true });
  }
}

/** Rotate confirmation: an alertdialog with an optional date and a confirm button disabled while it runs. */
export class RotateTokenDialog {
  constructor(readonly root: Locator) {}

  /** `<input type="date">` with `<label for>` "New expiry date" (Field). */
  get newExpiry(): Locator {
    return this.root.getByLabel('New expiry date', { exact: true });
  }

  /** Reads "Rotate token…" (disabled, aria-busy) from the first click until the answer. */
  get confirm(): Locator {
    return this.root.getByRole('button', { name: /^Rotate token/ });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }

  get error(): Locator {
    return this.root.getByRole('alert');
  }
}

export class RevokeTokenDialog {
  constructor(readonly root: Locator) {}

  get confirm(): Locator {
    return this.root.getByRole('button', { name: /^Revoke token/ });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }
}

/** The expiry overview (/access-tokens/expiry; `?everywhere=true` for administrators, `reason=` filter). */
export class ExpiryOverviewPage {
  constructor(readonly page: Page) {}

  goto(search = ''): Promise<unknown> {
    return this.page.goto(`/access-tokens/expiry${search}`);
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'Token expiry overview', exact: true });
  }

  /** `role="search"` named "Filter the overview". */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter the overview' });
  }

  /** A `<select>` wrapped by its label "Show"; options are reasons with their counts ("Expire within 7 days (2)"). */
  get show(): Locator {
    return this.filters.getByRole('combobox', { name: 'Show', exact: true });
  }

  /** Administrators only: a checkbox wrapped by its label → `everywhere=true`. */
  get everywhere(): Locator {
    return this.filters.getByRole('checkbox', { name: /^Every group on the instance/ });
  }

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Tokens that need attention', exact: true });
  }

  /** A token's row: the only row with the button "Rotate <token> of <group>". */
  row(tokenName: string, groupName: string): Locator {
    return this.table.getByRole('row').filter({ has: this.rotateButton(tokenName, groupName) });
  }

  rotateButton(tokenName: string, groupName: string): Locator {
    return this.page.getByRole('button', { name: `Rotate ${tokenName} of ${groupName}`, exact: true });
  }

  /** "N tokens in M groups.": a role="status" line once the scan found some (an empty list has its own status instead). */
  get summary(): Locator {
    return this.page.getByRole('main').getByRole('status').filter({ hasText: /^[\d,]+ tokens in [\d,]+ groups\.$/ });
  }
}
