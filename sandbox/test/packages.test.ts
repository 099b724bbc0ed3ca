import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { DEMO_PACKAGES, DEMO_TOKENS } from '../seed/demo.ts';
import { blobPath } from '../model/packages.ts';

let h: Harness;
const enc = encodeURIComponent;
const payments = enc(DEMO_PACKAGES.protectedProject);
const gateway = enc(DEMO_PACKAGES.benchProject);
const design = enc(DEMO_PACKAGES.npmProject);
const lumen = enc(DEMO_PACKAGES.publicProject);
const maya = DEMO_TOKENS.maintainer.secret;
const diego = DEMO_TOKENS.developer.secret;
const olga = DEMO_TOKENS.readonly.secret;

beforeAll(() => {
  h = createHarness({ seed: 'demo' });
});

afterAll(() => h.close());

const ids = (body: Array<{ id: number }>) => body.map((item) => item.id);

/** A private project of its own with a Maintainer, a Developer and a Reporter (for tests that write). */
async function ownProject(name: string) {
  const owner = h.user();
  const created = await h.post('/projects', { name, visibility: 'private' }, { token: owner.token });
  expect(created.status, created.text).toBe(201);
  const roles = { maintainer: h.user(), developer: h.user(), reporter: h.user(), guest: h.user() };
  for (const [role, user] of Object.entries(roles)) {
    const level = { maintainer: 40, developer: 30, reporter: 20, guest: 10 }[role];
    expect((await h.post(`/projects/${created.body.id}/members`, { user_id: user.id, access_level: level }, { token: owner.token })).status).toBe(201);
  }
  return { id: created.body.id as number, owner, ...roles };
}

