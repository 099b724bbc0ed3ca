import type { Locator, Page } from '@playwright/test';

export type MemberList = 'Direct members' | 'All members';

/**
 * A group's or project's members (/groups/:id/members, /projects/:id/members). Lazy locators;
 * specs assert. Each getter names the accessibility contract it relies on.
 */
export class MembersPage {
  constructor(readonly page: Page) {}

  gotoGroup(groupId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/members${search}`);
  }

  gotoProject(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/members${search}`);
  }

  /** The screen's only h1: "Members of <group or project full name>". */
  heading(sourceName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Members of ${sourceName}`, exact: true });
  }

  /** `<nav aria-label="Member lists">`; the list in view carries aria-current="page". */
  get lists(): Locator {
    return this.page.getByRole('navigation', { name: 'Member lists' });
  }

  listLink(list: MemberList): Locator {
    return this.lists.getByRole('link', { name: list, exact: true });
  }

  /** The filter bar: `role="search"` named "Filter members". */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter members' });
  }

  /** `<input type="search" aria-label>`: debounced, applied to `query=` (Enter applies at once). */
  get search(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Search members' });
  }

  /** Text inputs wrapped by their `<label>` (so the label names them); applied on blur or Enter. */
  get onlyUserIds(): Locator {
    return this.filters.getByRole('textbox', { name: 'Only user IDs', exact: true });
  }

  /** Direct members only (the platform's `skip_users`). */
  get skipUserIds(): Locator {
    return this.filters.getByRole('textbox', { name: 'Skip user IDs', exact: true });
  }

  /**
   * A `<select>` wrapped by its label, so a combobox named "State"; on the All members list only.
   * (getByLabel would read the options into the wrapping label's text.)
   */
  get state(): Locator {
    return this.filters.getByRole('combobox', { name: 'State', exact: true });
  }

  /** A checkbox wrapped by its label. */
  get showSeatUse(): Locator {
    return this.filters.getByRole('checkbox', { name: 'Show seat use' });
  }

  /** A combobox named by its wrapping label: 20, 50 or 100. */
  get perPage(): Locator {
    return this.filters.getByRole('combobox', { name: 'Per page', exact: true });
  }

  /** The table is named by its `<caption>`: "Direct members" or "All members". */
  table(list: MemberList = 'Direct members'): Locator {
    return this.page.getByRole('table', { name: list, exact: true });
  }

  /** Body rows: every member row links its name to the profile; the header row has no link. */
  rows(list: MemberList = 'Direct members'): Locator {
    return this.table(list).getByRole('row').filter({ has: this.page.getByRole('link') });
  }

  /** The row whose member link is exactly `name`. */
  row(name: string, list: MemberList = 'Direct members'): Locator {
    return this.table(list).getByRole('row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  /** A `<th scope="col">`, e.g. "Seat" when seat use is shown. */
  columnHeader(name: string, list: MemberList = 'Direct members'): Locator {
    return this.table(list).getByRole('columnheader', { name, exact: true });
  }

  /** Row actions are buttons labelled with the member's name (aria-label "Edit <name>"). */
  editButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Edit ${name}`, exact: true });
  }

  removeButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Remove ${name}`, exact: true });
  }

  /** Any row action at all: none may show to those without the right. */
  get rowActions(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: /^(Edit|Remove) / });
  }

  /** In the header, beside the h1; the dialog's own submit lives in a portal outside `main`. */
  get addMember(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: 'Add member', exact: true });
  }

  /** Why actions are missing: a `<p role="note">` (read-only token, or not enough rights). */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('note').filter({ hasText: text });
  }

  /** Nothing matched: the empty state is a role="status" region saying what hid the rows (the page summary is another status, named "Shown: …"). */
  get emptyState(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^(?!Shown: )/ });
  }

  /** Page links sit in `<nav aria-label="<list> pages">`; the current one has aria-current="page". */
  pages(list: MemberList = 'Direct members'): Locator {
    return this.page.getByRole('navigation', { name: `${list} pages`, exact: true });
  }

  /** "Previous" / "Next" are links when they lead somewhere, aria-disabled text otherwise. */
  pageLink(name: 'Previous' | 'Next' | `Page ${number}`, list: MemberList = 'Direct members'): Locator {
    return this.pages(list).getByRole('link', { name, exact: true });
  }

  /** "21–40 of 64": the paginator's status, named "Shown: 21–40 of 64". */
  get summary(): Locator {
    return this.page.getByRole('main').getByRole('status', { name: /^Shown: / });
  }

  // -- dialogs (Radix, portalled): named by their titles

  addDialog(sourceName: string): AddMemberDialog {
    return new AddMemberDialog(this.page.getByRole('dialog', { name: `Add a member to ${sourceName}`, exact: true }));
  }

  editDialog(memberName: string): EditMemberDialog {
    return new EditMemberDialog(this.page.getByRole('dialog', { name: `Edit ${memberName}'s membership`, exact: true }));
  }

  removeDialog(memberName: string): RemoveMemberDialog {
    return new RemoveMemberDialog(this.page.getByRole('alertdialog', { name: `Remove ${memberName}?`, exact: true }));
  }

  /** Success toasts: Radix Toast items are list items of the "Notifications" region (announced through a hidden status). */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: /^Notifications/ }).getByRole('listitem').filter({ hasText: text });
  }
}

