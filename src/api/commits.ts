import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { request, requestPage, type Connection } from './http.ts';
import { apiPath, withoutEmpty } from './params.ts';
import { flag, loose } from './schema.ts';
import { mapWithConcurrency } from '../lib/concurrency.ts';

// -- schemas (spec 3, 2.1)

const orEmptyRecord = <S extends z.ZodMiniType>(value: S) =>
  z.pipe(z.nullish(z.record(z.string(), value)), z.transform((record) => (record ?? {}) as Record<string, z.infer<S>>));

export const commitStatsSchema = loose({ additions: z.number(), deletions: z.number(), total: z.number() });
export type CommitStats = z.infer<typeof commitStatsSchema>;

export const lastPipelineSchema = loose({ id: z.number(), ref: z.nullish(z.string()), sha: z.nullish(z.string()), status: z.nullish(z.string()) });

/** The Commit entity; the single-commit answer (CommitDetail) adds stats, status and last_pipeline. */
export const commitSchema = loose({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  message: z.string(),
  author_name: z.nullish(z.string()),
  author_email: z.nullish(z.string()),
  authored_date: z.nullish(z.string()),
  committer_name: z.nullish(z.string()),
  committer_email: z.nullish(z.string()),
  committed_date: z.nullish(z.string()),
  created_at: z.nullish(z.string()),
  parent_ids: z.pipe(z.nullish(z.array(z.string())), z.transform((ids) => ids ?? [])),
  trailers: orEmptyRecord(z.string()),
  extended_trailers: orEmptyRecord(z.array(z.string())),
  web_url: z.nullish(z.string()),
  stats: z.nullish(commitStatsSchema),
  status: z.nullish(z.string()),
  last_pipeline: z.nullish(lastPipelineSchema),
});
export type Commit = z.infer<typeof commitSchema>;

/** A branch or tag whose history contains a commit. */
export const commitRefSchema = loose({ type: z.string(), name: z.string() });
export type CommitRef = z.infer<typeof commitRefSchema>;

export const commitSequenceSchema = loose({ count: z.number() });

/** One changed file of a commit's diff (the platform's Diff entity). */
export const commitDiffSchema = loose({
  diff: z.pipe(z.nullish(z.string()), z.transform((text) => text ?? '')),
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.nullish(z.string()),
  b_mode: z.nullish(z.string()),
  new_file: flag,
  renamed_file: flag,
  deleted_file: flag,
  generated_file: flag,
  too_large: flag,
  collapsed: flag,
});
export type CommitDiff = z.infer<typeof commitDiffSchema>;

const dryRunSchema = loose({ dry_run: z.literal('success') });

// -- reading

export const COMMIT_ORDERS = ['default', 'topo'] as const;
export type CommitOrder = (typeof COMMIT_ORDERS)[number];

/** The list filters of spec 3, 4.1. `since`/`until` are ISO 8601 date-times (see `sinceOf`/`untilOf` in lib/time.ts). */
export interface CommitFilters {
  ref_name?: string;
  since?: string;
  until?: string;
  path?: string;
  author?: string;
  all?: boolean;
  first_parent?: boolean;
  order?: CommitOrder;
  with_stats?: boolean;
  trailers?: boolean;
}

export interface CommitListParams extends CommitFilters {
  page: number;
  per_page: number;
}

// the day bounds live in lib/time.ts (the pipelines list uses them without this module's schemas)

/** The list's query: empty filters and `false` flags left out; `order=default` is the platform's own default. */
export function commitListQuery(params: CommitListParams) {
  const { order, ...rest } = params;
  return { ...withoutEmpty(rest), ...(order && order !== 'default' ? { order } : {}) };
}

const commitsPath = (projectId: number) => apiPath`/projects/${projectId}/repository/commits`;
const commitPath = (projectId: number, sha: string) => apiPath`/projects/${projectId}/repository/commits/${sha}`;

export const REFS_PER_PAGE = 100;
export const DIFFS_PER_PAGE = 100;
const LAST_COMMITS_IN_FLIGHT = 4;

