import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { gitSync } from '../git/exec.ts';
import { repositoryPath } from '../git/repository.ts';

let clock = new Date('2024-03-01T10:00:00Z');
let h: Harness;
let developer: ReturnType<Harness['user']>;
let reporter: ReturnType<Harness['user']>;
let guest: ReturnType<Harness['user']>;
let outsider: ReturnType<Harness['user']>;
let projectId: number;
let publicId: number;

const tick = (minutes = 1) => {
  clock = new Date(clock.getTime() + minutes * 60_000);
};

const b64 = (text: string) => Buffer.from(text).toString('base64');

async function commit(body: Record<string, unknown>, token?: string) {
  tick();
  return h.post(`/projects/${projectId}/repository/commits`, { commit_message: 'change', ...body }, token ? { token } : undefined);
}

function repoDir(id: number): string {
  return repositoryPath(h.sandbox, { id, repository_storage: 'default' });
}

async function addMember(project: number, userId: number, level: number) {
  const answer = await h.post(`/projects/${project}/members`, { user_id: userId, access_level: level });
  expect(answer.status).toBe(201);
}

beforeAll(async () => {
  h = createHarness({ now: () => clock });
  developer = h.user();
  reporter = h.user();
  guest = h.user();
  outsider = h.user();
  const created = await h.post('/projects', { name: 'Repo Project', visibility: 'private' });
  expect(created.status).toBe(201);
  projectId = created.body.id;
  expect(created.body.empty_repo).toBe(true);
  await addMember(projectId, developer.id, 30);
  await addMember(projectId, reporter.id, 20);
  await addMember(projectId, guest.id, 10);
  const pub = await h.post('/projects', { name: 'Open Project', visibility: 'public' });
  publicId = pub.body.id;
});

afterAll(() => h.close());

