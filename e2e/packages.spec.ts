import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { applyAdminSession, expect, test } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { apiAnswers } from './api-answers.ts';
import { newPackagesProject, uploadGeneric, type PackageAnswer, type PackageFileAnswer as FileAnswer } from './packages-api.ts';
import { PackagesPage } from './pages/packages.ts';
import { DEMO_PACKAGES } from '../sandbox/seed/packages.ts';
import { XSS_CORPUS, expectNoScriptRan } from './xss.ts';
import { renderedLines } from './rendered-lines.ts';

/**
 * The package registry in the browser: each test makes its own project and packages through the
 * generic packages API, so tests running beside each other never touch the same package.
 */

test.describe.configure({ mode: 'parallel' });

const unique = () => randomBytes(4).toString('hex');
const newProject = newPackagesProject;

test.describe('package registry (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('finds a package by name and type, the filters in the URL', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const tag = unique();
    await uploadGeneric(consoleServer, project.id, { name: `alpha-${tag}`, version: '1.0.0', fileName: 'alpha.txt', bytes: Buffer.from('alpha') });
    await uploadGeneric(consoleServer, project.id, { name: `beta-${tag}`, version: '2.0.0', fileName: 'beta.txt', bytes: Buffer.from('beta') });
    const packages = new PackagesPage(page);
    await packages.gotoProject(project.id);
    await expect(packages.heading(`Package registry of ${project.name_with_namespace}`)).toBeVisible();
    await expect(packages.rows()).toHaveCount(2);

    await packages.name.fill('beta');
    await expect(page).toHaveURL(/[?&]package_name=beta(&|$)/);
    await expect(packages.rows()).toHaveCount(1);
    await expect(packages.row(`beta-${tag}`)).toContainText('2.0.0');
    await expect(packages.row(`beta-${tag}`)).toContainText('Generic');

    await packages.type.selectOption({ label: 'npm' });
    await expect(page).toHaveURL(/[?&]package_type=npm(&|$)/);
    await expect(page.getByText('No package matches these filters.')).toBeVisible();

    // the URL alone gives the same view
    await packages.gotoProject(project.id, '?package_name=beta&package_type=generic');
    await expect(packages.name).toHaveValue('beta');
    await expect(packages.type).toHaveValue('generic');
    await expect(packages.rows()).toHaveCount(1);
    await packages.row(`beta-${tag}`).getByRole('link', { name: `beta-${tag}` }).click();
    await expect(packages.heading(`beta-${tag} 2.0.0`)).toBeVisible();
  });

  test('a group lists its projects\' packages with their project; exclude subgroups, status and order are in the URL', async ({ page, api }) => {
    const groupId = await api.groupId('acme-engineering');
    const packages = new PackagesPage(page);
    await packages.gotoGroup(groupId, '?package_name=acme-handbook-tools');
    await expect(packages.rows()).toHaveCount(2);
    await expect(packages.rows().first()).toContainText('acme-engineering/handbook');
    await packages.gotoGroup(groupId, '?package_name=ios-app');
    await expect(packages.row('ios-app')).toContainText('acme-engineering/mobile/ios-app');
    // the handbook sits directly in the group; the iOS app in a subgroup
    await packages.filters.getByRole('checkbox', { name: 'Exclude subgroups' }).check();
    await expect(page).toHaveURL(/[?&]exclude_subgroups=true(&|$)/);
    await expect(page.getByText('No package matches these filters.')).toBeVisible();
    await packages.filters.getByRole('checkbox', { name: 'Exclude subgroups' }).uncheck();
    // hidden packages only with the status filter, listed without a link (the single package answers 404 for them)
    await expect(packages.row('ios-app-dsyms')).toHaveCount(0);
    await packages.status.selectOption('hidden');
    await expect(page).toHaveURL(/[?&]status=hidden(&|$)/);
    await expect(packages.row('ios-app-dsyms')).toContainText('hidden');
    await expect(packages.row('ios-app-dsyms').getByRole('link', { name: 'ios-app-dsyms' })).toHaveCount(0);
    await packages.filters.getByRole('combobox', { name: 'Sort by' }).selectOption('project_path');
    await expect(page).toHaveURL(/[?&]order_by=project_path(&|$)/);
  });

  test('downloads a file: the saved bytes are the uploaded ones, size and SHA-256 shown', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const bytes = randomBytes(3000);
    const pkg = await uploadGeneric(consoleServer, project.id, { name: `download-${unique()}`, version: '0.1.0', fileName: 'payload.bin', bytes });
    const packages = new PackagesPage(page);
    await packages.gotoPackage(project.id, pkg.id);
    const row = packages.fileRow('payload.bin');
    await expect(row).toContainText('2.9 KiB');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await expect(row).toContainText(sha256.slice(0, 12));
    await expect(row.getByRole('button', { name: 'Copy the SHA-256 of payload.bin' })).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), packages.download('payload.bin').click()]);
    expect(download.suggestedFilename()).toBe('payload.bin');
    const saved = await fs.readFile(await download.path());
    expect(createHash('sha256').update(saved).digest('hex')).toBe(sha256);
    expect(saved.equals(bytes)).toBe(true);
  });

  test('downloads a seeded npm tarball through the npm registry path: the bytes match the SHA-256 the API names', async ({ page, api }) => {
    const projectId = await api.projectId(DEMO_PACKAGES.npmProject);
    const [file] = await api.get<FileAnswer[]>(`/projects/${projectId}/packages/${DEMO_PACKAGES.npmLatestId}/package_files`);
    const packages = new PackagesPage(page);
    await packages.gotoPackage(projectId, DEMO_PACKAGES.npmLatestId);
    await expect(page.getByRole('region', { name: 'Installation' })).toContainText(`npm install ${DEMO_PACKAGES.npmPackageName}@`);
    const [download] = await Promise.all([page.waitForEvent('download'), packages.download(file.file_name).click()]);
    const saved = await fs.readFile(await download.path());
    expect(createHash('sha256').update(saved).digest('hex')).toBe(file.file_sha256);
  });

  test('downloads Maven, NuGet, Go and PyPI files through their package managers\' paths, the bytes as the API names them', async ({ page, api }) => {
    const payments = await api.projectId(DEMO_PACKAGES.protectedProject);
    const gateway = await api.projectId(DEMO_PACKAGES.benchProject);
    const handbook = await api.projectId('acme-engineering/handbook');
    const [pypi] = await api.get<PackageAnswer[]>(`/projects/${handbook}/packages?package_type=pypi&order_by=version&sort=desc`);
    const packages = new PackagesPage(page);
    for (const [projectId, packageId] of [[payments, DEMO_PACKAGES.protectedPackageId], [payments, DEMO_PACKAGES.unprotectedPackageId], [gateway, DEMO_PACKAGES.withPipelinesId], [handbook, pypi.id]]) {
      const [file] = await api.get<FileAnswer[]>(`/projects/${projectId}/packages/${packageId}/package_files`);
      await packages.gotoPackage(projectId, packageId);
      const [download] = await Promise.all([page.waitForEvent('download'), packages.download(file.file_name).click()]);
      const saved = await fs.readFile(await download.path());
      expect(createHash('sha256').update(saved).digest('hex'), file.file_name).toBe(file.file_sha256);
    }
  });

  test('shows install steps without a token, and deletes a file then the package', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const name = `delete-${unique()}`;
    const pkg = await uploadGeneric(consoleServer, project.id, { name, version: '3.0.0', fileName: 'keep.txt', bytes: Buffer.from('keep') });
    await uploadGeneric(consoleServer, project.id, { name, version: '3.0.0', fileName: 'drop.txt', bytes: Buffer.from('drop') });
    const packages = new PackagesPage(page);
    await packages.gotoPackage(project.id, pkg.id);
    const install = page.getByRole('region', { name: 'Installation' });
    await expect(install.getByText('<your_access_token>').first()).toBeVisible();
    await expect(install).not.toContainText(consoleServer.adminToken);

    await packages.deleteFile('drop.txt').click();
    await expect(packages.dialog).toContainText('Deleting files can break the package');
    await packages.dialogButton('Delete file').click();
    await expect(packages.dialog).toHaveCount(0);
    await expect(packages.fileRow('drop.txt')).toHaveCount(0);
    await expect(packages.fileRow('keep.txt')).toBeVisible();
    const files = await api.get<FileAnswer[]>(`/projects/${project.id}/packages/${pkg.id}/package_files`);
    expect(files.map((file) => file.file_name)).toEqual(['keep.txt']);

    await packages.deletePackage.click();
    await expect(packages.dialog).toContainText(`Package ${name} 3.0.0 is removed with all its files`);
    await packages.dialogButton('Delete package').click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.id}/packages$`));
    await expect(page.getByText('This project has no packages yet.')).toBeVisible();
    expect((await api.call('GET', `/projects/${project.id}/packages/${pkg.id}`)).status).toBe(404);
  });

  test('axe finds nothing on the list, a package and its dialogs', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const pkg = await uploadGeneric(consoleServer, project.id, { name: `axe-${unique()}`, version: '1.0.0', fileName: 'axe.txt', bytes: Buffer.from('axe') });
    const packages = new PackagesPage(page);
    const violations: string[] = [];
    await packages.gotoProject(project.id);
    await expect(packages.rows()).toHaveCount(1);
    violations.push(...(await axeViolations(page, 'list')));
    await packages.gotoPackage(project.id, pkg.id);
    await expect(packages.fileRow('axe.txt')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Pipelines that built it' }).getByText(/No pipeline built this package/)).toBeVisible();
    violations.push(...(await axeViolations(page, 'package')));
    await packages.deleteFile('axe.txt').click();
    await expect(packages.dialog).toBeVisible();
    violations.push(...(await axeViolations(page, 'delete file dialog')));
    await packages.dialogButton('Cancel').click();
    await packages.deletePackage.click();
    await expect(packages.dialog).toBeVisible();
    violations.push(...(await axeViolations(page, 'delete package dialog')));
    expect(violations).toEqual([]);
  });
});

test.describe('package protection rules (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a bad rule keeps the input and says why; a good one is listed, then deleted; axe finds nothing', async ({ page, api }) => {
    const project = await newProject(api);
    await page.goto(`/projects/${project.id}/packages-and-registries`);
    await expect(page.getByRole('heading', { level: 1, name: `Packages and registries of ${project.name_with_namespace}` })).toBeVisible();
    await expect(page.getByText('No package is protected in this project.')).toBeVisible();
    const form = page.getByRole('form', { name: 'Add protection rule' });
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/protection/rules')) posts.push(request.url());
    });

    await form.getByLabel('Name pattern').fill('my package *');
    await form.getByLabel('Minimum role to push').selectOption({ label: 'No minimum (Developers push)' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(form.getByText('A package name, with * as wildcard: no spaces.')).toBeVisible();
    await expect(form.getByText('Choose a minimum role for push, for delete, or both.')).toBeVisible();
    await expect(form.getByLabel('Name pattern')).toHaveValue('my package *');
    expect(posts).toEqual([]);
    expect(await axeViolations(page, 'protection rules with errors')).toEqual([]);

    const pattern = `@acme/${unique()}-*`;
    await form.getByLabel('Name pattern').fill(pattern);
    await form.getByLabel('Package type').selectOption({ label: 'npm' });
    await form.getByLabel('Minimum role to delete').selectOption({ label: 'Owner' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    const table = page.getByRole('table', { name: 'Package protection rules' });
    await expect(table.getByRole('row').filter({ hasText: pattern })).toContainText('Owner');
    await expect(form.getByLabel('Name pattern')).toHaveValue('');
    const rules = await api.get<Array<{ id: number; package_name_pattern: string; package_type: string; minimum_access_level_for_push: string | null; minimum_access_level_for_delete: string | null }>>(
      `/projects/${project.id}/packages/protection/rules`,
    );
    expect(rules).toEqual([expect.objectContaining({ package_name_pattern: pattern, package_type: 'npm', minimum_access_level_for_push: null, minimum_access_level_for_delete: 'owner' })]);

    // the same pattern and type again: the platform's refusal shows on its field, the input kept
    await form.getByLabel('Name pattern').fill(pattern);
    await form.getByLabel('Minimum role to push').selectOption({ label: 'Owner' });
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(form.getByText(/already been taken/)).toBeVisible();
    await expect(form.getByLabel('Name pattern')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel('Name pattern')).toHaveValue(pattern);

    await page.getByRole('button', { name: `Delete rule ${pattern}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `Delete rule ${pattern}?` });
    await expect(dialog).toBeVisible();
    expect(await axeViolations(page, 'delete rule dialog')).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete rule', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText('No package is protected in this project.')).toBeVisible();
    expect(await api.get<unknown[]>(`/projects/${project.id}/packages/protection/rules`)).toEqual([]);
  });
});

