import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { gitSync } from '../git/exec.ts';
import { repositoryPath } from '../git/repository.ts';

let h: Harness;
let projectId: number;
let developer: ReturnType<Harness['user']>;
let maintainer: ReturnType<Harness['user']>;
let reporter: ReturnType<Harness['user']>;
let mainSha: string;

const enc = encodeURIComponent;
const dir = () => repositoryPath(h.sandbox, { id: projectId, repository_storage: 'default' });
const names = (body: Array<{ name: string }>) => body.map((branch) => branch.name);

async function commitOn(branch: string, file: string, start?: string) {
  const answer = await h.post(`/projects/${projectId}/repository/commits`, {
    branch, start_branch: start, commit_message: `touch ${file}`, actions: [{ action: 'create', file_path: file, content: file }],
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

beforeAll(async () => {
  h = createHarness();
  developer = h.user();
  maintainer = h.user();
  reporter = h.user();
  projectId = (await h.post('/projects', { name: 'Branchy', visibility: 'internal' })).body.id;
  await h.post(`/projects/${projectId}/members`, { user_id: developer.id, access_level: 30 });
  await h.post(`/projects/${projectId}/members`, { user_id: maintainer.id, access_level: 40 });
  await h.post(`/projects/${projectId}/members`, { user_id: reporter.id, access_level: 20 });
  mainSha = await commitOn('main', 'README.md');
  await commitOn('feature/login', 'login.ts', 'main');
  await commitOn('feature/signup', 'signup.ts', 'main');
  await commitOn('Release-1.0', 'release.txt', 'main');
  // merged: at an ancestor of main; identical: at main's tip (not counted as merged)
  gitSync(dir(), ['update-ref', 'refs/heads/old-merged', mainSha]);
  mainSha = await commitOn('main', 'CHANGELOG.md');
  gitSync(dir(), ['update-ref', 'refs/heads/same-as-main', mainSha]);
});

afterAll(() => h.close());

describe('listing and reading branches', () => {
  it('lists branches sorted by name with every field', async () => {
    const answer = await h.get(`/projects/${projectId}/repository/branches`);
    expect(answer.status).toBe(200);
    expect(names(answer.body)).toEqual(['Release-1.0', 'feature/login', 'feature/signup', 'main', 'old-merged', 'same-as-main']);
    const main = answer.body.find((branch: { name: string }) => branch.name === 'main');
    expect(Object.keys(main)).toEqual(['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']);
    expect(main).toMatchObject({ merged: false, protected: true, default: true, developers_can_push: false, developers_can_merge: false, can_push: true });
    expect(main.commit.id).toBe(mainSha);
    expect(main.commit.trailers).toEqual({});
    expect(main.web_url).toMatch(/\/-\/tree\/main$/);
    const merged = answer.body.filter((branch: { merged: boolean }) => branch.merged).map((branch: { name: string }) => branch.name);
    expect(merged).toEqual(['old-merged']);
    expect(answer.headers.get('x-total')).toBe('6');
  });

  it('searches by substring, prefix and suffix, case-insensitively', async () => {
    const search = async (term: string) => names((await h.get(`/projects/${projectId}/repository/branches?search=${enc(term)}`)).body);
    expect(await search('feature')).toEqual(['feature/login', 'feature/signup']);
    expect(await search('^feat')).toEqual(['feature/login', 'feature/signup']);
    expect(await search('up$')).toEqual(['feature/signup']);
    expect(await search('RELEASE')).toEqual(['Release-1.0']);
    expect(await search('^main$')).toEqual(['main']);
  });

  it('filters with RE2 regular expressions and refuses what RE2 does not have', async () => {
    const regex = async (pattern: string) => h.get(`/projects/${projectId}/repository/branches?regex=${enc(pattern)}`);
    expect(names((await regex('^feature/(login|signup)$')).body)).toEqual(['feature/login', 'feature/signup']);
    expect(names((await regex('(?i)^release')).body)).toEqual(['Release-1.0']);
    expect(names((await regex('\\Amain\\z')).body)).toEqual(['main']);
    expect(names((await regex('^(?P<kind>[[:alpha:]]+)/')).body)).toEqual(['feature/login', 'feature/signup']);
    for (const pattern of ['(a)\\1', 'main(?=x)', '(?<!x)main', 'a++', '[unclosed']) {
      const answer = await regex(pattern);
      expect(answer.status, pattern).toBe(400);
    }
    expect((await h.get(`/projects/${projectId}/repository/branches?regex=a&search=b`)).body).toEqual({ error: 'search, regex are mutually exclusive' });
    expect(names((await regex('^\\Qfeature/\\E(?i:LOGIN)$')).body)).toEqual(['feature/login']);
  });

  it('paginates the list', async () => {
    const page = await h.get(`/projects/${projectId}/repository/branches?per_page=2&page=2`);
    expect(names(page.body)).toEqual(['feature/signup', 'main']);
    expect(page.headers.get('x-next-page')).toBe('3');
  });

  it('gets one branch by its URL-encoded name', async () => {
    const answer = await h.get(`/projects/${projectId}/repository/branches/${enc('feature/login')}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'feature/login', protected: false, default: false, merged: false, can_push: true });
    expect((await h.get(`/projects/${projectId}/repository/branches/nope`)).body).toEqual({ message: '404 Branch Not Found' });
    expect((await h.get(`/projects/${projectId}/repository/branches/main`, { token: reporter.token })).body.can_push).toBe(false);
    expect((await h.get(`/projects/${projectId}/repository/branches/main`, { token: developer.token })).body.can_push).toBe(false);
    expect((await h.get(`/projects/${projectId}/repository/branches/main`, { token: maintainer.token })).body.can_push).toBe(true);
  });
});

describe('creating and deleting branches', () => {
  it('creates a branch from a branch or a sha (201)', async () => {
    const fromBranch = await h.post(`/projects/${projectId}/repository/branches`, { branch: 'topic', ref: 'main' }, { token: developer.token });
    expect(fromBranch.status).toBe(201);
    expect(fromBranch.body).toMatchObject({ name: 'topic', merged: false, protected: false, default: false });
    expect(fromBranch.body.commit.id).toBe(mainSha);
    const fromSha = await h.post(`/projects/${projectId}/repository/branches`, { branch: 'from-sha', ref: mainSha.slice(0, 10) });
    expect(fromSha.status).toBe(201);
    expect(fromSha.body.commit.id).toBe(mainSha);
  });

  it('refuses bad names, existing branches, unknown refs and Reporters', async () => {
    const create = (body: Record<string, string>, token?: string) => h.post(`/projects/${projectId}/repository/branches`, body, token ? { token } : undefined);
    expect((await create({ branch: 'topic', ref: 'main' })).body).toEqual({ message: 'Branch already exists' });
    expect((await create({ branch: 'bad name', ref: 'main' })).body).toEqual({ message: 'Branch name is invalid' });
    expect((await create({ branch: 'x', ref: 'nope' })).body).toEqual({ message: 'Invalid reference name: nope' });
    expect((await create({ branch: 'x' })).body).toEqual({ error: 'ref is missing' });
    expect((await create({})).body).toEqual({ error: 'branch is missing, ref is missing' });
    expect((await create({ branch: 'x', ref: 'main' }, reporter.token)).status).toBe(403);
  });

  it('starts an empty repository with an initial commit on the default branch', async () => {
    const empty = (await h.post('/projects', { name: 'Empty One' })).body.id;
    const answer = await h.post(`/projects/${empty}/repository/branches`, { branch: 'dev', ref: 'main' });
    expect(answer.status).toBe(201);
    const list = await h.get(`/projects/${empty}/repository/branches`);
    expect(names(list.body)).toEqual(['dev', 'main']);
    expect(list.body[1].commit.title).toBe('Initial commit');
    expect(list.body[1].protected).toBe(true);
  });

  it('deletes a branch (204) with messages for the default and protected branches', async () => {
    expect((await h.delete(`/projects/${projectId}/repository/branches/from-sha`, { token: developer.token })).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/repository/branches/from-sha`)).status).toBe(404);
    expect((await h.delete(`/projects/${projectId}/repository/branches/from-sha`)).body).toEqual({ message: '404 Branch Not Found' });
    const main = await h.delete(`/projects/${projectId}/repository/branches/main`);
    expect(main.status).toBe(400);
    expect(main.body).toEqual({ message: 'The default branch of a project cannot be deleted.' });
    expect((await h.delete(`/projects/${projectId}/repository/branches/topic`, { token: reporter.token })).status).toBe(403);
  });

  it('deletes merged branches, never protected ones nor the default branch (202)', async () => {
    gitSync(dir(), ['update-ref', 'refs/heads/merged-protected', gitSync(dir(), ['rev-parse', 'old-merged']).toString().trim()]);
    expect((await h.post(`/projects/${projectId}/protected_branches`, { name: 'merged-*' })).status).toBe(201);
    const answer = await h.delete(`/projects/${projectId}/repository/merged_branches`, { token: developer.token });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ message: '202 Accepted' });
    const left = names((await h.get(`/projects/${projectId}/repository/branches?per_page=100`)).body);
    expect(left).not.toContain('old-merged');
    expect(left).toContain('merged-protected');
    expect(left).toContain('main');
    expect(left).toContain('same-as-main');
    expect(left).toContain('topic');
    expect((await h.delete(`/projects/${projectId}/repository/merged_branches`, { token: reporter.token })).status).toBe(403);
  });
});

