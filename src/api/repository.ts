import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { requestKeysetPage, requestPage, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { treeQuery } from './first-requests.ts';
import { flag, loose } from './schema.ts';

/** spec 3, 2.x: one entry of GET /projects/:id/repository/tree. `commit` is a submodule. */
export const treeEntrySchema = loose({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  path: z.string(),
  mode: z.string(),
});
export type TreeEntry = z.infer<typeof treeEntrySchema>;

export const tagSchema = loose({
  name: z.string(),
  message: z.nullish(z.string()),
  target: z.nullish(z.string()),
  commit: z.nullish(loose({ id: z.string(), title: z.nullish(z.string()), committed_date: z.nullish(z.string()) })),
  protected: flag,
  created_at: z.nullish(z.string()),
});
export type Tag = z.infer<typeof tagSchema>;

export interface TreeParams {
  /** The directory, '' for the root; no leading or trailing `/`. */
  path: string;
  /** A branch, tag or commit sha; '' means the project's default branch. */
  ref: string;
  recursive?: boolean;
}

export interface TagListParams {
  search?: string;
  order_by?: 'name' | 'updated' | 'version';
  sort?: 'asc' | 'desc';
  page?: number;
  per_page?: number;
}

// a directory rarely has more; keyset pages keep a huge one cheap for the server

/** One keyset page of a directory; `nextUrl` (from the Link header) continues it. */
export function fetchTreePage(connection: Connection, projectId: number, params: TreeParams, nextUrl: string | null, signal?: AbortSignal) {
  return requestKeysetPage(connection, nextUrl ?? apiPath`/projects/${projectId}/repository/tree`, treeEntrySchema, {
    query: treeQuery(params.path, params.ref, params.recursive),
    signal,
  });
}

export const repositoryQueries = {
  all: () => ['repository'] as const,
  project: (projectId: number) => [...repositoryQueries.all(), { project: projectId }] as const,
  /** A directory, page after page (keyset: the server need not count a huge tree). */
  tree: (connection: Connection, projectId: number, params: TreeParams) =>
    infiniteQueryOptions({
      queryKey: [...repositoryQueries.project(projectId), 'tree', params] as const,
      queryFn: ({ pageParam, signal }) => fetchTreePage(connection, projectId, params, pageParam, signal),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextUrl ?? null,
    }),
  tags: (connection: Connection, projectId: number, params: TagListParams = {}) =>
    queryOptions({
      queryKey: [...repositoryQueries.project(projectId), 'tags', params] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/projects/${projectId}/repository/tags`, tagSchema, {
          query: { ...withoutEmpty(params), per_page: params.per_page ?? 20 },
          signal,
        }),
      staleTime: 60_000,
    }),
};

/** `a/b/c.txt` -> `a/b`; a root file -> ''. */
export function parentDirectory(filePath: string): string {
  const slash = filePath.lastIndexOf('/');
  return slash < 0 ? '' : filePath.slice(0, slash);
}

/** `a/b/c.txt` -> [{ name: 'a', path: 'a' }, { name: 'b', path: 'a/b' }, { name: 'c.txt', path: 'a/b/c.txt' }]. */
export function pathCrumbs(filePath: string): Array<{ name: string; path: string }> {
  const parts = filePath.split('/').filter(Boolean);
  return parts.map((name, index) => ({ name, path: parts.slice(0, index + 1).join('/') }));
}

