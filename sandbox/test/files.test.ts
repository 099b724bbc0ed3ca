import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { gitSync } from '../git/exec.ts';
import { repositoryPath } from '../git/repository.ts';

let h: Harness;
let projectId: number;
let publicId: number;
let developer: ReturnType<Harness['user']>;
let reporter: ReturnType<Harness['user']>;
let outsider: ReturnType<Harness['user']>;
let firstSha: string;
let secondSha: string;

const enc = encodeURIComponent;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const LFS = 'version https://git-lfs.github.com/spec/v1\noid sha256:' + 'a'.repeat(64) + '\nsize 12345\n';

const head = (branch = 'main') => gitSync(repositoryPath(h.sandbox, { id: projectId, repository_storage: 'default' }), ['rev-parse', branch]).toString().trim();

beforeAll(async () => {
  h = createHarness();
  developer = h.user();
  reporter = h.user();
  outsider = h.user();
  projectId = (await h.post('/projects', { name: 'Files', visibility: 'private' })).body.id;
  publicId = (await h.post('/projects', { name: 'Public Files', visibility: 'public' })).body.id;
  await h.post(`/projects/${projectId}/members`, { user_id: developer.id, access_level: 30 });
  await h.post(`/projects/${projectId}/members`, { user_id: reporter.id, access_level: 20 });
  const first = await h.post(`/projects/${projectId}/repository/commits`, {
    branch: 'main',
    commit_message: 'first',
    actions: [
      { action: 'create', file_path: 'src/a b.ts', content: 'line 1\nline 2\nline 3\n' },
      { action: 'create', file_path: 'logo.png', content: PNG.toString('base64'), encoding: 'base64' },
      { action: 'create', file_path: 'big.bin', content: LFS },
      { action: 'create', file_path: 'run.sh', content: 'echo hi\n' },
    ],
  });
  expect(first.status).toBe(201);
  firstSha = first.body.id;
  const second = await h.post(`/projects/${projectId}/repository/commits`, {
    branch: 'main',
    commit_message: 'second',
    author_name: 'Second Author',
    author_email: 'second@example.com',
    actions: [
      { action: 'update', file_path: 'src/a b.ts', content: 'line 1\nline two\nline 3\nline 4\n' },
      { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
    ],
  });
  secondSha = second.body.id;
  await h.post(`/projects/${publicId}/repository/commits`, { branch: 'main', commit_message: 'p', actions: [{ action: 'create', file_path: 'README.md', content: '# hi\n' }] });
});

afterAll(() => h.close());

describe('reading files', () => {
  it('gets a file with base64 content and every metadata field, path URL-encoded', async () => {
    const answer = await h.get(`/projects/${projectId}/repository/files/${enc('src/a b.ts')}?ref=main`);
    expect(answer.status).toBe(200);
    const content = 'line 1\nline two\nline 3\nline 4\n';
    const blobId = gitSync(repositoryPath(h.sandbox, { id: projectId, repository_storage: 'default' }), ['rev-parse', 'main:src/a b.ts']).toString().trim();
    expect(answer.body).toEqual({
      file_name: 'a b.ts',
      file_path: 'src/a b.ts',
      size: Buffer.byteLength(content),
      encoding: 'base64',
      content_sha256: createHash('sha256').update(content).digest('hex'),
      ref: 'main',
      blob_id: blobId,
      commit_id: secondSha,
      last_commit_id: secondSha,
      execute_filemode: false,
      content: Buffer.from(content).toString('base64'),
    });
    expect(answer.headers.get('x-service-blob-id')).toBe(blobId);
    const old = await h.get(`/projects/${projectId}/repository/files/${enc('run.sh')}?ref=${firstSha}`);
    expect(old.body.execute_filemode).toBe(false);
    expect(old.body.last_commit_id).toBe(firstSha);
    const now = await h.get(`/projects/${projectId}/repository/files/run.sh?ref=HEAD`);
    expect(now.body.execute_filemode).toBe(true);
    expect(now.body.ref).toBe('HEAD');
    expect(now.body.commit_id).toBe(secondSha);
  });

  it('answers HEAD with the X-Service headers and no body', async () => {
    const answer = await h.call('HEAD', `/projects/${projectId}/repository/files/${enc('src/a b.ts')}?ref=main`);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
    expect(answer.headers.get('x-service-file-name')).toBe('a b.ts');
    expect(answer.headers.get('x-service-file-path')).toBe('src/a b.ts');
    expect(answer.headers.get('x-service-commit-id')).toBe(secondSha);
    expect(answer.headers.get('x-service-last-commit-id')).toBe(secondSha);
    expect(answer.headers.get('x-service-ref')).toBe('main');
    expect(answer.headers.get('x-service-encoding')).toBe('base64');
    expect(answer.headers.get('x-service-size')).toBe('30');
    expect(answer.headers.get('x-service-execute-filemode')).toBe('false');
    expect(answer.headers.get('x-service-content-sha256')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a missing ref, an unknown ref or file, a directory and traversal', async () => {
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh`)).body).toEqual({ error: 'ref is missing' });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh?ref=`)).body).toEqual({ error: 'ref is empty' });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh?ref=nope`)).body).toEqual({ message: '404 Commit Not Found' });
    expect((await h.get(`/projects/${projectId}/repository/files/nope.txt?ref=main`)).body).toEqual({ message: '404 File Not Found' });
    expect((await h.get(`/projects/${projectId}/repository/files/src?ref=main`)).body).toEqual({ message: '404 File Not Found' });
    const traversal = await h.get(`/projects/${projectId}/repository/files/${enc('src/../run.sh')}?ref=main`);
    expect(traversal.status).toBe(400);
    expect(traversal.body).toEqual({ error: 'file_path should be a valid file path' });
    // an unencoded path does not match the endpoint
    expect((await h.get(`/projects/${projectId}/repository/files/src/a%20b.ts?ref=main`)).status).toBe(404);
  });

  it('serves raw content with its type, and the lfs flag on pointers', async () => {
    const text = await h.get(`/projects/${projectId}/repository/files/${enc('src/a b.ts')}/raw?ref=main`);
    expect(text.status).toBe(200);
    expect(text.text).toBe('line 1\nline two\nline 3\nline 4\n');
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(text.headers.get('x-service-blob-id')).toMatch(/^[0-9a-f]{40}$/);
    const image = await h.app.request(`http://localhost/api/v4/projects/${projectId}/repository/files/logo.png/raw`, { headers: { 'PRIVATE-TOKEN': h.adminToken } });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    const pointer = await h.get(`/projects/${projectId}/repository/files/big.bin/raw?ref=main`);
    expect(pointer.text).toBe(LFS);
    expect((await h.get(`/projects/${projectId}/repository/files/big.bin/raw?ref=main&lfs=true`)).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/repository/files/${enc('/run.sh')}/raw`)).status).toBe(200);
  });

  it('blames a file whole and in a range', async () => {
    const whole = await h.get(`/projects/${projectId}/repository/files/${enc('src/a b.ts')}/blame?ref=main`);
    expect(whole.status).toBe(200);
    expect(whole.body.map((group: { lines: string[] }) => group.lines)).toEqual([['line 1'], ['line two'], ['line 3'], ['line 4']]);
    expect(whole.body[0].commit).toEqual({
      id: firstSha,
      parent_ids: [],
      message: 'first',
      authored_date: expect.stringMatching(/\.000\+00:00$/),
      author_name: expect.any(String),
      author_email: 'admin@example.com',
      committed_date: expect.any(String),
      committer_name: expect.any(String),
      committer_email: 'admin@example.com',
    });
    expect(whole.body[1].commit.id).toBe(secondSha);
    expect(whole.body[1].commit.author_name).toBe('Second Author');
    const range = await h.get(`/projects/${projectId}/repository/files/${enc('src/a b.ts')}/blame?ref=main&range[start]=2&range[end]=3`);
    expect(range.body.map((group: { lines: string[] }) => group.lines)).toEqual([['line two'], ['line 3']]);
    const clamped = await h.get(`/projects/${projectId}/repository/files/${enc('src/a b.ts')}/blame?ref=main&range[start]=4&range[end]=100`);
    expect(clamped.body).toEqual([expect.objectContaining({ lines: ['line 4'] })]);
    const reversed = await h.get(`/projects/${projectId}/repository/files/run.sh/blame?ref=main&range[start]=3&range[end]=1`);
    expect(reversed.status).toBe(400);
    expect(reversed.body).toEqual({ message: 'range[start] must be less than or equal to range[end]' });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh/blame?ref=main&range[start]=1`)).body).toEqual({ error: 'range[end] is missing' });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh/blame?ref=main&range[start]=0&range[end]=1`)).body).toEqual({ error: 'range[start] does not have a valid value' });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh/blame?ref=main&range[start]=9&range[end]=10`)).status).toBe(400);
  });
});