test.describe('package registry (other roles)', () => {
  test('a protection rule refuses a Maintainer, and the reason shows in the dialog', async ({ page, api, connectAs, consoleServer }) => {
    const project = await newProject(api);
    const name = `protected-${unique()}`;
    const pkg = await uploadGeneric(consoleServer, project.id, { name, version: '1.0.0', fileName: 'guarded.txt', bytes: Buffer.from('guarded') });
    await api.post(`/projects/${project.id}/packages/protection/rules`, {
      package_name_pattern: `${name.slice(0, 10)}*`, package_type: 'generic', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner',
    });
    const maintainer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await connectAs(page, maintainer.token);
    const packages = new PackagesPage(page);
    await packages.gotoPackage(project.id, pkg.id);
    await packages.deletePackage.click();
    await packages.dialogButton('Delete package').click();
    await expect(packages.dialog.getByRole('alert')).toContainText(/The platform refused: .*protected/i);
    await packages.dialogButton('Cancel').click();
    await packages.deleteFile('guarded.txt').click();
    await packages.dialogButton('Delete file').click();
    await expect(packages.dialog.getByRole('alert')).toContainText(/The platform refused: .*protected/i);
    expect((await api.get<FileAnswer[]>(`/projects/${project.id}/packages/${pkg.id}/package_files`)).map((file) => file.file_name)).toEqual(['guarded.txt']);
  });

  test('a Developer sees why the delete actions are missing, and the protection rules are not asked for', async ({ page, api, connectAs, consoleServer }) => {
    const project = await newProject(api);
    const pkg = await uploadGeneric(consoleServer, project.id, { name: `dev-${unique()}`, version: '1.0.0', fileName: 'dev.txt', bytes: Buffer.from('dev') });
    const developer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
    await connectAs(page, developer.token);
    const packages = new PackagesPage(page);
    await packages.gotoPackage(project.id, pkg.id);
    await expect(page.getByRole('note')).toContainText('Only Maintainers and Owners of this project can delete packages and their files.');
    await expect(page.getByText('Delete package', { exact: true })).toHaveAttribute('aria-disabled', 'true');
    await expect(packages.deleteFile('dev.txt')).toHaveCount(0);
    await expect(packages.download('dev.txt')).toBeEnabled();

    const answers = apiAnswers(page);
    await page.goto(`/projects/${project.id}/packages-and-registries`);
    await expect(page.getByRole('note')).toContainText('Only Maintainers and Owners of this project can see and change package protection rules.');
    await expect(page.getByRole('form', { name: 'Add protection rule' })).toHaveCount(0);
    // the role is read first: the rules the platform would refuse (403) are not asked for
    expect(answers.filter((answer) => answer.includes('/packages/protection/rules'))).toEqual([]);
  });
});