describe('creating commits with actions', () => {
  it('lists nothing for an empty repository and refuses an unknown commit', async () => {
    const list = await h.get(`/projects/${projectId}/repository/commits`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect((await h.get(`/projects/${projectId}/repository/commits/main`)).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('makes the first commit with text and base64 files, author override and stats', async () => {
    const answer = await commit({
      branch: 'main',
      commit_message: 'Initial import\n\nSigned-off-by: Ann <ann@example.com>\nCc: One <one@example.com>\nCc: Two <two@example.com>',
      author_name: 'Ann Author',
      author_email: 'ann@example.com',
      actions: [
        { action: 'create', file_path: 'README.md', content: 'hello\nworld\n' },
        { action: 'create', file_path: 'src/a b.ts', content: b64('export const a = 1;\n'), encoding: 'base64' },
        { action: 'create', file_path: 'bin/run.sh', content: '#!/bin/sh\necho run\n' },
      ],
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      short_id: answer.body.id.slice(0, 11),
      title: 'Initial import',
      author_name: 'Ann Author',
      author_email: 'ann@example.com',
      committer_email: h.sandbox.db.prepare('SELECT email FROM users WHERE id = 1').pluck().get(),
      parent_ids: [],
      stats: { additions: 5, deletions: 0, total: 5 },
      status: null,
      last_pipeline: null,
      project_id: projectId,
      trailers: { 'Signed-off-by': 'Ann <ann@example.com>', Cc: 'Two <two@example.com>' },
      extended_trailers: { Cc: ['One <one@example.com>', 'Two <two@example.com>'] },
    });
    expect(answer.body.id).toMatch(/^[0-9a-f]{40}$/);
    expect(answer.body.created_at).toBe(answer.body.committed_date);
    expect(answer.body.authored_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/);
    expect(answer.body.web_url).toContain(`/-/commit/${answer.body.id}`);
    const project = await h.get(`/projects/${projectId}`);
    expect(project.body.empty_repo).toBe(false);
    // git agrees: the file holds the decoded content
    expect(gitSync(repoDir(projectId), ['show', 'main:src/a b.ts']).toString()).toBe('export const a = 1;\n');
  });

  it('protects the default branch after its first push, so a Developer may not push there', async () => {
    const denied = await commit({ branch: 'main', actions: [{ action: 'create', file_path: 'dev.txt', content: 'x' }] }, developer.token);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('403 Forbidden - You are not allowed to push into this branch');
    const reporterTry = await commit({ branch: 'feature', start_branch: 'main', actions: [{ action: 'create', file_path: 'r.txt', content: 'x' }] }, reporter.token);
    expect(reporterTry.status).toBe(403);
    const onFeature = await commit({ branch: 'dev-feature', start_branch: 'main', actions: [{ action: 'create', file_path: 'dev.txt', content: 'x' }] }, developer.token);
    expect(onFeature.status).toBe(201);
  });

  it('updates, moves, chmods and deletes in one commit', async () => {
    const answer = await commit({
      branch: 'main',
      actions: [
        { action: 'update', file_path: 'README.md', content: 'hello\nthere\n' },
        { action: 'move', previous_path: 'src/a b.ts', file_path: 'lib/a b.ts' },
        { action: 'chmod', file_path: 'bin/run.sh', execute_filemode: true },
        { action: 'create', file_path: 'tmp.txt', content: 'temporary\n' },
        { action: 'delete', file_path: 'tmp.txt' },
      ],
    });
    expect(answer.status).toBe(201);
    expect(answer.body.stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    const dir = repoDir(projectId);
    const tree = gitSync(dir, ['ls-tree', '-r', 'main']).toString();
    expect(tree).toContain('100755 blob');
    expect(tree).toMatch(/100755 blob [0-9a-f]+\tbin\/run\.sh/);
    expect(tree).toContain('lib/a b.ts');
    expect(tree).not.toContain('src/a b.ts');
    expect(tree).not.toContain('tmp.txt');
  });

  it('answers the validation errors with the platform messages, changing nothing', async () => {
    const head = gitSync(repoDir(projectId), ['rev-parse', 'main']).toString().trim();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ actions: [{ action: 'create', file_path: 'x', content: 'x' }] }, '400 Bad request - branch is required'],
      [{ branch: 'main', commit_message: '', actions: [] }, '400 Bad request - commit_message is required'],
      [{ branch: 'main' }, '400 Bad request - actions is required'],
      [{ branch: 'main', actions: 'nope' }, '400 Bad request - actions must be an array'],
      [{ branch: 'main', start_branch: 'main', start_sha: head, actions: [{ action: 'create', file_path: 'x' }] }, '400 Bad request - start_branch, start_sha are mutually exclusive'],
      [{ branch: 'main', actions: [{ file_path: 'x' }] }, '400 Bad request - actions[0][action] is required'],
      [{ branch: 'main', actions: [{ action: 'create', file_path: 'a', content: 'x' }, { action: 'create' }] }, '400 Bad request - actions[1][file_path] is required'],
      [{ branch: 'main', actions: [{ action: 'rename', file_path: 'x' }] }, '400 Bad request - actions[0][action] must be one of: create, update, move, delete, chmod'],
      [{ branch: 'main', actions: [{ action: 'create', file_path: 'x', encoding: 'hex' }] }, '400 Bad request - actions[0][encoding] must be text or base64'],
      [{ branch: 'main', actions: [{ action: 'update', file_path: 'README.md' }] }, '400 Bad request - actions[0][content] is required for update action'],
      [{ branch: 'main', actions: [{ action: 'move', file_path: 'x' }] }, '400 Bad request - actions[0][previous_path] is required for move action'],
      [{ branch: 'main', actions: [{ action: 'chmod', file_path: 'README.md' }] }, '400 Bad request - actions[0][execute_filemode] is required for chmod action'],
      [{ branch: 'main', actions: [{ action: 'chmod', file_path: 'README.md', execute_filemode: 'yes' }] }, '400 Bad request - actions[0][execute_filemode] must be a boolean'],
      [{ branch: 'main', actions: [{ action: 'create', file_path: 'docs/../../etc/passwd', content: 'x' }] }, 'Path cannot include directory traversal'],
      [{ branch: 'main', actions: [{ action: 'create', file_path: 'README.md', content: 'x' }] }, 'A file with this name already exists'],
      [{ branch: 'main', actions: [{ action: 'create', file_path: 'lib', content: 'x' }] }, 'A directory with this name already exists'],
      [{ branch: 'main', actions: [{ action: 'update', file_path: 'missing.txt', content: 'x' }] }, "A file with this name doesn't exist"],
      [{ branch: 'main', actions: [{ action: 'delete', file_path: 'missing.txt' }] }, "A file with this name doesn't exist"],
      [{ branch: 'main', actions: [{ action: 'update', file_path: 'README.md', content: 'hello\nthere\n' }] }, 'No changes were made'],
      [{ branch: 'main', actions: [{ action: 'update', file_path: 'README.md', content: 'x', last_commit_id: head.replace(/^./, head[0] === 'a' ? 'b' : 'a') }] }, 'The file has changed since you started editing it: README.md'],
      [{ branch: 'nowhere', actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] }, 'You can only create or edit files when you are on a branch'],
      [{ branch: 'dev-feature', start_branch: 'main', actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] }, "A branch called 'dev-feature' already exists. Switch to that branch in order to make changes"],
      [{ branch: 'bad..name', start_branch: 'main', actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] }, "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
    ];
    for (const [body, message] of cases) {
      const answer = await commit(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toBe(message);
    }
    expect(gitSync(repoDir(projectId), ['rev-parse', 'main']).toString().trim()).toBe(head);
  });

  it('accepts a matching last_commit_id, form encoding, start_sha and force', async () => {
    const dir = repoDir(projectId);
    const last = gitSync(dir, ['log', '-1', '--format=%H', 'main', '--', 'README.md']).toString().trim();
    const ok = await commit({ branch: 'main', actions: [{ action: 'update', file_path: 'README.md', content: 'v3\n', last_commit_id: last }] });
    expect(ok.status).toBe(201);
    tick();
    const form = await h.call('POST', `/projects/${projectId}/repository/commits`, {
      form: 'branch=main&commit_message=form%20commit&actions[][action]=create&actions[][file_path]=form.txt&actions[][content]=from%20a%20form',
    });
    expect(form.status).toBe(201);
    expect(gitSync(dir, ['show', 'main:form.txt']).toString()).toBe('from a form');
    const root = gitSync(dir, ['rev-list', '--max-parents=0', 'main']).toString().trim();
    const fromSha = await commit({ branch: 'from-root', start_sha: root, actions: [{ action: 'create', file_path: 'root.txt', content: 'r' }] });
    expect(fromSha.status).toBe(201);
    expect(fromSha.body.parent_ids).toEqual([root]);
    const forced = await commit({ branch: 'from-root', start_branch: 'main', force: true, actions: [{ action: 'create', file_path: 'forced.txt', content: 'f' }] });
    expect(forced.status).toBe(201);
    expect(forced.body.parent_ids).toEqual([gitSync(dir, ['rev-parse', 'main']).toString().trim()]);
    const otherProject = await commit({ branch: 'x', start_branch: 'main', start_project: publicId, actions: [{ action: 'create', file_path: 'y', content: 'y' }] });
    expect(otherProject.status).toBe(403);
    expect(otherProject.body.message).toBe('403 Forbidden - Project is not included in the fork network for Open Project');
  });
});

describe('identities and messages git would refuse', () => {
  it('cleans author identities and refuses a NUL byte in the message, without a 500', async () => {
    const odd = await commit({ branch: 'odd', start_branch: 'main', author_name: '<Eve>\n', author_email: '<eve@example.com>', actions: [{ action: 'create', file_path: 'odd.txt', content: 'o' }] });
    expect(odd.status).toBe(201);
    expect(odd.body).toMatchObject({ author_name: 'Eve', author_email: 'eve@example.com' });
    const blank = await commit({ branch: 'odd', author_name: '<>', actions: [{ action: 'create', file_path: 'odd2.txt', content: 'o' }] });
    expect(blank.body.author_name).toBe(h.sandbox.db.prepare('SELECT name FROM users WHERE id = 1').pluck().get());
    const nul = await commit({ branch: 'odd', commit_message: 'bad\u0000message', actions: [{ action: 'create', file_path: 'odd3.txt', content: 'o' }] });
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual({ message: 'The commit message must not contain a NUL byte' });
  });
});

describe('listing commits', () => {
  let shas: string[];
  let merge: string;

  beforeAll(async () => {
    // a side branch merged with a real merge commit, made with git itself
    const dir = repoDir(projectId);
    const side = await commit({ branch: 'side', start_branch: 'main', commit_message: 'Side work\n\nReviewed-by: Rev <rev@example.com>', actions: [{ action: 'create', file_path: 'side.txt', content: 's\n' }] });
    expect(side.status).toBe(201);
    const main = await commit({ branch: 'main', commit_message: 'Main work', author_name: 'Zed', author_email: 'zed@example.com', actions: [{ action: 'create', file_path: 'main.txt', content: 'm\n' }] });
    expect(main.status).toBe(201);
    tick();
    const env = { GIT_AUTHOR_NAME: 'Merger', GIT_AUTHOR_EMAIL: 'merger@example.com', GIT_COMMITTER_NAME: 'Merger', GIT_COMMITTER_EMAIL: 'merger@example.com', GIT_AUTHOR_DATE: `@${clock.getTime() / 1000} +0000`, GIT_COMMITTER_DATE: `@${clock.getTime() / 1000} +0000` };
    const idx = `${h.dataDir}/merge-index`;
    gitSync(dir, ['read-tree', '-i', '-m', `${side.body.parent_ids[0]}`, main.body.id, side.body.id], { env: { GIT_INDEX_FILE: idx } });
    const tree = gitSync(dir, ['write-tree'], { env: { GIT_INDEX_FILE: idx } }).toString().trim();
    merge = gitSync(dir, ['commit-tree', tree, '-p', main.body.id, '-p', side.body.id, '-m', "Merge branch 'side'"], { env }).toString().trim();
    gitSync(dir, ['update-ref', 'refs/heads/main', merge]);
    shas = gitSync(dir, ['rev-list', 'main']).toString().trim().split('\n');
  });

  it('lists the default branch newest first, paged without totals', async () => {
    const page = await h.get(`/projects/${projectId}/repository/commits?per_page=3`);
    expect(page.status).toBe(200);
    expect(page.body.map((c: { id: string }) => c.id)).toEqual(shas.slice(0, 3));
    expect(page.body[0].trailers).toEqual({});
    expect(page.body[0]).not.toHaveProperty('stats');
    expect(page.headers.get('x-next-page')).toBe('2');
    expect(page.headers.get('x-total')).toBeNull();
    expect(page.headers.get('link')).toContain('rel="next"');
    const last = await h.get(`/projects/${projectId}/repository/commits?per_page=100`);
    expect(last.body.length).toBe(shas.length);
    expect(last.headers.get('x-next-page')).toBe('');
  });

  it('filters by ref, range, path, author, dates, first parent, all and order', async () => {
    const ids = async (query: string) => (await h.get(`/projects/${projectId}/repository/commits?per_page=100&${query}`)).body.map((c: { id: string }) => c.id);
    expect((await ids('ref_name=side'))[0]).toBe(shas.find((sha) => gitSync(repoDir(projectId), ['log', '-1', '--format=%s', sha]).toString().startsWith('Side work')));
    const range = await ids(`ref_name=${encodeURIComponent('side..main')}`);
    expect(range[0]).toBe(merge);
    expect(range.length).toBe(2);
    expect((await ids('path=side.txt')).length).toBe(1);
    expect((await ids('author=Zed')).length).toBe(1);
    expect((await ids('first_parent=true')).includes(shas.find((sha) => gitSync(repoDir(projectId), ['log', '-1', '--format=%s', sha]).toString().startsWith('Side work')))).toBe(false);
    expect((await ids('all=true')).length).toBeGreaterThan(shas.length);
    expect((await ids('order=topo')).length).toBe(shas.length);
    const mainWork = (await h.get(`/projects/${projectId}/repository/commits?author=Zed`)).body[0];
    // since and until are inclusive of the exact second
    const exact = encodeURIComponent(mainWork.committed_date.replace('.000+00:00', 'Z'));
    expect(await ids(`since=${exact}&until=${exact}`)).toEqual([mainWork.id]);
    expect(await ids('ref_name=does-not-exist')).toEqual([]);
    const bad = await h.get(`/projects/${projectId}/repository/commits?ref_name=--output=/tmp/x`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: 'ref_name is invalid' });
    expect((await h.get(`/projects/${projectId}/repository/commits?since=yesterday`)).body).toEqual({ error: 'since is invalid' });
    expect((await h.get(`/projects/${projectId}/repository/commits?order=random`)).body).toEqual({ error: 'order does not have a valid value' });
  });

  it('adds stats and trailers when asked', async () => {
    const list = await h.get(`/projects/${projectId}/repository/commits?ref_name=side&with_stats=true&trailers=true&per_page=1`);
    expect(list.body[0].stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(list.body[0].trailers).toEqual({ 'Reviewed-by': 'Rev <rev@example.com>' });
    expect(list.body[0].extended_trailers).toEqual({ 'Reviewed-by': ['Rev <rev@example.com>'] });
  });

  it('gets one commit by sha, branch or tag, with parents and optional stats', async () => {
    const one = await h.get(`/projects/${projectId}/repository/commits/main`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(merge);
    expect(one.body.parent_ids.length).toBe(2);
    expect(one.body.stats).toEqual({ additions: 1, deletions: 0, total: 1 });
    expect(one.body.last_pipeline).toBeNull();
    const noStats = await h.get(`/projects/${projectId}/repository/commits/${merge.slice(0, 8)}?stats=false`);
    expect(noStats.body.id).toBe(merge);
    expect(noStats.body).not.toHaveProperty('stats');
    gitSync(repoDir(projectId), ['tag', 'v1.0', merge]);
    expect((await h.get(`/projects/${projectId}/repository/commits/v1.0`)).body.id).toBe(merge);
    expect((await h.get(`/projects/${projectId}/repository/commits/${encodeURIComponent('dev-feature')}`)).status).toBe(200);
  });

  it('lists the refs containing a commit and its sequence number', async () => {
    const root = shas[shas.length - 1];
    const refs = await h.get(`/projects/${projectId}/repository/commits/${root}/refs`);
    expect(refs.status).toBe(200);
    expect(refs.body).toContainEqual({ type: 'branch', name: 'main' });
    expect(refs.body).toContainEqual({ type: 'tag', name: 'v1.0' });
    expect(refs.body.findIndex((r: { type: string }) => r.type === 'tag')).toBe(refs.body.length - 1);
    const tags = await h.get(`/projects/${projectId}/repository/commits/${root}/refs?type=tag`);
    expect(tags.body).toEqual([{ type: 'tag', name: 'v1.0' }]);
    const paged = await h.get(`/projects/${projectId}/repository/commits/${root}/refs?per_page=1`);
    expect(paged.body.length).toBe(1);
    expect(paged.headers.get('x-next-page')).toBe('2');
    expect((await h.get(`/projects/${projectId}/repository/commits/${root}/refs?type=note`)).status).toBe(400);
    const sequence = await h.get(`/projects/${projectId}/repository/commits/${merge}/sequence`);
    expect(sequence.body).toEqual({ count: shas.length });
    const firstParent = await h.get(`/projects/${projectId}/repository/commits/${merge}/sequence?first_parent=true`);
    expect(firstParent.body.count).toBe(Number(gitSync(repoDir(projectId), ['rev-list', '--count', '--first-parent', merge]).toString()));
    expect((await h.get(`/projects/${projectId}/repository/commits/${'f'.repeat(40)}/sequence`)).status).toBe(404);
  });
});

describe('cherry-pick and revert', () => {
  let pickable: string;

  beforeAll(async () => {
    const made = await commit({ branch: 'topic', start_branch: 'main', commit_message: 'Add topic file', actions: [{ action: 'create', file_path: 'topic.txt', content: 'topic\n' }] });
    pickable = made.body.id;
    await commit({ branch: 'conflicting', start_branch: 'main', actions: [{ action: 'update', file_path: 'README.md', content: 'conflict A\n' }] });
  });

  it('dry-runs, applies, then reports an empty cherry-pick', async () => {
    const dry = await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'dev-feature', dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({ dry_run: 'success' });
    const head = gitSync(repoDir(projectId), ['rev-parse', 'dev-feature']).toString().trim();
    const applied = await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'dev-feature' });
    expect(applied.status).toBe(201);
    expect(applied.body.parent_ids).toEqual([head]);
    expect(applied.body.message).toBe(`Add topic file\n\n(cherry picked from commit ${pickable})`);
    expect(applied.body.author_name).toBe(gitSync(repoDir(projectId), ['log', '-1', '--format=%an', pickable]).toString().trim());
    const again = await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'dev-feature', dry_run: true });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      message: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'empty',
      dry_run: 'error',
    });
  });

  it('reports a conflict and writes nothing', async () => {
    const conflictSha = gitSync(repoDir(projectId), ['rev-parse', 'conflicting']).toString().trim();
    await commit({ branch: 'main', actions: [{ action: 'update', file_path: 'README.md', content: 'conflict B\n' }] });
    const before = gitSync(repoDir(projectId), ['rev-parse', 'main']).toString().trim();
    const answer = await h.post(`/projects/${projectId}/repository/commits/${conflictSha}/cherry_pick`, { branch: 'main' });
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe('conflict');
    expect(answer.body).not.toHaveProperty('dry_run');
    expect(gitSync(repoDir(projectId), ['rev-parse', 'main']).toString().trim()).toBe(before);
  });

  it('uses a custom message and checks the branch, the commit and the caller', async () => {
    const custom = await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'side', message: 'Picked by hand' });
    expect(custom.status).toBe(201);
    expect(custom.body.message).toBe('Picked by hand');
    expect((await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, {})).body).toEqual({ error: 'branch is missing' });
    expect((await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'nope' })).body).toEqual({ message: '404 Branch Not Found' });
    expect((await h.post(`/projects/${projectId}/repository/commits/${'a'.repeat(40)}/cherry_pick`, { branch: 'side' })).body).toEqual({ message: '404 Commit Not Found' });
    const reporterTry = await h.post(`/projects/${projectId}/repository/commits/${pickable}/cherry_pick`, { branch: 'side' }, { token: reporter.token });
    expect(reporterTry.status).toBe(403);
  });

  it('reverts a commit, then reports the second revert as empty', async () => {
    const reverted = await h.post(`/projects/${projectId}/repository/commits/${pickable}/revert`, { branch: 'topic' });
    expect(reverted.status).toBe(201);
    expect(reverted.body.title).toBe('Revert "Add topic file"');
    expect(reverted.body.message).toBe(`Revert "Add topic file"\n\nThis reverts commit ${pickable}`);
    expect(() => gitSync(repoDir(projectId), ['cat-file', '-e', 'topic:topic.txt'])).toThrow();
    const again = await h.post(`/projects/${projectId}/repository/commits/${pickable}/revert`, { branch: 'topic', dry_run: true });
    expect(again.status).toBe(400);
    expect(again.body.error_code).toBe('empty');
    expect(again.body.message).toMatch(/^Sorry, we cannot revert this commit automatically/);
  });
});

describe('who may read', () => {
  it('hides a private repository from outsiders and anonymous callers, and its code from Guests', async () => {
    expect((await h.get(`/projects/${projectId}/repository/commits`, { token: outsider.token })).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/repository/commits`, { token: null })).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/repository/commits`, { token: guest.token })).status).toBe(403);
    expect((await h.get(`/projects/${projectId}/repository/commits`, { token: reporter.token })).status).toBe(200);
  });

  it('lets anyone read a public repository, and only members write', async () => {
    const made = await h.post(`/projects/${publicId}/repository/commits`, { branch: 'main', commit_message: 'first', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] });
    expect(made.status).toBe(201);
    const anonymous = await h.get(`/projects/${publicId}/repository/commits/${made.body.id}`, { token: null });
    expect(anonymous.status).toBe(200);
    const write = await h.post(`/projects/${publicId}/repository/commits`, { branch: 'x', start_branch: 'main', commit_message: 'm', actions: [{ action: 'create', file_path: 'b', content: 'b' }] }, { token: outsider.token });
    expect(write.status).toBe(403);
    expect((await h.post(`/projects/${publicId}/repository/commits`, {}, { token: null })).status).toBe(401);
  });
});