async function upload(projectId: number, path: string, bytes: Uint8Array | string, token: string, query = '') {
  const response = await h.app.request(`http://localhost/api/v4/projects/${projectId}/packages/generic/${path}${query}`, {
    method: 'PUT',
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/octet-stream' },
    body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, text };
}

describe('package lists', () => {
  it('lists a project\'s packages with the default statuses, oldest first, and the entity fields', async () => {
    const list = await h.get(`/projects/${payments}/packages`, { token: maya });
    expect(list.status, list.text).toBe(200);
    // pending_destruction (1) and versionless (5) are left out
    expect(ids(list.body)).toEqual([2, 7, 3, 6, 8, 4]);
    expect(list.headers.get('x-total')).toBe('6');
    const client = list.body.find((item: { id: number }) => item.id === 3);
    expect(client).toEqual({
      id: 3,
      name: 'com/acme/payments/payments-client',
      version: '1.2.0',
      package_type: 'maven',
      status: 'default',
      _links: { web_path: `/${DEMO_PACKAGES.protectedProject}/-/packages/3`, delete_api_path: expect.stringMatching(/\/api\/v4\/projects\/\d+\/packages\/3$/) },
      created_at: expect.any(String),
      tags: [],
    });
    expect(client).not.toHaveProperty('pipelines');
    expect(client).not.toHaveProperty('project_path');
  });

  it('filters by type, fuzzy name, version, status and versionless, and orders', async () => {
    const get = async (query: string) => ids((await h.get(`/projects/${payments}/packages?${query}`, { token: maya })).body);
    expect(await get('package_type=nuget')).toEqual([7, 8]);
    expect(await get('package_name=PAYMENTS-cli')).toEqual([2, 3, 4]);
    expect(await get('package_version=1.2.0')).toEqual([3]);
    expect(await get('include_versionless=true')).toEqual([2, 7, 3, 6, 8, 4, 5]);
    expect(await get('include_versionless=true&package_version=1.1.0')).toEqual([2]);
    expect(await get('status=pending_destruction')).toEqual([1]);
    expect(await get('order_by=version&sort=desc')).toEqual([8, 7, 6, 4, 3, 2]);
    expect(await get('order_by=name')).toEqual([7, 8, 6, 2, 3, 4]);
    expect(await get('order_by=type')).toEqual([6, 2, 3, 4, 7, 8]);
    expect(await get('status=error&package_type=maven')).toEqual([]);
    expect((await h.get(`/projects/${payments}/packages?order_by=size`, { token: maya })).body).toEqual({ error: 'order_by does not have a valid value' });
    expect((await h.get(`/projects/${payments}/packages?package_type=rubygems&include_versionless=maybe`, { token: maya })).body).toEqual({
      error: 'package_type does not have a valid value, include_versionless is invalid',
    });
  });

  it('lists a group\'s packages of readable projects, with exclude_subgroups and project_path', async () => {
    const all = await h.get('/groups/acme-engineering/packages?per_page=100&order_by=project_path&package_type=maven', { token: maya });
    expect(all.status, all.text).toBe(200);
    const ledger = DEMO_PACKAGES.protectedProject.replace('payments-service', 'ledger');
    expect(all.body.map((item: { id: number; project_path: string }) => [item.id, item.project_path])).toEqual([
      [9, ledger], [10, ledger], [2, DEMO_PACKAGES.protectedProject], [3, DEMO_PACKAGES.protectedProject], [4, DEMO_PACKAGES.protectedProject],
    ]);
    expect(all.body[0]).toMatchObject({ project_id: expect.any(Number), project_path: expect.any(String) });
    const direct = await h.get('/groups/acme-engineering/packages?exclude_subgroups=true', { token: maya });
    expect(direct.body.map((item: { name: string }) => item.name)).toEqual(['acme-handbook-tools', 'acme-handbook-tools']);
    // diego is a Developer of acme-engineering: reads everything, may delete nothing
    const asDeveloper = await h.get('/groups/acme-engineering/packages?package_type=npm', { token: diego });
    expect(ids(asDeveloper.body)).toEqual([11, 12, 13, 14]);
    expect(asDeveloper.body.every((item: { _links: object }) => !('delete_api_path' in item._links))).toBe(true);
    expect((await h.get('/groups/acme-engineering/packages?package_type=terraform_module')).body).toEqual({ error: 'package_type does not have a valid value' });
    // olga reads the payments group only (Reporter) besides internal projects
    const olgaList = await h.get('/groups/acme-engineering/packages?package_type=generic', { token: olga });
    expect(olgaList.body.some((item: { project_path: string }) => item.project_path.includes('ios-app'))).toBe(false);
  });

  it('answers only public projects without a token', async () => {
    const list = await h.get(`/projects/${lumen}/packages`, { token: null });
    expect(list.status).toBe(200);
    expect(ids(list.body)).toEqual([27, 24, 25, 26]);
    expect(list.body.find((item: { id: number }) => item.id === 25)).toMatchObject({ conan_package_name: 'lumen', name: 'lumen/1.2.0@lumen/stable' });
    expect(list.body[0]._links).not.toHaveProperty('delete_api_path');
    expect((await h.get(`/projects/${payments}/packages`, { token: null })).status).toBe(404);
    const group = await h.get('/groups/lumen/packages', { token: null });
    expect(ids(group.body)).toEqual([27, 24, 25, 26]);
    expect((await h.get('/groups/acme-engineering/packages', { token: null })).status).toBe(404);
  });

  it('answers the first page of the 5,000-package project quickly, with the deprecated pipelines attribute', async () => {
    const started = performance.now();
    const list = await h.get(`/projects/${gateway}/packages?package_type=generic`, { token: maya });
    const elapsed = performance.now() - started;
    expect(list.headers.get('x-total')).toBe(String(DEMO_PACKAGES.benchCount));
    expect(list.body).toHaveLength(20);
    expect(list.body[0].pipelines).toEqual([expect.objectContaining({ id: expect.any(Number), status: expect.any(String), ref: expect.any(String), sha: expect.any(String), web_url: expect.any(String), user: expect.objectContaining({ name: expect.any(String), avatar_url: expect.any(String) }) })]);
    expect(elapsed).toBeLessThan(1000);
  });
});

describe('one package', () => {
  it('gets a default or deprecated package with versions and last_downloaded_at, else 404', async () => {
    const pkg = await h.get(`/projects/${design}/packages/${DEMO_PACKAGES.npmLatestId}`, { token: diego });
    expect(pkg.status, pkg.text).toBe(200);
    expect(pkg.body).toMatchObject({ id: 14, name: '@acme/design-system', version: '2.0.0', package_type: 'npm', last_downloaded_at: null, tags: [expect.objectContaining({ name: 'latest' })] });
    expect(pkg.body.versions.map((version: { version: string }) => version.version)).toEqual(['2.0.0-rc.1', '1.1.0', '1.0.0']);
    expect((await h.get(`/projects/${design}/packages/${DEMO_PACKAGES.deprecatedId}`, { token: diego })).body.status).toBe('deprecated');
    expect((await h.get(`/projects/${design}/packages/${DEMO_PACKAGES.processingId}`, { token: diego })).status).toBe(404);
    expect((await h.get(`/projects/${payments}/packages/${DEMO_PACKAGES.pendingDestructionId}`, { token: maya })).status).toBe(404);
    expect((await h.get(`/projects/${design}/packages/3`, { token: diego })).status).toBe(404);
    expect((await h.get(`/projects/${design}/packages/abc`, { token: diego })).body).toEqual({ error: 'package_id is invalid' });
  });

  it('lists files with their digests, bytes that exist and match', async () => {
    const files = await h.get(`/projects/${payments}/packages/${DEMO_PACKAGES.protectedPackageId}/package_files`, { token: maya });
    expect(files.status).toBe(200);
    expect(files.body.map((file: { file_name: string }) => file.file_name)).toEqual(['payments-client-1.2.0.jar', 'payments-client-1.2.0.pom', 'payments-client-1.2.0-sources.jar']);
    for (const file of files.body) {
      expect(file).toEqual({ id: expect.any(Number), package_id: 3, created_at: expect.any(String), file_name: expect.any(String), size: expect.any(Number), file_md5: expect.stringMatching(/^[0-9a-f]{32}$/), file_sha1: expect.stringMatching(/^[0-9a-f]{40}$/), file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
      const bytes = fs.readFileSync(blobPath(h.sandbox, file.file_sha256));
      expect(bytes.length).toBe(file.size);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(file.file_sha256);
    }
    const paged = await h.get(`/projects/${payments}/packages/3/package_files?per_page=2&page=2`, { token: maya });
    expect(paged.body).toHaveLength(1);
    expect(paged.headers.get('x-total')).toBe('3');
  });

  it('lists the package pipelines newest first, keyset by cursor, at most 20 a page', async () => {
    const first = await h.get(`/projects/${gateway}/packages/${DEMO_PACKAGES.withPipelinesId}/pipelines?per_page=1`, { token: maya });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toHaveLength(1);
    expect(first.body[0]).toMatchObject({ id: expect.any(Number), iid: expect.any(Number), ref: expect.any(String), user: expect.objectContaining({ username: expect.any(String) }) });
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toContain('cursor=');
    const second = await h.get(next!, { token: maya });
    expect(second.body).toHaveLength(1);
    expect(second.body[0].id).toBeLessThan(first.body[0].id);
    expect(second.headers.get('link')).toBeNull();
    expect((await h.get(`/projects/${gateway}/packages/21/pipelines?per_page=21`, { token: maya })).body).toEqual({ error: 'per_page does not have a valid value' });
    expect((await h.get(`/projects/${gateway}/packages/21/pipelines?cursor=nope`, { token: maya })).body).toEqual({ error: 'cursor is invalid' });
    const files = await h.get(`/projects/${gateway}/packages/21/package_files`, { token: maya });
    expect(files.body[0].pipelines).toEqual([expect.objectContaining({ id: second.body[0].id, ref: 'v1.1.0' })]);
  });

  it('refuses private packages to Guests and reads them from Reporter up', async () => {
    const p = await ownProject('pkg-read-roles');
    await upload(p.id, 'tool/1.0.0/tool.bin', 'hello', p.developer.token);
    expect((await h.get(`/projects/${p.id}/packages`, { token: p.guest.token })).status).toBe(403);
    const asReporter = await h.get(`/projects/${p.id}/packages`, { token: p.reporter.token });
    expect(asReporter.body).toHaveLength(1);
    expect(asReporter.body[0]._links).not.toHaveProperty('delete_api_path');
    expect((await h.get(`/projects/${p.id}/packages`, { token: p.maintainer.token })).body[0]._links).toHaveProperty('delete_api_path');
  });
});

describe('deleting', () => {
  it('deletes a package (204), then 404; Developers get 403', async () => {
    const p = await ownProject('pkg-delete');
    expect((await upload(p.id, 'tool/1.0.0/tool.bin', 'bytes of the tool', p.developer.token)).status).toBe(201);
    const [pkg] = (await h.get(`/projects/${p.id}/packages`, { token: p.maintainer.token })).body;
    const [file] = (await h.get(`/projects/${p.id}/packages/${pkg.id}/package_files`, { token: p.maintainer.token })).body;
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}`, { token: p.developer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}`, { token: p.maintainer.token })).status).toBe(204);
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}`, { token: p.maintainer.token })).status).toBe(404);
    expect((await h.get(`/projects/${p.id}/packages/${pkg.id}`, { token: p.maintainer.token })).status).toBe(404);
    expect(ids((await h.get(`/projects/${p.id}/packages?status=pending_destruction`, { token: p.maintainer.token })).body)).toEqual([pkg.id]);
    expect(fs.existsSync(blobPath(h.sandbox, file.file_sha256))).toBe(false);
  });

  it('deletes a package file (204/403/404) and keeps bytes another file shares', async () => {
    const p = await ownProject('pkg-delete-file');
    await upload(p.id, 'tool/1.0.0/a.bin', 'same', p.developer.token);
    await upload(p.id, 'tool/1.0.0/b.bin', 'same', p.developer.token);
    const [pkg] = (await h.get(`/projects/${p.id}/packages`, { token: p.maintainer.token })).body;
    const files = (await h.get(`/projects/${p.id}/packages/${pkg.id}/package_files`, { token: p.maintainer.token })).body;
    const url = `/projects/${p.id}/packages/${pkg.id}/package_files/${files[0].id}`;
    expect((await h.delete(url, { token: p.developer.token })).status).toBe(403);
    expect((await h.delete(url, { token: p.maintainer.token })).status).toBe(204);
    expect((await h.delete(url, { token: p.maintainer.token })).status).toBe(404);
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}/package_files/999999`, { token: p.maintainer.token })).status).toBe(404);
    expect((await h.get(`/projects/${p.id}/packages/${pkg.id}/package_files`, { token: p.maintainer.token })).body.map((file: { file_name: string }) => file.file_name)).toEqual(['b.bin']);
    expect(fs.existsSync(blobPath(h.sandbox, files[0].file_sha256))).toBe(true);
  });

  it('refuses a protected package and its files below the rule\'s delete level, with the reason', async () => {
    const url = `/projects/${payments}/packages/${DEMO_PACKAGES.protectedPackageId}`;
    const refused = await h.delete(url, { token: maya });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: '403 Forbidden - Package is deletion protected.' });
    const [file] = (await h.get(`${url}/package_files`, { token: maya })).body;
    expect((await h.delete(`${url}/package_files/${file.id}`, { token: maya })).body).toEqual({ message: '403 Forbidden - Package is deletion protected.' });
    // the list still offers the delete to a Maintainer: the rule answers when it is tried
    const [listed] = (await h.get(`/projects/${payments}/packages?package_version=1.2.0`, { token: maya })).body;
    expect(listed._links.delete_api_path).toBeDefined();
    // NuGet is not covered by the maven rule
    expect((await h.delete(`/projects/${payments}/packages/${DEMO_PACKAGES.unprotectedPackageId}`, { token: maya })).status).toBe(204);
    // an administrator outranks the rule
    expect((await h.delete(url)).status).toBe(204);
  });
});