/** The list, a package and its files answered with the corpus in every name a user chose. */
async function serveCorpus(page: Page, projectId: number) {
  const now = new Date().toISOString();
  const packages = XSS_CORPUS.map((text, index) => ({
    id: 900_000 + index, name: text, version: text, package_type: 'generic', status: 'default', created_at: now, tags: [{ name: text }],
    _links: { web_path: `/p/-/packages/${900_000 + index}`, delete_api_path: `/api/v4/projects/${projectId}/packages/${900_000 + index}` },
  }));
  const json = (body: unknown, headers: Record<string, string> = {}) => ({ status: 200, contentType: 'application/json', headers, body: JSON.stringify(body) });
  await page.route(new RegExp(`/api/v4/projects/${projectId}/packages(\\?.*)?$`), (route) => route.fulfill(json(packages, { 'x-total': String(packages.length), 'x-page': '1', 'x-per-page': '20' })));
  await page.route(new RegExp(`/api/v4/projects/${projectId}/packages/900000(\\?.*)?$`), (route) => route.fulfill(json({ ...packages[0], versions: packages.slice(1).map(({ id, version }) => ({ id, version, created_at: now })) })));
  await page.route(new RegExp(`/api/v4/projects/${projectId}/packages/900000/package_files`), (route) =>
    route.fulfill(json(XSS_CORPUS.map((text, index) => ({ id: index + 1, package_id: 900_000, file_name: text, size: 10, file_sha256: 'ab'.repeat(32), created_at: now })))),
  );
  await page.route(new RegExp(`/api/v4/projects/${projectId}/packages/900000/pipelines`), (route) => route.fulfill(json([])));
}

