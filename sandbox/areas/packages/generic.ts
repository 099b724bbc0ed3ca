import type { Context } from 'hono';
import type { AppEnv } from '../../context.ts';
import { HttpError, paramError } from '../../http/errors.ts';
import { ParamReader, collectParamErrors } from '../../http/params.ts';
import { pathParam, type Call, type Router } from '../../http/route.ts';
import { findReadableProject } from '../../model/access.ts';
import { timestamp } from '../../model/time.ts';
import { checkProtection, digestsOf, insertPackage, insertPackageFile, requirePackageWrite, storeBlob, type PackageRow } from '../../model/packages.ts';
import { downloadProject, fileOf, sendPackageFile } from './downloads.ts';

/** The generic packages API path (spec 3, 5: the package registries' upload APIs). */
export const GENERIC_PATH = '/projects/:id/packages/generic/:package_name/:package_version/:file_name{.+}';

/**
 * Bodies of generic uploads and of npm's PUTs (a publish document, or a bare JSON string for a
 * dist-tag) are read by their handlers, not parsed as parameters (sandbox/app.ts).
 */
export const isRawUpload = (method: string, pathname: string) => method === 'PUT' && /^\/api\/v4\/projects\/[^/]+\/packages\/(generic|npm)\//.test(pathname);

// the platform's rules (docs: generic packages): names of letters, digits, `.`, `-`, `_` (and `+`);
// versions matching \A(\.?[\w\+-]+\.?)+\z; file names may also hold `/` (a path inside the package)
const NAME = /^[A-Za-z0-9._+-]+$/;
const VERSION = /^[\w+.-]+$/;
const FILE_NAME = /^[A-Za-z0-9._+\-/~]+$/;
const MAX_FILE_BYTES = 100 * 1024 * 1024;

interface Coordinates {
  name: string;
  version: string;
  fileName: string;
}

function coordinates(c: Context<AppEnv>): Coordinates {
  const name = pathParam(c, 'package_name');
  const version = pathParam(c, 'package_version');
  const fileName = pathParam(c, 'file_name');
  collectParamErrors([
    () => {
      if (!NAME.test(name) || name.includes('..')) throw paramError('package_name is invalid');
    },
    () => {
      if (!VERSION.test(version) || version.includes('..')) throw paramError('package_version is invalid');
    },
    () => {
      if (!FILE_NAME.test(fileName) || fileName.split('/').some((part) => part === '' || part === '.' || part === '..')) throw paramError('file_name is invalid');
    },
  ]);
  return { name, version, fileName };
}

/**
 * The file: the raw body (`curl --upload-file`), or the `file` part of a multipart form whose other
 * parts are parameters (what client libraries such as gitbeaker send).
 */
async function uploadBody(c: Context<AppEnv>, call: Call): Promise<{ bytes: Uint8Array; params: ParamReader }> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_FILE_BYTES) throw new HttpError(413, { message: '413 Request Entity Too Large' });
  let bytes: Uint8Array;
  let params = call.params;
  if ((c.req.header('content-type') ?? '').toLowerCase().includes('multipart/form-data')) {
    const form = await c.req.raw.formData().catch(() => {
      throw paramError('the multipart body could not be parsed');
    });
    const file = form.get('file');
    if (!file || typeof file === 'string') throw paramError('file is missing');
    bytes = new Uint8Array(await file.arrayBuffer());
    const fields: Record<string, string> = {};
    for (const [key, value] of form.entries()) if (typeof value === 'string') fields[key] = value;
    params = new ParamReader({ ...call.params.raw, ...fields });
  } else {
    bytes = new Uint8Array(await c.req.arrayBuffer());
  }
  if (bytes.byteLength > MAX_FILE_BYTES) throw new HttpError(413, { message: '413 Request Entity Too Large' });
  return { bytes, params };
}

function genericPackage(call: Call, projectId: number, at: Coordinates): PackageRow | undefined {
  return call.sandbox.db.prepare(
    "SELECT * FROM packages WHERE project_id = ? AND package_type = 'generic' AND name = ? AND version = ? AND status != 'pending_destruction' ORDER BY id DESC LIMIT 1",
  ).get(projectId, at.name, at.version) as PackageRow | undefined;
}

export function registerGenericPackages(routes: Router): void {
  routes.put(GENERIC_PATH, { jobToken: true, async: true }, async (c, call) => {
    const { db } = call.sandbox;
    const project = findReadableProject(db, call.actor, pathParam(c, 'id'), call.now);
    const role = requirePackageWrite(db, call.actor, project, call.now);
    const at = coordinates(c);
    const { bytes, params } = await uploadBody(c, call);
    let status: 'default' | 'hidden' = 'default';
    let select: 'package_file' | undefined;
    collectParamErrors([
      () => (status = params.oneOf('status', ['default', 'hidden'] as const) ?? 'default'),
      () => (select = params.oneOf('select', ['package_file'] as const)),
    ]);
    checkProtection(db, project.id, 'generic', at.name, role, 'push');
    const digests = digestsOf(bytes);
    storeBlob(call.sandbox, bytes, digests.sha256);
    const file = db.transaction(() => {
      const stamp = timestamp(call.now);
      const pkg = genericPackage(call, project.id, at)
        ?? insertPackage(db, { projectId: project.id, name: at.name, version: at.version, type: 'generic', status, creatorId: call.actor.user?.id ?? null, createdAt: stamp });
      db.prepare('UPDATE packages SET updated_at = ? WHERE id = ?').run(stamp, pkg.id);
      return insertPackageFile(db, pkg.id, { fileName: at.fileName, digests, createdAt: stamp });
    })();
    if (select !== 'package_file') return c.json({ message: '201 Created' }, 201);
    return c.json({
      id: file.id,
      package_id: file.package_id,
      created_at: file.created_at,
      updated_at: file.updated_at,
      size: file.size,
      file_store: 1,
      file_md5: file.file_md5,
      file_sha1: file.file_sha1,
      file_name: file.file_name,
      file: { url: file.file_name },
      file_sha256: file.file_sha256,
      verification_retry_at: null,
      verified_at: null,
      verification_failure: null,
      verification_retry_count: null,
      verification_checksum: null,
    }, 201);
  });

  routes.get(GENERIC_PATH, { auth: 'public', jobToken: true }, (c, call) => {
    const project = downloadProject(c, call);
    const at = coordinates(c);
    const pkg = genericPackage(call, project.id, at);
    // the newest upload of that name wins, as on the platform
    return sendPackageFile(c, call, fileOf(call, pkg ? [pkg] : [], at.fileName));
  });
}