describe('protection rules', () => {
  it('creates, lists, updates and deletes rules; Maintainers only; validates', async () => {
    const p = await ownProject('pkg-rules');
    const base = `/projects/${p.id}/packages/protection/rules`;
    expect((await h.get(base, { token: p.developer.token })).status).toBe(403);
    const created = await h.post(base, { package_name_pattern: 'tool-*', package_type: 'generic', minimum_access_level_for_push: 'maintainer' }, { token: p.maintainer.token });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), project_id: p.id, package_name_pattern: 'tool-*', package_type: 'generic', minimum_access_level_for_push: 'maintainer', minimum_access_level_for_delete: null });
    expect((await h.post(base, { package_name_pattern: 'tool-*', package_type: 'generic', minimum_access_level_for_push: 'owner' }, { token: p.maintainer.token })).status).toBe(422);
    expect((await h.post(base, { package_name_pattern: 'x', package_type: 'generic' }, { token: p.maintainer.token })).body).toEqual({ message: { base: ['A rule must have at least a minimum access role for push or delete.'] } });
    expect((await h.post(base, { package_type: 'generic', minimum_access_level_for_push: 'developer' }, { token: p.maintainer.token })).body).toEqual({ error: 'package_name_pattern is missing, minimum_access_level_for_push does not have a valid value' });
    expect((await h.get(base, { token: p.maintainer.token })).body).toEqual([created.body]);

    // a Developer may not push a protected name; other names still go
    expect(await upload(p.id, 'tool-cli/1.0.0/cli', 'x', p.developer.token)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Package protected.' } });
    expect((await upload(p.id, 'other/1.0.0/cli', 'x', p.developer.token)).status).toBe(201);
    expect((await upload(p.id, 'tool-cli/1.0.0/cli', 'x', p.maintainer.token)).status).toBe(201);

    const patched = await h.patch(`${base}/${created.body.id}`, { minimum_access_level_for_delete: 'owner', minimum_access_level_for_push: '' }, { token: p.maintainer.token });
    expect(patched.body).toMatchObject({ minimum_access_level_for_push: null, minimum_access_level_for_delete: 'owner' });
    expect((await upload(p.id, 'tool-cli/1.0.1/cli', 'x', p.developer.token)).status).toBe(201);
    const [pkg] = (await h.get(`/projects/${p.id}/packages?package_name=tool-cli`, { token: p.maintainer.token })).body;
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}`, { token: p.maintainer.token })).status).toBe(403);
    expect((await h.delete(`/projects/${p.id}/packages/${pkg.id}`, { token: p.owner.token })).status).toBe(204);

    expect((await h.delete(`${base}/${created.body.id}`, { token: p.developer.token })).status).toBe(403);
    expect((await h.delete(`${base}/${created.body.id}`, { token: p.maintainer.token })).status).toBe(204);
    expect((await h.delete(`${base}/${created.body.id}`, { token: p.maintainer.token })).status).toBe(404);
  });
});

describe('generic packages', () => {
  it('uploads and downloads the same bytes, with select=package_file and status=hidden', async () => {
    const p = await ownProject('pkg-generic');
    const bytes = new Uint8Array(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const created = await upload(p.id, 'my-tool/1.2.3/bin/my-tool.tar.gz', bytes, p.developer.token, '?select=package_file');
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ file_name: 'bin/my-tool.tar.gz', size: 70_000, file_sha256: sha256 });
    const download = await h.app.request(`http://localhost/api/v4/projects/${p.id}/packages/generic/my-tool/1.2.3/bin/my-tool.tar.gz`, { headers: { 'PRIVATE-TOKEN': p.reporter.token } });
    expect(download.status).toBe(200);
    const got = new Uint8Array(await download.arrayBuffer());
    expect(createHash('sha256').update(got).digest('hex')).toBe(sha256);
    expect(download.headers.get('content-disposition')).toContain('my-tool.tar.gz');
    const [pkg] = (await h.get(`/projects/${p.id}/packages`, { token: p.reporter.token })).body;
    expect((await h.get(`/projects/${p.id}/packages/${pkg.id}`, { token: p.reporter.token })).body.last_downloaded_at).toEqual(expect.any(String));

    expect(await upload(p.id, 'secret/1.0.0/x.bin', 'x', p.developer.token, '?status=hidden')).toMatchObject({ status: 201, body: { message: '201 Created' } });
    expect((await h.get(`/projects/${p.id}/packages?package_name=secret`, { token: p.reporter.token })).body).toEqual([]);
    expect(ids((await h.get(`/projects/${p.id}/packages?status=hidden`, { token: p.reporter.token })).body)).toHaveLength(1);
    const hidden = await h.app.request(`http://localhost/api/v4/projects/${p.id}/packages/generic/secret/1.0.0/x.bin`, { headers: { 'PRIVATE-TOKEN': p.reporter.token } });
    expect(await hidden.text()).toBe('x');
  });

  it('validates names, versions, file names and roles; Basic auth works', async () => {
    const p = await ownProject('pkg-generic-errors');
    expect((await upload(p.id, 'bad name/1.0.0/x', 'x', p.developer.token)).body).toEqual({ error: 'package_name is invalid' });
    expect((await upload(p.id, 'ok/1..0/x', 'x', p.developer.token)).body).toEqual({ error: 'package_version is invalid' });
    expect((await upload(p.id, 'ok/1.0.0/a%20b', 'x', p.developer.token)).body).toEqual({ error: 'file_name is invalid' });
    expect((await upload(p.id, 'ok/1.0.0/x', 'x', p.developer.token, '?status=error')).body).toEqual({ error: 'status does not have a valid value' });
    expect((await upload(p.id, 'ok/1.0.0/x', 'x', p.reporter.token)).status).toBe(403);
    const missing = await h.app.request(`http://localhost/api/v4/projects/${p.id}/packages/generic/ok/1.0.0/nothing`, { headers: { 'PRIVATE-TOKEN': p.reporter.token } });
    expect(missing.status).toBe(404);
    const basic = `Basic ${Buffer.from(`anyone:${p.developer.token}`).toString('base64')}`;
    const response = await h.app.request(`http://localhost/api/v4/projects/${p.id}/packages/generic/ok/1.0.0/basic.txt`, { method: 'PUT', headers: { Authorization: basic }, body: 'via basic' });
    expect(response.status).toBe(201);
    const back = await h.app.request(`http://localhost/api/v4/projects/${p.id}/packages/generic/ok/1.0.0/basic.txt`, { headers: { Authorization: basic } });
    expect(await back.text()).toBe('via basic');
  });
});

