import { formatDay } from '../../lib/time.ts';
import type { Commit, PickCheck, PickKind } from '../../api/commits.ts';


/** Consecutive commits of the same local day, in list order. */
export function groupByDay(commits: readonly Commit[]): Array<{ day: string; commits: Commit[] }> {
  const groups: Array<{ day: string; commits: Commit[] }> = [];
  for (const commit of commits) {
    const time = Date.parse(commit.committed_date ?? commit.created_at ?? '');
    const day = Number.isNaN(time) ? 'Unknown date' : formatDay(time);
    const last = groups.at(-1);
    if (last && last.day === day) last.commits.push(commit);
    else groups.push({ day, commits: [commit] });
  }
  return groups;
}

/** Additions and deletions counted from the patch text: its `+`/`-` lines (the diff carries no `---`/`+++` file lines). */
export function diffCounts(diff: string): { additions: number; deletions: number; lines: number } {
  let additions = 0;
  let deletions = 0;
  const lines = diff ? diff.replace(/\n$/, '').split('\n') : [];
  for (const line of lines) {
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions, lines: lines.length };
}

/** The message past its first line (the title is the heading); null when there is nothing more. */
export function messageBody(commit: Pick<Commit, 'message' | 'title'>): string | null {
  const [first, ...rest] = commit.message.split(/\r?\n/);
  const body = rest.join('\n').replace(/^\s*\n/, '').trimEnd();
  // a title the platform cut short is shown whole in the body
  if (first.trim() !== commit.title.trim()) return commit.message.trimEnd();
  return body || null;
}

/** What the dry run said, in a sentence: a conflict and an empty change are answers, not failures. */
export function checkText(check: PickCheck, branch: string, kind: PickKind): string {
  if (check.applies) return `Applies cleanly to ${branch}. Nothing has been written yet.`;
  if (check.code === 'empty') return `Nothing to ${kind === 'revert' ? 'revert' : 'apply'} on ${branch}: ${check.message}`;
  return `Conflict on ${branch}: ${check.message}`;
}
