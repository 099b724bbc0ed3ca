import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { apiAnswers } from './api-answers.ts';
import { watchApiRequests } from './api-settled.ts';
import { XSS_CORPUS, expectNoScriptRan } from './xss.ts';
import { pushTags, type PushedTag } from './registry-control.ts';

test.describe.configure({ mode: 'parallel' });

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

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

  test('the XSS corpus as tag names and as typed rules shows as text: the list, a tag’s details, the preview, the fields and their errors', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    // a registry refuses markup in tag names ([\w][\w.-]*), as the sandbox does unless a test asks
    const refused = await fetch(`${consoleServer.baseURL}/-/sandbox/registry/${project.id}/tags`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': consoleServer.adminToken, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ name: XSS_CORPUS[0] }]),
    });
    expect(refused.status).toBe(400);
    // a tag name never has a /: the corpus without it (closing tags become opening ones, still markup)
    const names = XSS_CORPUS.map((text) => text.replaceAll('/', ''));
    const image = await pushTags(consoleServer, project.id, '', [...names.map((name) => ({ name })), { name: 'latest' }], true);
    await page.goto(`/projects/${project.id}/registry/${image.id}`);
    await expect(page.getByRole('button', { name: `Details of tag ${names[0]}` })).toHaveText(names[0]);
    await page.getByRole('button', { name: `Details of tag ${names[0]}` }).click();
    await expect(page.getByRole('dialog', { name: `Tag ${names[0]}` }).getByText(/^docker pull /)).toContainText(names[0]);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Delete tags by rule' }).click();
    const field = page.getByRole('textbox', { name: 'Delete tags matching' });
    await field.fill('.*');
    const preview = page.getByRole('table', { name: 'Preview of the bulk delete' });
    for (const name of names) await expect(preview.getByRole('cell', { name, exact: true })).toBeVisible();
    for (const text of XSS_CORPUS) {
      await field.fill(text);
      await page.getByRole('textbox', { name: 'Keep tags matching' }).fill(text);
      await expect(field).toHaveValue(text);
    }
    await expect(page.getByRole('status').filter({ hasText: /to delete|Correct the rules/ })).toBeVisible();
    await expectNoScriptRan(page);
  });
});

const HOUR = 3_600_000;
/** Tags of every kind the rules tell apart, with manifest times relative to now. */
const RULE_TAGS: PushedTag[] = [
  { name: 'latest', created_at: ago(1) },
  { name: 'v1.0.0', created_at: ago(100) },
  { name: 'v1.1.0', created_at: ago(50) },
  { name: 'v2.0.0', created_at: ago(10) },
  { name: 'v2.0.0-rc.1', created_at: ago(12) },
  { name: 'v2.0.0-rc.2', created_at: ago(11) },
  { name: 'main-aaa1', created_at: ago(40) },
  { name: 'main-aaa2', created_at: ago(30) },
  { name: 'main-aaa3', created_at: ago(20) },
  { name: 'main-aaa4', created_at: ago(5) },
  { name: 'main-aaa5', created_at: new Date(Date.now() - 2 * HOUR).toISOString() },
  { name: 'feature-x', created_at: ago(60) },
  { name: 'feature-y', created_at: ago(3) },
  { name: 'undated', created_at: null },
];

interface Rules {
  'Delete tags matching': string;
  'Keep tags matching'?: string;
  'Keep the newest'?: string;
  'Delete only tags older than'?: string;
}

/** Opens the bulk delete of a fresh image of RULE_TAGS, types the rules, and reads the preview's decisions once every tag is in. */
async function previewOf(page: Page, projectId: number, repositoryId: number, rules: Rules) {
  await page.goto(`/projects/${projectId}/registry/${repositoryId}`);
  await page.getByRole('button', { name: 'Delete tags by rule' }).click();
  for (const [label, value] of Object.entries(rules)) await page.getByRole('textbox', { name: label }).fill(value);
  const table = page.getByRole('table', { name: 'Preview of the bulk delete' });
  await expect(table.getByRole('row')).toHaveCount(RULE_TAGS.length + 1);
  // the preview answers the rules as typed, not an earlier keystroke's
  await expect(page.getByRole('status').filter({ hasText: / to delete, / })).not.toContainText('updating');
  const rows = await table.getByRole('row').all();
  const decisions = new Map<string, string>();
  for (const row of rows.slice(1)) {
    const [name, outcome, reason] = await row.getByRole('cell').allInnerTexts();
    decisions.set(name, `${outcome}: ${reason}`);
  }
  return decisions;
}

