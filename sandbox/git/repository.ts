import fs from 'node:fs';
import path from 'node:path';
import type { Sandbox } from '../context.ts';
import { git, gitSync, gitText } from './exec.ts';

/** The tree of a commit with no files. */
export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
export const ZERO_SHA = '0000000000000000000000000000000000000000';

export interface RepositoryOwner {
  id: number;
  repository_storage: string;
  default_branch: string;
  created_at: string;
}

const OWNER_FILE = 'sandbox-project';

export function repositoryPath(sandbox: Pick<Sandbox, 'dataDir'>, project: Pick<RepositoryOwner, 'id' | 'repository_storage'>): string {
  const storage = /^[A-Za-z0-9_.-]+$/.test(project.repository_storage) ? project.repository_storage : 'default';
  return path.join(sandbox.dataDir, 'repositories', storage, `${project.id}.git`);
}

// a project id can come back after a hard delete; the marker tells a stale repository from its own
const ownerMark = (project: RepositoryOwner) => `${project.id} ${project.created_at}\n`;

function ownedBy(dir: string, project: RepositoryOwner): boolean {
  try {
    return fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8') === ownerMark(project);
  } catch {
    return false;
  }
}

/** The project's repository if it has been created, else null (an empty repository). */
export function existingRepository(sandbox: Pick<Sandbox, 'dataDir'>, project: RepositoryOwner): string | null {
  const dir = repositoryPath(sandbox, project);
  return ownedBy(dir, project) ? dir : null;
}

/**
 * The project's bare repository, created on first use with HEAD on the project's default branch.
 * A directory left by a deleted project with the same id is replaced.
 */