describe('npm registry (seeded packages)', () => {
  it('serves the packument of the seeded design system: installable versions, dist-tags, deprecation, real tarballs', async () => {
    const packument = await h.get(`/projects/${design}/packages/npm/@acme%2fdesign-system`, { token: diego });
    expect(packument.status, packument.text).toBe(200);
    expect(Object.keys(packument.body.versions)).toEqual(['1.0.0', '1.1.0', '2.0.0-rc.1', '2.0.0']);
    expect(packument.body['dist-tags']).toEqual({ next: '2.0.0-rc.1', latest: '2.0.0' });
    expect(packument.body.versions['1.0.0'].deprecated).toEqual(expect.any(String));
    // both spellings of a scoped name
    expect((await h.get(`/projects/${design}/packages/npm/@acme/design-system`, { token: diego })).body).toEqual(packument.body);
    const tarball = new URL(packument.body.versions['2.0.0'].dist.tarball);
    const response = await h.app.request(`http://localhost${tarball.pathname}`, { headers: { Authorization: `Bearer ${diego}` } });
    expect(response.status).toBe(200);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(createHash('sha1').update(bytes).digest('hex')).toBe(packument.body.versions['2.0.0'].dist.shasum);
    const tar = gunzipSync(bytes);
    expect(tar.subarray(0, 20).toString('utf8')).toContain('package/package.json');
    expect(tar.subarray(257, 262).toString('utf8')).toBe('ustar');
    // processing packages are not installable; unknown ones are 404
    expect((await h.get(`/projects/${design}/packages/npm/@acme/icons`, { token: diego })).status).toBe(404);
    expect((await h.get(`/projects/${design}/packages/npm/-/package/@acme/design-system/dist-tags`, { token: diego })).body).toEqual({ next: '2.0.0-rc.1', latest: '2.0.0' });
  });

  it('refuses publishing to Reporters and below a protection rule\'s push level', async () => {
    const p = await ownProject('pkg-npm-rules');
    const document = (version: string) => ({
      name: '@team/lib',
      versions: { [version]: { name: '@team/lib', version } },
      'dist-tags': { latest: version },
      _attachments: { [`@team/lib-${version}.tgz`]: { data: Buffer.from('tgz').toString('base64'), length: 3 } },
    });
    expect((await h.put(`/projects/${p.id}/packages/npm/@team%2flib`, document('1.0.0'), { token: p.reporter.token })).status).toBe(403);
    expect((await h.put(`/projects/${p.id}/packages/npm/@team%2flib`, document('1.0'), { token: p.developer.token })).body).toEqual({ message: '400 Bad request - Validation failed: Version is invalid' });
    expect((await h.put(`/projects/${p.id}/packages/npm/@team%2flib`, document('1.0.0'), { token: p.developer.token })).status).toBe(200);
    await h.post(`/projects/${p.id}/packages/protection/rules`, { package_name_pattern: '@team/*', package_type: 'npm', minimum_access_level_for_push: 'maintainer' }, { token: p.maintainer.token });
    expect((await h.put(`/projects/${p.id}/packages/npm/@team%2flib`, document('1.0.1'), { token: p.developer.token })).body).toEqual({ message: '403 Forbidden - Package protected.' });
    expect((await h.put(`/projects/${p.id}/packages/npm/@team%2flib`, document('1.0.1'), { token: p.maintainer.token })).status).toBe(200);
    expect((await h.get(`/projects/${p.id}/packages/npm/@team%2flib`, { token: null })).status).toBe(404);
  });
});