export const commitsQueries = {
  all: () => ['commits'] as const,
  project: (projectId: number) => [...commitsQueries.all(), { project: projectId }] as const,
  list: (connection: Connection, projectId: number, params: CommitListParams) =>
    queryOptions({
      queryKey: [...commitsQueries.project(projectId), 'list', params] as const,
      queryFn: ({ signal }) => requestPage(connection, commitsPath(projectId), commitSchema, { query: commitListQuery(params), signal }),
    }),
  /**
   * The last commit touching each path at `ref` (null: none; undefined: its request failed), one
   * history of one commit per path with at most 4 in flight, as a directory listing shows them.
   */
  lastOfPaths: (connection: Connection, projectId: number, ref: string, paths: readonly string[]) =>
    queryOptions({
      queryKey: [...commitsQueries.project(projectId), 'last-of-paths', { ref, paths }] as const,
      queryFn: async ({ signal }) => {
        const results = await mapWithConcurrency(
          paths,
          LAST_COMMITS_IN_FLIGHT,
          (path) => requestPage(connection, commitsPath(projectId), commitSchema, { query: { ref_name: ref, path, per_page: 1 }, signal }),
          signal,
        );
        return new Map(paths.map((path, index) => {
          const result = results[index];
          return [path, result.ok ? (result.value.items[0] ?? null) : undefined] as const;
        }));
      },
      staleTime: 60_000,
    }),
  commit: (projectId: number, sha: string) => [...commitsQueries.project(projectId), { sha }] as const,
  detail: (connection: Connection, projectId: number, sha: string) =>
    queryOptions({
      queryKey: [...commitsQueries.commit(projectId, sha), 'detail'] as const,
      queryFn: ({ signal }) => request(connection, commitPath(projectId, sha), commitSchema, { signal }),
    }),
  /** Branches and tags containing the commit: the first `REFS_PER_PAGE`, and whether there are more. */
  refs: (connection: Connection, projectId: number, sha: string, page = 1) =>
    queryOptions({
      queryKey: [...commitsQueries.commit(projectId, sha), 'refs', { page }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/projects/${projectId}/repository/commits/${sha}/refs`, commitRefSchema, { query: { type: 'all', page, per_page: REFS_PER_PAGE }, signal }),
    }),
  /** How many commits lead to this one (`git rev-list --count`). */
  sequence: (connection: Connection, projectId: number, sha: string, firstParent = false) =>
    queryOptions({
      queryKey: [...commitsQueries.commit(projectId, sha), 'sequence', { first_parent: firstParent }] as const,
      queryFn: async ({ signal }) =>
        (await request(connection, apiPath`/projects/${projectId}/repository/commits/${sha}/sequence`, commitSequenceSchema, { query: withoutEmpty({ first_parent: firstParent }), signal })).count,
      staleTime: 5 * 60_000,
    }),
  diff: (connection: Connection, projectId: number, sha: string, page = 1) =>
    queryOptions({
      queryKey: [...commitsQueries.commit(projectId, sha), 'diff', { page }] as const,
      queryFn: ({ signal }) =>
        requestPage(connection, apiPath`/projects/${projectId}/repository/commits/${sha}/diff`, commitDiffSchema, { query: { page, per_page: DIFFS_PER_PAGE }, signal }),
      // a commit's diff never changes
      staleTime: Infinity,
    }),
};

// -- writing

export type CommitActionKind = 'create' | 'delete' | 'move' | 'update' | 'chmod';

export interface CommitAction {
  action: CommitActionKind;
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: 'text' | 'base64';
  last_commit_id?: string;
  execute_filemode?: boolean;
}

export interface CommitCreate {
  branch: string;
  commit_message: string;
  start_branch?: string;
  start_sha?: string;
  actions: CommitAction[];
  author_email?: string;
  author_name?: string;
  force?: boolean;
}

/** POST /projects/:id/repository/commits: several file changes as one commit. */
export function createCommit(connection: Connection, projectId: number, body: CommitCreate): Promise<Commit> {
  return request(connection, commitsPath(projectId), commitSchema, { method: 'POST', body });
}

export type PickKind = 'cherry_pick' | 'revert';

export interface PickVariables {
  sha: string;
  branch: string;
  /** Cherry-pick only: the new commit's message instead of the original's. */
  message?: string;
}

/** Why the platform could not apply a commit: nothing left to change, or a conflict. */
export type PickErrorCode = 'empty' | 'conflict';

/** The `error_code` of a failed cherry-pick or revert, when the platform named one. */
export function pickErrorCode(error: unknown): PickErrorCode | undefined {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return undefined;
  const code = (error.body as Record<string, unknown>).error_code;
  return code === 'empty' || code === 'conflict' ? code : undefined;
}

export type PickCheck = { applies: true } | { applies: false; code?: PickErrorCode; message: string };

const pickPath = (projectId: number, sha: string, kind: PickKind) => apiPath`/projects/${projectId}/repository/commits/${sha}/` + kind;

/**
 * Tries the cherry-pick or revert without writing (`dry_run`). A conflict or an empty change is
 * an answer, not a failure; anything else (no permission, unknown branch) throws.
 */
export async function checkPick(connection: Connection, projectId: number, kind: PickKind, { sha, branch }: PickVariables): Promise<PickCheck> {
  try {
    await request(connection, pickPath(projectId, sha, kind), dryRunSchema, { method: 'POST', body: { branch, dry_run: true } });
    return { applies: true };
  } catch (error) {
    const code = pickErrorCode(error);
    if (code && error instanceof ApiError) return { applies: false, code, message: error.message };
    throw error;
  }
}

/** Cherry-picks a commit onto `branch`: the new commit. */
export function cherryPickCommit(connection: Connection, projectId: number, { sha, branch, message }: PickVariables): Promise<Commit> {
  return request(connection, pickPath(projectId, sha, 'cherry_pick'), commitSchema, { method: 'POST', body: withoutEmpty({ branch, message }) });
}

/** Adds a commit to `branch` undoing `sha`: the new commit. */
export function revertCommit(connection: Connection, projectId: number, { sha, branch }: PickVariables): Promise<Commit> {
  return request(connection, pickPath(projectId, sha, 'revert'), commitSchema, { method: 'POST', body: { branch } });
}
