import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { XSS_CORPUS, expectNoScriptRan } from './xss.ts';

test.describe.configure({ mode: 'parallel' });

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

interface PushedTag {
  name: string;
  created_at?: string | null;
  size?: number;
}

interface Server {
  baseURL: string;
  adminToken: string;
}

interface RepositoryAnswer {
  id: number;
  path: string;
  tags_count: number;
}

/** The sandbox-only control (README): what a `docker push` of these tags would leave behind. */
async function pushTags(server: Server, projectId: number, repository: string, tags: PushedTag[]): Promise<RepositoryAnswer> {
  const answer = await fetch(`${server.baseURL}/-/sandbox/registry/${projectId}/tags`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': server.adminToken, 'Content-Type': 'application/json' },
    body: JSON.stringify({ repository, tags }),
  });
  if (answer.status !== 201) throw new Error(`POST /-/sandbox/registry answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as RepositoryAnswer;
}

async function newProject(api: Api) {
  return api.post<{ id: number; path_with_namespace: string; name_with_namespace: string }>('/projects', { name: `e2e-registry-${randomBytes(4).toString('hex')}` });
}

/** Every tag name of an image, through the REST list (keyset pages). */
async function tagNames(api: Api, projectId: number, repositoryId: number): Promise<string[]> {
  const names: string[] = [];
  let last = '';
  for (;;) {
    const page = await api.get<Array<{ name: string }>>(`/projects/${projectId}/registry/repositories/${repositoryId}/tags?pagination=keyset&per_page=100${last ? `&last=${encodeURIComponent(last)}` : ''}`);
    names.push(...page.map((tag) => tag.name));
    if (page.length < 100) return names;
    last = page[page.length - 1].name;
  }
}

const main = (page: Page) => page.getByRole('main');

test.describe('the container registry (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('images with tag counts and sizes; an image’s tags page by page, a tag’s details, and a tag deleted', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const names = Array.from({ length: 150 }, (_, index) => `build-${String(index).padStart(3, '0')}`);
    const image = await pushTags(consoleServer, project.id, 'app', names.map((name, index) => ({ name, created_at: ago(150 - index), size: 1024 * 1024 * (index + 1) })));
    await pushTags(consoleServer, project.id, '', [{ name: 'latest', size: 2048 }]);

    await page.goto(`/projects/${project.id}/registry`);
    await expect(page.getByRole('heading', { level: 1, name: `Container registry of ${project.name_with_namespace}` })).toBeVisible();
    const appRow = main(page).getByRole('row').filter({ has: page.getByRole('link', { name: image.path }) });
    await expect(appRow).toContainText('150');
    // 1 + 2 + … + 150 MiB, deduplicated by digest
    await expect(appRow).toContainText('11.1 GiB');
    await expect(main(page).getByRole('row').filter({ hasText: `${project.path_with_namespace} (root image)` })).toContainText('2 KiB');
    expect(await axeViolations(page, 'registry list')).toEqual([]);

    await page.getByRole('link', { name: image.path }).click();
    await expect(page.getByRole('heading', { level: 1, name: image.path })).toBeVisible();
    await expect(page.getByRole('status', { name: /Shown: 100 of 150 tags/ })).toBeVisible();
    const firstRow = main(page).getByRole('row').filter({ has: page.getByRole('button', { name: 'Details of tag build-000' }) });
    await expect(firstRow).toContainText('sha256:');
    await expect(firstRow).toContainText('1 MiB');
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(page.getByRole('status', { name: 'Shown: 150 of 150 tags, all shown' })).toBeVisible();
    expect(await axeViolations(page, 'image tags')).toEqual([]);

    await page.getByRole('button', { name: 'Details of tag build-002' }).click();
    const details = page.getByRole('dialog', { name: 'Tag build-002' });
    const stored = await api.get<{ digest: string; location: string }>(`/projects/${project.id}/registry/repositories/${image.id}/tags/build-002`);
    await expect(details.getByText(stored.digest)).toBeVisible();
    await expect(details.getByText(`docker pull ${stored.location}`)).toBeVisible();
    await expect(details.getByText('3 MiB')).toBeVisible();
    expect(await axeViolations(page, 'tag details')).toEqual([]);
    await details.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Delete tag build-004' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete tag build-004?' });
    expect(await axeViolations(page, 'delete tag')).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete tag' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Details of tag build-004' })).toHaveCount(0);
    expect((await api.call('GET', `/projects/${project.id}/registry/repositories/${image.id}/tags/build-004`)).status).toBe(404);
  });

  test('an image deleted shows its removal running, then leaves the list', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'old/image', [{ name: 'v1' }, { name: 'v2' }]);
    await page.goto(`/projects/${project.id}/registry`);
    await page.getByRole('button', { name: `Delete image ${image.path}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete image ${image.path}?` });
    await expect(confirm).toContainText('(2)');
    expect(await axeViolations(page, 'delete image')).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete image' }).click();
    await expect(main(page).getByRole('row').filter({ hasText: image.path }).getByRole('status')).toHaveText(/Delete scheduled|Deleting/);
    await expect(main(page).getByRole('row').filter({ hasText: image.path })).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByRole('status', { name: 'No container images yet.' })).toBeVisible();
    expect((await api.call('GET', `/registry/repositories/${image.id}`)).status).toBe(404);
  });

  test('the group’s registry lists its projects’ images', async ({ page, api, consoleServer }) => {
    const group = await api.post<{ id: number; full_name: string }>('/groups', { name: `e2e reg ${randomBytes(3).toString('hex')}`, path: `e2e-reg-${randomBytes(3).toString('hex')}` });
    const project = await api.post<{ id: number }>('/projects', { name: 'images', namespace_id: group.id });
    const image = await pushTags(consoleServer, project.id, 'web', [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    await page.goto(`/groups/${group.id}/registry`);
    await expect(page.getByRole('heading', { level: 1, name: `Container registry of ${group.full_name}` })).toBeVisible();
    // groups' lists carry no counts: the image's own record gives them
    await expect(main(page).getByRole('row').filter({ has: page.getByRole('link', { name: image.path }) })).toContainText('3');
    await expect(page.getByRole('navigation').first().getByRole('link', { name: 'Container registry' })).toBeVisible();
    expect(await axeViolations(page, 'group registry')).toEqual([]);
  });
});

test.describe('protection', () => {
  test('a Maintainer’s delete of a protected tag is refused with the rule that protects it', async ({ page, api, consoleServer, connectAs }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, '', [{ name: 'v1.2.3' }, { name: 'main-abc' }]);
    await api.post(`/projects/${project.id}/registry/protection/tag/rules`, { tag_name_pattern: '^v\\d+\\.\\d+\\.\\d+$', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
    const maintainer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await connectAs(page, maintainer.token);
    await page.goto(`/projects/${project.id}/registry/${image.id}`);
    await page.getByRole('button', { name: 'Delete tag v1.2.3' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete tag v1.2.3?' });
    await confirm.getByRole('button', { name: 'Delete tag' }).click();
    await expect(confirm.getByRole('alert')).toContainText('protected');
    await expect(confirm.getByRole('alert')).toContainText('Protected by the rule ^v\\d+\\.\\d+\\.\\d+$: deleting needs the owner role or above.');
    expect((await api.call('GET', `/projects/${project.id}/registry/repositories/${image.id}/tags/v1.2.3`)).status).toBe(200);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    // an unprotected tag goes
    await page.getByRole('button', { name: 'Delete tag main-abc' }).click();
    await page.getByRole('alertdialog', { name: 'Delete tag main-abc?' }).getByRole('button', { name: 'Delete tag' }).click();
    await expect(page.getByRole('button', { name: 'Details of tag main-abc' })).toHaveCount(0);
  });
});

test.describe('expressions are text', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('the XSS corpus typed as rules shows as text in the fields and their errors', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    // tag names are [\w][\w.-]*: the sandbox refuses markup in them, as the platform does
    const refused = await fetch(`${consoleServer.baseURL}/-/sandbox/registry/${project.id}/tags`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': consoleServer.adminToken, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ name: XSS_CORPUS[0] }]),
    });
    expect(refused.status).toBe(400);
    const image = await pushTags(consoleServer, project.id, '', [{ name: 'img_src-x.onerror' }, { name: 'script.alert-1' }, { name: 'latest' }]);
    await page.goto(`/projects/${project.id}/registry/${image.id}`);
    await page.getByRole('button', { name: 'Delete tags by rule' }).click();
    const field = page.getByRole('textbox', { name: 'Delete tags matching' });
    for (const text of XSS_CORPUS) {
      await field.fill(text);
      await page.getByRole('textbox', { name: 'Keep tags matching' }).fill(text);
      await expect(field).toHaveValue(text);
    }
    await expect(page.getByRole('status').filter({ hasText: /to delete|Correct the rules/ })).toBeVisible();
    await expectNoScriptRan(page);
  });
});
