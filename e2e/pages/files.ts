import type { Locator, Page } from '@playwright/test';

/**
 * The files screens (/projects/:id/tree/*, blob/*, edit/*, new/*, changes). Lazy locators; specs
 * assert. Each getter names the accessibility contract it relies on.
 */
export class FilesPage {
  constructor(readonly page: Page) {}

  /** `path` as it appears in the address: each segment percent-encoded, `/` kept. */
  static encodePath(path: string): string {
    return path.split('/').map(encodeURIComponent).join('/');
  }

  gotoTree(projectId: number, path = '', ref?: string): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/tree/${FilesPage.encodePath(path)}${ref ? `?ref=${encodeURIComponent(ref)}` : ''}`);
  }

  gotoBlob(projectId: number, path: string, options: { ref?: string; hash?: string } = {}): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/blob/${FilesPage.encodePath(path)}${options.ref ? `?ref=${encodeURIComponent(options.ref)}` : ''}${options.hash ?? ''}`);
  }

  gotoEdit(projectId: number, path: string, ref?: string): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/edit/${FilesPage.encodePath(path)}${ref ? `?ref=${encodeURIComponent(ref)}` : ''}`);
  }

  gotoChanges(projectId: number, ref?: string): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/changes${ref ? `?ref=${encodeURIComponent(ref)}` : ''}`);
  }

  /** The screen's only h1: the directory or file name. */
  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { level: 1, name });
  }

  /** `<nav aria-label="Breadcrumb">`; the current crumb has aria-current="page". */
  get breadcrumbs(): Locator {
    return this.page.getByRole('navigation', { name: 'Breadcrumb' });
  }

  crumb(name: string): Locator {
    return this.breadcrumbs.getByRole('link', { name, exact: true });
  }

  /** `<table aria-label="Files…">`: one row per entry, its name a link. */
  get entries(): Locator {
    return this.page.getByRole('table', { name: /^Files/ });
  }

  entry(name: string): Locator {
    return this.entries.getByRole('link', { name, exact: true });
  }

  /** The entry's row: its name, type, last commit (a link) and last update. */
  entryRow(name: string): Locator {
    return this.entries.getByRole('row').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  // -- ref switcher: a button named "Switch branch or tag (current: <ref>)" opening a dialog-like popover

  refButton(current?: string): Locator {
    return this.page.getByRole('button', { name: current ? `Switch branch or tag (current: ${current})` : /^Switch branch or tag/ });
  }

  get refFilter(): Locator {
    return this.page.getByRole('searchbox', { name: 'Filter branches and tags' });
  }

  /** A branch or tag in its list (`<ul aria-label="Branches">` / "Tags"), a button. */
  refOption(list: 'Branches' | 'Tags', name: string): Locator {
    return this.page.getByRole('list', { name: list }).getByRole('button', { name, exact: true });
  }

  get refInput(): Locator {
    return this.page.getByRole('textbox', { name: 'Commit SHA or ref' });
  }

  async switchRef(list: 'Branches' | 'Tags', name: string): Promise<void> {
    await this.refButton().click();
    await this.refFilter.fill(name);
    await this.refOption(list, name).click();
  }

  // -- file view

  /** `<div role="region" aria-label="Contents of <name>">` holding a table of lines. */
  code(fileName: string): Locator {
    return this.page.getByRole('region', { name: `Contents of ${fileName}` });
  }

  /** A line's number: a link to `#L<n>`; the selected one has aria-current="location". */
  lineLink(fileName: string, line: number): Locator {
    return this.code(fileName).getByRole('link', { name: String(line), exact: true });
  }

  lineRow(fileName: string, line: number): Locator {
    return this.code(fileName).getByRole('row').filter({ has: this.lineLink(fileName, line) });
  }

  get facts(): Locator {
    return this.page.getByRole('definition');
  }

  action(name: 'Download' | 'Blame' | 'Edit' | 'Delete' | 'New file' | 'Commit several changes'): Locator {
    return this.page.getByRole('main').getByRole(name === 'Download' || name === 'Delete' ? 'button' : 'link', { name, exact: true });
  }

  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  // -- editor forms

  get content(): Locator {
    return this.page.getByRole('textbox', { name: 'File content' });
  }

  get fileName(): Locator {
    return this.page.getByRole('textbox', { name: 'File name' });
  }

  get commitMessage(): Locator {
    return this.page.getByRole('textbox', { name: 'Commit message' });
  }

  get targetBranch(): Locator {
    return this.page.getByRole('textbox', { name: 'Target branch' });
  }

  submit(name: string | RegExp): Locator {
    return this.page.getByRole('button', { name });
  }

  get formError(): Locator {
    return this.page.getByRole('main').getByRole('alert');
  }

  get confirmDialog(): Locator {
    return this.page.getByRole('alertdialog');
  }

  // -- multi-file commit

  get stageForm(): Locator {
    return this.page.getByRole('form', { name: 'Stage a change' });
  }

  get stagedList(): Locator {
    return this.page.getByRole('list', { name: 'Staged changes' });
  }
}
