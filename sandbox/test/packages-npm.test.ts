import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../server.ts';
import { DEMO_PACKAGES, DEMO_TOKENS } from '../seed/demo.ts';

/**
 * The real npm client against the sandbox's project-level npm registry, unchanged: publish from
 * one directory, install into another, with the project registry URL and `_authToken` in .npmrc.
 * No internet: the package has no dependencies, and the cache lives in a temp directory.
 */
const run = promisify(execFile);
let sandbox: RunningSandbox;
let projectId: number;
let work: string;

async function api(method: string, url: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}/api/v4${url}`, {
    method,
    headers: { 'PRIVATE-TOKEN': sandbox.adminToken, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A directory with an .npmrc that points the @acme scope at the project's registry. */
function directory(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  const registry = `${sandbox.url}/api/v4/projects/${projectId}/packages/npm/`;
  const npmrc = `@acme:registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${sandbox.adminToken}\n`;
  fs.writeFileSync(path.join(dir, '.npmrc'), npmrc);
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), content);
  return dir;
}

function npm(cwd: string, args: string[]) {
  return run('npm', [...args, '--cache', path.join(work, 'cache'), '--no-audit', '--no-fund', '--no-update-notifier'], {
    cwd,
    // no user or global configuration of this machine leaks in
    env: { ...process.env, HOME: work, npm_config_userconfig: path.join(work, 'no-user-npmrc'), npm_config_globalconfig: path.join(work, 'no-global-npmrc') },
    timeout: 60_000,
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'empty' });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-npm-'));
  const created = await api('POST', '/projects', { name: 'npm registry', visibility: 'private' });
  projectId = created.body.id;
}, 60_000);

afterAll(async () => {
  await sandbox.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the real npm client', () => {
  it('publishes a scoped package and installs it into another project', async () => {
    const source = 'module.exports = () => "hello from the sandbox";\n';
    const pkg = directory('hello', {
      'package.json': JSON.stringify({ name: '@acme/hello', version: '1.0.0', description: 'Says hello', main: 'index.js', license: 'MIT' }),
      'index.js': source,
    });
    const published = await npm(pkg, ['publish']);
    expect(published.stdout).toContain('+ @acme/hello@1.0.0');

    // the same version again: npm sees it in the packument and stops; sent anyway, the registry refuses it
    await expect(npm(pkg, ['publish'])).rejects.toMatchObject({ stderr: expect.stringContaining('previously published versions: 1.0.0') });
    const again = await api('PUT', `/projects/${projectId}/packages/npm/@acme%2fhello`, {
      name: '@acme/hello',
      versions: { '1.0.0': { name: '@acme/hello', version: '1.0.0' } },
      'dist-tags': { latest: '1.0.0' },
      _attachments: { '@acme/hello-1.0.0.tgz': { content_type: 'application/octet-stream', data: Buffer.from('x').toString('base64'), length: 1 } },
    });
    expect(again).toEqual({ status: 403, body: { message: '403 Forbidden - Package already exists.' } });

    const listed = await api('GET', `/projects/${projectId}/packages?package_type=npm`);
    expect(listed.body).toEqual([expect.objectContaining({ name: '@acme/hello', version: '1.0.0', package_type: 'npm', tags: [expect.objectContaining({ name: 'latest' })] })]);
    const [file] = (await api('GET', `/projects/${projectId}/packages/${listed.body[0].id}/package_files`)).body;
    expect(file.file_name).toBe('@acme/hello-1.0.0.tgz');

    const consumer = directory('consumer', { 'package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }) });
    await npm(consumer, ['install', '@acme/hello']);
    const installed = path.join(consumer, 'node_modules', '@acme', 'hello');
    expect(fs.readFileSync(path.join(installed, 'index.js'), 'utf8')).toBe(source);
    const lock = JSON.parse(fs.readFileSync(path.join(consumer, 'package-lock.json'), 'utf8'));
    const packument = (await api('GET', `/projects/${projectId}/packages/npm/@acme%2fhello`)).body;
    const dist = packument.versions['1.0.0'].dist;
    expect(dist.tarball).toBe(`${sandbox.url}/api/v4/projects/${projectId}/packages/npm/@acme/hello/-/@acme/hello-1.0.0.tgz`);
    expect(dist.integrity).toBe(lock.packages['node_modules/@acme/hello'].integrity);
    // the tarball served is the one published, byte for byte
    const tarball = await fetch(dist.tarball, { headers: { Authorization: `Bearer ${sandbox.adminToken}` } });
    expect(createHash('sha256').update(new Uint8Array(await tarball.arrayBuffer())).digest('hex')).toBe(file.file_sha256);
    expect((await api('GET', `/projects/${projectId}/packages/${listed.body[0].id}`)).body.last_downloaded_at).toEqual(expect.any(String));
  }, 180_000);

  it('publishes a second version, moves dist-tags and deprecates', async () => {
    const pkg = directory('hello-2', {
      'package.json': JSON.stringify({ name: '@acme/hello', version: '2.0.0-beta.1', main: 'index.js', license: 'MIT' }),
      'index.js': 'module.exports = 2;\n',
    });
    await npm(pkg, ['publish', '--tag', 'beta']);
    await npm(pkg, ['dist-tag', 'add', '@acme/hello@2.0.0-beta.1', 'next']);
    const tags = await npm(pkg, ['dist-tag', 'ls', '@acme/hello']);
    expect(tags.stdout.split('\n').filter(Boolean).sort()).toEqual(['beta: 2.0.0-beta.1', 'latest: 1.0.0', 'next: 2.0.0-beta.1']);
    await npm(pkg, ['dist-tag', 'rm', '@acme/hello', 'next']);
    expect((await npm(pkg, ['dist-tag', 'ls', '@acme/hello'])).stdout).not.toContain('next');
    await npm(pkg, ['deprecate', '@acme/hello@1.0.0', 'use 2.x']);
    const list = await api('GET', `/projects/${projectId}/packages?package_type=npm&order_by=version`);
    expect(list.body.map((item: { version: string; status: string }) => [item.version, item.status])).toEqual([['1.0.0', 'deprecated'], ['2.0.0-beta.1', 'default']]);
    const view = await npm(pkg, ['view', '@acme/hello@1.0.0', 'deprecated']);
    expect(view.stdout.trim()).toBe('use 2.x');
  }, 180_000);
});

describe('the real npm client and the demo seed', () => {
  let demo: RunningSandbox;
  beforeAll(async () => {
    demo = await startSandbox({ port: 0, seed: 'demo' });
  }, 120_000);
  afterAll(() => demo.close());

  it('installs the seeded @acme/design-system: latest is 2.0.0, the next tag 2.0.0-rc.1', async () => {
    const projectId = (await (await fetch(`${demo.url}/api/v4/projects/${encodeURIComponent(DEMO_PACKAGES.npmProject)}`, { headers: { 'PRIVATE-TOKEN': demo.adminToken } })).json() as { id: number }).id;
    const dir = path.join(work, 'demo-consumer');
    fs.mkdirSync(dir, { recursive: true });
    const registry = `${demo.url}/api/v4/projects/${projectId}/packages/npm/`;
    fs.writeFileSync(path.join(dir, '.npmrc'), `@acme:registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${DEMO_TOKENS.developer.secret}\n`);
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'demo-consumer', version: '1.0.0', private: true }));
    await npm(dir, ['install', DEMO_PACKAGES.npmPackageName, '@acme/design-system-next@npm:@acme/design-system@next']);
    const installed = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
    expect(installed(DEMO_PACKAGES.npmPackageName)).toBe('2.0.0');
    expect(installed('@acme/design-system-next')).toBe('2.0.0-rc.1');
  }, 180_000);
});
