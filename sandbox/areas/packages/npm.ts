import type { Context } from 'hono';
import type { AppEnv } from '../../context.ts';
import { HttpError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import { pathParam, type Call, type Router } from '../../http/route.ts';
import { findReadableProject, type ProjectRow } from '../../model/access.ts';
import { timestamp } from '../../model/time.ts';
import { checkProtection, digestsOf, insertPackage, insertPackageFile, requirePackageWrite, storeBlob, type PackageFileRow, type PackageRow } from '../../model/packages.ts';
import { downloadProject, fileOf, pathAfter, sendPackageFile } from './downloads.ts';

/**
 * The project-level npm registry (`{base}/api/v4/projects/:id/packages/npm/`): what `npm publish`,
 * `npm install` and `npm dist-tag` send, unchanged. Names arrive scoped as `@scope/name` or
 * `@scope%2fname`; at the project level the scope need not match the root namespace.
 */
const PREFIX = '/packages/npm/';
const MAX_PUBLISH_BYTES = 100 * 1024 * 1024;

// npm's own rules for a package name (validate-npm-package-name, new packages)
const NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
// semantic versions, as the platform's semver_regex
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Splits a package name (one or two segments) off the front of the path. */
function takeName(segments: string[]): { name: string; rest: string[] } {
  const scoped = segments[0]?.startsWith('@');
  const count = scoped ? 2 : 1;
  return { name: segments.slice(0, count).join('/'), rest: segments.slice(count) };
}

function npmProject(c: Context<AppEnv>, call: Call): ProjectRow {
  return findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
}

/** Versions npm may install: default and deprecated (hidden, processing and error ones are not served). */
function installable(call: Call, projectId: number, name: string): PackageRow[] {
  return call.sandbox.db.prepare(
    "SELECT * FROM packages WHERE project_id = ? AND package_type = 'npm' AND name = ? AND status IN ('default', 'deprecated') ORDER BY id",
  ).all(projectId, name) as PackageRow[];
}

function distTags(call: Call, packages: PackageRow[]): Record<string, string> {
  if (!packages.length) return {};
  const rows = call.sandbox.db.prepare('SELECT t.name, p.version FROM package_tags t JOIN packages p ON p.id = t.package_id WHERE t.package_id IN (SELECT value FROM json_each(?)) ORDER BY t.id')
    .all(JSON.stringify(packages.map((pkg) => pkg.id))) as Array<{ name: string; version: string }>;
  return Object.fromEntries(rows.map((row) => [row.name, row.version]));
}

const tarballUrl = (call: Call, project: ProjectRow, name: string, fileName: string) =>
  `${call.sandbox.config.externalUrl}/api/v4/projects/${project.id}${PREFIX}${name}/-/${fileName}`;

/** The packument: every installable version with its package.json, dist and deprecation, and the dist-tags. */
function packument(call: Call, project: ProjectRow, name: string) {
  const packages = installable(call, project.id, name);
  if (!packages.length) throw notFound('Package');
  const files = call.sandbox.db.prepare(
    "SELECT * FROM package_files WHERE package_id IN (SELECT value FROM json_each(?)) AND status = 'default' ORDER BY id",
  ).all(JSON.stringify(packages.map((pkg) => pkg.id))) as PackageFileRow[];
  const fileOf = new Map(files.map((file) => [file.package_id, file]));
  const versions: Record<string, unknown> = {};
  const times: Record<string, string> = {};
  for (const pkg of packages) {
    const file = fileOf.get(pkg.id);
    if (!file || pkg.version === null) continue;
    const metadata = (pkg.metadata ? JSON.parse(pkg.metadata) : {}) as { package_json?: Record<string, unknown>; deprecated?: string };
    const manifest = metadata.package_json ?? {};
    const dist = (manifest.dist ?? {}) as Record<string, unknown>;
    versions[pkg.version] = {
      ...manifest,
      name: pkg.name,
      version: pkg.version,
      ...(pkg.status === 'deprecated' ? { deprecated: metadata.deprecated ?? (manifest.deprecated as string | undefined) ?? 'This version is deprecated' } : {}),
      dist: { ...(typeof dist.integrity === 'string' ? { integrity: dist.integrity } : {}), shasum: file.file_sha1, tarball: tarballUrl(call, project, name, file.file_name) },
    };
    times[pkg.version] = pkg.created_at;
  }
  return { name, versions, 'dist-tags': distTags(call, packages), time: times };
}

interface PublishBody {
  name?: unknown;
  versions?: Record<string, Record<string, unknown>>;
  'dist-tags'?: Record<string, unknown>;
  _attachments?: Record<string, { data?: unknown; length?: unknown }>;
}

/** Moves (or sets) a dist-tag to one version of the package name. */
function setTag(call: Call, projectId: number, name: string, tag: string, pkg: PackageRow): void {
  const { db } = call.sandbox;
  const stamp = timestamp(call.now);
  db.prepare("DELETE FROM package_tags WHERE name = ? AND package_id IN (SELECT id FROM packages WHERE project_id = ? AND package_type = 'npm' AND name = ?)").run(tag, projectId, name);
  db.prepare('INSERT INTO package_tags (package_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(pkg.id, tag, stamp, stamp);
}

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_PUBLISH_BYTES) throw new HttpError(413, { message: '413 Request Entity Too Large' });
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON');
  }
}

