import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { git, gitText, identityEnv, type Identity } from './exec.ts';
import { ZERO_SHA, lastCommitFor, lsTree } from './repository.ts';

/** A commit the platform refuses: answered 400 with this message, and nothing changed. */
export class CommitFailure extends Error {}

export type ActionKind = 'create' | 'delete' | 'move' | 'update' | 'chmod';

export interface CommitAction {
  action: ActionKind;
  filePath: string;
  previousPath?: string;
  /** Decoded content; undefined keeps the file's content (move) or is not allowed. */
  content?: Buffer;
  lastCommitId?: string;
  executeFilemode?: boolean;
}

interface IndexEntry {
  mode: string;
  sha: string;
}

/** Gitaly's path rules: relative, no `..` component, no `.git` component. */
export function normalizeRepoPath(raw: string): string {
  const trimmed = raw.replace(/^\/+/, '');
  if (!trimmed) throw new CommitFailure('You must provide a file path');
  const parts = trimmed.split('/');
  if (parts.some((part) => part === '..')) throw new CommitFailure('Path cannot include directory traversal');
  if (parts.some((part) => part === '' || part === '.' || part.toLowerCase() === '.git') || /[\x00\n]/.test(trimmed)) {
    throw new CommitFailure(`invalid path: '${trimmed}'`);
  }
  return trimmed;
}

async function withTempIndex<T>(work: (env: Record<string, string>, scratch: string) => Promise<T>): Promise<T> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-git-'));
  try {
    return await work({ GIT_INDEX_FILE: path.join(scratch, 'index') }, scratch);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function hashBlob(repo: string, content: Buffer): Promise<string> {
  return gitText(repo, ['hash-object', '-w', '--stdin'], { input: content });
}

async function treeOf(repo: string, commit: string): Promise<string> {
  return gitText(repo, ['rev-parse', '--verify', '--end-of-options', `${commit}^{tree}`]);
}

async function writeTreeFrom(repo: string, entries: Map<string, IndexEntry>): Promise<string> {
  return withTempIndex(async (env) => {
    const input = [...entries].map(([file, entry]) => `${entry.mode} ${entry.sha}\t${file}\0`).join('');
    await git(repo, ['update-index', '-z', '--add', '--index-info'], { env, input });
    return gitText(repo, ['write-tree'], { env });
  });
}

async function readEntries(repo: string, commit: string | null): Promise<Map<string, IndexEntry>> {
  const entries = new Map<string, IndexEntry>();
  if (!commit) return entries;
  for (const entry of await lsTree(repo, commit, { recursive: true })) {
    if (entry.type !== 'tree') entries.set(entry.path, { mode: entry.mode, sha: entry.sha });
  }
  return entries;
}

function hasDirectory(entries: Map<string, IndexEntry>, dir: string): boolean {
  const prefix = `${dir}/`;
  for (const key of entries.keys()) if (key.startsWith(prefix)) return true;
  return false;
}

function parentIsFile(entries: Map<string, IndexEntry>, file: string): boolean {
  const parts = file.split('/');
  for (let i = 1; i < parts.length; i++) if (entries.has(parts.slice(0, i).join('/'))) return true;
  return false;
}

export interface NewCommit {
  /** The branch to write; created when it does not exist yet. */
  branch: string;
  /** The commit the new one builds on (null: the first commit of a branch with no history). */
  parent: string | null;
  /** What the branch must point at for the update to apply (null: it must not exist). */
  expectedHead: string | null;
  message: string;
  author: Identity;
  committer: Identity;
  when: Date;
  authorDate?: Date;
}

/** Applies the actions on top of `parent` and returns the tree, or throws a CommitFailure. */
export async function treeWithActions(repo: string, parent: string | null, actions: readonly CommitAction[], options: { checkLastCommit?: boolean } = {}): Promise<string> {
  const entries = await readEntries(repo, parent);
  for (const action of actions) {
    const file = normalizeRepoPath(action.filePath);
    const previous = action.action === 'move' ? normalizeRepoPath(action.previousPath ?? '') : file;
    if (options.checkLastCommit !== false && action.lastCommitId && parent && ['update', 'move', 'delete'].includes(action.action)) {
      const last = await lastCommitFor(repo, parent, previous);
      if (last && last !== action.lastCommitId) throw new CommitFailure(`The file has changed since you started editing it: ${previous}`);
    }
    const existing = entries.get(previous);
    switch (action.action) {
      case 'create': {
        if (entries.has(file) || parentIsFile(entries, file)) throw new CommitFailure('A file with this name already exists');
        if (hasDirectory(entries, file)) throw new CommitFailure('A directory with this name already exists');
        entries.set(file, { mode: action.executeFilemode ? '100755' : '100644', sha: await hashBlob(repo, action.content ?? Buffer.alloc(0)) });
        break;
      }
      case 'update': {
        if (!existing || existing.mode === '160000') throw new CommitFailure("A file with this name doesn't exist");
        const mode = action.executeFilemode === undefined ? existing.mode : action.executeFilemode ? '100755' : '100644';
        entries.set(file, { mode, sha: await hashBlob(repo, action.content ?? Buffer.alloc(0)) });
        break;
      }
      case 'delete': {
        if (!existing) throw new CommitFailure("A file with this name doesn't exist");
        entries.delete(file);
        break;
      }
      case 'move': {
        if (!existing) throw new CommitFailure("A file with this name doesn't exist");
        if (file !== previous && (entries.has(file) || parentIsFile(entries, file))) throw new CommitFailure('A file with this name already exists');
        entries.delete(previous);
        if (hasDirectory(entries, file)) throw new CommitFailure('A directory with this name already exists');
        entries.set(file, { mode: existing.mode, sha: action.content === undefined ? existing.sha : await hashBlob(repo, action.content) });
        break;
      }
      case 'chmod': {
        if (!existing || existing.mode === '160000') throw new CommitFailure("A file with this name doesn't exist");
        entries.set(file, { mode: action.executeFilemode ? '100755' : '100644', sha: existing.sha });
        break;
      }
    }
  }
  return writeTreeFrom(repo, entries);
}

/**
 * Writes a commit of `tree` and moves the branch to it only if the branch still points where
 * the caller saw it: a concurrent change makes this fail instead of being overwritten.
 */
export async function commitTree(repo: string, tree: string, commit: NewCommit): Promise<string> {
  if (commit.message.includes('\0')) throw new CommitFailure('The commit message must not contain a NUL byte');
  if (commit.parent && tree === (await treeOf(repo, commit.parent))) {
    throw new CommitFailure('No changes were made');
  }
  const env = {
    ...identityEnv('AUTHOR', commit.author, commit.authorDate ?? commit.when),
    ...identityEnv('COMMITTER', commit.committer, commit.when),
  };
  const args = ['commit-tree', tree];
  if (commit.parent) args.push('-p', commit.parent);
  args.push('-F', '-');
  const sha = await gitText(repo, args, { env, input: commit.message });
  await moveBranch(repo, commit.branch, sha, commit.expectedHead);
  return sha;
}

/** Compare-and-swap of `refs/heads/<branch>`. */
export async function moveBranch(repo: string, branch: string, to: string, expected: string | null): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const result = await git(repo, ['update-ref', '--end-of-options', ref, to, expected ?? ZERO_SHA], { okCodes: [1, 128] });
  if (result.code !== 0) throw new CommitFailure(`Could not update ${ref}. Please refresh and try again.`);
}