const kept = (decisions: Map<string, string>) => [...decisions].filter(([, text]) => text.startsWith('Kept')).map(([name]) => name).sort();

/** Sends the previewed delete after confirming its count, then waits for the registry to hold exactly what the preview kept. */
async function deleteAsPreviewed(page: Page, api: Api, projectId: number, repositoryId: number, decisions: Map<string, string>) {
  const count = [...decisions.values()].filter((text) => text.startsWith('Deleted')).length;
  const noun = count === 1 ? 'tag' : 'tags';
  await page.getByRole('button', { name: `Delete ${count} ${noun}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${count} ${noun}?` });
  await expect(confirm).toContainText(`${count} of the ${RULE_TAGS.length} tags`);
  expect(await axeViolations(page, 'bulk delete confirmation')).toEqual([]);
  await confirm.getByRole('button', { name: `Delete ${count} ${noun}` }).click();
  await expect(confirm).toHaveCount(0);
  await expect.poll(() => tagNames(api, projectId, repositoryId).then((names) => names.sort()), { timeout: 20_000 }).toEqual(kept(decisions));
  // the list follows the tags going
  await expect(page.getByRole('status', { name: `Shown: ${kept(decisions).length} of ${kept(decisions).length} tags, all shown` })).toBeVisible({ timeout: 20_000 });
}

test.describe('bulk delete with its preview (administrator)', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('the delete expression alone; errors on the field they are typed in; a second run within the hour is explained, and the platform’s refusal shown', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    await page.goto(`/projects/${project.id}/registry/${image.id}`);
    await page.getByRole('button', { name: 'Delete tags by rule' }).click();
    const deleteField = page.getByRole('textbox', { name: 'Delete tags matching' });
    await deleteField.fill('main-(');
    await expect(deleteField).toHaveAttribute('aria-invalid', 'true');
    await expect(deleteField).toHaveAccessibleDescription(/Not a valid RE2 expression: missing closing \)/);
    const keepN = page.getByRole('textbox', { name: 'Keep the newest' });
    await keepN.fill('two');
    await expect(keepN).toHaveAccessibleDescription(/whole number/);
    const age = page.getByRole('textbox', { name: 'Delete only tags older than' });
    await age.fill('soon');
    await expect(age).toHaveAccessibleDescription(/Not a duration/);
    await expect(page.getByRole('status').filter({ hasText: 'Correct the rules to see the preview.' })).toBeVisible();
    expect(await axeViolations(page, 'bulk delete with errors')).toEqual([]);
    await keepN.fill('');
    await age.fill('');

    const decisions = await previewOf(page, project.id, image.id, { 'Delete tags matching': 'main-.*' });
    expect(kept(decisions)).toEqual(['feature-x', 'feature-y', 'latest', 'undated', 'v1.0.0', 'v1.1.0', 'v2.0.0', 'v2.0.0-rc.1', 'v2.0.0-rc.2']);
    expect(decisions.get('main-aaa3')).toBe('Deleted: Matched the delete expression');
    expect(decisions.get('feature-x')).toBe('Kept: The delete expression does not match it');
    expect(decisions.get('latest')).toBe('Kept: The tag named latest is never deleted');
    await expect(page.getByRole('status').filter({ hasText: '5 to delete, 9 kept' })).toBeVisible();
    expect(await axeViolations(page, 'bulk delete preview')).toEqual([]);
    await deleteAsPreviewed(page, api, project.id, image.id, decisions);

    // within the hour: explained before sending, the button disabled
    await page.getByRole('button', { name: 'Delete tags by rule' }).click();
    await expect(page.getByRole('note').filter({ hasText: 'at most one an hour per image' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Delete tags matching' }).fill('.*');
    await expect(page.getByRole('button', { name: /^Delete \d+ tags?$/ })).toBeDisabled();
    // another browser's run is not remembered here: the platform's 400 is shown
    await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('registry-bulk-delete:')).forEach((key) => localStorage.removeItem(key)));
    await page.reload();
    await page.getByRole('button', { name: 'Delete tags by rule' }).click();
    await page.getByRole('textbox', { name: 'Delete tags matching' }).fill('.*');
    await page.getByRole('button', { name: /^Delete \d+ tags?$/ }).click();
    const confirm = page.getByRole('alertdialog', { name: /^Delete \d+ tags?\?$/ });
    await confirm.getByRole('button', { name: /^Delete \d+ tags?$/ }).click();
    await expect(confirm.getByRole('alert')).toContainText('You can run this at most once an hour for a given container repository');
  });

  test('the keep expression wins over the delete expression', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    const decisions = await previewOf(page, project.id, image.id, { 'Delete tags matching': '.*', 'Keep tags matching': 'v.*' });
    expect(kept(decisions)).toEqual(['latest', 'v1.0.0', 'v1.1.0', 'v2.0.0', 'v2.0.0-rc.1', 'v2.0.0-rc.2']);
    expect(decisions.get('v1.1.0')).toBe('Kept: The keep expression matches it');
    await deleteAsPreviewed(page, api, project.id, image.id, decisions);
  });

  test('keep_n keeps the newest of the selected tags', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    const decisions = await previewOf(page, project.id, image.id, { 'Delete tags matching': 'main-.*', 'Keep the newest': '2' });
    expect(decisions.get('main-aaa5')).toBe('Kept: Among the newest tags to keep (2)');
    expect(decisions.get('main-aaa4')).toBe('Kept: Among the newest tags to keep (2)');
    expect(decisions.get('main-aaa3')).toMatch(/^Deleted/);
    await deleteAsPreviewed(page, api, project.id, image.id, decisions);
  });

  test('older_than deletes only older tags; undated ones stay', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    const decisions = await previewOf(page, project.id, image.id, { 'Delete tags matching': '.*', 'Delete only tags older than': '7d' });
    expect(kept(decisions)).toEqual(['feature-y', 'latest', 'main-aaa4', 'main-aaa5', 'undated']);
    expect(decisions.get('main-aaa4')).toBe('Kept: Younger than the age limit (limit 7d)');
    expect(decisions.get('v2.0.0')).toBe('Deleted: Matched the delete expression (older than 7d)');
    await deleteAsPreviewed(page, api, project.id, image.id, decisions);
  });
});

