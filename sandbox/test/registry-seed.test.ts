import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { DEMO_REGISTRY, DEMO_TOKENS } from '../seed/demo.ts';
import { registryWorker } from '../areas/registry-worker.ts';

let h: Harness;

beforeAll(() => {
  h = createHarness({ seed: 'demo' });
  registryWorker(h.sandbox).timeScale = 0;
});

afterAll(async () => {
  await registryWorker(h.sandbox).idle();
  h.close();
});

const names = (body: Array<{ name: string }>) => body.map((tag) => tag.name);

describe('the demo registry', () => {
  it('has the big image: 10,000 tags over two years, latest, releases with candidates, main builds, branch tags', async () => {
    const repository = await h.get(`/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}?tags_count=true&size=true`);
    expect(repository.body).toMatchObject({ name: '', path: DEMO_REGISTRY.bigProject, tags_count: 10_000, status: null });
    expect(repository.body.size).toBeGreaterThan(0);
    const project = await h.get(`/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}`);
    expect(repository.body.project_id).toBe(project.body.id);
    const all = h.sandbox.db.prepare('SELECT name, created_at FROM container_tags WHERE repository_id = ?').all(DEMO_REGISTRY.bigRepositoryId) as Array<{ name: string; created_at: string }>;
    const kinds = { latest: 0, release: 0, candidate: 0, main: 0, other: 0 };
    for (const tag of all) {
      if (tag.name === 'latest') kinds.latest++;
      else if (/^v\d+\.\d+\.\d+$/.test(tag.name)) kinds.release++;
      else if (/^v\d+\.\d+\.\d+-rc\.\d+$/.test(tag.name)) kinds.candidate++;
      else if (/^main-[0-9a-f]{8,9}$/.test(tag.name)) kinds.main++;
      else kinds.other++;
    }
    expect(kinds.latest).toBe(1);
    expect(kinds.release).toBeGreaterThan(100);
    expect(kinds.candidate).toBeGreaterThan(20);
    expect(kinds.other).toBeGreaterThanOrEqual(5);
    expect(kinds.main).toBeGreaterThan(9_000);
    const times = all.map((tag) => Date.parse(tag.created_at));
    const span = (Math.max(...times) - Math.min(...times)) / 86_400_000;
    expect(span).toBeGreaterThan(700);
    expect(span).toBeLessThan(740);
    // latest is the newest build's manifest
    const latest = await h.get(`/projects/${repository.body.project_id}/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}/tags/latest`);
    expect(Date.parse(latest.body.created_at)).toBe(Math.max(...times));
  });

  it('pages the big image by keyset from the first page to the last', async () => {
    const base = `/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}/tags`;
    const first = await h.get(`${base}?pagination=keyset&per_page=100`);
    expect(first.body).toHaveLength(100);
    expect(first.headers.get('link')).toMatch(/rel="next"/);
    let url: string | null = `${base}?pagination=keyset&per_page=100`;
    let count = 0;
    let previous = '';
    while (url) {
      const page: { body: Array<{ name: string }>; headers: Headers } = await h.get(url);
      for (const name of names(page.body)) {
        expect(name > previous).toBe(true);
        previous = name;
      }
      count += page.body.length;
      const link: string | null = page.headers.get('link');
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1] : null;
    }
    expect(count).toBe(10_000);
    // offset pages still answer, with the totals of a list this size (spec 1: counted up to 10,000)
    const offset = await h.get(`${base}?page=100&per_page=100`);
    expect(offset.body).toHaveLength(100);
    expect(offset.headers.get('x-total')).toBe('10000');
  });

  it('protects releases from Maintainers (maya.chen) but not release candidates', async () => {
    const rules = await h.get(`/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}/registry/protection/tag/rules`, { token: DEMO_TOKENS.maintainer.secret });
    expect(rules.body).toEqual([{ id: expect.any(Number), project_id: expect.any(Number), tag_name_pattern: DEMO_REGISTRY.protectedPattern, minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: 'owner' }]);
    const base = `/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}/tags`;
    expect((await h.delete(`${base}/v1.0.0`, { token: DEMO_TOKENS.maintainer.secret })).status).toBe(403);
    expect((await h.delete(`${base}/v1.0.0-rc.1`, { token: DEMO_TOKENS.maintainer.secret })).status).toBe(200);
    // a Developer deletes single tags, but not repositories
    expect((await h.delete(`${base}/develop`, { token: DEMO_TOKENS.developer.secret })).status).toBe(200);
    expect((await h.delete(`/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}/registry/repositories/${DEMO_REGISTRY.bigRepositoryId}`, { token: DEMO_TOKENS.developer.secret })).status).toBe(403);
  });

  it('lists the images of acme-engineering for the group, and a cleanup policy written but off', async () => {
    const group = await h.get('/groups/acme-engineering/registry/repositories?per_page=100');
    expect(group.status).toBe(200);
    expect(group.body.map((row: { path: string }) => row.path)).toEqual([
      DEMO_REGISTRY.bigProject,
      `${DEMO_REGISTRY.namedRepository.project}/${DEMO_REGISTRY.namedRepository.name}`,
      DEMO_REGISTRY.smallProject,
      `${DEMO_REGISTRY.smallProject}/storybook`,
      'acme-engineering/backend/payments/payments-service',
    ]);
    // the read-only Reporter of payments sees its image; the payments group is private to others
    const readonly = await h.get('/groups/acme-engineering/registry/repositories?per_page=100', { token: DEMO_TOKENS.readonly.secret });
    expect(readonly.body.map((row: { path: string }) => row.path)).toContain('acme-engineering/backend/payments/payments-service');
    const project = await h.get(`/projects/${encodeURIComponent(DEMO_REGISTRY.bigProject)}`);
    expect(project.body.container_expiration_policy).toMatchObject({ enabled: false, cadence: '7d', keep_n: 25, older_than: '90d', name_regex: 'main-.*' });
  });
});