test.describe('package registry: names as text', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  // the platform validates names of new packages, but older ones (and other registries' clients) are not ours to trust
  test('the XSS corpus in package names, versions, tags and file names renders as text', async ({ page, api }) => {
    const project = await newProject(api);
    await serveCorpus(page, project.id);
    const packages = new PackagesPage(page);
    await packages.gotoProject(project.id);
    await expect(packages.rows()).toHaveCount(XSS_CORPUS.length);
    for (const text of XSS_CORPUS) await expect(packages.table.getByRole('link', { name: text, exact: true })).toBeVisible();
    await expectNoScriptRan(page);

    await packages.table.getByRole('link', { name: XSS_CORPUS[0], exact: true }).click();
    await expect(packages.heading(`${XSS_CORPUS[0]} ${XSS_CORPUS[0]}`)).toBeVisible();
    for (const text of XSS_CORPUS) await expect(packages.fileRow(text).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Other versions' }).getByRole('link')).toHaveCount(XSS_CORPUS.length - 1);
    await packages.deleteFile(XSS_CORPUS[1]).click();
    await expect(packages.dialog).toContainText(XSS_CORPUS[1]);
    await expectNoScriptRan(page);
  });
});

test.describe('package registry at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('a narrow table scrolls in its box rather than break a package name inside a word', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const short = 'api-gateway';
    const long = `acme.payments.api-gateway-windows-amd64-${unique()}`;
    for (const name of [short, long]) await uploadGeneric(consoleServer, project.id, { name, version: '1.0.0', fileName: 'build.txt', bytes: Buffer.from(name) });
    const packages = new PackagesPage(page);
    await packages.gotoProject(project.id);
    const shortLines = await packages.table.getByRole('link', { name: short, exact: true }).evaluate(renderedLines);
    expect(shortLines).toEqual([short]);
    const longLines = await packages.table.getByRole('link', { name: long, exact: true }).evaluate(renderedLines);
    expect(longLines.join('')).toBe(long);
    // every line but the last ends at a joint of the name
    expect(longLines.slice(0, -1).filter((line) => !/[./_-]$/.test(line))).toEqual([]);
  });
});