export function ensureRepository(sandbox: Pick<Sandbox, 'dataDir'>, project: RepositoryOwner): string {
  const dir = repositoryPath(sandbox, project);
  if (ownedBy(dir, project)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  gitSync(dir, ['init', '--quiet', '--bare', `--initial-branch=${safeBranchForHead(project.default_branch)}`, dir]);
  fs.writeFileSync(path.join(dir, OWNER_FILE), ownerMark(project));
  return dir;
}

function safeBranchForHead(name: string): string {
  return isValidBranchName(name) ? name : 'main';
}

/** Whether any branch exists, read from the files so project entities stay synchronous. */
export function repositoryHasBranches(sandbox: Pick<Sandbox, 'dataDir'>, project: RepositoryOwner): boolean {
  const dir = existingRepository(sandbox, project);
  if (!dir) return false;
  try {
    if (/ refs\/heads\//.test(fs.readFileSync(path.join(dir, 'packed-refs'), 'utf8'))) return true;
  } catch {
    // no packed refs yet
  }
  const walk = (folder: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return false;
    }
    return entries.some((entry) => (entry.isDirectory() ? walk(path.join(folder, entry.name)) : entry.isFile()));
  };
  return walk(path.join(dir, 'refs', 'heads'));
}

/**
 * git's own rules for a branch name (check-ref-format), checked here so no name reaches git as
 * an option: no leading `-`, no `..`, no control characters, space, `~^:?*[\`, no `@{`, no
 * component starting with `.` or ending in `.lock`, no trailing `/` or `.`.
 */
export function isValidBranchName(name: string): boolean {
  if (!name || name.length > 1024 || name === '@' || name === 'HEAD') return false;
  if (name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((part) => part.length > 0 && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** A revision expression safe to hand to git: never an option, no control characters. */
export function isSafeRevision(rev: string): boolean {
  return rev.length > 0 && rev.length <= 1024 && !rev.startsWith('-') && !/[\x00-\x1f\x7f]/.test(rev);
}

/** The commit a branch, tag or sha names, or null. */
export async function resolveCommit(repo: string | null, rev: string): Promise<string | null> {
  if (!repo || !isSafeRevision(rev)) return null;
  const result = await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { okCodes: [1, 128] });
  const sha = result.stdout.toString('utf8').trim();
  return result.code === 0 && /^[0-9a-f]{40}$/.test(sha) ? sha : null;
}

/** The commit at the tip of `refs/heads/<name>`, or null. */
export async function branchHead(repo: string | null, name: string): Promise<string | null> {
  if (!repo || !isValidBranchName(name)) return null;
  return resolveCommit(repo, `refs/heads/${name}`);
}

export interface RefEntry {
  name: string;
  sha: string;
}

/** Branches sorted by name (byte order, as git sorts refs). */
export async function listBranches(repo: string | null): Promise<RefEntry[]> {
  if (!repo) return [];
  const text = await gitText(repo, ['for-each-ref', '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads/']);
  return text ? text.split('\n').map((line) => ({ sha: line.slice(0, 40), name: line.slice(41) })) : [];
}

export interface TagEntry {
  name: string;
  /** The tag object for an annotated tag, the commit for a lightweight one. */
  target: string;
  commit: string | null;
  message: string | null;
  taggerDate: string | null;
  commitDate: number;
}

const FIELD = '\x1f';

export async function listTags(repo: string | null): Promise<TagEntry[]> {
  if (!repo) return [];
  const format = ['%(refname:lstrip=2)', '%(objectname)', '%(objecttype)', '%(*objectname)', '%(taggerdate:iso-strict)', '%(*committerdate:unix)', '%(committerdate:unix)', '%(contents)'].join(FIELD);
  const text = (await git(repo, ['for-each-ref', `--format=${format}%00`, 'refs/tags/'])).stdout.toString('utf8');
  return text.split('\0\n').filter((record) => record.replace(/^\n/, '')).map((record) => {
    const [name, objectName, type, peeled, taggerDate, peeledDate, ownDate, ...rest] = record.replace(/^\n/, '').split(FIELD);
    const annotated = type === 'tag';
    return {
      name,
      target: objectName,
      commit: annotated ? peeled || null : type === 'commit' ? objectName : null,
      message: annotated ? rest.join(FIELD).replace(/\n$/, '') : null,
      taggerDate: annotated && taggerDate ? isoWithMillis(taggerDate) : null,
      commitDate: Number(annotated ? peeledDate : ownDate) || 0,
    };
  });
}

/** git's strict ISO date with the platform's milliseconds: `2024-01-02T03:04:05.000+00:00`. */
export function isoWithMillis(date: string): string {
  return date.replace(/^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/, (_, time: string, zone: string) => `${time}.000${zone === 'Z' ? '+00:00' : zone}`);
}

export interface RawCommit {
  id: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  authoredDate: string;
  committerName: string;
  committerEmail: string;
  committedDate: string;
  message: string;
  trailers: Array<[string, string]>;
}

const COMMIT_FORMAT = ['%H', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%(trailers:unfold,separator=%x1f)', '%B'].join('%n');

/** Runs `git log -z` with the commit format and parses every record. */
export async function readCommits(repo: string, args: readonly string[]): Promise<RawCommit[]> {
  const { stdout } = await git(repo, ['log', '-z', `--format=${COMMIT_FORMAT}`, ...args]);
  return parseCommitRecords(stdout.toString('utf8'));
}

export function parseCommitRecords(text: string): RawCommit[] {
  if (!text) return [];
  return text.split('\0').filter(Boolean).map((record) => {
    const lines = record.split('\n');
    const [id, parents, authorName, authorEmail, authoredDate, committerName, committerEmail, committedDate, trailerText] = lines;
    return {
      id,
      parentIds: parents ? parents.split(' ') : [],
      authorName,
      authorEmail,
      authoredDate: isoWithMillis(authoredDate),
      committerName,
      committerEmail,
      committedDate: isoWithMillis(committedDate),
      message: lines.slice(9).join('\n'),
      trailers: trailerText ? trailerText.split(FIELD).map(splitTrailer).filter((pair): pair is [string, string] => pair !== null) : [],
    };
  });
}

function splitTrailer(line: string): [string, string] | null {
  const colon = line.indexOf(':');
  if (colon <= 0) return null;
  return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
}

/** One commit by exact sha (already resolved). */
export async function readCommit(repo: string, sha: string): Promise<RawCommit | null> {
  const [commit] = await readCommits(repo, ['--no-walk', '--end-of-options', sha]);
  return commit ?? null;
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/**
 * Lines added and removed by each commit against its first parent (the empty tree for a root
 * commit), as `git diff --numstat` counts them: renames are detected, binary files count for
 * nothing. One git process for all.
 */
export async function commitStats(repo: string, commits: ReadonlyArray<Pick<RawCommit, 'id' | 'parentIds'>>): Promise<Map<string, CommitStats>> {
  const stats = new Map<string, CommitStats>();
  if (!commits.length) return stats;
  // `<commit> <first parent>` diffs against that parent alone; a root commit alone diffs against nothing
  const input = commits.map((commit) => (commit.parentIds[0] ? `${commit.id} ${commit.parentIds[0]}\n` : `${commit.id}\n`)).join('');
  const text = (await git(repo, ['diff-tree', '--stdin', '-r', '--root', '-M', '--numstat', '--always'], { input })).stdout.toString('utf8');
  // each commit's id comes first, then its numstat lines
  let current: CommitStats | null = null;
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]{40}$/.test(line)) {
      current = { additions: 0, deletions: 0, total: 0 };
      stats.set(line, current);
      continue;
    }
    const numbers = /^(\d+|-)\t(\d+|-)\t/.exec(line);
    if (numbers && current) {
      const added = numbers[1] === '-' ? 0 : Number(numbers[1]);
      const deleted = numbers[2] === '-' ? 0 : Number(numbers[2]);
      current.additions += added;
      current.deletions += deleted;
      current.total += added + deleted;
    }
  }
  for (const commit of commits) if (!stats.has(commit.id)) stats.set(commit.id, { additions: 0, deletions: 0, total: 0 });
  return stats;
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  size: number | null;
  path: string;
}

/** `git ls-tree` of a tree-ish; paths are full paths from the root. */
export async function lsTree(repo: string, treeish: string, options: { path?: string; recursive?: boolean; long?: boolean; directoryItself?: boolean } = {}): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-z', '--full-tree'];
  if (options.recursive) args.push('-r', '-t');
  if (options.long) args.push('-l');
  args.push('--end-of-options', treeish);
  if (options.path !== undefined && options.path !== '') args.push('--', options.directoryItself ? options.path : `${options.path.replace(/\/+$/, '')}/`);
  const { stdout } = await git(repo, args, { okCodes: [128] });
  const text = stdout.toString('utf8');
  if (!text) return [];
  // listing a directory: `-t` also names the directory itself, which is not inside it
  const inside = options.path && !options.directoryItself ? `${options.path.replace(/\/+$/, '')}/` : '';
  return text.split('\0').filter(Boolean).map((record) => {
    const tab = record.indexOf('\t');
    const meta = record.slice(0, tab).split(/ +/);
    return {
      mode: meta[0],
      type: meta[1] as TreeEntry['type'],
      sha: meta[2],
      size: options.long && meta[3] !== '-' ? Number(meta[3]) : null,
      path: record.slice(tab + 1),
    };
  }).filter((entry) => entry.path.startsWith(inside));
}

/** The entry at exactly `filePath` in a commit (blob, tree or submodule), or null. */
export async function entryAt(repo: string, commit: string, filePath: string): Promise<TreeEntry | null> {
  const normalized = filePath.replace(/^\/+/, '');
  if (!normalized) return null;
  const [entry] = await lsTree(repo, commit, { path: normalized, long: true, directoryItself: true });
  return entry && entry.path === normalized ? entry : null;
}

export async function readBlob(repo: string, sha: string): Promise<Buffer> {
  return (await git(repo, ['cat-file', 'blob', sha])).stdout;
}

/** The last commit reachable from `commit` that touched `filePath`. */
export async function lastCommitFor(repo: string, commit: string, filePath: string): Promise<string | null> {
  const sha = await gitText(repo, ['log', '-1', '--format=%H', '--end-of-options', commit, '--', filePath]);
  return sha || null;
}
