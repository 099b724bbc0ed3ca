import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import { parseWith, request, send, sendRaw, type Connection } from './http.ts';
import { apiPath } from './params.ts';
import { flag, loose } from './schema.ts';

/** spec 3, 4.3: a file's metadata, as GET /repository/files/:file_path answers it (plus `content`). */
export const fileMetaSchema = loose({
  file_name: z.string(),
  file_path: z.string(),
  size: z.number(),
  encoding: z.nullish(z.string()),
  content_sha256: z.nullish(z.string()),
  ref: z.string(),
  blob_id: z.string(),
  commit_id: z.string(),
  last_commit_id: z.string(),
  execute_filemode: flag,
});
export type FileMeta = z.infer<typeof fileMetaSchema>;

const fileAnswerSchema = z.extend(fileMetaSchema, { content: z.string() });

/** A file with its bytes; `text` is null when the bytes are not UTF-8 text (git's rule: no NUL, valid UTF-8). */
export interface RepositoryFile extends FileMeta {
  bytes: Uint8Array;
  text: string | null;
}

export const fileWriteAnswerSchema = loose({ file_path: z.string(), branch: z.string() });
export type FileWriteAnswer = z.infer<typeof fileWriteAnswerSchema>;

/** Base64 (as the platform sends it, possibly wrapped) to bytes. */
export function decodeBase64(base64: string): Uint8Array {
  const clean = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw new ApiError(200, 'The file’s content is not valid base64.', 'parse');
  const binary = atob(clean);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Bytes to base64, in chunks so a large file does not overflow the call stack. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}

/** The text of the bytes, or null when they are binary: a NUL in the first 8,000 bytes or invalid UTF-8 (as git decides). */
export function bytesToText(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, 8000).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

const filePath = (projectId: number, path: string, suffix = '') => `${apiPath`/projects/${projectId}/repository/files/${path}`}${suffix}`;

/** GET the file at `ref` (a branch, tag or sha; required by the platform) with its content decoded. */
export async function getFile(connection: Connection, projectId: number, path: string, ref: string, signal?: AbortSignal): Promise<RepositoryFile> {
  const answer = await request(connection, filePath(projectId, path), fileAnswerSchema, { query: { ref }, signal });
  const { content, ...meta } = answer;
  const bytes = answer.encoding === 'text' ? new TextEncoder().encode(content) : decodeBase64(content);
  return { ...meta, bytes, text: bytesToText(bytes) };
}

/** Metadata names in the headers: `X-Gitlab-Last-Commit-Id` on the platform, `X-Service-Last-Commit-Id` in the sandbox. */
export function fileMetaFromHeaders(headers: Headers): FileMeta {
  const read = (key: string) => {
    const name = key.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('-');
    return headers.get(`X-Gitlab-${name}`) ?? headers.get(`X-Service-${name}`);
  };
  const keys = ['file_name', 'file_path', 'size', 'encoding', 'content_sha256', 'ref', 'blob_id', 'commit_id', 'last_commit_id', 'execute_filemode'] as const;
  const raw: Record<string, unknown> = {};
  for (const key of keys) {
    const value = read(key);
    if (value === null) continue;
    // header values travel as bytes: a UTF-8 name arrives as Latin-1 characters
    const text = /[\x80-\xff]/.test(value) && !/[^\x00-\xff]/.test(value) ? bytesToText(Uint8Array.from(value, (char) => char.charCodeAt(0))) ?? value : value;
    raw[key] = key === 'size' ? Number(text) : key === 'execute_filemode' ? text === 'true' : text;
  }
  return parseWith(fileMetaSchema, raw, 'HEAD repository file');
}

/** HEAD: the file's metadata without its content (to learn its size or last commit cheaply). */
export async function getFileMeta(connection: Connection, projectId: number, path: string, ref: string, signal?: AbortSignal): Promise<FileMeta> {
  const response = await send(connection, filePath(projectId, path), { method: 'HEAD', query: { ref }, signal });
  return fileMetaFromHeaders(response.headers);
}

/**
 * The raw bytes as a Blob, fetched with the token in a header: a link with the token in its URL
 * would leak it to history and logs.
 */
