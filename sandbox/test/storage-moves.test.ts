import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { gitSync } from '../git/exec.ts';
import { repositoryPath } from '../git/repository.ts';
import { storageMoveWorker } from '../areas/storage-moves.ts';

let h: Harness;
let worker: ReturnType<typeof storageMoveWorker>;

const READ_ONLY = { message: 'The repository is temporarily read-only. Please try again later.' };

async function newProject(name: string, withCommit = true): Promise<number> {
  const created = await h.post('/projects', { name, visibility: 'private' });
  expect(created.status, created.text).toBe(201);
  if (withCommit) {
    const file = await h.post(`/projects/${created.body.id}/repository/files/README.md`, { branch: 'main', content: `# ${name}\n`, commit_message: 'Add README' });
    expect(file.status, file.text).toBe(201);
  }
  return created.body.id;
}

const dir = (id: number, storage: string) => repositoryPath(h.sandbox, { id, repository_storage: storage });
const head = (repo: string) => gitSync(repo, ['rev-parse', 'refs/heads/main']).toString().trim();

/** Holds every move at `started`, before the copy, until `release()`. */
function holdMoves() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const started = new Promise<void>((resolve) => (reached = resolve));
  worker.control.beforeCopy = async () => {
    reached();
    await gate;
  };
  return { started, release };
}

beforeAll(() => {
  h = createHarness();
  worker = storageMoveWorker(h.sandbox);
});

afterEach(async () => {
  await worker.idle();
  worker.control = {};
});

afterAll(() => h.close());

