import type { Locator, Page } from '@playwright/test';
import { RevokeTokenDialog, RotateTokenDialog, SecretDialog, type TokenStateName } from './access-tokens.ts';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A group's or the instance's service accounts (/groups/:id/service-accounts,
 * /admin/service-accounts). Lazy locators; specs assert. Each getter names the accessibility
 * contract it relies on.
 */
export class ServiceAccountsPage {
  constructor(readonly page: Page) {}

  gotoGroup(groupId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/service-accounts${search}`);
  }

  gotoInstance(search = ''): Promise<unknown> {
    return this.page.goto(`/admin/service-accounts${search}`);
  }

  /** The screen's only h1: "Service accounts of <group full name>" or "Instance service accounts". */
  heading(title: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: title, exact: true });
  }

  /** In the header beside the h1, for those who manage accounts; dialogs live in portals outside `main`. */
  get newAccount(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: 'New service account', exact: true });
  }

  /** Why something is missing: a `<p role="note">`. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  /** An empty list: a role="status" named by what is empty (the paginator's is named "Shown: …"). */
  get emptyState(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^(?!Shown: )/ });
  }

  /** `role="group"` named "List options" (there are no filters, only order and page size). */
  get listOptions(): Locator {
    return this.page.getByRole('group', { name: 'List options', exact: true });
  }

  /** A `<select>` wrapped by its label; values `<order_by>_<sort>`, options named by what they do ("Username, A to Z"). */
  get sortBy(): Locator {
    return this.listOptions.getByRole('combobox', { name: 'Sort by', exact: true });
  }

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Service accounts', exact: true });
  }

  /** Body rows: the header row holds column headers, body rows hold cells. */
  get rows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /** The account's row: its first cell reads "<name>@<username>". */
  row(username: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('cell', { name: new RegExp(`@${escapeRegExp(username)}$`) }) });
  }

  /** Each row links to the account's tokens, labelled "Tokens of <name>". */
  tokensLink(name: string): Locator {
    return this.table.getByRole('link', { name: `Tokens of ${name}`, exact: true });
  }

  /** Row actions are buttons labelled with the account's name, for those who manage the accounts. */
  editButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Edit ${name}`, exact: true });
  }

  deleteButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Delete ${name}`, exact: true });
  }

  /** Any row action at all: none may show to those without the right. */
  get rowActions(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: /^(Edit|Delete) / });
  }

  // -- dialogs (Radix, portalled): named by their titles

  /** "New service account for <group>" or "New instance service account". */
  createDialog(title: string): AccountForm {
    return new AccountForm(this.page.getByRole('dialog', { name: title, exact: true }));
  }

  editDialog(name: string): AccountForm {
    return new AccountForm(this.page.getByRole('dialog', { name: `Edit ${name}`, exact: true }));
  }

  deleteDialog(name: string): DeleteAccountDialog {
    return new DeleteAccountDialog(this.page.getByRole('alertdialog', { name: `Delete ${name}?`, exact: true }));
  }

  /** Success toasts: Radix Toast items are list items of the "Notifications" region. */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem').filter({ hasText: text });
  }
}

/** The create and edit forms: `<label for>` (Field), aria-invalid, errors in aria-describedby. */
export class AccountForm {
  constructor(readonly root: Locator) {}

  get name(): Locator {
    return this.root.getByLabel('Name', { exact: true });
  }

  get username(): Locator {
    return this.root.getByLabel('Username', { exact: true });
  }

  /** On the create form, and on the edit form of an instance account. */
  get email(): Locator {
    return this.root.getByLabel('Email', { exact: true });
  }

  /** "Create service account" or "Save"; disabled and aria-busy while the request runs. */
  get submit(): Locator {
    return this.root.getByRole('button', { name: /^(Create service account|Save)$/ });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }

  /** A failure that belongs to no field is a role="alert" inside the dialog. */
  get formError(): Locator {
    return this.root.getByRole('alert');
  }
}

/** Delete confirmation: an alertdialog saying what goes, with the hard delete choice. */
export class DeleteAccountDialog {
  constructor(readonly root: Locator) {}

  /** A checkbox wrapped by its label "Hard delete", described by what it deletes. */
  get hardDelete(): Locator {
    return this.root.getByRole('checkbox', { name: 'Hard delete', exact: true });
  }

  /** "Delete service account", or "Hard delete service account" once hard delete is ticked. */
  get confirm(): Locator {
    return this.root.getByRole('button', { name: /^(Hard delete|Delete) service account/ });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }

  /** The refusal (e.g. 409 sole Owner) is a role="alert" inside the dialog. */
  get error(): Locator {
    return this.root.getByRole('alert');
  }
}

/** One service account's tokens (/groups/:id/service-accounts/:userId/tokens, /admin/service-accounts/:userId/tokens). */
export class AccountTokensPage {
  constructor(readonly page: Page) {}

  gotoGroup(groupId: number, userId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/service-accounts/${userId}/tokens${search}`);
  }

  gotoInstance(userId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/admin/service-accounts/${userId}/tokens${search}`);
  }

  /** The screen's only h1: "Tokens of <account name>". */
  heading(accountName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Tokens of ${accountName}`, exact: true });
  }

  /** Back to the list: "All service accounts of <group>" or "All instance service accounts". */
  get backToAccounts(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: /^All (instance )?service accounts/ });
  }

  get newToken(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: 'New token', exact: true });
  }

  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  /** `role="search"` named "Filter tokens". */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter tokens' });
  }

  get state(): Locator {
    return this.filters.getByRole('combobox', { name: 'State', exact: true });
  }

  get emptyState(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^(?!Shown: )/ });
  }

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Tokens', exact: true });
  }

  get rows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /** Rows of the token called `name` (a rotation keeps the name); with `state`, only those with that State badge. */
  row(name: string, state?: TokenStateName): Locator {
    let rows = this.rows.filter({ has: this.page.getByRole('cell', { name: new RegExp(`^${escapeRegExp(name)}( |$)`) }) });
    if (state) rows = rows.filter({ has: this.page.getByRole('cell', { name: state, exact: true }) });
    return rows;
  }

  /** Labelled with the token's name; active tokens only, for those who manage the account. */
  rotateButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Rotate ${name}`, exact: true });
  }

  revokeButton(name: string): Locator {
    return this.table.getByRole('button', { name: `Revoke ${name}`, exact: true });
  }

  createDialog(accountName: string): CreateAccountTokenDialog {
    return new CreateAccountTokenDialog(this.page.getByRole('dialog', { name: `New token for ${accountName}`, exact: true }));
  }

  /** The secret shown once: "New token of <account>" after create, "Rotated token of <account>" after rotate. */
  secretDialog(title: string): SecretDialog {
    return new SecretDialog(this.page.getByRole('dialog', { name: title, exact: true }));
  }

  rotateDialog(tokenName: string): RotateTokenDialog {
    return new RotateTokenDialog(this.page.getByRole('alertdialog', { name: `Rotate ${tokenName}?`, exact: true }));
  }

  revokeDialog(tokenName: string): RevokeTokenDialog {
    return new RevokeTokenDialog(this.page.getByRole('alertdialog', { name: `Revoke ${tokenName}?`, exact: true }));
  }
}

/** The token form: `<label for>` fields and a "Scopes" fieldset of checkboxes. */
export class CreateAccountTokenDialog {
  constructor(readonly root: Locator) {}

  get name(): Locator {
    return this.root.getByLabel('Token name', { exact: true });
  }

  get description(): Locator {
    return this.root.getByLabel('Description', { exact: true });
  }

  /** `<input type="date">` labelled "Expires on", limited by min/max to tomorrow … one year ahead. */
  get expiresOn(): Locator {
    return this.root.getByLabel('Expires on', { exact: true });
  }

  /** Each checkbox is labelled by its scope name; what the scope allows is its visible description. */
  scope(value: string): Locator {
    return this.root.getByRole('group', { name: 'Scopes', exact: true }).getByRole('checkbox', { name: value, exact: true });
  }

  get submit(): Locator {
    return this.root.getByRole('button', { name: 'Create token', exact: true });
  }

  get formError(): Locator {
    return this.root.getByRole('alert');
  }
}