describe('package manager downloads', () => {
  async function download(url: string, token: string | null) {
    const response = await h.app.request(`http://localhost/api/v4${url}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} });
    return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), disposition: response.headers.get('content-disposition') };
  }
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  async function filesOf(project: string, id: number, token: string | null) {
    return (await h.get(`/projects/${project}/packages/${id}/package_files`, { token })).body as Array<{ file_name: string; file_sha256: string }>;
  }

  it('serves Maven files by path, versionless metadata too; not those of packages in error', async () => {
    const [jar] = await filesOf(payments, 2, maya);
    const got = await download(`/projects/${payments}/packages/maven/com/acme/payments/payments-client/1.1.0/payments-client-1.1.0.jar`, maya);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(jar.file_sha256);
    expect(got.disposition).toContain('payments-client-1.1.0.jar');
    const metadata = await download(`/projects/${payments}/packages/maven/com/acme/payments/payments-client/maven-metadata.xml`, maya);
    expect(metadata.bytes.toString('utf8')).toContain('<version>1.3.0-SNAPSHOT</version>');
    const ledger = enc('acme-engineering/backend/payments/ledger');
    expect((await download(`/projects/${ledger}/packages/maven/com/acme/ledger/ledger-core/3.3.0/ledger-core-3.3.0.jar`, maya)).status).toBe(404);
    expect((await download(`/projects/${ledger}/packages/maven/com/acme/ledger/ledger-core/3.2.0/ledger-core-3.2.0.jar`, maya)).status).toBe(200);
    expect((await download(`/projects/${payments}/packages/maven/com/acme/payments/payments-client/1.1.0/payments-client-1.1.0.jar`, null)).status).toBe(404);
    // package managers (Maven, pip) send the token as HTTP Basic
    const basic = await h.app.request(`http://localhost/api/v4/projects/${payments}/packages/maven/com/acme/payments/payments-client/1.1.0/payments-client-1.1.0.jar`, {
      headers: { Authorization: `Basic ${Buffer.from(`maya.chen:${maya}`).toString('base64')}` },
    });
    expect(basic.status).toBe(200);
  });

  it('serves PyPI files by sha256 (public without a token), NuGet by lowercase name and version, Go module files and the version list', async () => {
    const files = await filesOf(lumen, 24, null);
    const wheel = files[0];
    const got = await download(`/projects/${lumen}/packages/pypi/files/${wheel.file_sha256}/${wheel.file_name}`, null);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(wheel.file_sha256);
    expect((await download(`/projects/${lumen}/packages/pypi/files/${'0'.repeat(64)}/${wheel.file_name}`, null)).status).toBe(404);

    const [nupkg] = await filesOf(payments, 7, maya);
    const nuget = await download(`/projects/${payments}/packages/nuget/download/acme.payments.client/2.0.0/acme.payments.client.2.0.0.nupkg`, maya);
    expect(sha(nuget.bytes)).toBe(nupkg.file_sha256);

    const goFiles = await filesOf(gateway, 21, maya);
    const mod = await download(`/projects/${gateway}/packages/go/acme.example/backend/api-gateway/@v/v1.1.0.mod`, maya);
    expect(mod.bytes.toString('utf8')).toContain('module acme.example/backend/api-gateway');
    expect(sha(mod.bytes)).toBe(goFiles.find((file) => file.file_name === 'v1.1.0.mod')!.file_sha256);
    const list = await download(`/projects/${gateway}/packages/go/acme.example/backend/api-gateway/@v/list`, maya);
    expect(list.bytes.toString('utf8')).toBe('v1.0.0\nv1.1.0\n');
  });
});