describe('project repository storage moves', () => {
  it('ends failed when the destination storage cannot be written', async () => {
    const id = await newProject('Blocked');
    // a file where the destination storage directory should be
    const storageDir = dir(id, 'storage-3').replace(/\/[^/]+$/, '');
    // first test of the file: nothing has used this storage yet
    expect(fs.existsSync(storageDir)).toBe(false);
    fs.writeFileSync(storageDir, 'not a directory');
    try {
      const scheduled = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-3' });
      await worker.idle();
      expect((await h.get(`/project_repository_storage_moves/${scheduled.body.id}`)).body.state).toBe('failed');
      expect((await h.get(`/projects/${id}/repository/files/README.md/raw?ref=main`)).status).toBe(200);
    } finally {
      fs.rmSync(storageDir);
    }
  });

  it('moves the bare repository to the destination storage and finishes', async () => {
    const id = await newProject('Mover');
    const sha = head(dir(id, 'default'));
    const answer = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-2' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(Number), created_at: expect.any(String), state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage-2',
      project: { id, description: expect.any(String), name: 'Mover', name_with_namespace: expect.stringContaining('/ Mover'), path: 'mover', path_with_namespace: expect.stringContaining('/mover'), created_at: expect.any(String) },
    });
    await worker.idle();
    const done = await h.get(`/projects/${id}/repository_storage_moves/${answer.body.id}`);
    expect(done.body.state).toBe('finished');
    expect(fs.existsSync(dir(id, 'default'))).toBe(false);
    expect(head(dir(id, 'storage-2'))).toBe(sha);
    expect((await h.get(`/projects/${id}`)).body.repository_storage).toBe('storage-2');
    const listed = await h.get('/projects?repository_storage=storage-2');
    expect(listed.body.map((project: { id: number }) => project.id)).toContain(id);
    // the repository still serves and takes commits from its new place
    expect((await h.get(`/projects/${id}/repository/files/README.md/raw?ref=main`)).text).toBe('# Mover\n');
    const write = await h.put(`/projects/${id}/repository/files/README.md`, { branch: 'main', content: 'moved\n', commit_message: 'After move' });
    expect(write.status, write.text).toBe(200);
    expect(head(dir(id, 'storage-2'))).not.toBe(sha);
  });

  it('keeps the repository read-only while the move runs', async () => {
    const id = await newProject('Frozen');
    const hold = holdMoves();
    const scheduled = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-3' });
    expect(scheduled.status).toBe(201);
    await hold.started;
    expect((await h.get(`/project_repository_storage_moves/${scheduled.body.id}`)).body.state).toBe('started');
    const file = await h.post(`/projects/${id}/repository/files/new.txt`, { branch: 'main', content: 'x', commit_message: 'During move' });
    expect([file.status, file.body]).toEqual([400, READ_ONLY]);
    const commit = await h.post(`/projects/${id}/repository/commits`, { branch: 'main', commit_message: 'c', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] });
    expect([commit.status, commit.body]).toEqual([400, READ_ONLY]);
    const branch = await h.post(`/projects/${id}/repository/branches`, { branch: 'topic', ref: 'main' });
    expect([branch.status, branch.body]).toEqual([400, READ_ONLY]);
    const tag = await h.post(`/projects/${id}/repository/tags`, { tag_name: 'v1', ref: 'main' });
    expect([tag.status, tag.body]).toEqual([400, READ_ONLY]);
    // reads go on
    expect((await h.get(`/projects/${id}/repository/commits`)).status).toBe(200);
    // a second move of a moving repository is refused by the model
    const again = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-2' });
    expect([again.status, again.body]).toEqual([400, { message: { project: ['is read-only'] } }]);
    hold.release();
    await worker.idle();
    expect((await h.get(`/project_repository_storage_moves/${scheduled.body.id}`)).body.state).toBe('finished');
    const after = await h.post(`/projects/${id}/repository/files/new.txt`, { branch: 'main', content: 'x', commit_message: 'After move' });
    expect(after.status, after.text).toBe(201);
    expect(fs.existsSync(dir(id, 'storage-3'))).toBe(true);
  });

  it('ends failed and leaves the repository usable on its source when the copy fails', async () => {
    const id = await newProject('Stuck');
    const sha = head(dir(id, 'default'));
    worker.control.failCopy = () => true;
    const scheduled = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-2' });
    await worker.idle();
    expect((await h.get(`/projects/${id}/repository_storage_moves/${scheduled.body.id}`)).body.state).toBe('failed');
    expect(fs.existsSync(dir(id, 'storage-2'))).toBe(false);
    expect(head(dir(id, 'default'))).toBe(sha);
    expect((await h.get(`/projects/${id}`)).body.repository_storage).toBe('default');
    const write = await h.post(`/projects/${id}/repository/files/after.txt`, { branch: 'main', content: 'x', commit_message: 'Still works' });
    expect(write.status, write.text).toBe(201);
    // rescheduling after a failure works
    worker.control = {};
    const retry = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'storage-2' });
    await worker.idle();
    expect((await h.get(`/project_repository_storage_moves/${retry.body.id}`)).body.state).toBe('finished');
  });

  it('switches the storage of a project without a repository', async () => {
    const id = await newProject('Empty', false);
    const scheduled = await h.post(`/projects/${id}/repository_storage_moves`, {});
    expect(scheduled.body.destination_storage_name).toBe('storage-2');
    await worker.idle();
    expect((await h.get(`/project_repository_storage_moves/${scheduled.body.id}`)).body.state).toBe('finished');
    expect((await h.get(`/projects/${id}`)).body.repository_storage).toBe('storage-2');
  });

  it('validates storages the platform way', async () => {
    const id = await newProject('Checked', false);
    const unknown = await h.post(`/projects/${id}/repository_storage_moves`, { destination_storage_name: 'nowhere' });
    expect([unknown.status, unknown.body]).toEqual([400, { message: { destination_storage_name: ['is not included in the list'] } }]);
    expect((await h.post('/project_repository_storage_moves', {})).body).toEqual({ error: 'source_storage_name is missing' });
    expect((await h.post('/project_repository_storage_moves', { source_storage_name: 'nowhere' })).body).toEqual({ error: 'source_storage_name does not have a valid value' });
    expect((await h.post('/project_repository_storage_moves', { source_storage_name: 'default', destination_storage_name: 'x' })).body).toEqual({ error: 'destination_storage_name does not have a valid value' });
    expect((await h.get('/project_repository_storage_moves/abc')).body).toEqual({ error: 'repository_storage_move_id is invalid' });
    expect((await h.get('/project_repository_storage_moves/999999')).body).toEqual({ message: '404 Not found' });
    expect((await h.get('/projects/999999/repository_storage_moves')).body).toEqual({ message: '404 Project Not Found' });
  });

  it('is for administrators only', async () => {
    const someone = h.user();
    const id = await newProject('Guarded', false);
    for (const [method, url] of [['GET', '/project_repository_storage_moves'], ['POST', `/projects/${id}/repository_storage_moves`], ['GET', '/group_repository_storage_moves'], ['POST', '/project_repository_storage_moves']] as const) {
      const answer = await h.call(method, url, { token: someone.token, json: method === 'POST' ? { source_storage_name: 'default' } : undefined });
      expect([url, answer.status, answer.body]).toEqual([url, 403, { message: '403 Forbidden' }]);
    }
    expect((await h.get('/project_repository_storage_moves', { token: null })).status).toBe(401);
  });
});