test.describe('bulk delete as a Maintainer, every rule at once', () => {
  test('protected tags stay, the keep expression, the newest 3 and the age together', async ({ page, api, consoleServer, connectAs }) => {
    const project = await newProject(api);
    const image = await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    await api.post(`/projects/${project.id}/registry/protection/tag/rules`, { tag_name_pattern: '^v\\d+\\.\\d+\\.\\d+$', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
    const maintainer = await api.createUser();
    await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    await connectAs(page, maintainer.token);
    const decisions = await previewOf(page, project.id, image.id, {
      'Delete tags matching': '.*',
      'Keep tags matching': '.*-rc\\..*',
      'Keep the newest': '3',
      'Delete only tags older than': '7d',
    });
    expect(decisions.get('v1.0.0')).toBe('Kept: A protection rule covers it');
    expect(decisions.get('v2.0.0-rc.1')).toBe('Kept: The keep expression matches it');
    expect(decisions.get('undated')).toMatch(/Among the newest/);
    expect(kept(decisions)).toEqual(['feature-y', 'latest', 'main-aaa4', 'main-aaa5', 'undated', 'v1.0.0', 'v1.1.0', 'v2.0.0', 'v2.0.0-rc.1', 'v2.0.0-rc.2']);
    await deleteAsPreviewed(page, api, project.id, image.id, decisions);
  });
});

test('a Developer reads the cleanup policy with its preview; the protection rules, a Maintainer’s to read, are not asked for', async ({ page, api, consoleServer, connectAs }) => {
  const project = await newProject(api);
  await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
  const developer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: developer.id, access_level: 30 });
  await connectAs(page, developer.token);
  const answers = apiAnswers(page);
  const settled = watchApiRequests(page);
  await page.goto(`/projects/${project.id}/registry/cleanup-policy`);
  await expect(main(page).getByRole('note').filter({ hasText: 'Changing the cleanup policy needs the Maintainer role' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Preview of the cleanup policy' })).toBeVisible();
  await settled();
  // the platform would refuse them (403) on every visit
  expect(answers.filter((answer) => answer.includes('/registry/protection/'))).toEqual([]);
});

test('a Maintainer whose role cannot be read sees the cleanup policy, not its editing, and is told why', async ({ page, api, connectAs }) => {
  const project = await newProject(api);
  const maintainer = await api.createUser();
  await api.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
  const heal = await api.injectFault({ path: `/api/v4/projects/${project.id}/members/all`, methods: ['GET'], error_rate: 1, error_status: 503 });
  await connectAs(page, maintainer.token);
  await page.goto(`/projects/${project.id}/registry/cleanup-policy`);
  const unread = main(page).getByRole('note').filter({ hasText: /Your role here could not be read \(.+\), so changes are not offered\./ });
  // the read is retried (about 3.5 s) before the failure is said
  await expect(unread).toBeVisible({ timeout: 15_000 });
  const schedule = page.getByRole('form', { name: 'Cleanup policy' }).getByRole('checkbox', { name: 'Run the cleanup policy on schedule' });
  await expect(schedule).toBeDisabled();
  await expect(main(page).getByRole('note').filter({ hasText: 'needs the Maintainer role' })).toHaveCount(0);
  await heal();
  await unread.getByRole('button', { name: 'Try again' }).click();
  await expect(schedule).toBeEnabled();
  await expect(unread).toHaveCount(0);
});

test.describe('the cleanup policy', () => {
  test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

  test('edited with the platform’s values and the preview of its next run, then saved', async ({ page, api, consoleServer }) => {
    const project = await newProject(api);
    await pushTags(consoleServer, project.id, 'app', RULE_TAGS);
    await page.goto(`/projects/${project.id}/registry`);
    await page.getByRole('link', { name: 'Cleanup policy' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Cleanup policy of ${project.name_with_namespace}` })).toBeVisible();
    const form = page.getByRole('form', { name: 'Cleanup policy' });
    await form.getByRole('checkbox', { name: 'Run the cleanup policy on schedule' }).check();
    await form.getByRole('combobox', { name: 'Run cleanup' }).selectOption({ label: 'Every week' });
    await form.getByRole('combobox', { name: 'Keep the most recent' }).selectOption({ label: '5 tags per image' });
    await form.getByRole('combobox', { name: 'Remove tags older than' }).selectOption({ label: '14 days' });
    const remove = form.getByRole('textbox', { name: 'Remove tags matching' });
    await remove.fill('main-[');
    await expect(remove).toHaveAttribute('aria-invalid', 'true');
    await remove.fill('.*');
    await form.getByRole('textbox', { name: 'Keep tags matching' }).fill('v.*');
    // selected: main-aaa1..5, feature-x, feature-y, undated; the newest 5 stay, of the rest those older than 14 days go
    const preview = page.getByRole('table', { name: 'Preview of the cleanup policy' });
    await expect(page.getByRole('status').filter({ hasText: '3 to delete, 11 kept' })).toBeVisible();
    await expect(preview.getByRole('row').filter({ hasText: 'feature-x' })).toContainText('Deleted');
    await expect(preview.getByRole('row').filter({ hasText: 'v1.0.0' })).toContainText('The keep expression matches it');
    expect(await axeViolations(page, 'cleanup policy')).toEqual([]);
    await form.getByRole('button', { name: 'Save cleanup policy' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved the cleanup policy.' })).toBeVisible();
    const saved = await api.get<{ container_expiration_policy: Record<string, unknown> }>(`/projects/${project.id}`);
    expect(saved.container_expiration_policy).toMatchObject({ enabled: true, cadence: '7d', keep_n: 5, older_than: '14d', name_regex: '.*', name_regex_keep: 'v.*' });
    await page.reload();
    await expect(page.getByRole('form', { name: 'Cleanup policy' }).getByRole('combobox', { name: 'Run cleanup' })).toHaveValue('7d');
  });
});
