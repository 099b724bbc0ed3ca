import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { HttpError, notFound, paramError } from '../http/errors.ts';
import { collectParamErrors } from '../http/params.ts';
import { pathParam, type Call, type Router } from '../http/route.ts';
import type { ProjectRow } from '../model/access.ts';
import { canAccessBranch } from '../model/protected-branches.ts';
import {
  REPOSITORY_READ_SCOPES, commitFailed, commitNotFound, fileNotFound, readableRepositoryProject, repositoryFor,
  requirePushCode, writableRepository,
} from '../git/access.ts';
import { recordPush } from '../git/entities.ts';
import { announceRefChanges } from '../git/push-events.ts';
import { blameFile, blameRange } from '../git/blame.ts';
import { ZERO_SHA, entryAt, lastCommitFor, readBlob, resolveCommit, type RawCommit, type TreeEntry } from '../git/repository.ts';
import { CommitFailure, commitTree, treeWithActions, type CommitAction } from '../git/write.ts';
import { authorOf, committerOf, decodeContent, planCommit } from './commits.ts';

/**
 * The platform's file_path validator: no `..` component (also percent-encoded) and, except for
 * raw, no leading `/`. Anything else answers 400 "file_path should be a valid file path".
 */
function validFilePath(value: string, options: { allowInitialSeparator?: boolean } = {}): string {
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // not percent-encoded twice: the path as given
  }
  const traversal = [value, decoded].some((candidate) => candidate.split(/[/\\]/).includes('..'));
  const absolute = value.startsWith('/') && !options.allowInitialSeparator;
  if (!value || traversal || absolute || value.includes('\0')) throw paramError('file_path should be a valid file path');
  return value.replace(/^\/+/, '');
}

/** Header values travel as bytes: UTF-8 names go out as their raw bytes, as the platform's do. */
function headerValue(value: string | number | boolean): string {
  return Buffer.from(String(value), 'utf8').toString('latin1');
}

interface LoadedFile {
  project: ProjectRow;
  repo: string;
  ref: string;
  commit: string;
  entry: TreeEntry;
  filePath: string;
}

async function loadFile(c: Context<AppEnv>, call: Call, options: { refRequired: boolean; allowInitialSeparator?: boolean }): Promise<LoadedFile> {
  let filePath = '';
  let ref = '';
  collectParamErrors([
    () => {
      filePath = validFilePath(pathParam(c, 'file_path'), options);
    },
    () => {
      const given = call.params.string('ref');
      if (given === undefined && options.refRequired) throw paramError('ref is missing');
      if (given !== undefined && given.trim() === '') throw paramError('ref is empty');
      ref = given ?? 'HEAD';
    },
  ]);
  const project = readableRepositoryProject(c, call);
  const repo = repositoryFor(call, project);
  // HEAD is the project's default branch
  const commit = await resolveCommit(repo, ref === 'HEAD' ? `refs/heads/${project.default_branch}` : ref);
  if (!commit || !repo) throw commitNotFound();
  const entry = await entryAt(repo, commit, filePath);
  if (!entry || entry.type !== 'blob') throw fileNotFound();
  return { project, repo, ref, commit, entry, filePath };
}

async function blobData(file: LoadedFile, content: Buffer) {
  return {
    file_name: path.posix.basename(file.entry.path),
    file_path: file.entry.path,
    size: file.entry.size ?? content.length,
    encoding: 'base64',
    content_sha256: createHash('sha256').update(content).digest('hex'),
    ref: file.ref,
    blob_id: file.entry.sha,
    commit_id: file.commit,
    last_commit_id: await lastCommitFor(file.repo, file.commit, file.entry.path),
    execute_filemode: file.entry.mode === '100755',
  };
}

/** The metadata headers of spec 3, 4.3 (the sandbox's `X-Service-*` names). */
function setFileHeaders(c: Context<AppEnv>, data: Record<string, string | number | boolean | null>): void {
  for (const [key, value] of Object.entries(data)) {
    const name = `X-Service-${key.split('_').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('-')}`;
    c.header(name, headerValue(value ?? ''));
  }
}

