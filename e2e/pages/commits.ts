import type { Locator, Page } from '@playwright/test';

/**
 * The commit history (/projects/:id/commits). Lazy locators; specs assert. Each getter names the
 * accessibility contract it relies on.
 */
export class CommitHistoryPage {
  constructor(readonly page: Page) {}

  goto(projectId: number, search = ''): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/commits${search}`);
  }

  /** The screen's only h1: "Commits of <project>". */
  heading(projectName: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: `Commits of ${projectName}`, exact: true });
  }

  // -- filters: `role="search"` named "Filter commits"; inputs wrapped by their labels, applied on Enter or blur

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter commits' });
  }

  get ref(): Locator {
    return this.filters.getByRole('textbox', { name: 'Branch, tag or range' });
  }

  get path(): Locator {
    return this.filters.getByRole('textbox', { name: 'Path' });
  }

  get author(): Locator {
    return this.filters.getByRole('textbox', { name: 'Author' });
  }

  get withStats(): Locator {
    return this.filters.getByRole('checkbox', { name: 'Show line counts' });
  }

  async apply(field: Locator, value: string): Promise<void> {
    await field.fill(value);
    await field.press('Enter');
  }

  // -- the list: one `<section aria-label="Commits on <day>">` (a region) per day, one link per commit

  /** Every commit's title link, in list order. */
  commitLinks(): Locator {
    return this.page.getByRole('region', { name: /^Commits on / }).getByRole('link');
  }

  commitLink(title: string): Locator {
    return this.page.getByRole('region', { name: /^Commits on / }).getByRole('link', { name: title, exact: true });
  }

  /** Line counts read out as "<n> lines added, <m> removed". */
  stats(text: string | RegExp): Locator {
    return this.page.getByRole('region', { name: /^Commits on / }).getByLabel(text);
  }

  /** `EmptyState`: role="status" named by its title. */
  empty(title: string | RegExp): Locator {
    return this.page.getByRole('status', { name: title });
  }

  // -- paging: `<nav aria-label="Commit history pages">`, Previous and Next only (no totals)

  get pages(): Locator {
    return this.page.getByRole('navigation', { name: 'Commit history pages' });
  }

  get next(): Locator {
    return this.pages.getByRole('link', { name: 'Next' });
  }

  get previous(): Locator {
    return this.pages.getByRole('link', { name: 'Previous' });
  }

  get summary(): Locator {
    return this.page.getByRole('status', { name: /^Shown: / });
  }
}

/** One commit (/projects/:id/commit/:sha), with the cherry-pick and revert dialog. */
export class CommitPage {
  constructor(readonly page: Page) {}

  goto(projectId: number, sha: string): Promise<unknown> {
    return this.page.goto(`/projects/${projectId}/commit/${encodeURIComponent(sha)}`);
  }

  /** The h1 is the commit's title. */
  heading(title: string): Locator {
    return this.page.getByRole('heading', { level: 1, name: title, exact: true });
  }

  /** Regions named by their h2: "Message", "About this commit", "Trailers", "Branches and tags containing this commit", "Changes". */
  section(name: string): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  get message(): Locator {
    return this.section('Message');
  }

  /** The stats, read out as "<n> line(s) added, <m> removed". */
  stats(text: string): Locator {
    return this.section('About this commit').getByLabel(text, { exact: true });
  }

  /** `<ul aria-label="Parents">` of links named "Parent <short id>". */
  parent(shortId: string): Locator {
    return this.section('About this commit').getByRole('list', { name: 'Parents' }).getByRole('link', { name: `Parent ${shortId}` });
  }

  get position(): Locator {
    return this.section('About this commit').getByText(/commits lead here/);
  }

  /** A trailer's value: the definition in the place of its term (each term has one definition). */
  async trailer(key: string): Promise<Locator> {
    const section = this.section('Trailers');
    await section.getByRole('term').first().waitFor();
    const terms = await section.getByRole('term').allTextContents();
    if (!terms.includes(key)) throw new Error(`no trailer ${key} among ${terms.join(', ')}`);
    return section.getByRole('definition').nth(terms.indexOf(key));
  }

  /** `<ul aria-label="Branches">` / `"Tags"` of links to the history of each. */
  ref(kind: 'Branches' | 'Tags', name: string): Locator {
    return this.section('Branches and tags containing this commit').getByRole('list', { name: kind }).getByRole('link', { name, exact: true });
  }

  /** A changed file's patch: `<pre aria-label="Changes to <path>">`. */
  patch(path: string): Locator {
    return this.section('Changes').getByLabel(`Changes to ${path}`, { exact: true });
  }

  /** Why cherry-pick and revert are not offered: `<p role="note">`. */
  notice(text: string | RegExp): Locator {
    return this.page.getByRole('main').getByRole('note').filter({ hasText: text });
  }

  get cherryPickButton(): Locator {
    return this.page.getByRole('button', { name: 'Cherry-pick', exact: true });
  }

  get revertButton(): Locator {
    return this.page.getByRole('button', { name: 'Revert', exact: true });
  }

  // -- the dialog

  get dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  get targetBranch(): Locator {
    return this.dialog.getByRole('combobox', { name: 'Target branch' });
  }

  get check(): Locator {
    return this.dialog.getByRole('button', { name: 'Check (dry run)' });
  }

  /** The dry run's answer: "Applies cleanly…" (status) or "Conflict…" / "Nothing to…" (alert). */
  get checkResult(): Locator {
    return this.dialog.getByRole('status').or(this.dialog.getByRole('alert'));
  }

  confirm(verb: 'Cherry-pick' | 'Revert', branch: string): Locator {
    return this.dialog.getByRole('button', { name: `${verb} onto ${branch}`, exact: true });
  }

  /** After the pick: the link to the new commit. */
  get createdLink(): Locator {
    return this.dialog.getByRole('status').getByRole('link');
  }
}
