import { randomBytes } from 'node:crypto';
import type { Request } from '@playwright/test';
import { DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { FilesPage } from './pages/files.ts';

const WEB_APP = 'acme-engineering/frontend/web-app';
const LUMEN = 'lumen/core/lumen';
const ORDER_SUMMARY = 'src/components/Order Summary.tsx';

const filePath = (projectId: number, path: string) => `/projects/${projectId}/repository/files/${encodeURIComponent(path)}`;

/** A branch of the test's own, from main, deleted after the test. */
async function ownBranch(api: Api, projectId: number): Promise<string> {
  const branch = `e2e-files-${randomBytes(4).toString('hex')}`;
  await api.post(`/projects/${projectId}/repository/branches`, { branch, ref: 'main' });
  api.deleteAfter(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`);
  return branch;
}

async function fileText(api: Api, projectId: number, path: string, ref: string): Promise<string | null> {
  const answer = await api.call<{ content: string }>('GET', `${filePath(projectId, path)}?ref=${encodeURIComponent(ref)}`);
  return answer.status === 200 ? Buffer.from(answer.body.content, 'base64').toString('utf8') : null;
}

test.describe('browsing files', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('clicks through the tree to a nested file, with breadcrumbs and its last commit', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoTree(projectId);
    await expect(files.heading('Files of Web App')).toBeVisible();
    await files.entry('src').click();
    await expect(files.heading('src')).toBeVisible();
    await files.entry('components').click();
    await expect(files.heading('components')).toBeVisible();
    // each entry shows the last commit that touched it, linked to that commit
    await expect(files.entryRow('Order Summary.tsx').getByRole('link', { name: 'Refine order summary (8/8)' })).toBeVisible();
    await expect(files.entryRow('Checkout.tsx').getByRole('link', { name: 'Show payment errors' })).toBeVisible();
    await files.entry('Order Summary.tsx').click();
    await expect(files.heading('Order Summary.tsx')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/blob/src/components/Order%20Summary.tsx`);
    await expect(files.code('Order Summary.tsx')).toContainText('Revision 9');
    await expect(files.facts.filter({ hasText: 'Refine order summary (8/8)' })).toBeVisible();
    // highlight.js marks keywords once the TypeScript grammar has loaded
    await expect(files.code('Order Summary.tsx').getByText('export', { exact: true }).first()).toBeVisible();
    await files.crumb('components').click();
    await expect(files.heading('components')).toBeVisible();
    await files.crumb('web-app').click();
    await expect(files.heading('Files of Web App')).toBeVisible();
    await page.goto(`/projects/${projectId}/tree`);
    await expect(files.entry('public')).toBeVisible();
  });

  test('opens a file by an encoded URL and follows line anchors', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoBlob(projectId, ORDER_SUMMARY, { hash: '#L3' });
    await expect(files.heading('Order Summary.tsx')).toBeVisible();
    await expect(files.lineLink('Order Summary.tsx', 3)).toHaveAttribute('aria-current', 'location');
    await files.lineLink('Order Summary.tsx', 2).click();
    await expect(files.lineLink('Order Summary.tsx', 2)).toHaveAttribute('aria-current', 'location');
    await expect(files.lineLink('Order Summary.tsx', 3)).not.toHaveAttribute('aria-current', 'location');
    expect(new URL(page.url()).hash).toBe('#L2');
    await expect(files.action('Blame')).toHaveAttribute('href', `/projects/${projectId}/blame/src/components/Order%20Summary.tsx`);
  });

  test('a file view sends each request it needs once and none is aborted', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    // the file's own requests: leaving the home screen may cut short its requests, which is fine
    const ofFile = (request: Request) => new URL(request.url()).pathname.includes('/repository/files/');
    const describe = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}`;
    const failed: string[] = [];
    page.on('requestfailed', (request) => ofFile(request) && failed.push(`${describe(request)}: ${request.failure()?.errorText}`));
    const fileRequests: string[] = [];
    page.on('request', (request) => ofFile(request) && fileRequests.push(describe(request)));
    const mark = await api.requestMark();
    await files.gotoBlob(projectId, ORDER_SUMMARY);
    await expect(files.lineLink('Order Summary.tsx', 3)).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(failed).toEqual([]);
    // the metadata first, then the content it allows: one of each
    const path = `/api/v4${filePath(projectId, ORDER_SUMMARY)}`;
    expect(fileRequests).toEqual([`HEAD ${path}`, `GET ${path}`]);
    const logged = await api.requestsSince(mark, { method: 'HEAD', path: '/api/v4/projects/*/repository/files/*' });
    expect(logged.map((request) => request.status)).toEqual([200]);
  });

  test('a missing file says so and offers a retry', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoBlob(projectId, 'src/nope 100%.ts');
    await expect(page.getByRole('alert')).toContainText('404 File Not Found');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await expect(files.refButton('main')).toBeVisible();
  });

  test('a ref that does not exist is said not to exist, not to be a tag or a commit', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoBlob(projectId, ORDER_SUMMARY, { ref: 'no-such-ref' });
    await expect(files.notice('“no-such-ref” is no branch, tag or commit of this project')).toBeVisible();
    await expect(page.getByText('is a tag or a commit')).toHaveCount(0);
  });

  test('switches to a branch and to a tag', async ({ page, api }) => {
    const files = new FilesPage(page);
    const webApp = await api.projectId(WEB_APP);
    await files.gotoTree(webApp, 'src/auth');
    await expect(page.getByRole('alert')).toContainText('404 Tree Not Found');
    await files.switchRef('Branches', 'fix/login-redirect');
    await expect(files.entry('redirect.ts')).toBeVisible();
    expect(new URL(page.url()).searchParams.get('ref')).toBe('fix/login-redirect');
    await files.entry('redirect.ts').click();
    await expect(files.code('redirect.ts')).toContainText('return_to');
    await expect(files.refButton('fix/login-redirect')).toBeVisible();

    const lumen = await api.projectId(LUMEN);
    const names = async (ref: string) => (await api.get<Array<{ name: string }>>(`/projects/${lumen}/repository/tree?path=src&ref=${ref}&per_page=100`)).map((entry) => entry.name);
    const atTag = await names('v0.2.0');
    const atMain = await names('main');
    const tagOnly = atTag.find((name) => !atMain.includes(name));
    const mainOnly = atMain.find((name) => !atTag.includes(name));
    // the seed renames src/renderer.rs to src/render/ after v0.2.0
    expect(tagOnly ?? mainOnly).toBeTruthy();
    await files.gotoTree(lumen, 'src');
    if (mainOnly) await expect(files.entry(mainOnly)).toBeVisible();
    await files.switchRef('Tags', 'v0.2.0');
    await expect(files.refButton('v0.2.0')).toBeVisible();
    if (tagOnly) await expect(files.entry(tagOnly)).toBeVisible();
    if (mainOnly) await expect(files.entry(mainOnly)).toHaveCount(0);
    await expect(files.entry(atTag[0])).toBeVisible();
    // a tag is no branch: editing is not offered, and the screen says why
    await expect(files.notice('not a branch')).toBeVisible();
    await expect(files.action('New file')).toHaveCount(0);
  });

  test('goes to a commit typed in', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const tag = await api.get<{ commit: { id: string } }>(`/projects/${projectId}/repository/tags/v1.0.0`);
    await files.gotoBlob(projectId, ORDER_SUMMARY);
    await files.refButton('main').click();
    await files.refInput.fill(tag.commit.id);
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await expect(files.refButton(tag.commit.id)).toBeVisible();
    await expect(files.code('Order Summary.tsx')).toContainText('Your order');
    await expect(files.code('Order Summary.tsx')).not.toContainText('Revision');
  });

  test('shows an image, a binary file, and downloads raw bytes through a blob URL', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoBlob(projectId, 'public/images/hero.png');
    const image = page.getByRole('img', { name: 'hero.png' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
    expect(await image.getAttribute('src')).toMatch(/^blob:/);

    const download = page.waitForEvent('download');
    await files.action('Download').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('hero.png');
    expect(saved.url()).toMatch(/^blob:/);
    const raw = await api.call<string>('GET', `${filePath(projectId, 'public/images/hero.png')}/raw?ref=main`);
    const { size } = await api.get<{ size: number }>(`${filePath(projectId, 'public/images/hero.png')}?ref=main`);
    expect(raw.status).toBe(200);
    const { readFile } = await import('node:fs/promises');
    expect((await readFile((await saved.path())!)).length).toBe(size);

    await files.gotoBlob(projectId, 'public/favicon.ico');
    await expect(page.getByText(/^Binary file, 318 bytes/)).toBeVisible();
  });

  test('opens a 50,000-line file and jumps to a line near its end', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(LUMEN);
    await files.gotoBlob(projectId, 'src/text/glyph_table.rs', { hash: '#L45000' });
    await expect(files.lineLink('glyph_table.rs', 45000)).toHaveAttribute('aria-current', 'location', { timeout: 20_000 });
    // virtualized: only the rows around the view exist
    expect(await files.code('glyph_table.rs').getByRole('row').count()).toBeLessThan(300);
    await expect(files.facts.filter({ hasText: '50,000 lines' })).toBeVisible();
  });
});

test.describe('changing files', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('edits a file and commits it to a branch', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const branch = await ownBranch(api, projectId);
    await files.gotoBlob(projectId, 'src/App.tsx', { ref: branch });
    await files.action('Edit').click();
    await expect(files.content).toHaveValue(/<h1>Acme<\/h1>/);
    await files.content.fill('export function App() {\n  return <h1>Acme edited</h1>;\n}\n');
    await files.commitMessage.fill('Edit App from the console');
    await expect(files.targetBranch).toHaveValue(branch);
    await files.submit('Commit changes').click();
    await expect(files.heading('App.tsx')).toBeVisible();
    await expect(files.code('App.tsx')).toContainText('Acme edited');
    expect(await fileText(api, projectId, 'src/App.tsx', branch)).toContain('Acme edited');
    expect(await fileText(api, projectId, 'src/App.tsx', 'main')).not.toContain('Acme edited');
  });

  test('commits an edit to a new branch started from this one', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const base = await ownBranch(api, projectId);
    const target = `${base}-next`;
    api.deleteAfter(`/projects/${projectId}/repository/branches/${encodeURIComponent(target)}`);
    await files.gotoEdit(projectId, 'src/App.tsx', base);
    await files.content.fill('export const onNewBranch = true;\n');
    await files.targetBranch.fill(target);
    await files.submit('Commit changes').click();
    await expect(files.refButton(target)).toBeVisible();
    expect(await fileText(api, projectId, 'src/App.tsx', target)).toBe('export const onNewBranch = true;\n');
    expect(await fileText(api, projectId, 'src/App.tsx', base)).toContain('<h1>Acme</h1>');
  });

  test('refuses a stale edit and keeps the typed text', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const branch = await ownBranch(api, projectId);
    await files.gotoEdit(projectId, 'src/App.tsx', branch);
    await expect(files.content).toHaveValue(/Acme/);
    // someone else commits to the same file after the editor opened
    await api.put(filePath(projectId, 'src/App.tsx'), { branch, content: 'export const theirs = 1;\n', commit_message: 'Theirs' });
    const mine = 'export const mine = 2;\n';
    await files.content.fill(mine);
    await files.submit('Commit changes').click();
    await expect(files.formError).toContainText('after you opened it');
    await expect(files.content).toHaveValue(mine);
    expect(await fileText(api, projectId, 'src/App.tsx', branch)).toBe('export const theirs = 1;\n');
  });

  test('creates a file in the current directory and deletes it after confirming', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const branch = await ownBranch(api, projectId);
    await files.gotoTree(projectId, 'src/components', branch);
    await files.action('New file').click();
    await files.fileName.fill('E2E Note 100%.md');
    await files.content.fill('# Hello from e2e\n');
    await files.submit('Commit new file').click();
    await expect(files.heading('E2E Note 100%.md')).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/projects/${projectId}/blob/src/components/E2E%20Note%20100%25.md`);
    expect(await fileText(api, projectId, 'src/components/E2E Note 100%.md', branch)).toBe('# Hello from e2e\n');

    await files.action('Delete').click();
    await expect(files.confirmDialog).toContainText('src/components/E2E Note 100%.md');
    await files.confirmDialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await fileText(api, projectId, 'src/components/E2E Note 100%.md', branch)).not.toBeNull();
    await files.action('Delete').click();
    await files.confirmDialog.getByRole('button', { name: 'Delete file' }).click();
    await expect(files.heading('components')).toBeVisible();
    await expect(files.entry('Order Summary.tsx')).toBeVisible();
    await expect(files.entry('E2E Note 100%.md')).toHaveCount(0);
    expect(await fileText(api, projectId, 'src/components/E2E Note 100%.md', branch)).toBeNull();
  });

  test('stages several changes and commits them together', async ({ page, api }) => {
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    const branch = await ownBranch(api, projectId);
    await files.gotoTree(projectId, '', branch);
    await files.action('Commit several changes').click();
    const stage = files.stageForm;

    await stage.getByRole('textbox', { name: 'File path' }).fill('docs/e2e.md');
    await stage.getByRole('textbox', { name: 'Content' }).fill('created\n');
    await stage.getByRole('button', { name: 'Stage change' }).click();
    await expect(files.stagedList.getByRole('listitem')).toHaveCount(1);

    await stage.getByRole('combobox', { name: 'Change' }).selectOption('update');
    await stage.getByRole('textbox', { name: 'File path' }).fill('src/App.tsx');
    await stage.getByRole('button', { name: 'Load current content' }).click();
    await expect(stage.getByRole('textbox', { name: 'Content' })).toHaveValue(/Acme/);
    await stage.getByRole('textbox', { name: 'Content' }).fill('export const updated = true;\n');
    await stage.getByRole('button', { name: 'Stage change' }).click();
    await expect(files.stagedList.getByRole('listitem')).toHaveCount(2);

    await stage.getByRole('combobox', { name: 'Change' }).selectOption('move');
    await stage.getByRole('textbox', { name: 'Current path' }).fill('src/lib/format.ts');
    await stage.getByRole('textbox', { name: 'New path' }).fill('src/lib/formatting.ts');
    await stage.getByRole('button', { name: 'Stage change' }).click();
    await expect(files.stagedList.getByRole('listitem')).toHaveCount(3);

    // a file that is not there is refused before anything is sent
    await stage.getByRole('combobox', { name: 'Change' }).selectOption('delete');
    await stage.getByRole('textbox', { name: 'File path' }).fill('public/nope.txt');
    await stage.getByRole('button', { name: 'Stage change' }).click();
    await expect(stage.getByText(`There is no file public/nope.txt at ${branch}.`)).toBeVisible();

    await stage.getByRole('combobox', { name: 'Change' }).selectOption('delete');
    await stage.getByRole('textbox', { name: 'File path' }).fill('public/_headers');
    await stage.getByRole('button', { name: 'Stage change' }).click();
    await expect(files.stagedList.getByRole('listitem')).toHaveCount(4);

    await stage.getByRole('combobox', { name: 'Change' }).selectOption('chmod');
    await stage.getByRole('textbox', { name: 'File path' }).fill('CHANGELOG.md');
    await expect(stage.getByRole('checkbox', { name: 'Executable' })).toBeChecked();
    await stage.getByRole('button', { name: 'Stage change' }).click();

    await expect(files.stagedList.getByRole('listitem')).toHaveText([
      /Create docs\/e2e\.md/, /Update src\/App\.tsx/, /Move src\/lib\/format\.ts → src\/lib\/formatting\.ts/, /Delete public\/_headers/, /Make CHANGELOG\.md executable/,
    ]);
    await files.stagedList.getByRole('button', { name: 'Unstage Create docs/e2e.md' }).click();
    await expect(files.stagedList.getByRole('listitem')).toHaveCount(4);

    await files.commitMessage.fill('Several changes from the console');
    await expect(files.targetBranch).toHaveValue(branch);
    await files.submit('Commit 4 changes').click();
    await expect(files.heading('Files of Web App')).toBeVisible();

    const [head] = await api.get<Array<{ id: string; title: string; parent_ids: string[] }>>(`/projects/${projectId}/repository/commits?ref_name=${branch}&per_page=1`);
    expect(head.title).toBe('Several changes from the console');
    const diff = await api.get<Array<{ new_path: string; old_path: string; new_file: boolean; renamed_file: boolean; deleted_file: boolean; b_mode: string }>>(`/projects/${projectId}/repository/commits/${head.id}/diff`);
    expect(diff.find((change) => change.new_path === 'CHANGELOG.md')?.b_mode).toBe('100755');
    expect(diff.filter((change) => change.new_path !== 'CHANGELOG.md').map((change) => [change.old_path, change.new_path, change.renamed_file, change.deleted_file]).sort()).toEqual([
      ['public/_headers', 'public/_headers', false, true],
      ['src/App.tsx', 'src/App.tsx', false, false],
      ['src/lib/format.ts', 'src/lib/formatting.ts', true, false],
    ]);
    expect(await fileText(api, projectId, 'src/App.tsx', branch)).toBe('export const updated = true;\n');
    expect(await fileText(api, projectId, 'docs/e2e.md', branch)).toBeNull();
  });
});