/** Text is UTF-8 without NUL bytes in its first 8000 bytes, as git decides what is binary. */
function isText(content: Buffer): boolean {
  const head = content.subarray(0, 8000);
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < content.length ? head.subarray(0, head.length - 4) : head);
    return true;
  } catch {
    return false;
  }
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.ico': 'image/x-icon', '.bmp': 'image/bmp',
};

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize \d+\n/;

function blameCommit(commit: RawCommit) {
  return {
    id: commit.id,
    parent_ids: commit.parentIds,
    message: commit.message,
    authored_date: commit.authoredDate,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    committed_date: commit.committedDate,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
  };
}

function blameRangeParam(call: Call): { start: number; end: number } | null {
  const raw = call.params.raw.range;
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw paramError('range is invalid');
  const range = raw as Record<string, unknown>;
  const read = (key: 'start' | 'end', errors: string[]): number => {
    const value = range[key];
    if (value === undefined || value === null || value === '') {
      errors.push(`range[${key}] is missing`);
      return 0;
    }
    const number = typeof value === 'number' ? value : /^-?\d+$/.test(String(value).trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number)) errors.push(`range[${key}] is invalid`);
    else if (number <= 0) errors.push(`range[${key}] does not have a valid value`);
    return number;
  };
  const errors: string[] = [];
  const start = read('start', errors);
  const end = read('end', errors);
  if (errors.length) throw paramError(errors.join(', '));
  if (start > end) throw new HttpError(400, { message: 'range[start] must be less than or equal to range[end]' });
  return { start, end };
}

interface WriteInput {
  filePath: string;
  branch: string;
  commitMessage: string;
  startBranch?: string;
  authorName?: string;
  authorEmail?: string;
  content?: Buffer;
  lastCommitId?: string;
  executeFilemode?: boolean;
}

function readWriteParams(c: Context<AppEnv>, call: Call, kind: 'create' | 'update' | 'delete'): WriteInput {
  const { params } = call;
  const input = {} as WriteInput;
  let content: string | undefined;
  let encoding = 'text';
  collectParamErrors([
    () => {
      input.filePath = validFilePath(pathParam(c, 'file_path'));
    },
    () => {
      input.branch = params.requiredString('branch');
    },
    () => {
      input.commitMessage = params.requiredString('commit_message');
    },
    () => {
      input.startBranch = params.string('start_branch');
    },
    () => {
      input.authorEmail = params.string('author_email');
    },
    () => {
      input.authorName = params.string('author_name');
    },
    ...(kind === 'delete' ? [] : [
      () => {
        content = params.string('content');
        if (content === undefined) throw paramError('content is missing');
      },
      () => {
        encoding = params.oneOf('encoding', ['base64', 'text'] as const) ?? 'text';
      },
      () => {
        input.executeFilemode = params.bool('execute_filemode');
      },
    ]),
    () => {
      input.lastCommitId = params.string('last_commit_id');
    },
  ]);
  if (content !== undefined) input.content = decodeContent(content, encoding);
  return input;
}

