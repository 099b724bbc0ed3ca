import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { deliveryQueue } from '../areas/system-hooks.ts';

const ZERO = '0000000000000000000000000000000000000000';
const h = createHarness();
const queue = deliveryQueue(h.sandbox);

interface Delivery {
  path: string;
  event: string | undefined;
  body: Record<string, any>;
}

const received: Delivery[] = [];
let server: http.Server;
let base = '';
let projectId = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', event: request.headers['x-gitlab-event'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      response.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const project = await h.post('/projects', { name: 'Hooked', visibility: 'private' });
  projectId = project.body.id;
});

afterAll(async () => {
  await queue.idle();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  h.close();
});

beforeEach(async () => {
  await queue.idle();
  h.sandbox.db.prepare('DELETE FROM system_hooks').run();
  received.length = 0;
});

async function addHook(body: Record<string, unknown>) {
  const answer = await h.post('/hooks', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

/** What reached the receiver once every delivery so far has ended. */
async function settled(): Promise<Delivery[]> {
  await queue.idle();
  return [...received];
}

const of = (deliveries: Delivery[], path: string, eventName?: string) =>
  deliveries.filter((delivery) => delivery.path === path && (!eventName || delivery.body.event_name === eventName));

describe('system hook events from git writes', () => {
  it('posts a push and a repository update after a file commit', async () => {
    await addHook({ url: `${base}/all`, push_events: true, tag_push_events: true });
    const file = await h.post(`/projects/${projectId}/repository/files/README.md`, { branch: 'main', content: 'hello\n', commit_message: 'First file' });
    expect(file.status, file.text).toBe(201);
    const sha = (await h.get(`/projects/${projectId}/repository/branches/main`)).body.commit.id;
    const deliveries = await settled();
    const [push] = of(deliveries, '/all', 'push');
    expect(push.event).toBe('System Hook');
    expect(push.body).toMatchObject({
      object_kind: 'push', event_name: 'push', before: ZERO, after: sha, ref: 'refs/heads/main', checkout_sha: sha,
      user_id: expect.any(Number), user_name: expect.any(String), user_email: expect.any(String), project_id: projectId,
      project: { id: projectId, name: 'Hooked', path_with_namespace: expect.stringContaining('/hooked'), default_branch: 'main', visibility_level: 0 },
      repository: { name: 'Hooked', git_http_url: expect.stringMatching(/hooked\.git$/), visibility_level: 0 },
      total_commits_count: 1,
    });
    expect(push.body.commits).toEqual([expect.objectContaining({ id: sha, message: 'First file', author: { name: expect.any(String), email: expect.any(String) } })]);
    const [update] = of(deliveries, '/all', 'repository_update');
    expect(update.body).toMatchObject({ event_name: 'repository_update', project_id: projectId, changes: [{ before: ZERO, after: sha, ref: 'refs/heads/main' }], refs: ['refs/heads/main'] });
  });

  it('counts the commits a push brought with the commits API', async () => {
    await addHook({ url: `${base}/push`, push_events: true, repository_update_events: false });
    const before = (await h.get(`/projects/${projectId}/repository/branches/main`)).body.commit.id;
    const commit = await h.post(`/projects/${projectId}/repository/commits`, { branch: 'main', commit_message: 'Two files', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }] });
    expect(commit.status, commit.text).toBe(201);
    const deliveries = await settled();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0].body).toMatchObject({ before, after: commit.body.id, total_commits_count: 1, commits: [expect.objectContaining({ id: commit.body.id })] });
  });

  it('applies the branch filter to pushes only', async () => {
    await addHook({ url: `${base}/release`, push_events: true, push_events_branch_filter: 'release/*' });
    const onMain = await h.put(`/projects/${projectId}/repository/files/README.md`, { branch: 'main', content: 'again\n', commit_message: 'Main change' });
    expect(onMain.status).toBe(200);
    const onRelease = await h.post(`/projects/${projectId}/repository/files/notes.txt`, { branch: 'release/1.0', start_branch: 'main', content: 'n', commit_message: 'Release note' });
    expect(onRelease.status, onRelease.text).toBe(201);
    const deliveries = await settled();
    expect(of(deliveries, '/release', 'push').map((delivery) => delivery.body.ref)).toEqual(['refs/heads/release/1.0']);
    // repository updates are not filtered
    expect(of(deliveries, '/release', 'repository_update').map((delivery) => delivery.body.refs[0])).toEqual(['refs/heads/main', 'refs/heads/release/1.0']);
  });

  it('sends zero shas for branches created and deleted', async () => {
    await addHook({ url: `${base}/branches`, push_events: true, repository_update_events: false });
    const created = await h.post(`/projects/${projectId}/repository/branches`, { branch: 'topic', ref: 'main' });
    expect(created.status, created.text).toBe(201);
    const deleted = await h.delete(`/projects/${projectId}/repository/branches/topic`);
    expect(deleted.status).toBe(204);
    const [create, remove] = (await settled()).map((delivery) => delivery.body);
    expect(create).toMatchObject({ event_name: 'push', ref: 'refs/heads/topic', before: ZERO, after: created.body.commit.id, commits: [], total_commits_count: 0 });
    expect(remove).toMatchObject({ event_name: 'push', ref: 'refs/heads/topic', before: created.body.commit.id, after: ZERO, checkout_sha: null, commits: [] });
  });

  it('sends tag pushes for tags created and deleted, to subscribed hooks only', async () => {
    await addHook({ url: `${base}/tags`, tag_push_events: true, repository_update_events: false });
    await addHook({ url: `${base}/pushes`, push_events: true, repository_update_events: false });
    const head = (await h.get(`/projects/${projectId}/repository/branches/main`)).body.commit.id;
    const tag = await h.post(`/projects/${projectId}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main', message: 'First release' });
    expect(tag.status, tag.text).toBe(201);
    expect(tag.body).toMatchObject({ name: 'v1.0.0', message: 'First release', commit: { id: head } });
    expect(tag.body.target).not.toBe(head);
    const duplicate = await h.post(`/projects/${projectId}/repository/tags`, { tag_name: 'v1.0.0', ref: 'main' });
    expect([duplicate.status, duplicate.body]).toEqual([409, { message: 'Tag v1.0.0 already exists' }]);
    expect((await h.post(`/projects/${projectId}/repository/tags`, { tag_name: 'v2', ref: 'nope' })).body).toEqual({ message: 'Target nope is invalid' });
    expect((await h.delete(`/projects/${projectId}/repository/tags/v1.0.0`)).status).toBe(204);
    expect((await h.delete(`/projects/${projectId}/repository/tags/v1.0.0`)).body).toEqual({ message: 'No such tag' });
    const deliveries = await settled();
    expect(of(deliveries, '/pushes')).toEqual([]);
    const [created, removed] = of(deliveries, '/tags').map((delivery) => delivery.body);
    expect(created).toMatchObject({ object_kind: 'tag_push', event_name: 'tag_push', ref: 'refs/tags/v1.0.0', before: ZERO, after: tag.body.target, checkout_sha: head, project_id: projectId });
    expect(removed).toMatchObject({ event_name: 'tag_push', before: tag.body.target, after: ZERO, checkout_sha: null });
  });

  it('does not hold the write up while a receiver is slow', async () => {
    const slow = http.createServer(() => {
      // never answers; the delivery times out in the background
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    queue.timeoutMs = 500;
    try {
      await addHook({ url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hang`, push_events: true });
      const started = performance.now();
      const file = await h.post(`/projects/${projectId}/repository/files/slow.txt`, { branch: 'main', content: 's', commit_message: 'Slow receiver' });
      expect(file.status).toBe(201);
      expect(performance.now() - started).toBeLessThan(400);
      await queue.idle();
    } finally {
      queue.timeoutMs = 10_000;
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});