export type PickOutcome = { tree: string } | { error: 'empty' | 'conflict' };

/**
 * Three-way merge of `theirs` into `ours` with `base` as the common ancestor, in a temporary
 * index: what `git cherry-pick` (base = the commit's parent) and `git revert` (base = the commit,
 * theirs = its parent) do, without a work tree. A null base or theirs is the empty tree. Content conflicts are tried with merge-file.
 */
export async function threeWayTree(repo: string, base: string | null, ours: string, theirs: string | null): Promise<PickOutcome> {
  const emptyTree = await gitText(repo, ['hash-object', '-t', 'tree', '-w', '--stdin'], { input: '' });
  return withTempIndex(async (env, scratch) => {
    const oursTree = await treeOf(repo, ours);
    await git(repo, ['read-tree', '-i', '-m', '--aggressive', base ?? emptyTree, ours, theirs ?? emptyTree], { env });
    const unmerged = (await git(repo, ['ls-files', '-u', '-z'], { env })).stdout.toString('utf8').split('\0').filter(Boolean);
    const stages = new Map<string, Map<number, IndexEntry>>();
    for (const record of unmerged) {
      const tab = record.indexOf('\t');
      const [mode, sha, stage] = record.slice(0, tab).split(' ');
      const file = record.slice(tab + 1);
      if (!stages.has(file)) stages.set(file, new Map());
      stages.get(file)!.set(Number(stage), { mode, sha });
    }
    const resolved: string[] = [];
    for (const [file, byStage] of stages) {
      const [baseEntry, oursEntry, theirsEntry] = [byStage.get(1), byStage.get(2), byStage.get(3)];
      if (!baseEntry || !oursEntry || !theirsEntry || [baseEntry, oursEntry, theirsEntry].some((entry) => entry.mode === '160000')) {
        return { error: 'conflict' } as const;
      }
      const paths = ['ours', 'base', 'theirs'].map((name) => path.join(scratch, name));
      const blobs = await Promise.all([oursEntry, baseEntry, theirsEntry].map((entry) => git(repo, ['cat-file', 'blob', entry.sha])));
      blobs.forEach((blob, index) => fs.writeFileSync(paths[index], blob.stdout));
      const merged = await git(repo, ['merge-file', '-p', '--quiet', ...paths], { okCodes: Array.from({ length: 127 }, (_, i) => i + 1) });
      if (merged.code !== 0) return { error: 'conflict' } as const;
      const sha = await hashBlob(repo, merged.stdout);
      const mode = oursEntry.mode === baseEntry.mode ? theirsEntry.mode : oursEntry.mode;
      resolved.push(`0 ${ZERO_SHA}\t${file}\0${mode} ${sha}\t${file}\0`);
    }
    if (resolved.length) await git(repo, ['update-index', '-z', '--index-info'], { env, input: resolved.join('') });
    const tree = await gitText(repo, ['write-tree'], { env });
    if (tree === oursTree) return { error: 'empty' } as const;
    return { tree };
  });
}