async function writeFile(c: Context<AppEnv>, call: Call, kind: 'create' | 'update' | 'delete'): Promise<{ project: ProjectRow; input: WriteInput }> {
  const project = readableRepositoryProject(c, call);
  requirePushCode(call, project);
  const input = readWriteParams(c, call, kind);
  const repo = writableRepository(call, project);
  try {
    // Commits::CreateService: a branch the caller may not push to is a failed commit here
    if (!canAccessBranch(call.sandbox.db, call.actor, project, input.branch, 'push', call.now)) {
      throw new CommitFailure('You are not allowed to push into this branch');
    }
    const plan = await planCommit(repo, { branch: input.branch, startBranch: input.startBranch ?? input.branch });
    if (input.lastCommitId && plan.parent && kind !== 'create') {
      const last = await lastCommitFor(repo, plan.parent, input.filePath);
      if (last && last !== input.lastCommitId) {
        throw new CommitFailure(kind === 'update'
          ? 'You are attempting to update a file that has changed since you started editing it.'
          : 'You are attempting to delete a file that has been previously updated.');
      }
    }
    const action: CommitAction = { action: kind, filePath: input.filePath, content: input.content, executeFilemode: input.executeFilemode };
    const tree = await treeWithActions(repo, plan.parent, [action], { checkLastCommit: false });
    const sha = await commitTree(repo, tree, {
      branch: input.branch,
      parent: plan.parent,
      expectedHead: plan.expectedHead,
      message: input.commitMessage,
      author: authorOf(call, { author_name: input.authorName, author_email: input.authorEmail }),
      committer: committerOf(call),
      when: call.sandbox.now(),
    });
    recordPush(call.sandbox, project, input.branch, { firstBranch: plan.firstBranch });
    announceRefChanges(call.sandbox, project, call.actor.user, repo, [{ ref: `refs/heads/${input.branch}`, before: plan.expectedHead ?? ZERO_SHA, after: sha }]);
  } catch (error) {
    if (error instanceof CommitFailure) throw commitFailed(error.message);
    throw error;
  }
  return { project, input };
}

export function registerFiles(routes: Router): void {
  routes.get('/projects/:id/repository/files/:file_path/blame', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const range = blameRangeParam(call);
    const file = await loadFile(c, call, { refRequired: true });
    const content = await readBlob(file.repo, file.entry.sha);
    setFileHeaders(c, await blobData(file, content));
    if (c.req.method === 'HEAD') return c.body(null, 200);
    const blame = await blameFile(file.repo, file.commit, file.entry.path);
    if (range && range.start > blame.lineCount) throw new HttpError(400, { message: 'range is outside of the file length' });
    // an end past the last line is cut to the file, as git does
    const groups = range ? blameRange(blame, range.start, range.end) : blame.groups;
    return c.json(groups.map((group) => ({ commit: blameCommit(blame.commits.get(group.sha)!), lines: group.lines })));
  });

  routes.get('/projects/:id/repository/files/:file_path/raw', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const lfs = call.params.bool('lfs') ?? false;
    const file = await loadFile(c, call, { refRequired: false, allowInitialSeparator: true });
    const content = await readBlob(file.repo, file.entry.sha);
    // large-file objects are not stored in the sandbox: asking for one behind a pointer finds nothing
    if (lfs && LFS_POINTER.test(content.toString('latin1'))) throw notFound();
    setFileHeaders(c, await blobData(file, content));
    const name = path.posix.basename(file.entry.path);
    const type = isText(content) ? 'text/plain; charset=utf-8' : IMAGE_TYPES[path.posix.extname(name).toLowerCase()] ?? 'application/octet-stream';
    c.header('Content-Type', type);
    c.header('Content-Disposition', `inline; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    c.header('Cache-Control', 'no-cache');
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.body(new Uint8Array(content), 200);
  });

  routes.get('/projects/:id/repository/files/:file_path', { auth: 'public', scopes: REPOSITORY_READ_SCOPES }, async (c, call) => {
    const file = await loadFile(c, call, { refRequired: true });
    const content = await readBlob(file.repo, file.entry.sha);
    const data = await blobData(file, content);
    setFileHeaders(c, data);
    if (c.req.method === 'HEAD') return c.body(null, 200);
    return c.json({ ...data, content: content.toString('base64') });
  });

  routes.post('/projects/:id/repository/files/:file_path', { async: true }, async (c, call) => {
    const { input } = await writeFile(c, call, 'create');
    return c.json({ file_path: input.filePath, branch: input.branch }, 201);
  });

  routes.put('/projects/:id/repository/files/:file_path', { async: true }, async (c, call) => {
    const { input } = await writeFile(c, call, 'update');
    return c.json({ file_path: input.filePath, branch: input.branch }, 200);
  });

  routes.delete('/projects/:id/repository/files/:file_path', { async: true }, async (c, call) => {
    await writeFile(c, call, 'delete');
    return c.body(null, 204);
  });
}