/** `npm publish` (a version with its tarball) and `npm deprecate` (versions carrying `deprecated`, no attachments). */
async function publish(c: Context<AppEnv>, call: Call, project: ProjectRow, name: string): Promise<Response> {
  const { db } = call.sandbox;
  const role = requirePackageWrite(db, call.actor, project, call.now);
  const body = (await readJson(c)) as PublishBody;
  if (!body || typeof body !== 'object' || typeof body.versions !== 'object' || body.versions === null) throw badRequest('Package versions are missing');
  if (body.name !== undefined && body.name !== name) throw badRequest('Package name mismatch');
  if (!NAME.test(name)) throw badRequest('Validation failed: Name is invalid');
  checkProtection(db, project.id, 'npm', name, role, 'push');
  const attachments = body._attachments ?? {};
  if (!Object.keys(attachments).length) return deprecate(c, call, project, name, body.versions);
  const entries = Object.entries(body.versions);
  if (entries.length !== 1) throw badRequest('Exactly one version must be published');
  const [version, manifest] = entries[0];
  if (!manifest || typeof manifest !== 'object' || Array.isArray(manifest)) throw badRequest('Package version metadata is invalid');
  if (!SEMVER.test(version)) throw badRequest('Validation failed: Version is invalid');
  const attachment = attachments[`${name}-${version}.tgz`] ?? Object.values(attachments)[0];
  if (typeof attachment?.data !== 'string') throw badRequest('Attachment data is missing');
  const bytes = new Uint8Array(Buffer.from(attachment.data, 'base64'));
  if (typeof attachment.length === 'number' && attachment.length !== bytes.byteLength) throw badRequest('Attachment length does not match its data');
  const digests = digestsOf(bytes);
  storeBlob(call.sandbox, bytes, digests.sha256);
  db.transaction(() => {
    const taken = db.prepare("SELECT 1 FROM packages WHERE project_id = ? AND package_type = 'npm' AND name = ? AND version = ? AND status != 'pending_destruction'").get(project.id, name, version);
    if (taken) throw forbidden('Package already exists.');
    const stamp = timestamp(call.now);
    // what installers need of the version's package.json; the readme stays out, as the platform keeps it apart
    const { readme: _readme, _attachments: _a, ...packageJson } = manifest as Record<string, unknown>;
    const pkg = insertPackage(db, { projectId: project.id, name, version, type: 'npm', metadata: { package_json: packageJson }, creatorId: call.actor.user?.id ?? null, createdAt: stamp });
    insertPackageFile(db, pkg.id, { fileName: `${name}-${version}.tgz`, digests, createdAt: stamp });
    for (const [tag, target] of Object.entries(body['dist-tags'] ?? {})) {
      if (target === version) setTag(call, project.id, name, tag, pkg);
    }
  })();
  return c.json({ message: '200 OK' });
}

