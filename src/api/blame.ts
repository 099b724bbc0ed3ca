import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { parseWith, send, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { loose } from './schema.ts';

/** The commit of a blame range (spec 3, 4.3): the platform sends no title, the message's first line is one. */
export const blameCommitSchema = loose({
  id: z.string(),
  message: z.pipe(z.nullish(z.string()), z.transform((value) => value ?? '')),
  authored_date: z.nullish(z.string()),
  author_name: z.nullish(z.string()),
  author_email: z.nullish(z.string()),
  committed_date: z.nullish(z.string()),
});
export type BlameCommit = z.infer<typeof blameCommitSchema>;

/** One run of consecutive lines last changed by one commit; its first line is the previous run's end plus one. */
export const blameGroupSchema = loose({
  commit: blameCommitSchema,
  lines: z.array(z.pipe(z.nullable(z.string()), z.transform((line) => line ?? ''))),
});
export type BlameGroup = z.infer<typeof blameGroupSchema>;

const blameSchema = z.array(blameGroupSchema);

export interface BlameRangeRequest {
  projectId: number;
  filePath: string;
  /** A branch, tag or commit sha. */
  ref: string;
  /** First and last line, 1-based and inclusive; the platform cuts an end past the file to its last line. */
  start: number;
  end: number;
}

export interface BlameRangeAnswer {
  groups: BlameGroup[];
  /** The commit the ref resolved to (`X-Gitlab-Commit-Id`, the sandbox's `X-Service-Commit-Id`), when the headers are readable. */
  commitId: string | null;
  /** The file's size in bytes (`X-Gitlab-Size` / `X-Service-Size`), when the headers are readable. */
  sizeBytes: number | null;
}

/** File metadata headers: the platform's `X-Gitlab-*` names or the sandbox's `X-Service-*` ones. */
function fileHeader(headers: Headers, name: string): string | null {
  return headers.get(`X-Gitlab-${name}`) ?? headers.get(`X-Service-${name}`);
}

/** `GET /projects/:id/repository/files/:file_path/blame` for one range of lines. */
export async function fetchBlameRange(connection: Connection, request: BlameRangeRequest, signal?: AbortSignal): Promise<BlameRangeAnswer> {
  const path = apiPath`/projects/${request.projectId}/repository/files/${request.filePath}/blame`;
  const response = await send(connection, path, { query: { ref: request.ref, range: { start: request.start, end: request.end } }, signal });
  const groups = parseWith(blameSchema, response.data, `GET ${path}`);
  const size = Number(fileHeader(response.headers, 'Size') ?? Number.NaN);
  const commitId = fileHeader(response.headers, 'Commit-Id');
  return { groups, commitId: commitId && /^[0-9a-f]{7,64}$/i.test(commitId) ? commitId : null, sizeBytes: Number.isFinite(size) && size >= 0 ? size : null };
}

/**
 * The file's size in bytes from `HEAD /projects/:id/repository/files/:file_path`, for an instance
 * whose blame answers carry no metadata headers; null when the headers are not readable either.
 */
export async function fetchFileSize(connection: Connection, projectId: number, filePath: string, ref: string, signal?: AbortSignal): Promise<number | null> {
  const response = await send(connection, apiPath`/projects/${projectId}/repository/files/${filePath}`, { method: 'HEAD', query: { ref }, signal });
  const size = Number(fileHeader(response.headers, 'Size') ?? Number.NaN);
  return Number.isFinite(size) && size >= 0 ? size : null;
}

/** A range that starts after the file's last line: the answer that tells where the file ends. */
export function isPastEndOfFile(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'http' && error.status === 400 && /outside|length/i.test(error.message);
}

/** The first line of a commit message: what the platform calls its title. */
export function commitTitle(message: string): string {
  return message.split('\n', 1)[0].trim();
}

const COMMIT_SHA = /^[0-9a-f]{40,64}$/i;

export const blameQueries = {
  /** One range, under the files area's keys; a commit's blame never changes, a branch's may. */
  range: (connection: Connection, request: BlameRangeRequest) =>
    queryOptions({
      queryKey: ['files', { project: request.projectId }, 'blame', { path: request.filePath, ref: request.ref, start: request.start, end: request.end }] as const,
      queryFn: ({ signal }) => fetchBlameRange(connection, request, signal),
      staleTime: COMMIT_SHA.test(request.ref) ? Number.POSITIVE_INFINITY : 30_000,
    }),
};
