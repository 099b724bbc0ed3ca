import type { Locator, Page } from '@playwright/test';

/** A project's deploy keys (/projects/:id/deploy-keys) and the instance's (/admin/deploy-keys). */
export class DeployKeysPage {
  constructor(readonly page: Page) {}

  goto(projectId: number): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/deploy-keys`);
  }

  gotoInstance(search = ''): Promise<unknown> {
    return this.page.goto(`/admin/deploy-keys${search}`);
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Deploy keys' });
  }

  /** A key's row, found by its title cell. */
  row(title: string): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell', { name: title, exact: true }) });
  }

  get add(): Locator {
    return this.page.getByRole('button', { name: 'Add deploy key', exact: true });
  }

  get addInstanceKey(): Locator {
    return this.page.getByRole('button', { name: 'Add instance deploy key', exact: true });
  }

  get enableExisting(): Locator {
    return this.page.getByRole('button', { name: 'Enable an existing key', exact: true });
  }

  editButton(title: string): Locator {
    return this.table.getByRole('button', { name: `Edit ${title}`, exact: true });
  }

  removeButton(title: string): Locator {
    return this.table.getByRole('button', { name: `Remove ${title}`, exact: true });
  }

  get dialog(): Locator {
    return this.page.getByRole('dialog').or(this.page.getByRole('alertdialog'));
  }

  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  get canPush(): Locator {
    return this.dialog.getByRole('checkbox', { name: /Grant write permissions/ });
  }

  dialogButton(name: string | RegExp): Locator {
    return this.dialog.getByRole('button', { name });
  }
}
