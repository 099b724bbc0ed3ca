import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { registryWorker } from '../areas/registry-worker.ts';
import { prepareSandbox } from '../server.ts';
import { createApp } from '../app.ts';
import { compileCleanupRules, planCleanup } from '../../src/lib/registry-cleanup.ts';

let h: Harness;

const DAY = 86_400_000;

async function newProject(name: string, options: { visibility?: string; namespace_id?: number } = {}): Promise<{ id: number; path: string }> {
  const created = await h.post('/projects', { name, visibility: options.visibility ?? 'private', namespace_id: options.namespace_id });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, path: created.body.path_with_namespace };
}

/** Pushes tags through the sandbox control; returns the repository entity. */
async function push(project: number | string, tags: Array<{ name: string; created_at?: string | null; size?: number }>, repository = '') {
  const answer = await h.call('POST', `/-/sandbox/registry/${encodeURIComponent(String(project))}/tags`, { json: { repository, tags } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: number; name: string; path: string; project_id: number; location: string; tags_count: number };
}

const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function member(projectId: number, accessLevel: number) {
  const user = h.user();
  const added = await h.post(`/projects/${projectId}/members`, { user_id: user.id, access_level: accessLevel });
  expect(added.status, added.text).toBe(201);
  return user;
}

beforeAll(() => {
  h = createHarness();
  registryWorker(h.sandbox).timeScale = 0;
});

afterEach(async () => {
  await registryWorker(h.sandbox).idle();
});

afterAll(() => h.close());

describe('the sandbox control', () => {
  it('creates the repository and its tags, administrators only', async () => {
    const { id, path } = await newProject('Pushed');
    const repository = await push(id, [{ name: 'v1.0.0', created_at: ago(3), size: 1234 }, { name: 'latest' }], 'tools/cli');
    expect(repository).toMatchObject({ name: 'tools/cli', path: `${path}/tools/cli`, tags_count: 2, location: `localhost/${path}/tools/cli` });
    const byPath = await push(path, [{ name: 'v1.0.1' }], 'tools/cli');
    expect(byPath.tags_count).toBe(3);
    const someone = h.user();
    const refused = await h.call('POST', `/-/sandbox/registry/${id}/tags`, { json: [{ name: 'x' }], token: someone.token });
    expect(refused.status).toBe(403);
    const bad = await h.call('POST', `/-/sandbox/registry/${id}/tags`, { json: [{ name: '-bad name' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual(['tags.0.name: a tag name is a word character, then up to 127 word characters, dots or dashes']);
    // names a registry refuses, for escaping tests, when asked for
    const markup = '<img src=x onerror=alert(1)>';
    const odd = await h.call('POST', `/-/sandbox/registry/${id}/tags`, { json: { repository: 'tools/cli', tags: [{ name: markup }], allow_any_name: true } });
    expect(odd.status).toBe(201);
    const shown = await h.get(`/projects/${id}/registry/repositories/${repository.id}/tags/${encodeURIComponent(markup)}`);
    expect(shown.body.name).toBe(markup);
    expect((await h.call('POST', `/-/sandbox/registry/${id}/tags`, { json: { tags: [{ name: 'a/b' }], allow_any_name: true } })).status).toBe(400);
    expect((await h.call('POST', '/-/sandbox/registry/999999/tags', { json: [] })).status).toBe(404);
  });
});

describe('repositories', () => {
  it('lists a project\'s repositories with tags and tags_count when asked, paginated', async () => {
    const { id, path } = await newProject('Lister');
    const root = await push(id, [{ name: 'b', created_at: ago(2) }, { name: 'a', created_at: ago(1) }]);
    const named = await push(id, [{ name: 'v1' }], 'worker');
    const plain = await h.get(`/projects/${id}/registry/repositories`);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-total')).toBe('2');
    expect(plain.body).toEqual([
      { id: root.id, name: '', path, project_id: id, location: `localhost/${path}`, created_at: expect.any(String), cleanup_policy_started_at: null, status: null },
      { id: named.id, name: 'worker', path: `${path}/worker`, project_id: id, location: `localhost/${path}/worker`, created_at: expect.any(String), cleanup_policy_started_at: null, status: null },
    ]);
    const full = await h.get(`/projects/${encodeURIComponent(path)}/registry/repositories?tags=true&tags_count=true&per_page=1`);
    expect(full.body).toHaveLength(1);
    expect(full.body[0].tags_count).toBe(2);
    expect(full.body[0].tags).toEqual([
      { name: 'a', path: `${path}:a`, location: `localhost/${path}:a` },
      { name: 'b', path: `${path}:b`, location: `localhost/${path}:b` },
    ]);
    expect(full.headers.get('x-next-page')).toBe('2');
    expect((await h.get(`/projects/${id}/registry/repositories?tags=maybe`)).body).toEqual({ error: 'tags is invalid' });
  });

  it('gets one repository with tags, tags_count, size (deduplicated) and delete_api_path for those who may delete it', async () => {
    const { id, path } = await newProject('Getter');
    const repository = await push(id, [{ name: 'one', size: 100 }, { name: 'two', size: 50 }]);
    // a tag pointing at the manifest of another counts once
    const one = await h.get(`/projects/${id}/registry/repositories/${repository.id}/tags/one`);
    await h.call('POST', `/-/sandbox/registry/${id}/tags`, { json: [{ name: 'alias', size: 100, digest: one.body.digest }] });
    const answer = await h.get(`/registry/repositories/${repository.id}?tags=true&tags_count=true&size=true`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: repository.id, name: '', path, project_id: id, tags_count: 3, size: 150, status: null, delete_api_path: `http://localhost/api/v4/projects/${id}/registry/repositories/${repository.id}` });
    expect(answer.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['alias', 'one', 'two']);
    const bare = await h.get(`/registry/repositories/${repository.id}`);
    expect(Object.keys(bare.body)).toEqual(['id', 'name', 'path', 'project_id', 'location', 'created_at', 'cleanup_policy_started_at', 'delete_api_path', 'status']);
    const reporter = await member(id, 20);
    const asReporter = await h.get(`/registry/repositories/${repository.id}`, { token: reporter.token });
    expect(asReporter.status).toBe(200);
    expect(asReporter.body.delete_api_path).toBeUndefined();
    expect((await h.get(`/registry/repositories/${repository.id}`, { token: h.user().token })).status).toBe(404);
    expect((await h.get('/registry/repositories/999999')).body).toEqual({ message: '404 Not found' });
    expect((await h.get(`/registry/repositories/${repository.id}`, { token: null })).status).toBe(401);
  });

  it('lists a group\'s repositories across subgroups without tags, only where the caller reads the registry', async () => {
    const group = await h.post('/groups', { name: 'Images', path: `images-${Date.now()}` });
    expect(group.status, group.text).toBe(201);
    const sub = await h.post('/groups', { name: 'Sub', path: 'sub', parent_id: group.body.id });
    const top = await newProject('Top', { namespace_id: group.body.id });
    const deep = await newProject('Deep', { namespace_id: sub.body.id });
    const a = await push(top.id, [{ name: 'x' }]);
    const b = await push(deep.id, [{ name: 'y' }], 'api');
    const answer = await h.get(`/groups/${group.body.id}/registry/repositories?tags=true&tags_count=true`);
    expect(answer.status).toBe(200);
    expect(answer.body.map((row: { id: number }) => row.id)).toEqual([a.id, b.id]);
    expect(answer.body[0].tags).toBeUndefined();
    expect(answer.body[0].tags_count).toBeUndefined();
    // a member of the top project only sees its image
    const reporter = await member(top.id, 20);
    const limited = await h.get(`/groups/${group.body.id}/registry/repositories`, { token: reporter.token });
    expect(limited.body.map((row: { id: number }) => row.id)).toEqual([a.id]);
  });

  it('deletes a repository in the background: delete_scheduled, delete_ongoing, then gone; Maintainers only', async () => {
    const { id } = await newProject('Doomed');
    const repository = await push(id, [{ name: 'a' }, { name: 'b' }]);
    const developer = await member(id, 30);
    expect((await h.delete(`/projects/${id}/registry/repositories/${repository.id}`, { token: developer.token })).status).toBe(403);
    const worker = registryWorker(h.sandbox);
    worker.timeScale = 0.2;
    try {
      const answer = await h.delete(`/projects/${id}/registry/repositories/${repository.id}`);
      expect(answer.status).toBe(202);
      expect((await h.get(`/registry/repositories/${repository.id}`)).body.status).toBe('delete_scheduled');
      const seen = new Set<string>();
      for (let i = 0; i < 100; i++) {
        const now = await h.get(`/registry/repositories/${repository.id}`);
        if (now.status === 404) break;
        seen.add(now.body.status);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(seen).toEqual(new Set(['delete_scheduled', 'delete_ongoing']));
      await worker.idle();
      expect((await h.get(`/registry/repositories/${repository.id}`)).status).toBe(404);
      expect((await h.get(`/projects/${id}/registry/repositories`)).body).toEqual([]);
    } finally {
      worker.timeScale = 0;
    }
    expect((await h.delete(`/projects/${id}/registry/repositories/abc`)).body).toEqual({ error: 'repository_id is invalid' });
    expect((await h.delete(`/projects/${id}/registry/repositories/999999`)).body).toEqual({ message: '404 Not found' });
  });
});

describe('tags', () => {
  it('lists tags by name with offset pages (deprecated) and keyset pages (Link rel=next), both ways', async () => {
    const { id, path } = await newProject('Paged');
    const names = Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const repository = await push(id, names.map((name) => ({ name })));
    const base = `/projects/${id}/registry/repositories/${repository.id}/tags`;
    const offset = await h.get(`${base}?per_page=10&page=3`);
    expect(offset.body.map((tag: { name: string }) => tag.name)).toEqual(names.slice(20));
    expect(offset.headers.get('x-total')).toBe('25');
    expect(offset.body[0]).toEqual({ name: 't20', path: `${path}:t20`, location: `localhost/${path}:t20` });

    const collected: string[] = [];
    let url: string | null = `${base}?pagination=keyset&per_page=10`;
    let pages = 0;
    while (url) {
      const page: { status: number; body: Array<{ name: string }>; headers: Headers } = await h.get(url);
      expect(page.status).toBe(200);
      collected.push(...page.body.map((tag: { name: string }) => tag.name));
      const link: string | null = page.headers.get('link');
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
      if (url) expect(url).toContain('pagination=keyset');
      pages++;
    }
    expect(pages).toBe(3);
    expect(collected).toEqual(names);
    const descending = await h.get(`${base}?pagination=keyset&per_page=5&sort=desc&last=t10`);
    expect(descending.body.map((tag: { name: string }) => tag.name)).toEqual(['t09', 't08', 't07', 't06', 't05']);
    expect(descending.headers.get('link')).toContain('last=t05');
    expect(descending.headers.get('link')).toContain('sort=desc');
    const defaults = await h.get(`${base}?pagination=keyset`);
    expect(defaults.body).toHaveLength(20);
    expect((await h.get(`${base}?pagination=keyset&per_page=x`)).body).toEqual({ error: 'per_page is invalid' });
  });

  it('shows one tag\'s details; 404 for an unknown tag', async () => {
    const { id, path } = await newProject('Details');
    const created = ago(5);
    const repository = await push(id, [{ name: 'v2.0.0', created_at: created, size: 4242 }], 'app');
    const answer = await h.get(`/projects/${id}/registry/repositories/${repository.id}/tags/v2.0.0`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      name: 'v2.0.0', path: `${path}/app:v2.0.0`, location: `localhost/${path}/app:v2.0.0`,
      revision: expect.stringMatching(/^[0-9a-f]{64}$/), short_revision: answer.body.revision.slice(0, 9),
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), created_at: created, total_size: 4242,
    });
    expect((await h.get(`/projects/${id}/registry/repositories/${repository.id}/tags/nope`)).body).toEqual({ message: '404 Tag Not Found' });
    const other = await newProject('Other');
    expect((await h.get(`/projects/${other.id}/registry/repositories/${repository.id}/tags/v2.0.0`)).body).toEqual({ message: '404 Not found' });
  });

  it('deletes one tag (Developer and up); 403 when a protection rule covers it for the caller\'s role', async () => {
    const { id } = await newProject('Protected');
    const repository = await push(id, [{ name: 'v1.0.0' }, { name: 'v1.0.0-rc.1' }, { name: 'main-abc' }]);
    const rule = await h.post(`/projects/${id}/registry/protection/tag/rules`, { tag_name_pattern: '^v\\d+\\.\\d+\\.\\d+$', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
    expect(rule.status, rule.text).toBe(201);
    const base = `/projects/${id}/registry/repositories/${repository.id}/tags`;
    const reporter = await member(id, 20);
    const maintainer = await member(id, 40);
    expect((await h.delete(`${base}/main-abc`, { token: reporter.token })).status).toBe(403);
    const refused = await h.delete(`${base}/v1.0.0`, { token: maintainer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - cannot delete protected tag(s)' });
    expect((await h.delete(`${base}/v1.0.0-rc.1`, { token: maintainer.token })).status).toBe(200);
    expect((await h.delete(`${base}/main-abc`, { token: maintainer.token })).status).toBe(200);
    // the administrator is above every rule
    expect((await h.delete(`${base}/v1.0.0`)).status).toBe(200);
    expect((await h.delete(`${base}/v1.0.0`)).body).toEqual({ message: '404 Tag Not Found' });
    expect((await h.get(base)).body).toEqual([]);
  });
});

describe('tag protection rules', () => {
  it('lists, creates, updates and deletes rules with the platform\'s validations; Maintainers and up', async () => {
    const { id } = await newProject('Rules');
    const base = `/projects/${id}/registry/protection/tag/rules`;
    const created = await h.post(base, { tag_name_pattern: 'v.*', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'admin' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), project_id: id, tag_name_pattern: 'v.*', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'admin' });
    expect((await h.get(base)).body).toEqual([created.body]);
    expect((await h.post(base, { tag_name_pattern: 'v.*', minimum_access_level_for_push: 'owner', minimum_access_level_for_delete: 'owner' })).status).toBe(422);
    const badRegex = await h.post(base, { tag_name_pattern: 'v(', minimum_access_level_for_push: 'owner', minimum_access_level_for_delete: 'owner' });
    expect(badRegex.status).toBe(422);
    expect(badRegex.body.message).toContain('Tag name pattern not valid RE2 syntax');
    expect((await h.post(base, { tag_name_pattern: 'x' })).body).toEqual({ error: 'minimum_access_level_for_push is missing, minimum_access_level_for_delete is missing' });
    expect((await h.post(base, { tag_name_pattern: 'x', minimum_access_level_for_push: 'developer', minimum_access_level_for_delete: 'owner' })).body).toEqual({ error: 'minimum_access_level_for_push does not have a valid value' });
    const updated = await h.patch(`${base}/${created.body.id}`, { tag_name_pattern: 'release-.*', minimum_access_level_for_delete: 'owner' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ tag_name_pattern: 'release-.*', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
    expect((await h.patch(`${base}/${created.body.id}`, { minimum_access_level_for_push: '' })).body).toEqual({ message: 'Access levels should both be present' });
    const developer = await member(id, 30);
    expect((await h.get(base, { token: developer.token })).status).toBe(403);
    expect((await h.delete(`${base}/${created.body.id}`)).status).toBe(204);
    expect((await h.delete(`${base}/${created.body.id}`)).body).toEqual({ message: '404 Protection Rule Not Found' });
  });
});

describe('GraphQL containerRepository', () => {
  const QUERY = `query tags($id: ContainerRepositoryID!, $first: Int, $after: String, $sort: ContainerRepositoryTagSort) {
    containerRepository(id: $id) { id name path status tagsCount expirationPolicyStartedAt
      tags(first: $first, after: $after, sort: $sort) { nodes { name createdAt digest shortRevision totalSize } pageInfo { hasNextPage endCursor } } } }`;
  const graphql = (variables: Record<string, unknown>, token?: string) => h.call('POST', 'http://localhost/api/graphql', { json: { query: QUERY, variables }, token });

  it('pages every tag with its creation time by name; null for those who may not read the registry', async () => {
    const { id, path } = await newProject('Graph tags');
    const created = ago(2);
    const repository = await push(id, [{ name: 'c', created_at: created, size: 7 }, { name: 'a' }, { name: 'b' }]);
    const gid = `gid://gitlab/ContainerRepository/${repository.id}`;
    const first = await graphql({ id: gid, first: 2 });
    expect(first.body.errors).toBeUndefined();
    const node = first.body.data.containerRepository;
    expect(node).toMatchObject({ id: gid, name: '', path, status: null, tagsCount: 3, expirationPolicyStartedAt: null });
    expect(node.tags.nodes.map((tag: { name: string }) => tag.name)).toEqual(['a', 'b']);
    expect(node.tags.pageInfo.hasNextPage).toBe(true);
    const second = await graphql({ id: gid, first: 2, after: node.tags.pageInfo.endCursor });
    expect(second.body.data.containerRepository.tags).toEqual({
      nodes: [{ name: 'c', createdAt: created, digest: expect.stringMatching(/^sha256:/), shortRevision: expect.stringMatching(/^[0-9a-f]{9}$/), totalSize: '7' }],
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
    });
    const descending = await graphql({ id: gid, sort: 'NAME_DESC' });
    expect(descending.body.data.containerRepository.tags.nodes.map((tag: { name: string }) => tag.name)).toEqual(['c', 'b', 'a']);
    expect((await graphql({ id: gid }, h.user().token)).body.data.containerRepository).toBeNull();
    expect((await graphql({ id: 'gid://gitlab/Project/1' })).body.errors[0].message).toContain('does not represent an instance of ContainerRepository');
  });
});

describe('repository protection rules', () => {
  it('manage path patterns under the project\'s path; a matching rule refuses a repository delete below its level', async () => {
    const { id, path } = await newProject('Repo rules');
    const base = `/projects/${id}/registry/protection/repository/rules`;
    const created = await h.post(base, { repository_path_pattern: `${path}/release*`, minimum_access_level_for_delete: 'owner' });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), project_id: id, repository_path_pattern: `${path}/release*`, minimum_access_level_for_push: null, minimum_access_level_for_delete: 'owner' });
    expect((await h.get(base)).body).toEqual([created.body]);
    expect((await h.post(base, { repository_path_pattern: 'elsewhere/*', minimum_access_level_for_push: 'maintainer' })).body).toEqual({ message: "Repository path pattern should start with the project's full path" });
    expect((await h.post(base, { repository_path_pattern: `${path}/x` })).body).toEqual({ error: 'minimum_access_level_for_push, minimum_access_level_for_delete are missing, at least one parameter must be provided' });
    expect((await h.patch(`${base}/${created.body.id}`, { minimum_access_level_for_delete: '' })).body).toEqual({ message: 'A rule must have at least a minimum access role for push or delete.' });
    const updated = await h.patch(`${base}/${created.body.id}`, { minimum_access_level_for_push: 'maintainer' });
    expect(updated.body).toMatchObject({ minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });

    const release = await push(id, [{ name: 'a' }], 'releases');
    const other = await push(id, [{ name: 'a' }], 'nightly');
    const maintainer = await member(id, 40);
    const refused = await h.delete(`/projects/${id}/registry/repositories/${release.id}`, { token: maintainer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Deleting protected container repository forbidden.' });
    expect((await h.delete(`/projects/${id}/registry/repositories/${other.id}`, { token: maintainer.token })).status).toBe(202);
    expect((await h.delete(`/projects/${id}/registry/repositories/${release.id}`)).status).toBe(202);
    expect((await h.delete(`${base}/${created.body.id}`)).status).toBe(204);
    expect((await h.get(base)).body).toEqual([]);
  });
});

describe('container_registry_access_level', () => {
  it('disabled refuses every registry call; private lets Reporters and up read', async () => {
    const { id } = await newProject('Levels', { visibility: 'internal' });
    const repository = await push(id, [{ name: 'a' }]);
    const outsider = h.user();
    const guest = await member(id, 10);
    const reporter = await member(id, 20);
    const list = `/projects/${id}/registry/repositories`;
    expect((await h.get(list, { token: outsider.token })).status).toBe(200);
    expect((await h.put(`/projects/${id}`, { container_registry_access_level: 'private' })).body.container_registry_access_level).toBe('private');
    expect((await h.get(list, { token: outsider.token })).status).toBe(403);
    expect((await h.get(list, { token: guest.token })).status).toBe(403);
    expect((await h.get(list, { token: reporter.token })).status).toBe(200);
    expect((await h.get(`/registry/repositories/${repository.id}`, { token: guest.token })).status).toBe(403);
    expect((await h.put(`/projects/${id}`, { container_registry_enabled: false })).body.container_registry_access_level).toBe('disabled');
    expect((await h.get(list)).body).toEqual({ message: '403 Forbidden' });
    expect((await h.get(`/projects/${id}/registry/repositories/${repository.id}/tags`)).status).toBe(403);
    expect((await h.put(`/projects/${id}`, { container_registry_access_level: 'bogus' })).status).toBe(400);
    expect((await h.put(`/projects/${id}`, { container_registry_access_level: 'enabled' })).status).toBe(200);
    expect((await h.get(list, { token: null })).status).toBe(404);
  });
});

describe('the project\'s cleanup policy', () => {
  it('shows container_expiration_policy and takes container_expiration_policy_attributes with the platform\'s values', async () => {
    const { id } = await newProject('Policy');
    const fresh = await h.get(`/projects/${id}`);
    expect(fresh.body.container_expiration_policy).toEqual({ cadence: '1d', enabled: false, keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: null, next_run_at: expect.any(String) });
    const before = Date.now();
    const saved = await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { cadence: '7d', enabled: true, keep_n: 25, older_than: '14d', name_regex_delete: 'main-.*', name_regex_keep: '^v\\d+' } });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.container_expiration_policy).toEqual({ cadence: '7d', enabled: true, keep_n: 25, older_than: '14d', name_regex: 'main-.*', name_regex_keep: '^v\\d+', next_run_at: expect.any(String) });
    const nextRun = Date.parse(saved.body.container_expiration_policy.next_run_at) - before;
    expect(nextRun).toBeGreaterThanOrEqual(7 * DAY - 1000);
    expect(nextRun).toBeLessThan(7 * DAY + 60_000);
    // form encoding, a partial change, null clears keep_n
    const form = await h.call('PUT', `/projects/${id}`, { form: 'container_expiration_policy_attributes[keep_n]=&container_expiration_policy_attributes[older_than]=90d' });
    expect(form.body.container_expiration_policy).toMatchObject({ keep_n: null, older_than: '90d', cadence: '7d', name_regex: 'main-.*' });

    const invalid = await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { cadence: '2d', keep_n: 7, older_than: '3d', name_regex: 'a(' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toEqual({
      'container_expiration_policy.cadence': ['is not included in the list'],
      'container_expiration_policy.older_than': ['is not included in the list'],
      'container_expiration_policy.keep_n': ['is not included in the list'],
      'container_expiration_policy.name_regex': [expect.stringMatching(/^not valid RE2 syntax: /)],
    });
    const blank = await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { name_regex: '' } });
    expect(blank.body.message).toEqual({ 'container_expiration_policy.name_regex': ["can't be blank"] });
    expect((await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { keep_n: 'lots', enabled: 'maybe' } })).body).toEqual({
      error: 'container_expiration_policy_attributes[keep_n] is invalid, container_expiration_policy_attributes[enabled] is invalid',
    });
    // nothing was saved by the refused requests
    expect((await h.get(`/projects/${id}`)).body.container_expiration_policy).toMatchObject({ cadence: '7d', keep_n: null, older_than: '90d', name_regex: 'main-.*', enabled: true });
    const developer = await member(id, 30);
    expect((await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { enabled: false } }, { token: developer.token })).status).toBe(403);
  });
});