describe('writing files', () => {
  it('creates a file (201), refusing an existing one without changing anything', async () => {
    const created = await h.post(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}`, { branch: 'main', commit_message: 'add doc', content: '# New\n' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ file_path: 'docs/new file.md', branch: 'main' });
    const before = head();
    const again = await h.post(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}`, { branch: 'main', commit_message: 'again', content: 'x' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'A file with this name already exists' });
    expect(head()).toBe(before);
    const script = await h.post(`/projects/${projectId}/repository/files/tool.sh`, { branch: 'main', commit_message: 'tool', content: Buffer.from('#!/bin/sh\n').toString('base64'), encoding: 'base64', execute_filemode: true });
    expect(script.status).toBe(201);
    const tool = await h.get(`/projects/${projectId}/repository/files/tool.sh?ref=main`);
    expect(tool.body.execute_filemode).toBe(true);
    expect(Buffer.from(tool.body.content, 'base64').toString()).toBe('#!/bin/sh\n');
  });

  it('creates on a new branch from start_branch', async () => {
    const answer = await h.post(`/projects/${projectId}/repository/files/feature.txt`, { branch: 'feature/x', start_branch: 'main', commit_message: 'feature', content: 'f' });
    expect(answer.status).toBe(201);
    expect((await h.get(`/projects/${projectId}/repository/files/feature.txt?ref=${enc('feature/x')}`)).status).toBe(200);
    expect((await h.get(`/projects/${projectId}/repository/files/feature.txt?ref=main`)).status).toBe(404);
  });

  it('updates a file (200), and a stale last_commit_id or an empty change is a 400 that changes nothing', async () => {
    const meta = await h.get(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}?ref=main`);
    const updated = await h.put(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}`, { branch: 'main', commit_message: 'edit', content: '# Edited\n', last_commit_id: meta.body.last_commit_id });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ file_path: 'docs/new file.md', branch: 'main' });
    const before = head();
    const stale = await h.put(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}`, { branch: 'main', commit_message: 'edit again', content: 'mine', last_commit_id: meta.body.last_commit_id });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ message: 'You are attempting to update a file that has changed since you started editing it.' });
    const empty = await h.put(`/projects/${projectId}/repository/files/${enc('docs/new file.md')}`, { branch: 'main', commit_message: 'same', content: '# Edited\n' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toEqual(expect.any(String));
    const missing = await h.put(`/projects/${projectId}/repository/files/none.md`, { branch: 'main', commit_message: 'x', content: 'x' });
    expect(missing.body).toEqual({ message: "A file with this name doesn't exist" });
    const traversal = await h.put(`/projects/${projectId}/repository/files/${enc('docs/../../x')}`, { branch: 'main', commit_message: 'x', content: 'x' });
    expect(traversal.status).toBe(400);
    expect(head()).toBe(before);
  });

  it('deletes a file (204)', async () => {
    const answer = await h.delete(`/projects/${projectId}/repository/files/tool.sh`, { json: { branch: 'main', commit_message: 'remove tool' } });
    expect(answer.status).toBe(204);
    expect((await h.get(`/projects/${projectId}/repository/files/tool.sh?ref=main`)).status).toBe(404);
    const again = await h.delete(`/projects/${projectId}/repository/files/tool.sh`, { json: { branch: 'main', commit_message: 'remove tool' } });
    expect(again.body).toEqual({ message: "A file with this name doesn't exist" });
  });

  it('reports every missing parameter at once', async () => {
    const answer = await h.post(`/projects/${projectId}/repository/files/x.txt`, {});
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error: 'branch is missing, commit_message is missing, content is missing' });
    expect((await h.post(`/projects/${projectId}/repository/files/x.txt`, { branch: 'main', commit_message: 'm', content: 'x', encoding: 'hex' })).body).toEqual({ error: 'encoding does not have a valid value' });
  });

  it('lets Developers write to unprotected branches only, and not Reporters at all', async () => {
    const onMain = await h.post(`/projects/${projectId}/repository/files/dev.txt`, { branch: 'main', commit_message: 'dev', content: 'd' }, { token: developer.token });
    expect(onMain.status).toBe(400);
    expect(onMain.body).toEqual({ message: 'You are not allowed to push into this branch' });
    const onFeature = await h.post(`/projects/${projectId}/repository/files/dev.txt`, { branch: 'feature/x', commit_message: 'dev', content: 'd' }, { token: developer.token });
    expect(onFeature.status).toBe(201);
    const reporterWrite = await h.post(`/projects/${projectId}/repository/files/r.txt`, { branch: 'feature/x', commit_message: 'r', content: 'r' }, { token: reporter.token });
    expect(reporterWrite.status).toBe(403);
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh?ref=main`, { token: reporter.token })).status).toBe(200);
  });

  it('serves public files without a token and hides private ones', async () => {
    const anonymous = await h.get(`/projects/${publicId}/repository/files/README.md?ref=main`, { token: null });
    expect(anonymous.status).toBe(200);
    expect(Buffer.from(anonymous.body.content, 'base64').toString()).toBe('# hi\n');
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh?ref=main`, { token: outsider.token })).status).toBe(404);
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh/raw`, { token: null })).status).toBe(404);
    const readRepository = h.user({ scopes: ['read_repository'] });
    await h.post(`/projects/${projectId}/members`, { user_id: readRepository.id, access_level: 20 });
    expect((await h.get(`/projects/${projectId}/repository/files/run.sh?ref=main`, { token: readRepository.token })).status).toBe(200);
  });
});

