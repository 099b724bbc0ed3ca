import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { axeViolations } from './axe.ts';
import { renderedLines } from './rendered-lines.ts';
import { DEMO_MERGE_REQUESTS } from '../sandbox/seed/demo.ts';

const unique = () => randomBytes(4).toString('hex');

/** One search param of the page's URL, for `expect.poll`. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

/** Elements in the document: the list draws the rows in view only. */
const elementCount = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

/**
 * A project of its own whose `topic` branch changes `files` (path -> new content, bytes in base64, null to delete)
 * over `base` (path -> content on main) and renames `moves` (new path -> old path), with a merge
 * request from it. Resolves to the request's Changes tab.
 */
async function requestChanging(api: Api, base: Record<string, string>, files: Record<string, string | null | { base64: string }>, moves: Record<string, string> = {}) {
  const project = await api.post<{ id: number }>('/projects', { name: `mr-changes-${unique()}`, initialize_with_readme: true });
  api.deleteAfter(`/projects/${project.id}`);
  const repository = `/projects/${project.id}/repository`;
  if (Object.keys(base).length) {
    await api.post(`${repository}/commits`, { branch: 'main', commit_message: 'Base', actions: Object.entries(base).map(([file_path, content]) => ({ action: 'create', file_path, content })) });
  }
  await api.post(`${repository}/branches`, { branch: 'topic', ref: 'main' });
  await api.post(`${repository}/commits`, {
    branch: 'topic',
    commit_message: 'Change',
    actions: [
      ...Object.entries(files).map(([file_path, content]) => {
        if (content === null) return { action: 'delete', file_path };
        const body = typeof content === 'string' ? { content } : { content: content.base64, encoding: 'base64' };
        return { action: file_path in base ? 'update' : 'create', file_path, ...body };
      }),
      ...Object.entries(moves).map(([file_path, previous_path]) => ({ action: 'move', file_path, previous_path })),
    ],
  });
  const request = await api.post<{ iid: number }>(`/projects/${project.id}/merge_requests`, { source_branch: 'topic', target_branch: 'main', title: `Changes ${unique()}` });
  return `/projects/${project.id}/merge-requests/${request.iid}/changes`;
}

test.describe.configure({ mode: 'parallel', timeout: 90_000 });

test.beforeEach(({ context, adminSession }) => applyAdminSession(context, adminSession));