describe('a restart', () => {
  it('resumes a repository delete a stopped sandbox left scheduled', async () => {
    const first = createHarness();
    registryWorker(first.sandbox).timeScale = 1000;
    const created = await first.post('/projects', { name: 'Restarted' });
    const pushed = await first.call('POST', `/-/sandbox/registry/${created.body.id}/tags`, { json: [{ name: 'a' }] });
    expect((await first.delete(`/projects/${created.body.id}/registry/repositories/${pushed.body.id}`)).status).toBe(202);
    // killed: its worker never gets to run
    registryWorker(first.sandbox).stop();
    first.close();
    const again = prepareSandbox({ dataDir: first.dataDir, seed: 'empty', config: { rateLimitPerMinute: 0 } });
    registryWorker(again.sandbox).timeScale = 0;
    const app = createApp(again.sandbox);
    await registryWorker(again.sandbox).idle();
    const answer = await app.request(`http://localhost/api/v4/registry/repositories/${pushed.body.id}`, { headers: { 'PRIVATE-TOKEN': first.adminToken } });
    expect(answer.status).toBe(404);
    expect(again.db.prepare('SELECT count(*) AS n FROM container_tags').get()).toEqual({ n: 0 });
    again.db.close();
  });
});

describe('bulk tag delete', () => {
  // days before now each tag's manifest was made; `nodate` has no creation time
  const FIXTURE: Record<string, number | null> = {
    latest: 0.1, 'v1.0.0': 100, 'v1.1.0': 50, 'v1.2.0-rc.1': 20, 'main-a': 60, 'main-b': 35, 'main-c': 10, 'main-d': 2, 'feature-x': 5, nodate: null,
  };
  const ALL = Object.keys(FIXTURE).sort();

  async function fixture(name: string) {
    const project = await newProject(name);
    const repository = await push(project.id, Object.entries(FIXTURE).map(([tag, days]) => ({ name: tag, created_at: days === null ? null : ago(days) })));
    return { project, repository, base: `/projects/${project.id}/registry/repositories/${repository.id}/tags` };
  }

  async function remaining(base: string) {
    return names((await h.get(`${base}?per_page=100`)).body);
  }
  const names = (body: Array<{ name: string }>) => body.map((tag) => tag.name);

  /** Runs a bulk delete and checks what is left against both the expected list and the shared planner's decisions. */
  async function expectBulk(name: string, params: Record<string, unknown>, deleted: string[], options: { token?: string; protect?: string } = {}) {
    const { project, base } = await fixture(name);
    if (options.protect) {
      const rule = await h.post(`/projects/${project.id}/registry/protection/tag/rules`, { tag_name_pattern: options.protect, minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
      expect(rule.status).toBe(201);
    }
    const tags = Object.entries(FIXTURE).map(([tag, days]) => ({ name: tag, createdAt: days === null ? null : ago(days), protected: options.protect !== undefined && options.token !== undefined && new RegExp(options.protect).test(tag) }));
    const compiled = compileCleanupRules({ nameRegexDelete: (params.name_regex_delete ?? params.name_regex) as string, nameRegexKeep: params.name_regex_keep as string | undefined, keepN: params.keep_n as number | undefined, olderThan: params.older_than as string | undefined });
    if (!compiled.ok) throw new Error('bad rules in the test');
    const planned = planCleanup(tags, compiled.rules, Date.now()).filter((decision) => decision.deleted).map((decision) => decision.name).sort();
    const answer = await h.call('DELETE', base, { json: params, token: options.token });
    expect(answer.status, answer.text).toBe(202);
    await registryWorker(h.sandbox).idle();
    const left = await remaining(base);
    expect(ALL.filter((tag) => !left.includes(tag))).toEqual([...deleted].sort());
    expect(planned).toEqual([...deleted].sort());
    return { project, base };
  }

  it('deletes every tag the delete expression matches, but never latest', async () => {
    await expectBulk('Bulk all', { name_regex_delete: '.*' }, ALL.filter((tag) => tag !== 'latest'));
  });

  it('matches the whole name with RE2 (main matches no tag, main-.* four)', async () => {
    await expectBulk('Bulk whole', { name_regex_delete: 'main' }, []);
    await expectBulk('Bulk main', { name_regex_delete: 'main-.*' }, ['main-a', 'main-b', 'main-c', 'main-d']);
    // the deprecated name works the same
    await expectBulk('Bulk deprecated', { name_regex: 'main-[ab]' }, ['main-a', 'main-b']);
  });

  it('lets the keep expression win over the delete expression', async () => {
    await expectBulk('Bulk keep', { name_regex_delete: '.*', name_regex_keep: 'v.*' }, ['feature-x', 'main-a', 'main-b', 'main-c', 'main-d', 'nodate']);
  });

  it('keeps the newest keep_n of the selected tags by manifest creation', async () => {
    await expectBulk('Bulk keep_n', { name_regex_delete: 'main-.*', keep_n: 2 }, ['main-a', 'main-b']);
  });

  it('deletes only tags older than older_than (undated tags stay)', async () => {
    await expectBulk('Bulk older', { name_regex_delete: '.*', older_than: '7d' }, ['main-a', 'main-b', 'main-c', 'v1.0.0', 'v1.1.0', 'v1.2.0-rc.1']);
    await expectBulk('Bulk weeks', { name_regex_delete: 'main-.*', older_than: '2 weeks' }, ['main-a', 'main-b']);
  });

  it('combines the rules in the platform\'s order', async () => {
    // selected: everything but latest and the releases; the newest (the undated one counts as now) kept; of the rest, older than a month
    await expectBulk('Bulk combined', { name_regex_delete: '.*', name_regex_keep: 'v\\d+\\.\\d+\\.\\d+', keep_n: 1, older_than: '1month' }, ['main-a', 'main-b']);
  });

  it('leaves tags a protection rule covers for the caller; the administrator is above the rule', async () => {
    const maintainer = h.user();
    const { project, base } = await fixture('Bulk protected');
    const added = await h.post(`/projects/${project.id}/members`, { user_id: maintainer.id, access_level: 40 });
    expect(added.status).toBe(201);
    await h.post(`/projects/${project.id}/registry/protection/tag/rules`, { tag_name_pattern: '^main-[ab]$', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' });
    expect((await h.call('DELETE', base, { json: { name_regex_delete: 'main-.*' }, token: maintainer.token })).status).toBe(202);
    await registryWorker(h.sandbox).idle();
    expect(await remaining(base)).toEqual(ALL.filter((tag) => tag !== 'main-c' && tag !== 'main-d'));
    await expectBulk('Bulk protected admin', { name_regex_delete: 'main-.*' }, ['main-a', 'main-b', 'main-c', 'main-d'], { protect: '^main-[ab]$' });
  });

  it('answers 400 for a missing or invalid expression, a bad keep_n or older_than; 403 below Maintainer', async () => {
    const { project, base } = await fixture('Bulk errors');
    const refuse = async (params: unknown) => (await h.call('DELETE', base, { json: params })).body;
    expect(await refuse({})).toEqual({ error: 'name_regex, name_regex_delete are missing, at least one parameter must be provided' });
    expect((await refuse({ name_regex_delete: 'v(' })).error).toMatch(/^name_regex_delete is an invalid regexp: /);
    expect((await refuse({ name_regex_delete: '.*', name_regex_keep: '(?<x' })).error).toMatch(/^name_regex_keep is an invalid regexp: /);
    expect(await refuse({ name_regex_delete: '.*', older_than: 'soon' })).toEqual({ error: 'older_than is invalid' });
    expect(await refuse({ name_regex_delete: '.*', keep_n: 'some' })).toEqual({ error: 'keep_n is invalid' });
    expect(await refuse({ name_regex_delete: '.*', keep_n: -1 })).toEqual({ error: 'keep_n does not have a valid value' });
    const developer = await member(project.id, 30);
    expect((await h.call('DELETE', base, { json: { name_regex_delete: '.*' }, token: developer.token })).status).toBe(403);
    // nothing was deleted, and none of these took the hour's run
    expect(await remaining(base)).toEqual(ALL);
    expect((await h.call('DELETE', base, { json: { name_regex_delete: 'nodate' } })).status).toBe(202);
  });

  it('runs at most once an hour per repository', async () => {
    const { repository, base } = await fixture('Bulk hourly');
    expect((await h.call('DELETE', base, { json: { name_regex_delete: 'main-a' } })).status).toBe(202);
    const again = await h.call('DELETE', base, { json: { name_regex_delete: 'main-b' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'This request has already been made. You can run this at most once an hour for a given container repository' });
    await registryWorker(h.sandbox).idle();
    expect(await remaining(base)).toEqual(ALL.filter((tag) => tag !== 'main-a'));
    // another repository is not held back
    const other = await push((await newProject('Bulk hourly other')).id, [{ name: 'x', created_at: ago(1) }]);
    expect((await h.call('DELETE', `/projects/${other.project_id}/registry/repositories/${other.id}/tags`, { json: { name_regex_delete: '.*' } })).status).toBe(202);
    // the sandbox control lets a test run again at once
    expect((await h.call('DELETE', `/-/sandbox/registry/repositories/${repository.id}/cleanup-lease`)).status).toBe(204);
    expect((await h.call('DELETE', base, { json: { name_regex_delete: 'main-b' } })).status).toBe(202);
  });

  it('resumes a bulk delete a stopped sandbox left half done', async () => {
    const first = createHarness();
    const worker = registryWorker(first.sandbox);
    const created = await first.post('/projects', { name: 'Bulk restart' });
    const tags = Array.from({ length: 600 }, (_, i) => ({ name: `build-${String(i).padStart(3, '0')}`, created_at: ago(1 + i / 100) }));
    const pushed = await first.call('POST', `/-/sandbox/registry/${created.body.id}/tags`, { json: [...tags, { name: 'latest' }] });
    worker.timeScale = 1;
    expect((await first.call('DELETE', `/projects/${created.body.id}/registry/repositories/${pushed.body.id}/tags`, { json: { name_regex_delete: '.*' } })).status).toBe(202);
    // the first batch goes, then the sandbox is killed
    for (let i = 0; i < 200 && (first.sandbox.db.prepare('SELECT count(*) AS n FROM container_tags').get() as { n: number }).n === 601; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    worker.stop();
    const left = (first.sandbox.db.prepare('SELECT count(*) AS n FROM container_tags').get() as { n: number }).n;
    expect(left).toBeLessThan(601);
    expect(left).toBeGreaterThan(1);
    first.close();
    const again = prepareSandbox({ dataDir: first.dataDir, seed: 'empty', config: { rateLimitPerMinute: 0 } });
    registryWorker(again.sandbox).timeScale = 0;
    createApp(again.sandbox);
    await registryWorker(again.sandbox).idle();
    expect(again.db.prepare('SELECT name FROM container_tags').all()).toEqual([{ name: 'latest' }]);
    expect(again.db.prepare('SELECT state, deleted_count FROM container_cleanup_jobs').all()).toEqual([{ state: 'finished', deleted_count: 600 }]);
    again.db.close();
  });
});

describe('the cleanup policy worker', () => {
  it('runs an enabled policy once next_run_at has passed, with the same rules, leaving protected tags, then moves next_run_at on', async () => {
    const { id } = await newProject('Policy runner');
    const root = await push(id, [
      { name: 'latest', created_at: ago(1) }, { name: 'main-old', created_at: ago(40) }, { name: 'main-older', created_at: ago(50) },
      { name: 'main-new', created_at: ago(3) }, { name: 'v1.0.0', created_at: ago(60) }, { name: 'main-kept', created_at: ago(70) },
    ]);
    const named = await push(id, [{ name: 'main-x', created_at: ago(45) }], 'sidecar');
    await h.post(`/projects/${id}/registry/protection/tag/rules`, { tag_name_pattern: '^main-kept$', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'maintainer' });
    const saved = await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { enabled: true, cadence: '1d', name_regex: 'main-.*', name_regex_keep: '', keep_n: 1, older_than: '30d' } });
    expect(saved.status, saved.text).toBe(200);
    const worker = registryWorker(h.sandbox);
    // not due yet
    expect(worker.runDuePolicies()).toEqual([]);
    h.sandbox.db.prepare('UPDATE container_expiration_policies SET next_run_at = ? WHERE project_id = ?').run(ago(0.01), id);
    expect(worker.runDuePolicies()).toHaveLength(2);
    await worker.idle();
    const left = async (repositoryId: number) => (await h.get(`/projects/${id}/registry/repositories/${repositoryId}/tags`)).body.map((tag: { name: string }) => tag.name);
    // main-new is the newest selected (keep_n 1), main-kept is protected, v1.0.0 does not match
    expect(await left(root.id)).toEqual(['latest', 'main-kept', 'main-new', 'v1.0.0']);
    // the sidecar's only main tag is its newest: kept
    expect(await left(named.id)).toEqual(['main-x']);
    const repositories = await h.get(`/projects/${id}/registry/repositories`);
    expect(repositories.body.every((row: { cleanup_policy_started_at: string | null }) => row.cleanup_policy_started_at !== null)).toBe(true);
    const policy = (await h.get(`/projects/${id}`)).body.container_expiration_policy;
    expect(Date.parse(policy.next_run_at)).toBeGreaterThan(Date.now() + 86_400_000 - 60_000);
    expect(worker.runDuePolicies()).toEqual([]);
  });

  it('switches off a policy whose expression no longer compiles', async () => {
    const { id } = await newProject('Policy broken');
    await push(id, [{ name: 'a', created_at: ago(100) }]);
    await h.put(`/projects/${id}`, { container_expiration_policy_attributes: { enabled: true, name_regex: '.*' } });
    h.sandbox.db.prepare("UPDATE container_expiration_policies SET name_regex = 'a(', next_run_at = ? WHERE project_id = ?").run(ago(1), id);
    expect(registryWorker(h.sandbox).runDuePolicies()).toEqual([]);
    expect((await h.get(`/projects/${id}`)).body.container_expiration_policy.enabled).toBe(false);
  });
});