describe('job tokens and links', () => {
  it('lets a job token reach its own project\'s packages only', async () => {
    const p = await ownProject('pkg-job-token');
    const other = await ownProject('pkg-job-token-other');
    const secret = `glcbt-${Math.random().toString(36).slice(2)}`;
    h.sandbox.db.prepare('INSERT INTO ci_job_tokens (token_digest, project_id, user_id, expires_at) VALUES (?, ?, ?, ?)')
      .run(createHash('sha256').update(secret).digest('hex'), p.id, p.developer.id, new Date(Date.now() + 3_600_000).toISOString());
    const put = (projectId: number, headers: Record<string, string>) => h.app.request(`http://localhost/api/v4/projects/${projectId}/packages/generic/ci/1.0.0/out.bin`, { method: 'PUT', headers, body: 'built' });
    expect((await put(p.id, { 'JOB-TOKEN': secret })).status).toBe(201);
    expect((await put(p.id, { Authorization: `Basic ${Buffer.from(`gitlab-ci-token:${secret}`).toString('base64')}` })).status).toBe(201);
    expect((await put(other.id, { 'JOB-TOKEN': secret })).status).toBe(404);
    const list = await h.get(`/projects/${p.id}/packages`, { token: null, headers: { 'JOB-TOKEN': secret } });
    expect(list.body.map((item: { name: string }) => item.name)).toEqual(['ci']);
    // a job token reaches packages only, not the rest of the API
    expect((await h.get(`/projects/${p.id}`, { token: null, headers: { 'JOB-TOKEN': secret } })).status).toBe(401);
  });

  it('gives web_path only to default and deprecated packages', async () => {
    const errors = await h.get(`/projects/${enc('acme-engineering/backend/payments/ledger')}/packages?status=error`, { token: maya });
    expect(errors.body).toHaveLength(1);
    expect(errors.body[0]._links).toEqual({ delete_api_path: expect.any(String) });
    const hidden = await h.get(`/projects/${enc('acme-engineering/mobile/ios-app')}/packages?status=hidden`, { token: diego });
    expect(hidden.body[0]._links).toEqual({});
    const terraform = await h.get(`/projects/${enc('platform-team/infrastructure/terraform-modules')}/packages?package_type=terraform_module`);
    expect(terraform.body[0]._links.web_path).toBe(`/platform-team/infrastructure/terraform-modules/-/infrastructure_registry/${terraform.body[0].id}`);
  });
});

