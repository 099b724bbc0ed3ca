import type { Locator, Page } from '@playwright/test';

/** The package registry: a project's or group's list, and a package's screen. Lazy locators; specs assert. */
export class PackagesPage {
  constructor(readonly page: Page) {}

  gotoProject(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/packages${search}`);
  }

  gotoGroup(groupId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/groups/${groupId}/packages${search}`);
  }

  gotoPackage(projectId: number, packageId: number): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/packages/${packageId}`);
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  // -- the list: filters in `role="search"` named "Filter packages", rows in the table captioned "Packages"

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter packages' });
  }

  get name(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Package name' });
  }

  get version(): Locator {
    return this.filters.getByRole('searchbox', { name: 'Version' });
  }

  get type(): Locator {
    return this.filters.getByRole('combobox', { name: 'Type', exact: true });
  }

  get status(): Locator {
    return this.filters.getByRole('combobox', { name: 'Status', exact: true });
  }

  get table(): Locator {
    return this.page.getByRole('table', { name: 'Packages' });
  }

  rows(): Locator {
    return this.table.getByRole('row').filter({ hasNot: this.page.getByRole('columnheader') });
  }

  row(text: string): Locator {
    return this.table.getByRole('row').filter({ hasText: text });
  }

  // -- a package's screen

  get deletePackage(): Locator {
    return this.page.getByRole('button', { name: 'Delete package', exact: true });
  }

  get files(): Locator {
    return this.page.getByRole('table', { name: 'Files' });
  }

  fileRow(fileName: string): Locator {
    return this.files.getByRole('row').filter({ hasText: fileName });
  }

  download(fileName: string): Locator {
    return this.page.getByRole('button', { name: `Download ${fileName}`, exact: true });
  }

  deleteFile(fileName: string): Locator {
    return this.page.getByRole('button', { name: `Delete ${fileName}`, exact: true });
  }

  get dialog(): Locator {
    return this.page.getByRole('alertdialog');
  }

  dialogButton(name: string): Locator {
    return this.dialog.getByRole('button', { name, exact: true });
  }
}