export async function fetchRawFile(connection: Connection, projectId: number, path: string, ref: string, signal?: AbortSignal): Promise<Blob> {
  return (await sendRaw(connection, filePath(projectId, path, '/raw'), { query: { ref }, signal })).blob();
}

/** Files above this are not fetched for viewing: their content would travel as base64 JSON. */
export const PREVIEW_LIMIT_BYTES = 5 * 1024 * 1024;

/** A file for the viewer: its content, or only its metadata when it is over the preview limit. */
export type FileView = (RepositoryFile & { tooLarge: false }) | (FileMeta & { bytes: null; text: null; tooLarge: true });

/** HEAD first (cheap); the content only when the file is small enough to show. */
export async function getFileView(connection: Connection, projectId: number, path: string, ref: string, signal?: AbortSignal): Promise<FileView> {
  let meta: FileMeta | null = null;
  try {
    meta = await getFileMeta(connection, projectId, path, ref, signal);
  } catch (error) {
    // a HEAD error has no body to explain it: the GET below fails with the platform's words
    if (!(error instanceof ApiError) || error.kind !== 'http') throw error;
  }
  if (meta && meta.size > PREVIEW_LIMIT_BYTES) return { ...meta, bytes: null, text: null, tooLarge: true };
  return { ...(await getFile(connection, projectId, path, ref, signal)), tooLarge: false };
}

export const filesQueries = {
  all: () => ['files'] as const,
  project: (projectId: number) => [...filesQueries.all(), { project: projectId }] as const,
  file: (connection: Connection, projectId: number, path: string, ref: string) =>
    queryOptions({
      queryKey: [...filesQueries.project(projectId), 'file', { path, ref }] as const,
      queryFn: ({ signal }) => getFile(connection, projectId, path, ref, signal),
    }),
  view: (connection: Connection, projectId: number, path: string, ref: string) =>
    queryOptions({
      queryKey: [...filesQueries.project(projectId), 'view', { path, ref }] as const,
      queryFn: ({ signal }) => getFileView(connection, projectId, path, ref, signal),
    }),
};

// -- writes (spec 3, 4.3)

interface FileWriteBase {
  projectId: number;
  path: string;
  /** The branch the commit lands on; created from `startBranch` when it does not exist. */
  branch: string;
  startBranch?: string;
  commitMessage: string;
}

export interface FileSaveVariables extends FileWriteBase {
  content: string;
  /** 'base64' for binary content the caller encoded. */
  encoding?: 'text' | 'base64';
  /** The file's last commit when editing began: a moved branch then answers 400 instead of overwriting. */
  lastCommitId?: string;
}

export interface FileDeleteVariables extends FileWriteBase {
  lastCommitId?: string;
}

function writeBody(variables: FileWriteBase & { content?: string; encoding?: string; lastCommitId?: string }) {
  return {
    branch: variables.branch,
    commit_message: variables.commitMessage,
    ...(variables.startBranch && variables.startBranch !== variables.branch ? { start_branch: variables.startBranch } : {}),
    ...(variables.content !== undefined ? { content: variables.content, encoding: variables.encoding ?? 'text' } : {}),
    ...(variables.lastCommitId ? { last_commit_id: variables.lastCommitId } : {}),
  };
}

export function createFile(connection: Connection, variables: FileSaveVariables): Promise<FileWriteAnswer> {
  return request(connection, filePath(variables.projectId, variables.path), fileWriteAnswerSchema, { method: 'POST', body: writeBody(variables) });
}

export function updateFile(connection: Connection, variables: FileSaveVariables): Promise<FileWriteAnswer> {
  return request(connection, filePath(variables.projectId, variables.path), fileWriteAnswerSchema, { method: 'PUT', body: writeBody(variables) });
}

export async function deleteFile(connection: Connection, variables: FileDeleteVariables): Promise<void> {
  await send(connection, filePath(variables.projectId, variables.path), { method: 'DELETE', body: writeBody(variables) });
}

/** The platform's answer when the branch moved under an edit (Files::UpdateService) or a delete. */
export function isStaleEditError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && /changed since you started editing|has been previously updated|has changed since you started/i.test(error.message);
}
