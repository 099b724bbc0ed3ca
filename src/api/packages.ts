import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestKeysetPage, requestPage, send, sendRaw, type Connection } from './http.ts';
import { apiPath, pathSegment, withoutEmpty } from './params.ts';
import { loose } from './schema.ts';
import type { PackageType, PackageStatusFilter, PackageOrder } from './vocabulary.ts';

// -- vocabulary (spec 3, 2.6 and 4.6)

/** Types a package protection rule may name (the platform's list grows; the API checks it). */
export const PROTECTION_PACKAGE_TYPES = ['conan', 'generic', 'helm', 'maven', 'npm', 'nuget', 'pypi'] as const;

// -- schemas


/** spec 3, 2.6: a pipeline summary of a package (and what GET .../packages/:id/pipelines lists). */
export const packagePipelineSchema = loose({
  id: z.number(),
  iid: z.nullish(z.number()),
  project_id: z.nullish(z.number()),
  status: z.string(),
  source: z.nullish(z.string()),
  ref: z.nullish(z.string()),
  sha: z.nullish(z.string()),
  web_url: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  updated_at: z.nullish(z.string()),
  user: z.nullish(loose({ name: z.nullish(z.string()), username: z.nullish(z.string()), avatar_url: z.nullish(z.string()) })),
});
export type PackagePipeline = z.infer<typeof packagePipelineSchema>;
const pipelines = z.pipe(z.nullish(z.array(packagePipelineSchema)), z.transform((items) => items ?? []));

/** A tag: the platform sends `{id, package_id, name, ...}` objects; older answers plain names. */
const tags = z.pipe(
  z.nullish(z.array(z.union([z.string(), loose({ name: z.string() })]))),
  z.transform((items) => (items ?? []).map((tag) => (typeof tag === 'string' ? tag : tag.name))),
);

/** spec 3, 2.6: `delete_api_path` only when the caller may delete; `web_path` only for default and deprecated. */
const packageLinksSchema = z.pipe(
  z.nullish(loose({ web_path: z.nullish(z.string()), delete_api_path: z.nullish(z.string()) })),
  z.transform((links) => ({ web_path: links?.web_path ?? null, delete_api_path: links?.delete_api_path ?? null })),
);

/** spec 3, 2.6: a package in a list (the group list adds `project_path`). */
export const packageSchema = loose({
  id: z.number(),
  name: z.string(),
  /** null: a versionless package (maven metadata, listed with include_versionless). */
  version: z.nullish(z.string()),
  package_type: z.string(),
  status: z.pipe(z.nullish(z.string()), z.transform((status) => status ?? 'default')),
  conan_package_name: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  last_downloaded_at: z.nullish(z.string()),
  project_id: z.nullish(z.number()),
  project_path: z.nullish(z.string()),
  tags,
  _links: packageLinksSchema,
  pipelines,
});
export type Package = z.infer<typeof packageSchema>;

/** spec 3, 2.6: one of the other versions named by a single package. */
export const packageVersionSchema = loose({
  id: z.number(),
  version: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  tags,
  pipelines,
});
export type PackageVersion = z.infer<typeof packageVersionSchema>;

/** GET /projects/:id/packages/:package_id: the list item with `versions` and `last_downloaded_at`. */
export const packageDetailSchema = z.extend(packageSchema, {
  versions: z.pipe(z.nullish(z.array(packageVersionSchema)), z.transform((items) => items ?? [])),
});
export type PackageDetail = z.infer<typeof packageDetailSchema>;

/** The platform's package file entity (spec: "not shown"; from its API docs). */
export const packageFileSchema = loose({
  id: z.number(),
  package_id: z.nullish(z.number()),
  created_at: z.nullish(z.string()),
  file_name: z.string(),
  size: z.nullish(z.number()),
  file_md5: z.nullish(z.string()),
  file_sha1: z.nullish(z.string()),
  file_sha256: z.nullish(z.string()),
  pipelines,
});
export type PackageFile = z.infer<typeof packageFileSchema>;

/** A package protection rule (the platform's Protected packages API). */
export const protectionRuleSchema = loose({
  id: z.number(),
  project_id: z.nullish(z.number()),
  package_name_pattern: z.string(),
  package_type: z.string(),
  minimum_access_level_for_push: z.nullish(z.string()),
  minimum_access_level_for_delete: z.nullish(z.string()),
});
export type ProtectionRule = z.infer<typeof protectionRuleSchema>;

// -- reads

/** spec 3, 4.6: every filter of the project list; the group list adds exclude_subgroups and project_path order. */
export interface PackageFilters {
  package_type?: PackageType;
  package_name?: string;
  package_version?: string;
  include_versionless?: boolean;
  status?: PackageStatusFilter;
  order_by?: PackageOrder;
  sort?: 'asc' | 'desc';
  /** Group list only. */
  exclude_subgroups?: boolean;
}