/** Fields of the add and edit forms: `<label for>` (Field), errors in aria-describedby. */
class MembershipForm {
  constructor(readonly root: Locator) {}

  /** `<select>` labelled "Role"; options are the role names. */
  get role(): Locator {
    return this.root.getByLabel('Role', { exact: true });
  }

  /** `<input type="date">` labelled "Access expires on"; aria-invalid and described by its error. */
  get expiresOn(): Locator {
    return this.root.getByLabel('Access expires on', { exact: true });
  }

  /** A failure that belongs to no field is a role="alert" inside the dialog. */
  get formError(): Locator {
    return this.root.getByRole('alert');
  }
}

export class AddMemberDialog extends MembershipForm {
  /** `<input type="search" aria-label>`, debounced. */
  get userSearch(): Locator {
    return this.root.getByRole('searchbox', { name: 'Search users by name or username' });
  }

  /** One radio per found user, labelled "<name> @<username>". */
  userOption(username: string): Locator {
    return this.root.getByRole('radio', { name: `@${username}` });
  }

  /** Reads "Add <chosen user's name>" once someone is picked. */
  submit(userName: string): Locator {
    return this.root.getByRole('button', { name: `Add ${userName}`, exact: true });
  }
}

export class EditMemberDialog extends MembershipForm {
  get save(): Locator {
    return this.root.getByRole('button', { name: 'Save', exact: true });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }
}

export class RemoveMemberDialog {
  constructor(readonly root: Locator) {}

  /** Groups only: a checkbox wrapped by its label, ticked by default. */
  get alsoSubgroups(): Locator {
    return this.root.getByRole('checkbox', { name: /^Also remove their direct memberships/ });
  }

  get confirm(): Locator {
    return this.root.getByRole('button', { name: 'Remove member', exact: true });
  }

  get cancel(): Locator {
    return this.root.getByRole('button', { name: 'Cancel', exact: true });
  }
}

/** A top-level group's billable members (/groups/:id/billable-members). */
export class BillableMembersPage {
  constructor(readonly page: Page) {}

  goto(groupId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/billable-members${search}`);
  }

  heading(groupName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Billable members of ${groupName}`, exact: true });
  }

  /** Why the list is not shown: a `<p role="note">`. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  /** A route that failed to load: a role="alert" panel. */
  get errorPanel(): Locator {
    return this.page.getByRole('main').getByRole('alert');
  }

  /** `role="search"` named "Filter billable members". */
  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter billable members' });
  }

  get search(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Search billable members' });
  }

  /** A combobox named by its wrapping label "Sort by"; options named by what they do ("Name, Z to A"). */
  get sortBy(): Locator {
    return this.filters.getByRole('combobox', { name: 'Sort by', exact: true });
  }

  /** Named by its caption. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'Billable members', exact: true });
  }

  get rows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('link') });
  }

  /** Each row's panel link is labelled "Memberships of <name>" (aria-label over "Memberships"). */
  membershipsLink(name: string): Locator {
    return this.table.getByRole('link', { name: `Memberships of ${name}`, exact: true });
  }

  /**
   * The side panel: a dialog titled "Memberships of <name>" holding a list named "Memberships".
   * Without a name: the panel whoever it is for (titled "Memberships" alone when the member is not
   * on the page in view).
   */
  membershipsPanel(name?: string): Locator {
    return this.page.getByRole('dialog', { name: name ? `Memberships of ${name}` : /^Memberships( of .+)?$/, exact: true });
  }

  memberships(name?: string): Locator {
    return this.membershipsPanel(name).getByRole('list', { name: 'Memberships', exact: true }).getByRole('listitem');
  }

  close(name?: string): Locator {
    return this.membershipsPanel(name).getByRole('button', { name: 'Close', exact: true });
  }
}
