import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { request, requestAllPages, requestPage, send, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';

/** The commit a branch points at, as the branches API embeds it (spec 3, 2.x: Commit entity). */
export const branchCommitSchema = loose({
  id: z.string(),
  short_id: z.string(),
  title: z.nullish(z.string()),
  message: z.nullish(z.string()),
  author_name: z.nullish(z.string()),
  author_email: z.nullish(z.string()),
  authored_date: z.nullish(z.string()),
  committer_name: z.nullish(z.string()),
  committed_date: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  parent_ids: z.nullish(z.array(z.string())),
  web_url: z.nullish(z.string()),
});
export type BranchCommit = z.infer<typeof branchCommitSchema>;

/** Entity Branch: `name, commit, merged, protected, developers_can_push, developers_can_merge, can_push, default, web_url`. */
export const branchSchema = loose({
  name: z.string(),
  commit: branchCommitSchema,
  merged: flag,
  protected: flag,
  developers_can_push: flag,
  developers_can_merge: flag,
  can_push: flag,
  default: flag,
  web_url: z.nullish(z.string()),
});
export type Branch = z.infer<typeof branchSchema>;

/** Protected branch access levels: 0 No one, 30 Developers + Maintainers, 40 Maintainers, 60 Administrators. */
export const PROTECTION_LEVELS = [
  { value: 0, label: 'No one' },
  { value: 30, label: 'Developers + Maintainers' },
  { value: 40, label: 'Maintainers' },
] as const;
export type ProtectionLevel = (typeof PROTECTION_LEVELS)[number]['value'];

const accessLevelSchema = loose({
  id: z.nullish(z.number()),
  access_level: z.nullish(z.number()),
  access_level_description: z.nullish(z.string()),
  user_id: z.nullish(z.number()),
  group_id: z.nullish(z.number()),
  deploy_key_id: z.nullish(z.number()),
});
const accessLevels = z.pipe(z.nullish(z.array(accessLevelSchema)), z.transform((levels) => levels ?? []));

/** Entity ProtectedBranch. */
export const protectedBranchSchema = loose({
  id: z.number(),
  name: z.string(),
  push_access_levels: accessLevels,
  merge_access_levels: accessLevels,
  unprotect_access_levels: accessLevels,
  allow_force_push: flag,
  inherited: flag,
  code_owner_approval_required: flag,
});
export type ProtectedBranch = z.infer<typeof protectedBranchSchema>;

export interface BranchListParams {
  /** Case-insensitive substring; `^term` a prefix, `term$` a suffix. Not together with `regex`. */
  search?: string;
  /** RE2, unanchored. Not together with `search`. */
  regex?: string;
  sort?: 'name_asc' | 'updated_asc' | 'updated_desc';
  page?: number;
  per_page?: number;
}

export type ProjectRef = number | string;

const branchesPath = (projectId: ProjectRef) => apiPath`/projects/${projectId}/repository/branches`;

/** The list query: `search` and `regex` exclude each other, so a regex wins over a search. */
function listQuery(params: BranchListParams) {
  const { search, regex, ...rest } = withoutEmpty(params);
  return { ...rest, ...(regex ? { regex } : search ? { search } : {}) };
}

export const branchesQueries = {
  all: () => ['branches'] as const,
  project: (projectId: ProjectRef) => [...branchesQueries.all(), { project: projectId }] as const,
  list: (connection: Connection, projectId: ProjectRef, params: BranchListParams) =>
    queryOptions({
      queryKey: [...branchesQueries.project(projectId), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, branchesPath(projectId), branchSchema, { query: listQuery(params), signal }),
    }),
  detail: (connection: Connection, projectId: ProjectRef, name: string) =>
    queryOptions({
      queryKey: [...branchesQueries.project(projectId), 'detail', name] as const,
      queryFn: ({ signal }) => request(connection, apiPath`/projects/${projectId}/repository/branches/${name}`, branchSchema, { signal }),
    }),
  protections: (connection: Connection, projectId: ProjectRef) =>
    queryOptions({
      queryKey: [...branchesQueries.project(projectId), 'protections'] as const,
      queryFn: ({ signal }) => requestAllPages(connection, apiPath`/projects/${projectId}/protected_branches`, protectedBranchSchema, { signal }),
    }),
  /** What "delete merged branches" would remove: merged, unprotected, not the default. */
  mergedPreview: (connection: Connection, projectId: ProjectRef) =>
    queryOptions({
      queryKey: [...branchesQueries.project(projectId), 'merged-preview'] as const,
      queryFn: ({ signal }) => mergedBranchesToDelete(connection, projectId, signal),
      staleTime: 0,
    }),
};

/** Every branch of a project, 100 a page. */
export function allBranches(connection: Connection, projectId: ProjectRef, signal?: AbortSignal): Promise<Branch[]> {
  return requestAllPages(connection, branchesPath(projectId), branchSchema, { signal });
}

/** The branches `DELETE /repository/merged_branches` removes: merged, not protected, not the default. */
export async function mergedBranchesToDelete(connection: Connection, projectId: ProjectRef, signal?: AbortSignal): Promise<Branch[]> {
  return (await allBranches(connection, projectId, signal)).filter((branch) => branch.merged && !branch.protected && !branch.default);
}

// -- writes

export type CreateBranchVariables = { projectId: ProjectRef; branch: string; ref: string };

/** POST /repository/branches: `ref` is a branch, tag or commit SHA. */
export function createBranch(connection: Connection, { projectId, branch, ref }: CreateBranchVariables): Promise<Branch> {
  return request(connection, branchesPath(projectId), branchSchema, { method: 'POST', body: { branch, ref } });
}

export async function deleteBranch(connection: Connection, { projectId, name }: { projectId: ProjectRef; name: string }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/repository/branches/${name}`, { method: 'DELETE' });
}

/** 202: the platform removes them in the background; the list may lag a moment behind. */
export async function deleteMergedBranches(connection: Connection, { projectId }: { projectId: ProjectRef }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/repository/merged_branches`, { method: 'DELETE' });
}

export type ProtectBranchVariables = {
  projectId: ProjectRef;
  name: string;
  push_access_level: ProtectionLevel;
  merge_access_level: ProtectionLevel;
  allow_force_push?: boolean;
};

export function protectBranch(connection: Connection, { projectId, ...body }: ProtectBranchVariables): Promise<ProtectedBranch> {
  return request(connection, apiPath`/projects/${projectId}/protected_branches`, protectedBranchSchema, { method: 'POST', body });
}

export async function unprotectBranch(connection: Connection, { projectId, name }: { projectId: ProjectRef; name: string }): Promise<void> {
  await send(connection, apiPath`/projects/${projectId}/protected_branches/${name}`, { method: 'DELETE' });
}
