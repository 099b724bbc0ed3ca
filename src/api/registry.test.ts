import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import type { Connection } from './http.ts';
import {
  bulkDeleteBody, bulkDeleteTags, cleanupPolicySchema, deleteTag, fetchTagsPage, isRepositoryDeleting, registryQueries, registryRepositorySchema, registryTagDetailsSchema,
  registryTagSchema, tagProtectionRuleSchema, updateCleanupPolicy,
} from './registry.ts';

const offline: Connection = { instanceUrl: 'https://code.example.com', token: 't' };
const json = (body: unknown, headers: Record<string, string> = {}, status = 200) =>
  new Response(status === 202 || status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('registry schemas (the platform documentation examples)', () => {
  it('reads a project repository with tags and tags_count, and a group one without', () => {
    const repository = z.parse(registryRepositorySchema, {
      id: 1, name: '', path: 'group/project', project_id: 9, location: 'gitlab.example.com:5000/group/project', created_at: '2019-01-10T13:38:57.391Z',
      cleanup_policy_started_at: '2020-01-10T15:40:57.391Z', status: null, tags_count: 3,
      tags: [{ name: 'v10.0.0', path: 'group/project:v10.0.0', location: 'gitlab.example.com:5000/group/project:v10.0.0' }],
    });
    expect(repository).toMatchObject({ name: '', tags_count: 3, status: null });
    const grouped = z.parse(registryRepositorySchema, { id: 2, name: 'releases', path: 'group/project/releases', project_id: 9, location: 'l', created_at: '2019-01-10T13:39:08.229Z', cleanup_policy_started_at: null });
    expect(grouped.tags_count).toBeUndefined();
    expect(grouped.status).toBeUndefined();
  });

  it('reads the size and a delete status of one repository', () => {
    const repository = z.parse(registryRepositorySchema, { id: 2, name: 'r', path: 'p/r', project_id: 1, location: 'l', created_at: null, status: 'delete_ongoing', size: 2818413 });
    expect(repository.size).toBe(2818413);
    expect(isRepositoryDeleting(repository.status)).toBe(true);
    expect(isRepositoryDeleting('delete_failed')).toBe(false);
    expect(isRepositoryDeleting(null)).toBe(false);
  });

  it('reads a list tag with only the documented fields, and one with the details', () => {
    expect(z.parse(registryTagSchema, { name: 'A', path: 'group/project:A', location: 'gitlab.example.com:5000/group/project:A' }).created_at).toBeUndefined();
    const details = z.parse(registryTagDetailsSchema, {
      name: 'v10.0.0', path: 'group/project:latest', location: 'gitlab.example.com:5000/group/project:latest',
      revision: 'e9ed9d87c881d8c2fd3a31b41904d01ba0b836e7fa15240e099d4d4ba6fa2a7', short_revision: 'e9ed9d87c', digest: 'sha256:c3490dcf10ffb6530c1303522a1405dfaf7daecd8f38d3d1de1b6f8e1fa2ea56', created_at: '2019-01-06T16:49:51.272+00:00', total_size: 350224384,
    });
    expect(details).toMatchObject({ short_revision: 'e9ed9d87c', total_size: 350224384 });
  });

  it('reads a protection rule and a cleanup policy with null fields', () => {
    expect(z.parse(tagProtectionRuleSchema, { id: 1, project_id: 7, tag_name_pattern: 'v.+', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' }).minimum_access_level_for_delete).toBe('owner');
    const policy = z.parse(cleanupPolicySchema, { cadence: '1month', enabled: null, keep_n: null, older_than: '14d', name_regex: '', name_regex_keep: '.*-main', next_run_at: '2020-01-07T21:42:58.658Z' });
    expect(policy).toMatchObject({ enabled: false, keep_n: null, name_regex_keep: '.*-main' });
  });
});

describe('registry calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads tags through the GraphQL connection, BigInt sizes as numbers, and follows its end cursor', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      json({ data: { containerRepository: { tags: { nodes: [{ name: 'a', path: 'g/p:a', location: 'r/g/p:a', digest: 'sha256:ab', totalSize: '350224384', createdAt: '2026-01-01T00:00:00Z' }], pageInfo: { hasNextPage: true, endCursor: 'YQ==' } } } } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const first = await fetchTagsPage(offline, 5, null);
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/graphql');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body)).variables).toEqual({ id: 'gid://gitlab/ContainerRepository/5', first: 100, after: null });
    expect(first).toEqual({ items: [expect.objectContaining({ name: 'a', total_size: 350224384, created_at: '2026-01-01T00:00:00Z', digest: 'sha256:ab' })], next: 'YQ==' });
    await fetchTagsPage(offline, 5, first.next!);
    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body)).variables.after).toBe('YQ==');
  });

  it('says an image it may not read is not found', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ data: { containerRepository: null } })));
    await expect(fetchTagsPage(offline, 5, null)).rejects.toMatchObject({ status: 404 });
  });

  it('the infinite query starts without a cursor and stops where no next page is', () => {
    const options = registryQueries.tags(offline, 3, 5);
    expect(options.initialPageParam).toBeNull();
    expect(options.getNextPageParam({ items: [] }, [], null, [])).toBeNull();
    expect(options.getNextPageParam({ items: [], next: 'u' }, [], null, [])).toBe('u');
  });

  it('deletes a tag by its encoded name, and sends a bulk delete with only the rules given', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(null, {}, 202));
    vi.stubGlobal('fetch', fetchMock);
    await deleteTag(offline, { projectId: 3, repositoryId: 5, tagName: 'v1.0+rc.1' });
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/v4/projects/3/registry/repositories/5/tags/v1.0%2Brc.1');
    expect(fetchMock.mock.calls[0][1]?.method).toBe('DELETE');
    await bulkDeleteTags(offline, { projectId: 3, repositoryId: 5, rules: { name_regex_delete: '.*', name_regex_keep: '', keep_n: 0, older_than: '' } });
    expect(fetchMock.mock.calls[1][0]).toBe('https://code.example.com/api/v4/projects/3/registry/repositories/5/tags');
    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body))).toEqual({ name_regex_delete: '.*', keep_n: 0 });
  });

  it('writes the bulk rules as the platform names them', () => {
    expect(bulkDeleteBody({ name_regex_delete: 'main-.*', name_regex_keep: 'main-keep', keep_n: 5, older_than: '7d' })).toEqual({ name_regex_delete: 'main-.*', name_regex_keep: 'main-keep', keep_n: 5, older_than: '7d' });
    expect(bulkDeleteBody({ name_regex_delete: '.*' })).toEqual({ name_regex_delete: '.*' });
  });

  it('saves the cleanup policy as container_expiration_policy_attributes', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json({ id: 3, container_expiration_policy: { cadence: '7d', enabled: true, keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: null, next_run_at: null } }));
    vi.stubGlobal('fetch', fetchMock);
    const saved = await updateCleanupPolicy(offline, { projectId: 3, values: { enabled: true, cadence: '7d', keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: '' } });
    expect(fetchMock.mock.calls[0][1]?.method).toBe('PUT');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ container_expiration_policy_attributes: { enabled: true, cadence: '7d', keep_n: 10, older_than: '90d', name_regex: '.*', name_regex_keep: '' } });
    expect(saved.container_expiration_policy?.keep_n).toBe(10);
  });
});
