import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { LUMEN_LONG_BRANCH, LUMEN_LONG_COMMITS } from '../seed/repositories.ts';

describe("a commit's diff", () => {
  let clock = new Date('2024-05-01T10:00:00Z');
  let h: Harness;
  let projectId: number;
  const commit = async (body: Record<string, unknown>) => {
    clock = new Date(clock.getTime() + 60_000);
    const answer = await h.post(`/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'change', ...body });
    expect(answer.status).toBe(201);
    return answer.body.id as string;
  };

  beforeAll(async () => {
    h = createHarness({ now: () => clock });
    projectId = (await h.post('/projects', { name: 'Diff Project', visibility: 'private' })).body.id;
  });

  afterAll(() => h.close());

  it('lists each file of a root commit as new, against the empty tree', async () => {
    const root = await commit({ actions: [{ action: 'create', file_path: 'README.md', content: 'one\ntwo\n' }, { action: 'create', file_path: 'docs/a b.md', content: 'spaced\n' }] });
    const answer = await h.get(`/projects/${projectId}/repository/commits/${root}/diff`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-total')).toBe('2');
    expect(answer.body).toEqual([
      { diff: '@@ -0,0 +1,2 @@\n+one\n+two\n', collapsed: false, too_large: false, new_path: 'README.md', old_path: 'README.md', a_mode: '000000', b_mode: '100644', new_file: true, renamed_file: false, deleted_file: false, generated_file: false },
      expect.objectContaining({ diff: '@@ -0,0 +1 @@\n+spaced\n', new_path: 'docs/a b.md', new_file: true }),
    ]);
  });

  it('shows updates, renames, deletions and mode changes against the first parent; unidiff keeps the file lines', async () => {
    const sha = await commit({
      actions: [
        { action: 'update', file_path: 'README.md', content: 'one\n2\n' },
        { action: 'move', previous_path: 'docs/a b.md', file_path: 'docs/moved.md' },
        { action: 'create', file_path: 'run.sh', content: '#!/bin/sh\n' },
      ],
    });
    const changed = (await h.get(`/projects/${projectId}/repository/commits/${sha}/diff`)).body;
    expect(changed.map((entry: { new_path: string }) => entry.new_path)).toEqual(['README.md', 'docs/moved.md', 'run.sh']);
    expect(changed[0]).toMatchObject({ diff: '@@ -1,2 +1,2 @@\n one\n-two\n+2\n', new_file: false, a_mode: '100644', b_mode: '100644' });
    expect(changed[1]).toMatchObject({ diff: '', renamed_file: true, old_path: 'docs/a b.md', new_path: 'docs/moved.md' });
    const unified = (await h.get(`/projects/${projectId}/repository/commits/${sha}/diff?unidiff=true`)).body;
    expect(unified[0].diff).toBe('--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n');
    const removed = await commit({ actions: [{ action: 'delete', file_path: 'run.sh' }, { action: 'chmod', file_path: 'README.md', execute_filemode: true }] });
    const last = (await h.get(`/projects/${projectId}/repository/commits/${removed}/diff`)).body;
    expect(last).toEqual([
      expect.objectContaining({ new_path: 'README.md', a_mode: '100644', b_mode: '100755', diff: '' }),
      expect.objectContaining({ new_path: 'run.sh', deleted_file: true, b_mode: '000000', diff: '@@ -1 +0,0 @@\n-#!/bin/sh\n' }),
    ]);
  });

  it('pages the files and answers 404 for an unknown commit', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`many/${i}.txt`, `${i}\n`]));
    const sha = await commit({ actions: Object.entries(files).map(([file_path, content]) => ({ action: 'create', file_path, content })) });
    const second = await h.get(`/projects/${projectId}/repository/commits/${sha}/diff?per_page=2&page=2`);
    expect(second.body.map((entry: { new_path: string }) => entry.new_path)).toEqual(['many/2.txt', 'many/3.txt']);
    expect(second.headers.get('x-next-page')).toBe('3');
    expect((await h.get(`/projects/${projectId}/repository/commits/${'b'.repeat(40)}/diff`)).body).toEqual({ message: '404 Commit Not Found' });
  });

  it('leaves a huge patch out and says it is too large', async () => {
    const big = Array.from({ length: 30_000 }, (_, i) => `line ${i} of a generated file`).join('\n');
    const sha = await commit({ actions: [{ action: 'create', file_path: 'big.txt', content: big }] });
    const [entry] = (await h.get(`/projects/${projectId}/repository/commits/${sha}/diff`)).body;
    expect(entry).toMatchObject({ new_path: 'big.txt', too_large: true, diff: '' });
  });
});

describe("Lumen's long history branch", () => {
  let demo: Harness;
  const lumen = encodeURIComponent('lumen/core/lumen');
  const list = (query: string) => demo.get(`/projects/${lumen}/repository/commits?ref_name=${encodeURIComponent(LUMEN_LONG_BRANCH)}&${query}`, { token: null });

  beforeAll(() => {
    demo = createHarness({ seed: 'demo' });
  });

  afterAll(() => demo.close());

  it(`holds ${LUMEN_LONG_COMMITS} commits of its own, listed quickly on the first and the last pages without totals`, async () => {
    // the first read of the repository builds Lumen
    await demo.get(`/projects/${lumen}/repository/branches`, { token: null });
    let started = performance.now();
    const first = await list('per_page=20');
    const firstMs = performance.now() - started;
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(20);
    expect(first.body[0].title).toBe(`journal: ${first.body[0].title.split(' ')[1]} entry ${LUMEN_LONG_COMMITS}`);
    expect(first.headers.get('x-total')).toBeNull();
    expect(first.headers.get('x-next-page')).toBe('2');
    started = performance.now();
    const deep = await list(`per_page=100&page=${LUMEN_LONG_COMMITS / 100}`);
    const deepMs = performance.now() - started;
    expect(deep.body).toHaveLength(100);
    expect(deep.body.at(-1).title).toMatch(/ entry 1$/);
    // after the journal comes Lumen's first commit, which the branch starts from
    const past = await list(`per_page=100&page=${LUMEN_LONG_COMMITS / 100 + 1}`);
    expect(past.body.map((commit: { title: string }) => commit.title)).toEqual(['Lumen: first light']);
    expect(past.headers.get('x-next-page')).toBe('');
    // generous bounds: a slow machine passes, a list that walks the history per commit does not
    expect(firstMs).toBeLessThan(1_500);
    expect(deepMs).toBeLessThan(1_500);
    const sequence = await demo.get(`/projects/${lumen}/repository/commits/${encodeURIComponent(LUMEN_LONG_BRANCH)}/sequence`, { token: null });
    expect(sequence.body).toEqual({ count: LUMEN_LONG_COMMITS + 1 });
  });

  it('leaves the default branch as it was', async () => {
    const main = await demo.get(`/projects/${lumen}/repository/commits/main/sequence`, { token: null });
    expect(main.body.count).toBeLessThan(400);
    const branches = (await demo.get(`/projects/${lumen}/repository/branches`, { token: null })).body.map((branch: { name: string }) => branch.name);
    expect(branches).toEqual(expect.arrayContaining(['main', 'develop', 'release/1.x', 'feature/gpu-backend', LUMEN_LONG_BRANCH]));
  });
});
