import type { Context } from 'hono';
import type { AppEnv } from '../../context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { pathParam, type Call, type Router } from '../../http/route.ts';
import { findReadableProject, type ProjectRow } from '../../model/access.ts';
import { timestamp } from '../../model/time.ts';
import { INSTALLABLE_STATUSES, readBlob, requirePackageRead, type PackageFileRow, type PackageRow } from '../../model/packages.ts';

/** The project of a package manager's download, after the read check (public projects need no token). */
export function downloadProject(c: Context<AppEnv>, call: Call): ProjectRow {
  const project = findReadableProject(call.sandbox.db, call.actor, pathParam(c, 'id'), call.now);
  requirePackageRead(call.sandbox.db, call.actor, project, call.now);
  return project;
}

/** The newest live file of that name among the packages (installable ones only), or 404. */
export function fileOf(call: Call, packages: readonly PackageRow[], fileName: string): PackageFileRow {
  const live = packages.filter((pkg) => INSTALLABLE_STATUSES.includes(pkg.status));
  const file = live.length
    ? (call.sandbox.db.prepare("SELECT * FROM package_files WHERE package_id IN (SELECT value FROM json_each(?)) AND file_name = ? AND status = 'default' ORDER BY id DESC LIMIT 1")
      .get(JSON.stringify(live.map((pkg) => pkg.id)), fileName) as PackageFileRow | undefined)
    : undefined;
  if (!file) throw notFound('Package');
  return file;
}

/** Answers a file's bytes as an attachment and records the download on its package (`last_downloaded_at`). */
export function sendPackageFile(c: Context<AppEnv>, call: Call, file: PackageFileRow): Response {
  const bytes = readBlob(call.sandbox, file.file_sha256);
  call.sandbox.db.prepare('UPDATE packages SET last_downloaded_at = ? WHERE id = ?').run(timestamp(call.now), file.package_id);
  const baseName = file.file_name.split('/').pop() ?? file.file_name;
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': `attachment; filename="${baseName.replace(/["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(baseName)}`,
    'Content-Length': String(bytes.byteLength),
  });
}

/** The path after a prefix of the request's own path, its segments decoded (`%2F` and `/` alike). */
export function pathAfter(c: Context<AppEnv>, prefix: string): string[] {
  const pathname = new URL(c.req.url).pathname;
  const rest = pathname.slice(pathname.indexOf(prefix) + prefix.length);
  try {
    return rest.split('/').flatMap((segment) => decodeURIComponent(segment).split('/')).filter((segment) => segment !== '');
  } catch {
    throw badRequest('invalid %-encoding');
  }
}

function packagesNamed(call: Call, projectId: number, type: string, name: string, version: string | null, options: { caseless?: boolean } = {}): PackageRow[] {
  const compare = options.caseless ? 'lower(name) = lower(?)' : 'name = ?';
  const versionSql = version === null ? 'version IS NULL' : options.caseless ? 'lower(version) = lower(?)' : 'version = ?';
  return call.sandbox.db.prepare(`SELECT * FROM packages WHERE project_id = ? AND package_type = ? AND ${compare} AND ${versionSql} ORDER BY id`)
    .all(projectId, type, name, ...(version === null ? [] : [version])) as PackageRow[];
}

/**
 * The download paths of the other package managers, as the platform's APIs name them: Maven by
 * path, PyPI by sha256, NuGet by lowercase name and version, Go module proxy files.
 */
export function registerPackageDownloads(routes: Router): void {
  const read = { auth: 'public' as const, jobToken: true };

  // maven: <group path>/<artifact>/<version>/<file>, or <group path>/<artifact>/maven-metadata.xml (versionless)
  routes.get('/projects/:id/packages/maven/:path{.+}', read, (c, call) => {
    const project = downloadProject(c, call);
    const segments = pathAfter(c, '/packages/maven/');
    if (segments.length < 2) throw notFound('Package');
    const fileName = segments[segments.length - 1];
    const folder = segments.slice(0, -1);
    const versioned = packagesNamed(call, project.id, 'maven', folder.slice(0, -1).join('/'), folder[folder.length - 1]);
    const packages = versioned.length ? versioned : packagesNamed(call, project.id, 'maven', folder.join('/'), null);
    return sendPackageFile(c, call, fileOf(call, packages, fileName));
  });

  routes.get('/projects/:id/packages/pypi/files/:sha256/:file_identifier{.+}', read, (c, call) => {
    const project = downloadProject(c, call);
    const sha256 = pathParam(c, 'sha256');
    if (!/^[0-9a-f]{64}$/i.test(sha256)) throw badRequest('sha256 is invalid');
    const packages = call.sandbox.db.prepare(
      `SELECT p.* FROM packages p WHERE p.project_id = ? AND p.package_type = 'pypi'
       AND p.id IN (SELECT package_id FROM package_files WHERE file_sha256 = ?)`,
    ).all(project.id, sha256.toLowerCase()) as PackageRow[];
    const file = fileOf(call, packages, pathParam(c, 'file_identifier'));
    if (file.file_sha256 !== sha256.toLowerCase()) throw notFound('Package');
    return sendPackageFile(c, call, file);
  });

  routes.get('/projects/:id/packages/nuget/download/:package_name/:package_version/:package_filename', read, (c, call) => {
    const project = downloadProject(c, call);
    const packages = packagesNamed(call, project.id, 'nuget', pathParam(c, 'package_name'), pathParam(c, 'package_version'), { caseless: true });
    const wanted = pathParam(c, 'package_filename').toLowerCase();
    const file = fileOf(call, packages, wanted);
    return sendPackageFile(c, call, file);
  });

  // the Go module proxy: <module>/@v/<version>.mod|.zip|.info, and <module>/@v/list
  routes.get('/projects/:id/packages/go/:path{.+}', read, (c, call) => {
    const project = downloadProject(c, call);
    const segments = pathAfter(c, '/packages/go/');
    const at = segments.lastIndexOf('@v');
    if (at < 1 || at !== segments.length - 2) throw notFound();
    const module = segments.slice(0, at).join('/');
    const fileName = segments[at + 1];
    if (fileName === 'list') {
      const versions = call.sandbox.db.prepare("SELECT version FROM packages WHERE project_id = ? AND package_type = 'golang' AND name = ? AND status IN ('default', 'deprecated') ORDER BY id")
        .pluck().all(project.id, module) as string[];
      return c.text(versions.map((version) => `${version}\n`).join(''));
    }
    const version = fileName.replace(/\.(mod|zip|info)$/, '');
    return sendPackageFile(c, call, fileOf(call, packagesNamed(call, project.id, 'golang', module, version), fileName));
  });
}
