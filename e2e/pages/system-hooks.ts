import type { Locator, Page } from '@playwright/test';

/**
 * The instance's system hooks: /admin/hooks (list), /admin/hooks/new and /admin/hooks/:id.
 * Lazy locators; specs assert. Each getter names the accessibility contract it relies on.
 */
export class SystemHooksPage {
  constructor(readonly page: Page) {}

  gotoList(): Promise<unknown> {
    return this.page.goto('/admin/hooks');
  }

  /** Each screen has one h1: "System hooks", "Add a system hook", "System hook <name>". */
  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  /** Why things are missing: a `<p role="note">` in the main area. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  // -- the list

  /** A link styled as a button beside the h1, for administrators with a writable token. */
  get addHook(): Locator {
    return this.page.getByRole('main').getByRole('link', { name: 'Add system hook', exact: true });
  }

  /** Named by its `<caption>`. */
  get table(): Locator {
    return this.page.getByRole('table', { name: 'System hooks', exact: true });
  }

  /** A hook's row, found by the link its name cell holds. */
  row(name: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  // -- the form (add and edit share it: a `<form aria-label>` of labelled fields)

  form(kind: 'add' | 'edit'): HookForm {
    return new HookForm(this.page.getByRole('form', { name: kind === 'add' ? 'New system hook' : 'Hook settings' }));
  }

  // -- one hook's screen

  /** `<ul aria-label="URL variable keys">`: one item per key, values never. */
  get variableKeys(): Locator {
    return this.page.getByRole('list', { name: 'URL variable keys' });
  }

  /** The "Set a URL variable" form: key, write-only value, save. */
  get variableForm(): Locator {
    return this.page.getByRole('form', { name: 'Set a URL variable' });
  }

  deleteVariable(key: string): Locator {
    return this.page.getByRole('button', { name: `Delete variable ${key}`, exact: true });
  }

  get testHook(): Locator {
    return this.page.getByRole('button', { name: 'Test hook', exact: true });
  }

  /** The answer of the test: a `<pre aria-label="Test answer">` of JSON text. */
  get testAnswer(): Locator {
    return this.page.getByLabel('Test answer', { exact: true });
  }

  /** Named by its `<caption>`; present only where the instance keeps a delivery log. */
  get deliveries(): Locator {
    return this.page.getByRole('table', { name: 'Recent deliveries', exact: true });
  }

  get deleteHook(): Locator {
    return this.page.getByRole('main').getByRole('button', { name: 'Delete hook', exact: true });
  }

  /** The confirmation is a Radix AlertDialog: role="alertdialog", named by its title. */
  confirmDelete(title: string): { root: Locator; confirm: Locator } {
    const root = this.page.getByRole('alertdialog', { name: title });
    return { root, confirm: root.getByRole('button', { name: 'Delete hook', exact: true }) };
  }
}

class HookForm {
  constructor(readonly root: Locator) {}

  get url(): Locator {
    return this.root.getByLabel('URL', { exact: true });
  }

  get name(): Locator {
    return this.root.getByLabel('Name', { exact: true });
  }

  /** A password input, never prefilled. */
  get secretToken(): Locator {
    return this.root.getByLabel('Secret token', { exact: true });
  }

  /** Checkboxes named "Push", "Tag push", "Merge request", "Repository update" in the "Trigger" group. */
  event(name: string): Locator {
    return this.root.getByRole('group', { name: 'Trigger' }).getByRole('checkbox', { name, exact: true });
  }

  /** Radios "Wildcard pattern", "Regular expression", "All branches". */
  strategy(name: string): Locator {
    return this.root.getByRole('radio', { name, exact: true });
  }

  /** "Branch pattern" or "Branch regular expression": absent for all branches. */
  get branchFilter(): Locator {
    return this.root.getByLabel(/^Branch (pattern|regular expression)$/);
  }

  get verifyTls(): Locator {
    return this.root.getByRole('checkbox', { name: "Verify the receiver's TLS certificate" });
  }

  get addVariable(): Locator {
    return this.root.getByRole('button', { name: 'Add a URL variable', exact: true });
  }

  variableKey(index: number): Locator {
    return this.root.getByLabel(`Key of variable ${index}`, { exact: true });
  }

  variableValue(index: number): Locator {
    return this.root.getByLabel(`Value of variable ${index}`, { exact: true });
  }

  submit(name: string): Locator {
    return this.root.getByRole('button', { name, exact: true });
  }
}