describe('the demo repositories', () => {
  let demo: Harness;
  const lumen = encodeURIComponent('lumen/core/lumen');
  const webApp = encodeURIComponent('acme-engineering/frontend/web-app');

  beforeAll(() => {
    demo = createHarness({ seed: 'demo' });
  });

  afterAll(() => demo.close());

  it('gives the web app branches, tags, a merge, a rename, binaries and a path with spaces', async () => {
    const project = await demo.get(`/projects/${webApp}`);
    expect(project.body.empty_repo).toBe(false);
    const branches = (await demo.get(`/projects/${webApp}/repository/branches`)).body.map((branch: { name: string }) => branch.name);
    expect(branches).toEqual(expect.arrayContaining(['main', 'feature/checkout', 'fix/login-redirect', 'renovate/react-19']));
    expect((await demo.get(`/projects/${webApp}/repository/tags`)).body.length).toBeGreaterThanOrEqual(3);
    const spaced = await demo.get(`/projects/${webApp}/repository/files/${enc('src/components/Order Summary.tsx')}?ref=main`);
    expect(spaced.status).toBe(200);
    const merges = (await demo.get(`/projects/${webApp}/repository/commits?per_page=100`)).body.filter((commit: { parent_ids: string[] }) => commit.parent_ids.length === 2);
    expect(merges.length).toBeGreaterThanOrEqual(1);
    expect((await demo.get(`/projects/${webApp}/repository/files/${enc('src/components/Checkout.tsx')}?ref=main`)).status).toBe(200);
    const icon = await demo.get(`/projects/${webApp}/repository/files/${enc('public/favicon.ico')}/raw`);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const renamed = await demo.get(`/projects/${webApp}/repository/commits?path=${enc('src/lib/format.ts')}`);
    expect(renamed.body[0].title).toBe('Move formatting helpers to src/lib');
  });

  it('builds Lumen on first use: a 50,000-line file touched by more than 200 commits, blamed in ranges', async () => {
    const project = await demo.get(`/projects/${lumen}`, { token: null });
    expect(project.body.empty_repo).toBe(false);
    const big = await demo.call('HEAD', `/projects/${lumen}/repository/files/${enc('src/text/glyph_table.rs')}?ref=main`, { token: null });
    expect(big.status).toBe(200);
    const raw = await demo.get(`/projects/${lumen}/repository/files/${enc('src/text/glyph_table.rs')}/raw`, { token: null });
    expect(raw.text.split('\n').length - 1).toBe(50_000);
    let touching = 0;
    for (let page = 1; page <= 3; page++) {
      touching += (await demo.get(`/projects/${lumen}/repository/commits?path=${enc('src/text/glyph_table.rs')}&per_page=100&page=${page}`, { token: null })).body.length;
    }
    expect(touching).toBeGreaterThanOrEqual(200);
    const range = await demo.get(`/projects/${lumen}/repository/files/${enc('src/text/glyph_table.rs')}/blame?ref=main&range[start]=40000&range[end]=40999`, { token: null });
    expect(range.status).toBe(200);
    const lines = range.body.reduce((sum: number, group: { lines: string[] }) => sum + group.lines.length, 0);
    expect(lines).toBe(1000);
    expect(new Set(range.body.map((group: { commit: { id: string } }) => group.commit.id)).size).toBeGreaterThan(10);
    const tags = (await demo.get(`/projects/${lumen}/repository/tags`, { token: null })).body.map((tag: { name: string }) => tag.name);
    expect(tags).toContain('v1.0.0');
  });
});