describe('protecting branches', () => {
  it('protects with push and merge access levels, which developers_can_* follow', async () => {
    const created = await h.post(`/projects/${projectId}/protected_branches`, { name: 'feature/*', push_access_level: 30, merge_access_level: 30 }, { token: maintainer.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'feature/*',
      push_access_levels: [expect.objectContaining({ access_level: 30, access_level_description: 'Developers + Maintainers' })],
      merge_access_levels: [expect.objectContaining({ access_level: 30 })],
      unprotect_access_levels: [expect.objectContaining({ access_level: 40, access_level_description: 'Maintainers' })],
      allow_force_push: false,
      code_owner_approval_required: false,
    });
    const branch = await h.get(`/projects/${projectId}/repository/branches/${enc('feature/login')}`, { token: developer.token });
    expect(branch.body).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });
    const again = await h.post(`/projects/${projectId}/protected_branches`, { name: 'feature/*' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Protected branch 'feature/*' already exists" });
  });

  it('stops Developers from pushing to a Maintainers-only branch, and protected branches from their deletion', async () => {
    await h.post(`/projects/${projectId}/protected_branches`, { name: 'topic', allowed_to_push: [{ access_level: 40 }], allowed_to_merge: [{ access_level: 0 }] });
    const branch = await h.get(`/projects/${projectId}/repository/branches/topic`, { token: developer.token });
    expect(branch.body).toMatchObject({ protected: true, developers_can_push: false, developers_can_merge: false, can_push: false });
    const push = await h.post(`/projects/${projectId}/repository/commits`, { branch: 'topic', commit_message: 'm', actions: [{ action: 'create', file_path: 'dev.txt', content: 'd' }] }, { token: developer.token });
    expect(push.status).toBe(403);
    const deleted = await h.delete(`/projects/${projectId}/repository/branches/topic`, { token: developer.token });
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toBe('You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');
  });

  it('lists, gets and unprotects (204), and checks roles and values', async () => {
    const list = await h.get(`/projects/${projectId}/protected_branches`);
    expect(list.body.map((row: { name: string }) => row.name)).toEqual(['feature/*', 'main', 'merged-*', 'topic']);
    expect((await h.get(`/projects/${projectId}/protected_branches?search=feat`)).body.length).toBe(1);
    expect((await h.get(`/projects/${projectId}/protected_branches/${enc('feature/*')}`)).body.name).toBe('feature/*');
    expect((await h.get(`/projects/${projectId}/protected_branches/nope`)).status).toBe(404);
    expect((await h.post(`/projects/${projectId}/protected_branches`, { name: 'x', push_access_level: 20 })).body).toEqual({ error: 'push_access_level does not have a valid value' });
    expect((await h.post(`/projects/${projectId}/protected_branches`, { name: 'x' }, { token: developer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${projectId}/protected_branches/topic`, { token: developer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${projectId}/protected_branches/topic`, { token: maintainer.token })).status).toBe(204);
    expect((await h.get(`/projects/${projectId}/repository/branches/topic`, { token: developer.token })).body).toMatchObject({ protected: false, can_push: true });
  });

  it('keeps the deprecated protect and unprotect of the branches API', async () => {
    const protectedAnswer = await h.put(`/projects/${projectId}/repository/branches/Release-1.0/protect`, { developers_can_push: true });
    expect(protectedAnswer.status).toBe(200);
    expect(protectedAnswer.body).toMatchObject({ name: 'Release-1.0', protected: true, developers_can_push: true, developers_can_merge: false });
    const unprotected = await h.put(`/projects/${projectId}/repository/branches/Release-1.0/unprotect`);
    expect(unprotected.body).toMatchObject({ protected: false, developers_can_push: false });
  });
});

describe('tree and tags', () => {
  beforeAll(async () => {
    await h.post(`/projects/${projectId}/repository/commits`, {
      branch: 'main', commit_message: 'nested', actions: [
        { action: 'create', file_path: 'src/lib/deep file.ts', content: 'x' },
        { action: 'create', file_path: 'src/index.ts', content: 'y' },
      ],
    });
    const env = { GIT_COMMITTER_NAME: 'Tagger', GIT_COMMITTER_EMAIL: 'tagger@example.com', GIT_COMMITTER_DATE: '@1700000000 +0000' };
    gitSync(dir(), ['tag', 'v1.9', 'merged-protected']);
    gitSync(dir(), ['tag', '-a', 'v1.10', '-m', 'Release 1.10', 'main'], { env });
  });

  it('lists a tree level with trees first, a sub-path, and recursively', async () => {
    const root = await h.get(`/projects/${projectId}/repository/tree`);
    expect(root.status).toBe(200);
    expect(root.body[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}$/), name: 'src', type: 'tree', path: 'src', mode: '040000' });
    expect(root.body.slice(1).every((entry: { type: string }) => entry.type === 'blob')).toBe(true);
    const sub = await h.get(`/projects/${projectId}/repository/tree?path=src&ref=main`);
    expect(sub.body.map((entry: { path: string }) => entry.path)).toEqual(['src/lib', 'src/index.ts']);
    const all = await h.get(`/projects/${projectId}/repository/tree?path=src&recursive=true`);
    expect(all.body.map((entry: { path: string }) => entry.path)).toEqual(['src/lib', 'src/index.ts', 'src/lib/deep file.ts']);
    const paged = await h.get(`/projects/${projectId}/repository/tree?per_page=2`);
    expect(paged.body.length).toBe(2);
    expect(paged.headers.get('x-next-page')).toBe('2');
    const keyset = await h.get(`/projects/${projectId}/repository/tree?pagination=keyset&per_page=2`);
    expect(keyset.headers.get('link')).toContain('page_token=');
    const next = new URL(/<([^>]+)>/.exec(keyset.headers.get('link')!)![1]);
    const second = await h.get(`${next.pathname.replace('/api/v4', '')}${next.search}`);
    expect(second.body[0].path).toBe(root.body[2].path);
    expect((await h.get(`/projects/${projectId}/repository/tree?path=nope`)).body).toEqual({ message: '404 Tree Not Found' });
    expect((await h.get(`/projects/${projectId}/repository/tree?ref=nope`)).body).toEqual({ message: '404 Tree Not Found' });
  });

  it('lists and gets tags, annotated and lightweight', async () => {
    const list = await h.get(`/projects/${projectId}/repository/tags?order_by=version&sort=asc`);
    expect(list.status).toBe(200);
    expect(names(list.body)).toEqual(['v1.9', 'v1.10']);
    expect(names((await h.get(`/projects/${projectId}/repository/tags?order_by=name&sort=asc`)).body)).toEqual(['v1.10', 'v1.9']);
    const annotated = await h.get(`/projects/${projectId}/repository/tags/v1.10`);
    expect(annotated.body).toMatchObject({ name: 'v1.10', message: 'Release 1.10', release: null, protected: false, created_at: '2023-11-14T22:13:20.000+00:00' });
    expect(annotated.body.target).not.toBe(annotated.body.commit.id);
    const light = await h.get(`/projects/${projectId}/repository/tags/v1.9`);
    expect(light.body).toMatchObject({ name: 'v1.9', message: null, created_at: null });
    expect(light.body.target).toBe(light.body.commit.id);
    expect((await h.get(`/projects/${projectId}/repository/tags/v2`)).body).toEqual({ message: '404 Tag Not Found' });
    expect(names((await h.get(`/projects/${projectId}/repository/tags?search=^v1.1`)).body)).toEqual(['v1.10']);
  });

  it('shows an internal project to any signed-in user but not anonymously', async () => {
    const stranger = h.user();
    expect((await h.get(`/projects/${projectId}/repository/branches`, { token: stranger.token })).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/repository/tree`, { token: null })).status).toBe(404);
  });
});
