import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, send, type Connection } from './http.ts';
import { loose } from './schema.ts';
import {
  branchSchema, branchesQueries, createBranch, deleteBranch, deleteMergedBranches, mergedBranchesToDelete, protectBranch, unprotectBranch,
} from './branches.ts';
import { clientTestSandbox } from './test-sandbox.ts';

describe('branchSchema', () => {
  it('reads a null boolean as false and keeps unknown fields', () => {
    const branch = z.parse(branchSchema, {
      name: 'main', commit: { id: 'a'.repeat(40), short_id: 'aaaaaaaaaaa', title: 'Init', authored_date: '2026-01-01T00:00:00Z' },
      merged: null, protected: true, developers_can_push: false, developers_can_merge: null, can_push: true, default: true, web_url: 'https://x/-/tree/main', extra: 1,
    });
    expect(branch).toMatchObject({ merged: false, protected: true, developers_can_merge: false, default: true, extra: 1 });
  });
});

describe('branches against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let connection: Connection;
  let projectId: number;
  const list = (params: Parameters<typeof branchesQueries.list>[2]) => {
    const options = branchesQueries.list(connection, projectId, params);
    return Promise.resolve(options.queryFn!({ signal: new AbortController().signal } as never));
  };
  const commit = (branch: string, file: string) =>
    send(connection, `/projects/${projectId}/repository/commits`, { method: 'POST', body: { branch, commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: file }] } });

  beforeAll(async () => {
    connection = sandbox.connection();
    projectId = (await request(connection, '/projects', loose({ id: z.number() }), { method: 'POST', body: { name: 'branches-client' } })).id;
    // the first branch of an empty repository brings the default branch along
    await createBranch(connection, { projectId, branch: 'old/one', ref: 'main' });
    await createBranch(connection, { projectId, branch: 'old/two', ref: 'main' });
    await createBranch(connection, { projectId, branch: 'Feature/Cart', ref: 'main' });
    await commit('main', 'a.txt');
    await commit('Feature/Cart', 'b.txt');
  });

  it('lists with search anchors and with a regex, sending only one of them', async () => {
    expect((await list({ search: '^old/' })).items.map((branch) => branch.name)).toEqual(['old/one', 'old/two']);
    expect((await list({ search: 'cart$' })).items.map((branch) => branch.name)).toEqual(['Feature/Cart']);
    // a regex wins over a search: the platform refuses both at once
    expect((await list({ search: 'nothing', regex: '^old/(one|two)$' })).items.map((branch) => branch.name)).toEqual(['old/one', 'old/two']);
  });

  it('shows the server’s 400 for a regex RE2 rejects', async () => {
    const error = await list({ regex: '(?=x)' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toMatch(/regex is invalid/);
  });

  it('pages with totals', async () => {
    const page = await list({ page: 1, per_page: 2 });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBe(4);
    expect(page.nextPage).toBe(2);
  });

  it('previews the merged branches delete-merged removes, then removes them (202)', async () => {
    await protectBranch(connection, { projectId, name: 'old/two', push_access_level: 40, merge_access_level: 40 });
    const preview = await mergedBranchesToDelete(connection, projectId);
    // old/two is merged but protected; main is the default; Feature/Cart is ahead of main
    expect(preview.map((branch) => branch.name)).toEqual(['old/one']);
    await deleteMergedBranches(connection, { projectId });
    expect((await list({})).items.map((branch) => branch.name)).toEqual(['Feature/Cart', 'main', 'old/two']);
  });

  it('protects with access levels and force push, then unprotects', async () => {
    const protection = await protectBranch(connection, { projectId, name: 'Feature/Cart', push_access_level: 0, merge_access_level: 30, allow_force_push: true });
    expect(protection.push_access_levels.map((level) => level.access_level)).toEqual([0]);
    expect(protection.merge_access_levels.map((level) => level.access_level)).toEqual([30]);
    expect(protection.allow_force_push).toBe(true);
    const protections = await branchesQueries.protections(connection, projectId).queryFn!({ signal: new AbortController().signal } as never);
    // the default branch got the instance's protection on its first push
    expect(protections.map((row) => row.name).sort()).toEqual(['Feature/Cart', 'main', 'old/two']);
    const again = await protectBranch(connection, { projectId, name: 'Feature/Cart', push_access_level: 40, merge_access_level: 40 }).catch((caught: unknown) => caught);
    expect((again as ApiError).status).toBe(409);
    await unprotectBranch(connection, { projectId, name: 'Feature/Cart' });
    const detail = await request(connection, `/projects/${projectId}/repository/branches/Feature%2FCart`, branchSchema);
    expect(detail.protected).toBe(false);
  });

  it('creates from a ref and says why not, and refuses to delete the default branch', async () => {
    const created = await createBranch(connection, { projectId, branch: 'from-sha', ref: (await list({ search: '^main$' })).items[0].commit.id });
    expect(created.name).toBe('from-sha');
    const taken = await createBranch(connection, { projectId, branch: 'from-sha', ref: 'main' }).catch((caught: unknown) => caught);
    expect((taken as ApiError).message).toBe('Branch already exists');
    const badRef = await createBranch(connection, { projectId, branch: 'x', ref: 'no-such-ref' }).catch((caught: unknown) => caught);
    expect((badRef as ApiError).message).toBe('Invalid reference name: no-such-ref');
    await deleteBranch(connection, { projectId, name: 'from-sha' });
    const refused = await deleteBranch(connection, { projectId, name: 'main' }).catch((caught: unknown) => caught);
    expect((refused as ApiError).status).toBe(400);
    expect((refused as ApiError).message).toMatch(/default branch/);
  });
});
