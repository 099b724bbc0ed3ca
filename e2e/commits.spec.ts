import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { DEMO_PATHS, DEMO_TOKENS, expect, test, applyAdminSession, type Api } from './fixtures.ts';
import { CommitHistoryPage, CommitPage } from './pages/commits.ts';

const WEB_APP = 'acme-engineering/frontend/web-app';
const WEB_APP_NAME = 'Acme Engineering / Frontend / Web App';
const ORDER_SUMMARY = 'src/components/Order Summary.tsx';

interface CommitAnswer {
  id: string;
  short_id: string;
  title: string;
  parent_ids: string[];
  stats?: { additions: number; deletions: number; total: number };
  trailers: Record<string, string>;
}

/** One search param of the page's URL, for `expect.poll`. */
const param = (page: Page, name: string) => () => new URL(page.url()).searchParams.get(name);

const list = (api: Api, projectId: number, query: string) => api.get<CommitAnswer[]>(`/projects/${projectId}/repository/commits?${query}`);
const head = async (api: Api, projectId: number, branch: string) => (await api.get<{ commit: { id: string } }>(`/projects/${projectId}/repository/branches/${encodeURIComponent(branch)}`)).commit.id;
const byTitle = async (api: Api, projectId: number, title: string, ref = 'main') => {
  const commits = await list(api, projectId, `ref_name=${encodeURIComponent(ref)}&per_page=100`);
  const found = commits.find((commit) => commit.title === title);
  if (!found) throw new Error(`no commit "${title}" on ${ref}`);
  return found;
};

/** A branch of this test's own, deleted afterwards. */
async function ownBranch(api: Api, projectId: number, ref: string): Promise<string> {
  const name = `e2e/pick-${randomBytes(4).toString('hex')}`;
  await api.post(`/projects/${projectId}/repository/branches`, { branch: name, ref });
  api.deleteAfter(`/projects/${projectId}/repository/branches/${encodeURIComponent(name)}`);
  return name;
}

// each test makes or reads its own objects and each worker has its own sandbox: the file's tests spread over both workers
test.describe.configure({ mode: 'parallel' });

