import { git } from './exec.ts';
import { readCommits, type RawCommit } from './repository.ts';

/** One run of consecutive lines last changed by the same commit; `start` is 1-based. */
export interface BlameGroup {
  sha: string;
  start: number;
  lines: string[];
}

export interface FileBlame {
  groups: BlameGroup[];
  lineCount: number;
  commits: Map<string, RawCommit>;
}

/** `git blame --porcelain`, folded into runs of consecutive lines from the same commit. */
export function parseBlame(text: string): BlameGroup[] {
  const groups: BlameGroup[] = [];
  let current: string | null = null;
  let finalLine = 0;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (header) {
      current = header[1];
      finalLine = Number(header[2]);
      continue;
    }
    if (line.startsWith('\t') && current) {
      const last = groups[groups.length - 1];
      if (last && last.sha === current && last.start + last.lines.length === finalLine) last.lines.push(line.slice(1));
      else groups.push({ sha: current, start: finalLine, lines: [line.slice(1)] });
    }
  }
  return groups;
}

// a commit's blame never changes: whole-file results are kept, and range requests cut from them
const CACHE_SIZE = 24;
const cache = new Map<string, Promise<FileBlame>>();

/**
 * The whole file's blame at `commit` (a resolved sha), computed once by git and shared by every
 * range request for it, including the ones that arrive while git is still running.
 */
export function blameFile(repo: string, commit: string, path: string): Promise<FileBlame> {
  const key = `${repo}\0${commit}\0${path}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const pending = (async () => {
    const { stdout } = await git(repo, ['blame', '--porcelain', commit, '--', path]);
    const groups = parseBlame(stdout.toString('utf8'));
    const shas = [...new Set(groups.map((group) => group.sha))];
    const commits = new Map((shas.length ? await readCommits(repo, ['--no-walk=unsorted', ...shas]) : []).map((entry) => [entry.id, entry]));
    const last = groups[groups.length - 1];
    return { groups, commits, lineCount: last ? last.start + last.lines.length - 1 : 0 };
  })();
  pending.catch(() => cache.delete(key));
  cache.set(key, pending);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return pending;
}

/** The groups covering lines `start` to `end` (1-based, inclusive), cut at the range's edges. */
export function blameRange(blame: FileBlame, start: number, end: number): BlameGroup[] {
  const result: BlameGroup[] = [];
  for (const group of blame.groups) {
    const groupEnd = group.start + group.lines.length - 1;
    if (groupEnd < start || group.start > end) continue;
    const from = Math.max(start, group.start);
    const to = Math.min(end, groupEnd);
    result.push({ sha: group.sha, start: from, lines: group.lines.slice(from - group.start, to - group.start + 1) });
  }
  return result;
}