export interface PackageListParams extends PackageFilters {
  page: number;
  per_page: number;
}

export type PackageScope = { project: number } | { group: number };

const scopePath = (scope: PackageScope) => ('project' in scope ? apiPath`/projects/${scope.project}/packages` : apiPath`/groups/${scope.group}/packages`);
const packagePath = (projectId: number, packageId: number) => apiPath`/projects/${projectId}/packages/${packageId}`;
const rulesPath = (projectId: number) => apiPath`/projects/${projectId}/packages/protection/rules`;

/** The params as the platform's query: empty filters and `false` dropped; the group-only filter only on groups. */
export function packageListQuery(scope: PackageScope, params: PackageListParams) {
  const { exclude_subgroups, ...rest } = params;
  return withoutEmpty('group' in scope ? { ...rest, exclude_subgroups } : rest);
}

/** Keyset page size of package pipelines (spec 3, 8.5). */
export const PACKAGE_PIPELINES_PER_PAGE = 20;

export const packagesQueries = {
  all: () => ['packages'] as const,
  scope: (scope: PackageScope) => [...packagesQueries.all(), scope] as const,
  lists: () => [...packagesQueries.all(), 'list'] as const,
  /** One page of a project's or group's packages. */
  list: (connection: Connection, scope: PackageScope, params: PackageListParams) =>
    queryOptions({
      queryKey: [...packagesQueries.lists(), scope, params] as const,
      queryFn: ({ signal }) => requestPage(connection, scopePath(scope), packageSchema, { query: packageListQuery(scope, params), signal }),
    }),
  package: (projectId: number, packageId: number) => [...packagesQueries.scope({ project: projectId }), { package: packageId }] as const,
  /** One package with its versions (404 unless its status is default or deprecated). */
  detail: (connection: Connection, projectId: number, packageId: number) =>
    queryOptions({
      queryKey: [...packagesQueries.package(projectId, packageId), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, packagePath(projectId, packageId), packageDetailSchema, { signal }),
    }),
  /** A page of a package's files (offset pagination). */
  files: (connection: Connection, projectId: number, packageId: number, params: { page: number; per_page: number }) =>
    queryOptions({
      queryKey: [...packagesQueries.package(projectId, packageId), 'files', params] as const,
      queryFn: ({ signal }) => requestPage(connection, `${packagePath(projectId, packageId)}/package_files`, packageFileSchema, { query: { ...params }, signal }),
    }),
  /** The pipelines that built a package, newest first, 20 a keyset page following Link rel="next". */
  pipelines: (connection: Connection, projectId: number, packageId: number) =>
    infiniteQueryOptions({
      queryKey: [...packagesQueries.package(projectId, packageId), 'pipelines'] as const,
      queryFn: ({ pageParam, signal }) =>
        requestKeysetPage(connection, pageParam ?? `${packagePath(projectId, packageId)}/pipelines`, packagePipelineSchema, {
          query: { per_page: PACKAGE_PIPELINES_PER_PAGE },
          signal,
        }),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextUrl ?? null,
    }),
  rules: (connection: Connection, projectId: number) =>
    queryOptions({
      queryKey: [...packagesQueries.scope({ project: projectId }), 'protection-rules'] as const,
      queryFn: ({ signal }) => requestPage(connection, rulesPath(projectId), protectionRuleSchema, { query: { per_page: 100 }, signal }),
    }),
};

// -- downloads

/** A name with slashes as several path segments, each encoded. */
const segments = (name: string) => name.split('/').map(pathSegment).join('/');

/**
 * The API path that serves a package file's bytes, from the platform's per-type APIs; null when
 * its type has none this console can name (conan needs recipe revisions, composer a commit, helm
 * the channel). Generic: spec's generic packages API; the others from the platform's docs.
 */
export function packageFilePath(projectId: number, pkg: Pick<Package, 'name' | 'version' | 'package_type'>, file: Pick<PackageFile, 'file_name' | 'file_sha256'>): string | null {
  const project = `/projects/${pathSegment(projectId)}/packages`;
  const fileName = pathSegment(file.file_name);
  const version = pkg.version ?? '';
  switch (pkg.package_type) {
    case 'generic':
      return version ? `${project}/generic/${pathSegment(pkg.name)}/${pathSegment(version)}/${fileName}` : null;
    case 'npm':
      // a scoped name and its tarball's name keep their `/` as the npm client asks for them
      return `${project}/npm/${segments(pkg.name)}/-/${segments(file.file_name)}`;
    case 'maven':
      return `${project}/maven/${segments(pkg.name)}${version ? `/${pathSegment(version)}` : ''}/${fileName}`;
    case 'pypi':
      return file.file_sha256 ? `${project}/pypi/files/${pathSegment(file.file_sha256)}/${fileName}` : null;
    case 'nuget':
      return version ? `${project}/nuget/download/${pathSegment(pkg.name.toLowerCase())}/${pathSegment(version.toLowerCase())}/${fileName}` : null;
    case 'golang':
      return version ? `${project}/go/${segments(pkg.name)}/@v/${fileName}` : null;
    default:
      return null;
  }
}