describe('bad input', () => {
  it('answers 4xx with a JSON error, never 500, to garbage on every package endpoint', async () => {
    const p = await ownProject('pkg-fuzz');
    await upload(p.id, 'fuzz/1.0.0/f.bin', 'f', p.developer.token);
    const [pkg] = (await h.get(`/projects/${p.id}/packages`, { token: p.owner.token })).body;
    const values = ['', 'x', '-1', '0', '99999999999999999999', '%', '<script>', '[]', '{}', 'true', '\u0000', 'a'.repeat(3000)];
    const bodies: unknown[] = [null, 'x', 5, [], { versions: null }, { versions: { '1.0.0': null } }, { versions: { '1.0.0': 'x' }, _attachments: 'abc' },
      { name: '@x/y', versions: { '1.0.0': {} }, _attachments: { a: { data: 5 } } }, { versions: { '1.0.0': { deprecated: 5 } } }, { 'dist-tags': null, versions: {} },
      { versions: { '1.0.0': null }, _attachments: { a: { data: 'eA==' } } }, { versions: { '2.0.0': {} }, 'dist-tags': 7, _attachments: { a: { data: 'eA==', length: 'x' } } }];
    const check = (status: number, text: string, what: string) => {
      expect(status, `${what} -> ${text.slice(0, 200)}`).toBeLessThan(500);
      if (status >= 400) expect(Object.keys(JSON.parse(text)).some((key) => key === 'message' || key === 'error'), what).toBe(true);
    };
    const params = ['order_by', 'sort', 'package_type', 'package_name', 'package_version', 'include_versionless', 'status', 'exclude_subgroups', 'page', 'per_page', 'cursor'];
    for (const value of values) {
      for (const url of [`/projects/${p.id}/packages`, '/groups/acme-engineering/packages', `/projects/${p.id}/packages/${pkg.id}/package_files`, `/projects/${p.id}/packages/${pkg.id}/pipelines`]) {
        const query = params.map((name) => `${name}=${encodeURIComponent(value)}`).join('&');
        const answer = await h.get(`${url}?${query}`, { token: p.owner.token });
        check(answer.status, answer.text, `GET ${url} ${value.slice(0, 20)}`);
      }
      for (const url of [`/projects/${p.id}/packages/${encodeURIComponent(value)}`, `/projects/${p.id}/packages/${pkg.id}/package_files/${encodeURIComponent(value)}`, `/projects/${p.id}/packages/protection/rules/${encodeURIComponent(value)}`]) {
        const answer = await h.delete(url, { token: p.owner.token });
        check(answer.status, answer.text, `DELETE ${url}`);
      }
      const rule = await h.post(`/projects/${p.id}/packages/protection/rules`, { package_name_pattern: value, package_type: value, minimum_access_level_for_push: value, minimum_access_level_for_delete: value }, { token: p.owner.token });
      check(rule.status, rule.text, `POST rule ${value.slice(0, 20)}`);
      const generic = await upload(p.id, `${encodeURIComponent(value) || 'x'}/${encodeURIComponent(value) || '1'}/${encodeURIComponent(value) || 'f'}`, 'x', p.owner.token, `?status=${encodeURIComponent(value)}&select=${encodeURIComponent(value)}`);
      check(generic.status, generic.text, `PUT generic ${value.slice(0, 20)}`);
      const npmGet = await h.get(`/projects/${p.id}/packages/npm/${encodeURIComponent(value)}`, { token: p.owner.token });
      check(npmGet.status, npmGet.text, `GET npm ${value.slice(0, 20)}`);
    }
    for (const body of bodies) {
      const answer = await h.put(`/projects/${p.id}/packages/npm/@x%2fy`, body, { token: p.owner.token });
      check(answer.status, answer.text, `PUT npm ${JSON.stringify(body)}`);
      const tag = await h.put(`/projects/${p.id}/packages/npm/-/package/@x/y/dist-tags/beta`, body, { token: p.owner.token });
      check(tag.status, tag.text, `PUT dist-tag ${JSON.stringify(body)}`);
    }
    const broken = await h.call('PUT', `/projects/${p.id}/packages/npm/@x%2fy`, { headers: { 'Content-Type': 'application/json' }, token: p.owner.token, form: '{not json' });
    check(broken.status, broken.text, 'PUT npm broken JSON');
  });
});

describe('protection rule types', () => {
  it('names only the types the platform protects', async () => {
    const p = await ownProject('pkg-rule-types');
    const base = `/projects/${p.id}/packages/protection/rules`;
    expect((await h.post(base, { package_name_pattern: 'x*', package_type: 'golang', minimum_access_level_for_push: 'owner' }, { token: p.maintainer.token })).body).toEqual({ error: 'package_type does not have a valid value' });
    for (const type of ['conan', 'generic', 'helm', 'maven', 'npm', 'nuget', 'pypi']) {
      expect((await h.post(base, { package_name_pattern: 'x*', package_type: type, minimum_access_level_for_delete: 'admin' }, { token: p.maintainer.token })).status).toBe(201);
    }
  });
});