function deprecate(c: Context<AppEnv>, call: Call, project: ProjectRow, name: string, versions: Record<string, Record<string, unknown>>): Response {
  const { db } = call.sandbox;
  const packages = new Map(installable(call, project.id, name).map((pkg) => [pkg.version, pkg]));
  if (!packages.size) throw notFound('Package');
  db.transaction(() => {
    for (const [version, manifest] of Object.entries(versions)) {
      const pkg = packages.get(version);
      if (!pkg || typeof manifest !== 'object' || manifest === null || !('deprecated' in manifest)) continue;
      const message = typeof manifest.deprecated === 'string' ? manifest.deprecated : '';
      const metadata = { ...(pkg.metadata ? JSON.parse(pkg.metadata) : {}), deprecated: message || undefined };
      // an empty message undeprecates, as npm means it
      db.prepare('UPDATE packages SET status = ?, metadata = ?, updated_at = ? WHERE id = ?').run(message ? 'deprecated' : 'default', JSON.stringify(metadata), timestamp(call.now), pkg.id);
    }
  })();
  return c.json({ message: '200 OK' });
}

function tarball(c: Context<AppEnv>, call: Call, project: ProjectRow, name: string, fileName: string): Response {
  return sendPackageFile(c, call, fileOf(call, installable(call, project.id, name), fileName));
}

export function registerNpmPackages(routes: Router): void {
  const path = '/projects/:id/packages/npm/:rest{.+}';

  routes.get(path, { auth: 'public', jobToken: true }, (c, call) => {
    const project = downloadProject(c, call);
    const segments = pathAfter(c, PREFIX);
    // dist-tags: -/package/:name/dist-tags
    if (segments[0] === '-' && segments[1] === 'package') {
      const { name, rest } = takeName(segments.slice(2));
      if (rest.length !== 1 || rest[0] !== 'dist-tags') throw notFound();
      const packages = installable(call, project.id, name);
      if (!packages.length) throw notFound('Package');
      return c.json(distTags(call, packages));
    }
    const { name, rest } = takeName(segments);
    if (!rest.length) return c.json(packument(call, project, name));
    if (rest[0] === '-' && rest.length > 1) return tarball(c, call, project, name, rest.slice(1).join('/'));
    throw notFound();
  });

  routes.put(path, { jobToken: true, async: true }, async (c, call) => {
    const project = npmProject(c, call);
    const segments = pathAfter(c, PREFIX);
    if (segments[0] === '-' && segments[1] === 'package') {
      const { name, rest } = takeName(segments.slice(2));
      if (rest.length !== 2 || rest[0] !== 'dist-tags') throw notFound();
      const { db } = call.sandbox;
      const role = requirePackageWrite(db, call.actor, project, call.now);
      checkProtection(db, project.id, 'npm', name, role, 'push');
      // npm sends the version as a JSON string
      const version = await readJson(c);
      if (typeof version !== 'string') throw badRequest('The version must be a string');
      const pkg = installable(call, project.id, name).find((row) => row.version === version);
      if (!pkg) throw notFound('Package');
      db.transaction(() => setTag(call, project.id, name, rest[1], pkg))();
      return c.json({ message: '200 OK' });
    }
    const { name, rest } = takeName(segments);
    if (rest.length) throw notFound();
    return publish(c, call, project, name);
  });

  routes.delete(path, { jobToken: true }, (c, call) => {
    const project = npmProject(c, call);
    const segments = pathAfter(c, PREFIX);
    if (segments[0] !== '-' || segments[1] !== 'package') throw notFound();
    const { name, rest } = takeName(segments.slice(2));
    if (rest.length !== 2 || rest[0] !== 'dist-tags') throw notFound();
    const { db } = call.sandbox;
    const role = requirePackageWrite(db, call.actor, project, call.now);
    checkProtection(db, project.id, 'npm', name, role, 'push');
    const removed = db.prepare("DELETE FROM package_tags WHERE name = ? AND package_id IN (SELECT id FROM packages WHERE project_id = ? AND package_type = 'npm' AND name = ?)").run(rest[1], project.id, name);
    if (!removed.changes) throw notFound('Tag');
    return c.body(null, 204);
  });
}