/** Why a file of this package has no download here (its path is null): the client's own protocol serves it. */
export function downloadRefusal(pkg: Pick<Package, 'package_type'>): string {
  return `The platform serves ${pkg.package_type} files through the ${pkg.package_type} client's own protocol only: use the install instructions.`;
}

/** The bytes of a file, fetched with the token in a header (never in the URL), for a blob download. */
export async function downloadPackageFile(connection: Connection, path: string, signal?: AbortSignal): Promise<Blob> {
  return (await sendRaw(connection, path, { signal })).blob();
}

// -- writes

export interface PackageVariables {
  projectId: number;
  packageId: number;
}

export interface PackageFileVariables extends PackageVariables {
  fileId: number;
}

/** DELETE /projects/:id/packages/:package_id: 204; 403 protected or not permitted; 404. */
export async function deletePackage(connection: Connection, { projectId, packageId }: PackageVariables): Promise<void> {
  await send(connection, packagePath(projectId, packageId), { method: 'DELETE' });
}

/** DELETE /projects/:id/packages/:package_id/package_files/:package_file_id: 204; 403; 404. */
export async function deletePackageFile(connection: Connection, { projectId, packageId, fileId }: PackageFileVariables): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/packages/${packageId}/package_files/${fileId}`, { method: 'DELETE' });
}

export const PROTECTION_PUSH_LEVELS = ['maintainer', 'owner', 'admin'] as const;
/** The platform lets Maintainers delete unless a rule asks for more: a delete level starts at Owner. */
export const PROTECTION_DELETE_LEVELS = ['owner', 'admin'] as const;

export interface ProtectionRuleInput {
  package_name_pattern: string;
  package_type: string;
  minimum_access_level_for_push: (typeof PROTECTION_PUSH_LEVELS)[number] | null;
  minimum_access_level_for_delete: (typeof PROTECTION_DELETE_LEVELS)[number] | null;
}

/**
 * The rule form as the platform checks it: a name pattern (no spaces, `*` as wildcard, at most
 * 255 characters), a type, and at least one of the two levels ('' is "no minimum").
 */
export const protectionRuleFormSchema = z
  .object({
    package_name_pattern: z.string().check(
      z.trim(),
      z.minLength(1, 'Enter the name pattern, e.g. @my-scope/my-package-*.'),
      z.maxLength(255, 'At most 255 characters.'),
      z.regex(/^\S+$/, 'A package name, with * as wildcard: no spaces.'),
    ),
    package_type: z.enum(PROTECTION_PACKAGE_TYPES),
    minimum_access_level_for_push: z.union([z.literal(''), z.enum(PROTECTION_PUSH_LEVELS)]),
    minimum_access_level_for_delete: z.union([z.literal(''), z.enum(PROTECTION_DELETE_LEVELS)]),
  })
  .check(
    z.refine((values) => Boolean(values.minimum_access_level_for_push || values.minimum_access_level_for_delete), {
      message: 'Choose a minimum role for push, for delete, or both.',
      path: ['minimum_access_level_for_push'],
    }),
  );
export type ProtectionRuleFormValues = z.output<typeof protectionRuleFormSchema>;

/** The form's values as the API takes them: '' is null. */
export function protectionRuleInput(values: ProtectionRuleFormValues): ProtectionRuleInput {
  return {
    package_name_pattern: values.package_name_pattern,
    package_type: values.package_type,
    minimum_access_level_for_push: values.minimum_access_level_for_push || null,
    minimum_access_level_for_delete: values.minimum_access_level_for_delete || null,
  };
}

export async function createProtectionRule(connection: Connection, { projectId, values }: { projectId: number; values: ProtectionRuleInput }): Promise<ProtectionRule> {
  return request(connection, rulesPath(projectId), protectionRuleSchema, { method: 'POST', body: values });
}

export async function updateProtectionRule(connection: Connection, { projectId, ruleId, values }: { projectId: number; ruleId: number; values: Partial<ProtectionRuleInput> }): Promise<ProtectionRule> {
  return request(connection, `${rulesPath(projectId)}/${pathSegment(ruleId)}`, protectionRuleSchema, { method: 'PATCH', body: values });
}

export async function deleteProtectionRule(connection: Connection, { projectId, ruleId }: { projectId: number; ruleId: number }): Promise<void> {
  await send(connection, `${rulesPath(projectId)}/${pathSegment(ruleId)}`, { method: 'DELETE' });
}