describe('bulk moves, groups, snippets and lists', () => {
  it('moves every project of a storage and lists the moves newest first, paginated', async () => {
    const ids = [await newProject('Bulk A'), await newProject('Bulk B'), await newProject('Bulk C', false)];
    const onDefault = (await h.get('/projects?repository_storage=default&per_page=100')).body.map((project: { id: number }) => project.id);
    const bulk = await h.post('/project_repository_storage_moves', { source_storage_name: 'default', destination_storage_name: 'storage-3' });
    expect([bulk.status, bulk.body]).toEqual([202, { message: '202 Accepted' }]);
    await worker.idle();
    expect((await h.get('/projects?repository_storage=default')).body).toEqual([]);
    for (const id of ids) expect((await h.get(`/projects/${id}`)).body.repository_storage).toBe('storage-3');
    expect(fs.existsSync(dir(ids[0], 'storage-3'))).toBe(true);
    const page = await h.get('/project_repository_storage_moves?per_page=2');
    expect(page.headers.get('x-per-page')).toBe('2');
    expect(Number(page.headers.get('x-total'))).toBeGreaterThanOrEqual(onDefault.length);
    expect(page.body).toHaveLength(2);
    expect(page.body[0].id).toBeGreaterThan(page.body[1].id);
    expect(page.headers.get('link')).toContain('rel="next"');
    const own = await h.get(`/projects/${ids[1]}/repository_storage_moves`);
    expect(own.body.map((move: { project: { id: number } }) => move.project.id)).toEqual([ids[1]]);
    expect(own.body[0]).toMatchObject({ state: 'finished', source_storage_name: 'default', destination_storage_name: 'storage-3' });
    // another project's move is not found under this project
    expect((await h.get(`/projects/${ids[0]}/repository_storage_moves/${own.body[0].id}`)).status).toBe(404);
  });

  it('moves a group wiki repository and lists group moves', async () => {
    const group = await h.post('/groups', { name: 'Wiki Group', path: 'wiki-group' });
    expect(group.status, group.text).toBe(201);
    const scheduled = await h.post(`/groups/${group.body.id}/repository_storage_moves`, { destination_storage_name: 'storage-2' });
    expect(scheduled.status, scheduled.text).toBe(201);
    expect(scheduled.body).toEqual({
      id: expect.any(Number), created_at: expect.any(String), state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage-2',
      group: { id: group.body.id, web_url: expect.stringMatching(/\/groups\/wiki-group$/), name: 'Wiki Group' },
    });
    await worker.idle();
    const moved = await h.get(`/groups/${group.body.id}/repository_storage_moves/${scheduled.body.id}`);
    expect(moved.body.state).toBe('finished');
    expect((await h.get('/group_repository_storage_moves')).body.map((move: { id: number }) => move.id)).toContain(scheduled.body.id);
    // the next move starts where the last one ended
    const back = await h.post(`/groups/${group.body.id}/repository_storage_moves`, { destination_storage_name: 'default' });
    expect(back.body.source_storage_name).toBe('storage-2');
    // a group move is not a project move
    expect((await h.get(`/project_repository_storage_moves/${scheduled.body.id}`)).status).toBe(404);
    const bulk = await h.post('/group_repository_storage_moves', { source_storage_name: 'default' });
    expect(bulk.status).toBe(202);
  });

  it('answers for snippets, of which the sandbox has none', async () => {
    expect((await h.post('/snippets/1/repository_storage_moves', { destination_storage_name: 'storage-2' })).body).toEqual({ message: '404 Snippet Not Found' });
    expect((await h.get('/snippets/1/repository_storage_moves')).status).toBe(404);
    const list = await h.get('/snippet_repository_storage_moves');
    expect([list.status, list.body, list.headers.get('x-total')]).toEqual([200, [], '0']);
    expect((await h.post('/snippet_repository_storage_moves', { source_storage_name: 'default' })).status).toBe(202);
  });
});