test('the 5,000-line request: the first file paints, the tree jumps to a later one, side by side is kept in the URL', async ({ page, api }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  await page.goto(`/projects/${webApp}/merge-requests/${DEMO_MERGE_REQUESTS.big}`);
  const tabs = page.getByRole('navigation', { name: 'Merge request' });
  await expect(tabs.getByRole('link', { name: 'Changes 100' })).toBeVisible();
  await tabs.getByRole('link', { name: 'Changes 100' }).click();
  await expect(page).toHaveURL(new RegExp(`/merge-requests/${DEMO_MERGE_REQUESTS.big}/changes$`));

  const first = page.getByRole('group', { name: 'src/tokens/token000.ts', exact: true });
  await expect(first.getByRole('table', { name: 'Lines of src/tokens/token000.ts' })).toContainText('token000_0');
  await expect(first.getByRole('button', { name: 'src/tokens/token000.ts' })).toHaveAttribute('aria-expanded', 'true');
  await expect(first).toContainText('+50');
  await expect(page.getByRole('status').filter({ hasText: 'files changed' })).toContainText('100 files changed, +5,000 −0');
  // the document holds the rows in view, not 5,000 lines
  expect(await elementCount(page)).toBeLessThan(2_000);

  const tree = page.getByRole('navigation', { name: 'Changed files' });
  await expect(tree.getByRole('button', { name: 'src/tokens/' })).toHaveAttribute('aria-expanded', 'true');
  // a folder closes and opens
  await tree.getByRole('button', { name: 'src/tokens/' }).click();
  await expect(tree.getByRole('button', { name: /^token000\.ts/ })).toHaveCount(0);
  await tree.getByRole('button', { name: 'src/tokens/' }).click();
  const later = tree.getByRole('button', { name: /^token090\.ts/ });
  await later.click();
  await expect(later).toHaveAttribute('aria-current', 'true');
  await expect.poll(param(page, 'file')).toBe('src/tokens/token090.ts');
  const target = page.getByRole('group', { name: 'src/tokens/token090.ts', exact: true });
  await expect(target.getByRole('table')).toContainText('token090_0');
  await expect(page.getByRole('group', { name: 'src/tokens/token000.ts', exact: true })).toHaveCount(0);
  expect(await elementCount(page)).toBeLessThan(2_000);

  // collapsing a file leaves its header
  await target.getByRole('button', { name: 'src/tokens/token090.ts' }).click();
  await expect(target.getByRole('button', { name: 'src/tokens/token090.ts' })).toHaveAttribute('aria-expanded', 'false');
  await expect(target.getByRole('table')).toHaveCount(0);
  await target.getByRole('button', { name: 'src/tokens/token090.ts' }).click();

  // side by side: the new side's line number and text beside an empty old side; unified again drops the param
  await page.getByRole('group', { name: 'View' }).getByRole('radio', { name: 'Side by side' }).check();
  await expect.poll(param(page, 'view')).toBe('parallel');
  const row = target.getByRole('row').filter({ hasText: 'token090_0:' }).first();
  await expect(row.getByRole('cell')).toHaveCount(4);
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Side by side' })).toBeChecked();
  await expect(page.getByRole('button', { name: /^token090\.ts/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('group', { name: 'src/tokens/token090.ts', exact: true }).getByRole('table')).toContainText('token090_');
  expect(await axeViolations(page, 'changes, side by side')).toEqual([]);
  await page.getByRole('radio', { name: 'Unified' }).check();
  await expect.poll(param(page, 'view')).toBeNull();
  await expect(page.getByRole('group', { name: 'src/tokens/token090.ts', exact: true }).getByRole('row').filter({ hasText: 'token090_0:' }).first().getByRole('cell')).toHaveCount(3);
  expect(await axeViolations(page, 'changes, unified')).toEqual([]);

  // as the changes scroll, the tree marks the file in view and keeps it in its own view
  const changes = page.getByRole('region', { name: 'Changes, file by file' });
  await changes.press('End');
  await expect(tree.getByRole('button', { name: /^token099\.ts/ })).toHaveAttribute('aria-current', 'true');
  await expect(tree.getByRole('button', { name: /^token090\.ts/ })).not.toHaveAttribute('aria-current', 'true');
  await expect(tree.getByRole('button', { name: /^token099\.ts/ })).toBeInViewport();
  await changes.press('Home');
  await expect(tree.getByRole('button', { name: /^token000\.ts/ })).toHaveAttribute('aria-current', 'true');
  await expect(tree.getByRole('button', { name: /^token000\.ts/ })).toBeInViewport();
});

test('a line’s link opens the tab scrolled to that line, marked; pressing a number links to its line', async ({ page, api }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  await page.goto(`/projects/${webApp}/merge-requests/${DEMO_MERGE_REQUESTS.big}/changes#src/tokens/token080.ts__25`);
  const file = page.getByRole('group', { name: 'src/tokens/token080.ts', exact: true });
  // line 25 of the new file is the token numbered 23 (the first line opens the object)
  const marked = file.getByRole('row').filter({ hasText: 'token080_23:' });
  await expect(marked).toHaveAttribute('aria-current', 'true');
  await expect(marked).toBeInViewport();
  // by keyboard: the number is a link
  await file.getByRole('link', { name: 'Line 30', exact: true }).press('Enter');
  await expect(page).toHaveURL(/#src\/tokens\/token080\.ts__30$/);
  await expect(file.getByRole('row').filter({ hasText: 'token080_28:' })).toHaveAttribute('aria-current', 'true');
  await expect(marked).not.toHaveAttribute('aria-current', 'true');
});

test('threads on lines: shown under their line in both views, and a new one started from a line', async ({ page, api }) => {
  const path = await requestChanging(api, { 'app/calc.py': 'a = 1\nb = 2\n' }, { 'app/calc.py': 'a = 1\nb = 3\n' });
  const [, projectId, iid] = /\/projects\/(\d+)\/merge-requests\/(\d+)\//.exec(path)!;
  const base = `/projects/${projectId}/merge_requests/${iid}`;
  const { diff_refs: refs } = await api.get<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(base);
  const onLine = { ...refs, position_type: 'text', old_path: 'app/calc.py', new_path: 'app/calc.py' };
  await api.post(`${base}/discussions`, { body: 'Why was **2** wrong?', position: { ...onLine, old_line: 2 } });
  await page.goto(path);
  const file = page.getByRole('group', { name: 'app/calc.py', exact: true });
  const removedLineThreads = file.getByRole('list', { name: 'Threads on this line' });
  await expect(removedLineThreads.getByRole('article', { name: /^Thread by / })).toContainText('Why was 2 wrong?');

  // by keyboard: the form takes the focus, and Cancel gives it back to the line's button
  const comment = file.getByRole('button', { name: 'Comment on line 2', exact: true });
  await comment.focus();
  await page.keyboard.press('Enter');
  const form = file.getByRole('form', { name: 'New thread on app/calc.py, line 2' });
  await expect(form.getByLabel('Comment', { exact: true })).toBeFocused();
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(form).toHaveCount(0);
  await expect(comment).toBeFocused();

  // a new thread on the added line, from its button
  await comment.click();
  await expect(form.getByLabel('Comment', { exact: true })).toBeFocused();
  await form.getByLabel('Comment', { exact: true }).fill('Three is right: see the spec.');
  await form.getByRole('button', { name: 'Start a thread' }).click();
  await expect(form).toHaveCount(0);
  await expect(file.getByRole('article', { name: /^Thread by / })).toHaveCount(2);
  await expect(file.getByRole('article', { name: /^Thread by / }).filter({ hasText: 'Three is right' })).toBeVisible();
  const discussions = await api.get<Array<{ notes: Array<{ body: string; position?: { old_line: number | null; new_line: number | null } }> }>>(`${base}/discussions`);
  expect(discussions.find((discussion) => discussion.notes[0].body === 'Three is right: see the spec.')?.notes[0].position).toMatchObject({ old_line: null, new_line: 2, head_sha: refs.head_sha });
  expect(await axeViolations(page, 'changes with threads on lines')).toEqual([]);

  // side by side: the same threads under their lines
  await page.getByRole('group', { name: 'View' }).getByRole('radio', { name: 'Side by side' }).check();
  await expect(file.getByRole('article', { name: /^Thread by / })).toHaveCount(2);

  // from the Overview, a thread's place leads to its line, marked
  await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('region', { name: 'Activity' }).getByRole('link', { name: 'app/calc.py, line 2 of the old version' }).click();
  await expect(page).toHaveURL(/\/changes#app\/calc\.py_2_$/);
  await expect(file.getByRole('row').filter({ hasText: 'Removed: b = 2' })).toHaveAttribute('aria-current', 'true');
});

test('after a push, a thread on a file the push left alone stays under its line; one on a changed file is on an old version', async ({ page, api }) => {
  const path = await requestChanging(api, { 'app/one.py': 'a = 1\n', 'app/two.py': 'b = 1\n' }, { 'app/one.py': 'a = 2\n', 'app/two.py': 'b = 2\n' });
  const [, projectId, iid] = /\/projects\/(\d+)\/merge-requests\/(\d+)\//.exec(path)!;
  const base = `/projects/${projectId}/merge_requests/${iid}`;
  const { diff_refs: refs } = await api.get<{ diff_refs: { base_sha: string; start_sha: string; head_sha: string } }>(base);
  for (const file of ['app/one.py', 'app/two.py']) {
    await api.post(`${base}/discussions`, { body: `About ${file}`, position: { ...refs, position_type: 'text', old_path: file, new_path: file, new_line: 1 } });
  }
  await api.post(`/projects/${projectId}/repository/commits`, { branch: 'topic', commit_message: 'More', actions: [{ action: 'update', file_path: 'app/two.py', content: 'b = 3\n' }] });
  await page.goto(path);
  const one = page.getByRole('group', { name: 'app/one.py', exact: true });
  const two = page.getByRole('group', { name: 'app/two.py', exact: true });
  await expect(one.getByRole('list', { name: 'Threads on this line' })).toContainText('About app/one.py');
  await expect(two.getByRole('row').filter({ hasText: 'Added: b = 3' })).toHaveCount(1);
  await expect(two.getByRole('list', { name: 'Threads on this line' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Merge request' }).getByRole('link', { name: 'Overview' }).click();
  const activity = page.getByRole('region', { name: 'Activity' });
  await expect(activity.getByRole('link', { name: 'app/one.py, line 1', exact: true })).toBeVisible();
  const outdated = activity.getByRole('article', { name: /^Thread by / }).filter({ hasText: 'About app/two.py' });
  await expect(outdated).toContainText('On an old version of the changes: app/two.py, line 1');
  await expect(outdated.getByRole('link', { name: 'app/two.py, line 1' })).toHaveCount(0);
});

test('a file marked viewed closes, stays marked through a reload, and is unmarked once its changes change', async ({ page, api }) => {
  const path = await requestChanging(api, { 'app/one.py': 'a = 1\n', 'app/two.py': 'b = 1\n' }, { 'app/one.py': 'a = 2\n', 'app/two.py': 'b = 2\n' });
  const projectId = /\/projects\/(\d+)\//.exec(path)![1];
  await page.goto(path);
  const one = page.getByRole('group', { name: 'app/one.py', exact: true });
  const tree = page.getByRole('navigation', { name: 'Changed files' });
  await expect(one.getByRole('row').filter({ hasText: 'Added: a = 2' })).toHaveCount(1);
  await one.getByRole('checkbox', { name: 'Viewed' }).check();
  await expect(one.getByRole('button', { name: 'app/one.py' })).toHaveAttribute('aria-expanded', 'false');
  await expect(one.getByRole('table')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: '1 of 2 viewed' })).toBeVisible();
  await expect(tree.getByRole('button', { name: 'one.py, 1 line added, 1 removed, viewed' })).toBeVisible();
  // opened again by its header, still marked
  await one.getByRole('button', { name: 'app/one.py' }).click();
  await expect(one.getByRole('table')).toHaveCount(1);
  await expect(one.getByRole('checkbox', { name: 'Viewed' })).toBeChecked();

  await page.reload();
  await expect(page.getByRole('group', { name: 'app/one.py', exact: true }).getByRole('checkbox', { name: 'Viewed' })).toBeChecked();
  await expect(page.getByRole('group', { name: 'app/one.py', exact: true }).getByRole('table')).toHaveCount(0);

  // a new commit changes the file: its mark is gone, the other file's kept
  await page.getByRole('group', { name: 'app/two.py', exact: true }).getByRole('checkbox', { name: 'Viewed' }).check();
  await api.post(`/projects/${projectId}/repository/commits`, { branch: 'topic', commit_message: 'More', actions: [{ action: 'update', file_path: 'app/one.py', content: 'a = 3\n' }] });
  await page.reload();
  await expect(page.getByRole('group', { name: 'app/one.py', exact: true }).getByRole('checkbox', { name: 'Viewed' })).not.toBeChecked();
  await expect(page.getByRole('group', { name: 'app/one.py', exact: true }).getByRole('row').filter({ hasText: 'Added: a = 3' })).toHaveCount(1);
  await expect(page.getByRole('group', { name: 'app/two.py', exact: true }).getByRole('checkbox', { name: 'Viewed' })).toBeChecked();
});

test('whitespace-only changes hide behind a choice kept in the URL', async ({ page, api }) => {
  const path = await requestChanging(
    api,
    { 'app/indent.py': 'def run():\n    call()\n    done()\n', 'app/real.py': 'value = 1\n' },
    { 'app/indent.py': 'def run():\n\tcall()\n\tdone()  \n', 'app/real.py': 'value = 2\n' },
  );
  await page.goto(path);
  const indent = page.getByRole('group', { name: 'app/indent.py', exact: true });
  const real = page.getByRole('group', { name: 'app/real.py', exact: true });
  await expect(indent.getByRole('row').filter({ hasText: 'Removed:' })).toHaveCount(2);
  await expect(indent).toContainText('+2');
  await expect(real.getByRole('row').filter({ hasText: 'Added: value = 2' })).toHaveCount(1);
  // painted plain first, then highlighted once the Python grammar is in: the keyword becomes a span of its own
  await expect(indent.getByText('def', { exact: true })).toBeVisible();

  await page.getByRole('group', { name: 'Whitespace changes' }).getByRole('radio', { name: 'Hide' }).check();
  await expect.poll(param(page, 'whitespace')).toBe('hide');
  await expect(indent).toContainText('Only whitespace changed in this file.');
  await expect(indent.getByRole('table')).toHaveCount(0);
  await expect(real.getByRole('row').filter({ hasText: 'Added: value = 2' })).toHaveCount(1);

  // kept through a reload; showing them again takes the param away
  await page.reload();
  await expect(page.getByRole('group', { name: 'app/indent.py', exact: true })).toContainText('Only whitespace changed in this file.');
  await page.getByRole('radio', { name: 'Show' }).check();
  await expect.poll(param(page, 'whitespace')).toBeNull();
  await expect(indent.getByRole('row').filter({ hasText: 'Added:' })).toHaveCount(2);
});

test('a renamed file names both paths, a binary one says so, a too large one links to the file, a deleted one to the file before the change', async ({ page, api }) => {
  // over the 200 KB a file's patch may have before the sandbox, as the platform, leaves it out
  const bigText = Array.from({ length: 3_000 }, (_, index) => `line ${index} ${'x'.repeat(70)}`).join('\n');
  const path = await requestChanging(api, { 'lib/old-name.rb': 'puts 1\n', 'lib/gone.rb': 'puts 2\n' }, { 'lib/gone.rb': null, 'lib/big.txt': bigText, 'lib/logo.png': { base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0xff, 0]).toString('base64') } }, { 'lib/new-name.rb': 'lib/old-name.rb' });
  await page.goto(path);
  const renamed = page.getByRole('group', { name: 'lib/new-name.rb', exact: true });
  await expect(renamed.getByRole('button', { name: 'lib/old-name.rb → lib/new-name.rb' })).toBeVisible();
  await expect(renamed).toContainText('Renamed');
  await expect(renamed).toContainText('Renamed without changes.');
  const deleted = page.getByRole('group', { name: 'lib/gone.rb', exact: true });
  await expect(deleted).toContainText('Deleted');
  await expect(deleted.getByRole('row').filter({ hasText: 'Removed: puts 2' })).toHaveCount(1);
  await expect(page.getByRole('group', { name: 'lib/logo.png', exact: true })).toContainText('Binary file: its contents are not shown as text.');
  const big = page.getByRole('group', { name: 'lib/big.txt', exact: true });
  await expect(big).toContainText('This diff is too large to show.');
  await expect(big.getByRole('link', { name: 'View the file' })).toHaveAttribute('href', /\/blob\/lib\/big\.txt\?ref=[0-9a-f]{40}$/);
  await deleted.getByRole('link', { name: 'View lib/gone.rb' }).click();
  await expect(page).toHaveURL(/\/blob\/lib\/gone\.rb\?ref=[0-9a-f]{40}$/);
  await expect(page.getByText('puts 2')).toBeVisible();
});

test('markup in file names and contents renders as text and runs nothing', async ({ page, api }) => {
  const corpus = [
    '<img src=x onerror="window.__xss = true">',
    '<svg onload="window.__xss = true"></svg>',
    '<script>window.__xss = true</script>',
    '<a href="javascript:window.__xss=true">link</a>',
    '"><iframe src="javascript:window.__xss=true"></iframe>',
    '&lt;b&gt;entity&lt;/b&gt;',
  ];
  const name = 'web/<img src=x onerror=window.__xss=1>.html';
  const path = await requestChanging(api, { 'web/page.html': '<p>old</p>\n' }, { 'web/page.html': `${corpus.join('\n')}\n`, [name]: `${corpus[0]}\n` });
  await page.goto(path);
  const file = page.getByRole('group', { name: 'web/page.html', exact: true });
  for (const line of corpus) await expect(file.getByRole('row').filter({ hasText: line })).toHaveCount(1);
  await expect(page.getByRole('group', { name, exact: true }).getByRole('row').filter({ hasText: corpus[0] })).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Changed files' }).getByRole('button', { name: /^<img src=x/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Changes, file by file' }).getByRole('img')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
});

test('a request of more than 100 files loads every page of its changes', async ({ page, api }) => {
  const changed = Object.fromEntries(Array.from({ length: 105 }, (_, index) => [`data/file-${String(index).padStart(3, '0')}.txt`, `line ${index}\n`]));
  const path = await requestChanging(api, {}, changed);
  await page.goto(path);
  await expect(page.getByRole('group', { name: 'data/file-000.txt', exact: true }).getByRole('table')).toContainText('line 0');
  await expect(page.getByRole('status').filter({ hasText: 'files changed' })).toContainText('105 files changed, +105 −0');
  // the last file is on the second page
  await page.getByRole('navigation', { name: 'Changed files' }).getByRole('button', { name: /^file-104\.txt/ }).click();
  await expect(page.getByRole('group', { name: 'data/file-104.txt', exact: true }).getByRole('table')).toContainText('line 104');
});

test('on a phone the tree opens on request and nothing scrolls sideways', async ({ page, api }) => {
  const webApp = await api.projectId(DEMO_PATHS.mergeRequests);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/projects/${webApp}/merge-requests/${DEMO_MERGE_REQUESTS.big}/changes?view=parallel`);
  await expect(page.getByRole('group', { name: 'src/tokens/token000.ts', exact: true }).getByRole('table')).toContainText('token000_0');
  const toggle = page.getByRole('button', { name: 'File tree' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('navigation', { name: 'Changed files' })).toHaveCount(0);
  expect(await axeViolations(page, 'changes on a phone')).toEqual([]);
  await toggle.click();
  await page.getByRole('navigation', { name: 'Changed files' }).getByRole('button', { name: /^token042\.ts/ }).click();
  await expect(page.getByRole('group', { name: 'src/tokens/token042.ts', exact: true }).getByRole('table')).toContainText('token042_0');
  // picked, the tree steps aside for the changes
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a file’s path breaks at its slashes and dots, not inside a name', async ({ page, api }) => {
    const path = 'src/components/checkout/AddressAutocomplete.tsx';
    const changes = await requestChanging(api, {}, { [path]: 'export {};\n' });
    await page.goto(changes);
    const lines = await page.getByRole('heading', { level: 2 }).getByRole('button', { name: path, exact: true }).evaluate(renderedLines);
    expect(lines.join('').endsWith(path)).toBe(true);
    expect(lines.length).toBeGreaterThan(1);
    // the chevron and the path start the first line; every line but the last ends at a joint
    expect(lines.slice(0, -1).filter((line) => !/[./]$/.test(line))).toEqual([]);
  });
});
