import { randomBytes } from 'node:crypto';
import type { Api } from './fixtures.ts';

export interface PackageAnswer {
  id: number;
  name: string;
  version: string;
}

export interface PackageFileAnswer {
  id: number;
  file_name: string;
  size: number;
  file_sha256: string;
}

/** A new empty project for a test's packages, removed after the test. */
export async function newPackagesProject(api: Api) {
  const project = await api.post<{ id: number; name_with_namespace: string }>('/projects', { name: `e2e-packages-${randomBytes(4).toString('hex')}` });
  api.deleteAfter(`/projects/${project.id}`);
  return project;
}

/**
 * PUT /projects/:id/packages/generic/:name/:version/:file with raw bytes (the generic packages API
 * takes no JSON, so not through `api`); the package as the project's list names it.
 */
export async function uploadGeneric(
  server: { baseURL: string; adminToken: string },
  projectId: number,
  upload: { name: string; version: string; fileName: string; bytes: Buffer },
): Promise<PackageAnswer> {
  const { name, version, fileName, bytes } = upload;
  const headers = { 'PRIVATE-TOKEN': server.adminToken };
  const url = `${server.baseURL}/api/v4/projects/${projectId}/packages/generic/${encodeURIComponent(name)}/${encodeURIComponent(version)}/${encodeURIComponent(fileName)}`;
  const answer = await fetch(url, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/octet-stream' }, body: new Uint8Array(bytes) });
  if (answer.status !== 201) throw new Error(`PUT ${url} answered ${answer.status}: ${await answer.text()}`);
  const query = new URLSearchParams({ package_name: name, package_version: version });
  const listed = await fetch(`${server.baseURL}/api/v4/projects/${projectId}/packages?${query}`, { headers });
  const found = ((await listed.json()) as PackageAnswer[]).find((pkg) => pkg.name === name && pkg.version === version);
  if (!found) throw new Error(`package ${name} ${version} is not listed after its upload`);
  return found;
}