test.describe('commit history', () => {
  let projectId: number;
  test.beforeEach(async ({ context, api, adminSession }) => {
    projectId = await api.projectId(WEB_APP);
    await applyAdminSession(context, adminSession);
  });

  test('filters by path and author through the URL, keeps them on reload, and pages without totals', async ({ page, api }) => {
    const history = new CommitHistoryPage(page);
    const byPath = await list(api, projectId, `path=${encodeURIComponent(ORDER_SUMMARY)}`);
    expect(byPath.length).toBeGreaterThan(2);
    await history.goto(projectId, `?path=${encodeURIComponent(ORDER_SUMMARY)}`);
    await expect(history.heading(WEB_APP_NAME)).toBeVisible();
    await expect(history.path).toHaveValue(ORDER_SUMMARY);
    await expect(history.commitLinks()).toHaveText(byPath.map((commit) => commit.title));

    const author = 'Maya Chen';
    const both = await list(api, projectId, `path=${encodeURIComponent(ORDER_SUMMARY)}&author=${encodeURIComponent(author)}`);
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(byPath.length);
    await history.apply(history.author, author);
    await expect.poll(param(page, 'author')).toBe(author);
    expect(param(page, 'path')()).toBe(ORDER_SUMMARY);
    await expect(history.commitLinks()).toHaveText(both.map((commit) => commit.title));

    await page.reload();
    await expect(history.author).toHaveValue(author);
    await expect(history.path).toHaveValue(ORDER_SUMMARY);
    await expect(history.commitLinks()).toHaveText(both.map((commit) => commit.title));

    // the whole default branch: more than a page, and the list has no totals
    const first = await api.call<CommitAnswer[]>('GET', `/projects/${projectId}/repository/commits?per_page=20`);
    expect(first.headers.get('x-total')).toBeNull();
    const second = await list(api, projectId, 'per_page=20&page=2');
    expect(second.length).toBeGreaterThan(0);
    await history.goto(projectId);
    await expect(history.commitLinks()).toHaveCount(20);
    await expect(history.summary).toHaveText('Page 1');
    await history.next.click();
    await expect.poll(param(page, 'page')).toBe('2');
    await expect(history.commitLinks()).toHaveText(second.map((commit) => commit.title));
    await expect(history.previous).toBeVisible();
  });

  test('shows line counts on request, a range, and an empty answer for a ref that does not exist', async ({ page, api }) => {
    const history = new CommitHistoryPage(page);
    const range = await list(api, projectId, `ref_name=${encodeURIComponent('v1.1.0..fix/login-redirect')}`);
    expect(range.map((commit) => commit.title)).toEqual(['Keep the return URL through the login redirect']);
    await history.goto(projectId);
    await history.apply(history.ref, 'v1.1.0..fix/login-redirect');
    await expect.poll(param(page, 'ref_name')).toBe('v1.1.0..fix/login-redirect');
    await expect(history.commitLinks()).toHaveText(range.map((commit) => commit.title));

    const [withStats] = await list(api, projectId, `ref_name=${encodeURIComponent('v1.1.0..fix/login-redirect')}&with_stats=true`);
    await history.withStats.check();
    await expect.poll(param(page, 'with_stats')).toBe('true');
    await expect(history.stats(`${withStats.stats!.additions} line${withStats.stats!.additions === 1 ? '' : 's'} added, ${withStats.stats!.deletions} removed`)).toBeVisible();

    await history.apply(history.ref, 'no-such-branch');
    await expect(history.empty(/^No commits on no-such-branch/)).toBeVisible();
  });

  test('a row leads to the commit', async ({ page, api }) => {
    const history = new CommitHistoryPage(page);
    const [latest] = await list(api, projectId, `path=${encodeURIComponent(ORDER_SUMMARY)}`);
    await history.goto(projectId, `?path=${encodeURIComponent(ORDER_SUMMARY)}`);
    await history.commitLinks().first().click();
    await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/commit/${latest.id}$`));
    await expect(new CommitPage(page).heading(latest.title)).toBeVisible();
  });
});

test.describe('when the instance fails', () => {
  test('the history and a diff say so and retry', async ({ page, context, api, adminSession }) => {
    const projectId = await api.projectId(WEB_APP);
    await applyAdminSession(context, adminSession);
    const history = new CommitHistoryPage(page);
    let heal = await api.injectFault({ path: `/api/v4/projects/${projectId}/repository/commits`, methods: ['GET'], error_rate: 1, error_status: 503 });
    await history.goto(projectId);
    const failure = page.getByRole('alert').filter({ hasText: 'The instance had a problem' });
    // 5xx answers are retried with backoff before the screen gives up
    await expect(failure).toBeVisible({ timeout: 20_000 });
    await heal();
    await failure.getByRole('button', { name: 'Try again' }).click();
    await expect(history.commitLinks()).toHaveCount(20);

    const [latest] = await list(api, projectId, 'per_page=1');
    heal = await api.injectFault({ path: `/api/v4/projects/${projectId}/repository/commits/*/diff`, error_rate: 1, error_status: 500 });
    const commitPage = new CommitPage(page);
    await commitPage.goto(projectId, latest.id);
    await expect(commitPage.heading(latest.title)).toBeVisible();
    const diffFailure = commitPage.section('Changes').getByRole('alert');
    await expect(diffFailure).toBeVisible({ timeout: 20_000 });
    await heal();
    await diffFailure.getByRole('button', { name: 'Try again' }).click();
    await expect(commitPage.patch(ORDER_SUMMARY)).toBeVisible();
  });
});

test.describe('a commit', () => {
  let projectId: number;
  test.beforeEach(async ({ context, api, adminSession }) => {
    projectId = await api.projectId(WEB_APP);
    await applyAdminSession(context, adminSession);
  });

  test('shows its message, stats, parents, trailers, refs, position and diff', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const commit = await api.get<CommitAnswer & { message: string }>(`/projects/${projectId}/repository/commits/${(await byTitle(api, projectId, 'Refine order summary (8/8)')).id}`);
    const sequence = await api.get<{ count: number }>(`/projects/${projectId}/repository/commits/${commit.id}/sequence`);
    await commitPage.goto(projectId, commit.id);
    await expect(commitPage.heading('Refine order summary (8/8)')).toBeVisible();
    // the sandbox serves only the API: its commit page would not exist, so no link leads there
    await expect(page.getByRole('link', { name: 'All commits', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Open on the instance' })).toHaveCount(0);
    await expect(commitPage.message).toContainText(`Signed-off-by: ${commit.trailers['Signed-off-by']}`);
    const { additions, deletions } = commit.stats!;
    await expect(commitPage.stats(`${additions} line${additions === 1 ? '' : 's'} added, ${deletions} removed`)).toBeVisible();
    await expect(await commitPage.trailer('Signed-off-by')).toHaveText(commit.trailers['Signed-off-by']);
    await expect(commitPage.ref('Branches', 'main')).toBeVisible();
    await expect(commitPage.ref('Branches', 'renovate/react-19')).toBeVisible();
    await expect(commitPage.ref('Tags', 'v1.2.0')).toBeVisible();
    await expect(commitPage.position).toHaveText(`${sequence.count.toLocaleString('en-US')} commits lead here, this one included`);
    await expect(commitPage.patch(ORDER_SUMMARY)).toContainText('Revision 9');

    const parentId = commit.parent_ids[0];
    const parent = await api.get<CommitAnswer>(`/projects/${projectId}/repository/commits/${parentId}`);
    await commitPage.parent(parentId.slice(0, 11)).click();
    await expect(commitPage.heading(parent.title)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/commit/${parentId}$`));
  });

  test('a merge lists both parents; a branch ref names only the branches containing it', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const merge = await byTitle(api, projectId, "Merge branch 'feature/checkout' into 'main'");
    expect(merge.parent_ids).toHaveLength(2);
    await commitPage.goto(projectId, merge.id);
    for (const parent of merge.parent_ids) await expect(commitPage.parent(parent.slice(0, 11))).toBeVisible();
    await expect(commitPage.ref('Branches', 'fix/login-redirect')).toBeVisible();
    await expect(commitPage.ref('Tags', 'v1.1.0')).toBeVisible();
    await expect(commitPage.section('Branches and tags containing this commit').getByRole('link', { name: 'feature/checkout', exact: true })).toHaveCount(0);
  });

  test('cherry-pick dry runs say "applies cleanly" or show the conflict, writing nothing', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const fix = await byTitle(api, projectId, 'Keep the return URL through the login redirect', 'fix/login-redirect');
    const mainBefore = await head(api, projectId, 'main');
    await commitPage.goto(projectId, fix.id);
    await commitPage.cherryPickButton.click();
    await commitPage.targetBranch.fill('main');
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText('Applies cleanly to main. Nothing has been written yet.');
    await expect(commitPage.confirm('Cherry-pick', 'main')).toBeEnabled();
    await page.keyboard.press('Escape');
    await expect(commitPage.dialog).toBeHidden();
    expect(await head(api, projectId, 'main')).toBe(mainBefore);

    // (2/8) edits a line feature/checkout never got: the three-way merge conflicts
    const second = await byTitle(api, projectId, 'Refine order summary (2/8)');
    const checkoutBefore = await head(api, projectId, 'feature/checkout');
    await commitPage.goto(projectId, second.id);
    await commitPage.cherryPickButton.click();
    await commitPage.targetBranch.fill('feature/checkout');
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText(/^Conflict on feature\/checkout: Sorry, we cannot cherry-pick this commit automatically/);
    await expect(commitPage.confirm('Cherry-pick', 'feature/checkout')).toHaveCount(0);
    expect(await head(api, projectId, 'feature/checkout')).toBe(checkoutBefore);

    // (8/8) is already on renovate/react-19, which branched after it: nothing to apply
    const last = await byTitle(api, projectId, 'Refine order summary (8/8)');
    const renovateBefore = await head(api, projectId, 'renovate/react-19');
    await commitPage.goto(projectId, last.id);
    await commitPage.cherryPickButton.click();
    await commitPage.targetBranch.fill('renovate/react-19');
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText(/^Nothing to apply on renovate\/react-19: Sorry, we cannot cherry-pick this commit automatically/);
    await expect(commitPage.confirm('Cherry-pick', 'renovate/react-19')).toHaveCount(0);
    expect(await head(api, projectId, 'renovate/react-19')).toBe(renovateBefore);
  });

  test('cherry-picks onto a branch of its own after the dry run, and links to the new commit', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const branch = await ownBranch(api, projectId, 'main');
    const before = await head(api, projectId, branch);
    const fix = await byTitle(api, projectId, 'Keep the return URL through the login redirect', 'fix/login-redirect');
    await commitPage.goto(projectId, fix.id);
    await commitPage.cherryPickButton.click();
    await commitPage.targetBranch.fill('main');
    await commitPage.check.click();
    await expect(commitPage.confirm('Cherry-pick', 'main')).toBeVisible();
    // changing the branch after a check asks for a new one: the confirmation was for main
    await commitPage.targetBranch.fill(branch);
    await expect(commitPage.checkResult).toHaveCount(0);
    await expect(commitPage.dialog.getByRole('button', { name: /^Cherry-pick onto / })).toHaveCount(0);
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText(`Applies cleanly to ${branch}. Nothing has been written yet.`);
    expect(await head(api, projectId, branch)).toBe(before);
    await commitPage.confirm('Cherry-pick', branch).click();
    await expect(commitPage.createdLink).toBeVisible();
    const after = await head(api, projectId, branch);
    expect(after).not.toBe(before);
    const created = await api.get<CommitAnswer & { message: string }>(`/projects/${projectId}/repository/commits/${after}`);
    expect(created.parent_ids).toEqual([before]);
    expect(created.message).toContain(`(cherry picked from commit ${fix.id})`);
    await commitPage.createdLink.click();
    await expect(page).toHaveURL(new RegExp(`/commit/${after}$`));
    await expect(commitPage.heading(fix.title)).toBeVisible();
    await expect(commitPage.ref('Branches', branch)).toBeVisible();
  });

  test('revert dry runs first: clean on the branch head, a conflict on an older revision', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const mainBefore = await head(api, projectId, 'main');
    const latest = await byTitle(api, projectId, 'Refine order summary (8/8)');
    await commitPage.goto(projectId, latest.id);
    await commitPage.revertButton.click();
    await expect(commitPage.dialog.getByRole('textbox', { name: /Commit message/ })).toHaveCount(0);
    await commitPage.targetBranch.fill('main');
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText('Applies cleanly to main. Nothing has been written yet.');
    await expect(commitPage.confirm('Revert', 'main')).toBeVisible();
    await commitPage.dialog.getByRole('button', { name: 'Cancel' }).click();

    const older = await byTitle(api, projectId, 'Refine order summary (3/8)');
    await commitPage.goto(projectId, older.id);
    await commitPage.revertButton.click();
    await commitPage.targetBranch.fill('main');
    await commitPage.check.click();
    await expect(commitPage.checkResult).toHaveText(/^Conflict on main: Sorry, we cannot revert this commit automatically/);
    expect(await head(api, projectId, 'main')).toBe(mainBefore);
  });

  test('reverts onto a branch of its own once confirmed', async ({ page, api }) => {
    const commitPage = new CommitPage(page);
    const branch = await ownBranch(api, projectId, 'main');
    const before = await head(api, projectId, branch);
    const latest = await byTitle(api, projectId, 'Refine order summary (8/8)');
    await commitPage.goto(projectId, latest.id);
    await commitPage.revertButton.click();
    await commitPage.targetBranch.fill(branch);
    await commitPage.check.click();
    await commitPage.confirm('Revert', branch).click();
    await expect(commitPage.createdLink).toContainText('Revert "Refine order summary (8/8)"');
    const after = await head(api, projectId, branch);
    expect(after).not.toBe(before);
  });
});

test.describe('who may cherry-pick and revert', () => {
  test('a read-only token sees the commit and why it cannot pick it', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(DEMO_PATHS.inheritedProject);
    const [latest] = await list(api, projectId, 'per_page=1');
    await connectAs(page, DEMO_TOKENS.readonly.secret);
    const commitPage = new CommitPage(page);
    await commitPage.goto(projectId, latest.id);
    await expect(commitPage.heading(latest.title)).toBeVisible();
    await expect(commitPage.notice(/read-only/)).toBeVisible();
    await expect(commitPage.cherryPickButton).toHaveCount(0);
    await expect(commitPage.revertButton).toHaveCount(0);
  });

  test('a Developer is offered both, and a protected branch is refused before any dry run', async ({ page, api, connectAs }) => {
    const projectId = await api.projectId(WEB_APP);
    const fix = await byTitle(api, projectId, 'Keep the return URL through the login redirect', 'fix/login-redirect');
    await connectAs(page, DEMO_TOKENS.developer.secret);
    const commitPage = new CommitPage(page);
    await commitPage.goto(projectId, fix.id);
    await expect(commitPage.revertButton).toBeVisible();
    await commitPage.cherryPickButton.click();
    await commitPage.targetBranch.fill('main');
    await expect(commitPage.dialog.getByText('You cannot push to main: it is protected.')).toBeVisible();
    await expect(commitPage.check).toBeDisabled();
  });
});