test.describe('an empty repository', () => {
  test('says it is empty and starts it with a first file', async ({ page, context, api, adminSession }) => {
    await applyAdminSession(context, adminSession);
    const files = new FilesPage(page);
    const project = await api.post<{ id: number; default_branch: string | null }>('/projects', { name: `e2e-empty-${randomBytes(4).toString('hex')}` });
    api.deleteAfter(`/projects/${project.id}`);
    await files.gotoTree(project.id);
    await expect(page.getByRole('status', { name: 'This repository is empty' })).toBeVisible();
    await page.getByRole('link', { name: 'create a file' }).click();
    await files.fileName.fill('README.md');
    await files.content.fill('# First\n');
    await files.submit('Commit new file').click();
    await expect(files.heading('README.md')).toBeVisible();
    await expect(files.code('README.md')).toContainText('# First');
    await files.crumb(await api.get<{ path: string }>(`/projects/${project.id}`).then((answer) => answer.path)).click();
    await expect(files.entry('README.md')).toBeVisible();
  });
});

test.describe('who may change files', () => {
  test('a Developer on a protected branch commits to a new branch instead', async ({ page, api, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.maintainer.secret);
    const files = new FilesPage(page);
    const projectId = await api.projectId(WEB_APP);
    await files.gotoBlob(projectId, 'src/App.tsx');
    await expect(files.notice('protected')).toBeVisible();
    await files.action('Edit').click();
    await expect(files.targetBranch).not.toHaveValue('main');
    await expect(files.targetBranch).toHaveValue(/^maya\.chen-patch-/);
    const branch = await files.targetBranch.inputValue();
    api.deleteAfter(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`);
    // the protected branch itself is refused before anything is sent
    await files.targetBranch.fill('main');
    await files.submit('Commit changes').click();
    await expect(page.getByText('You cannot push to main: name a new branch.')).toBeVisible();
    await files.targetBranch.fill(branch);
    await files.content.fill('export const fromMaya = true;\n');
    await files.submit('Commit changes').click();
    await expect(files.refButton(branch)).toBeVisible();
    expect(await fileText(api, projectId, 'src/App.tsx', branch)).toBe('export const fromMaya = true;\n');
    expect(await fileText(api, projectId, 'src/App.tsx', 'main')).toContain('<h1>Acme</h1>');
  });

  test('a read-only token sees files but no editing, and why', async ({ page, api, connectAs }) => {
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    const files = new FilesPage(page);
    const projectId = await api.projectId(LUMEN);
    await files.gotoBlob(projectId, 'src/lib.rs');
    await expect(files.code('lib.rs')).toContainText('pub mod');
    await expect(files.notice('read-only')).toBeVisible();
    await expect(files.action('Edit')).toHaveCount(0);
    await expect(files.action('Delete')).toHaveCount(0);
    await expect(files.action('Download')).toBeVisible();
  });
});
