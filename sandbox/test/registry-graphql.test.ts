import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';

let h: Harness;

beforeAll(() => {
  h = createHarness();
});

afterAll(() => h.close());

const QUERY = `query containerRepositoryTags($id: ContainerRepositoryID!, $first: Int, $after: String) {
  containerRepository(id: $id) {
    id name tagsCount
    tags(first: $first, after: $after, sort: NAME_ASC) {
      nodes { name path location digest revision shortRevision totalSize createdAt }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const tags = (id: number, first: number, after: string | null, token?: string) =>
  h.post('http://localhost/api/graphql', { query: QUERY, variables: { id: `gid://gitlab/ContainerRepository/${id}`, first, after } }, token ? { token } : undefined);

describe('GraphQL containerRepository.tags', () => {
  it('pages every tag by name with its digest, size (BigInt as text) and manifest creation time', async () => {
    const project = (await h.post('/projects', { name: 'graph images', visibility: 'private' })).body as { id: number; path_with_namespace: string };
    const names = Array.from({ length: 25 }, (_, index) => `v1.${String(index).padStart(2, '0')}`);
    const pushed = await h.call('POST', `/-/sandbox/registry/${project.id}/tags`, {
      json: { repository: 'app', tags: names.map((name, index) => ({ name, created_at: new Date(Date.UTC(2026, 0, index + 1)).toISOString(), size: 1000 + index })) },
    });
    expect(pushed.status, pushed.text).toBe(201);
    const repositoryId = pushed.body.id as number;

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const answer = await tags(repositoryId, 10, after);
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      const connection = answer.body.data.containerRepository.tags;
      seen.push(...connection.nodes.map((tag: { name: string }) => tag.name));
      after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toEqual(names);

    const first = (await tags(repositoryId, 1, null)).body.data.containerRepository;
    expect(first).toMatchObject({ id: `gid://gitlab/ContainerRepository/${repositoryId}`, name: 'app', tagsCount: 25 });
    expect(first.tags.nodes[0]).toMatchObject({
      name: 'v1.00',
      path: `${project.path_with_namespace}/app:v1.00`,
      totalSize: '1000',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(first.tags.nodes[0].digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // the REST record of the same tag agrees
    const rest = await h.get(`/projects/${project.id}/registry/repositories/${repositoryId}/tags/v1.00`);
    expect(rest.body).toMatchObject({ digest: first.tags.nodes[0].digest, created_at: first.tags.nodes[0].createdAt, total_size: 1000, short_revision: first.tags.nodes[0].shortRevision });
  });

  it('answers null for an image the caller may not read, and refuses a malformed id', async () => {
    const project = (await h.post('/projects', { name: 'hidden images', visibility: 'private' })).body as { id: number };
    const pushed = await h.call('POST', `/-/sandbox/registry/${project.id}/tags`, { json: [{ name: 'latest' }] });
    const outsider = h.user();
    expect((await tags(pushed.body.id, 10, null, outsider.token)).body.data.containerRepository).toBeNull();
    expect((await tags(999_999, 10, null)).body.data.containerRepository).toBeNull();
    const bad = await h.post('http://localhost/api/graphql', { query: QUERY, variables: { id: 'gid://gitlab/Project/1', first: 1, after: null } });
    expect(bad.body.errors[0].message).toContain('does not represent an instance of ContainerRepository');
  });
});
