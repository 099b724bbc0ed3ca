import type { DiffLine } from '../../lib/diff.ts';

/**
 * A line's anchor in the URL's hash: its file's path, then its old and new numbers, either empty
 * (`src/app.ts_11_` removed, `src/app.ts__12` added, `src/app.ts_10_10` unchanged), as the
 * platform's line codes join a file and its two numbers.
 */
export const lineAnchor = (path: string, line: DiffLine): string => anchorOf(path, line.oldLine, line.newLine);

const anchorOf = (path: string, oldLine: number | null | undefined, newLine: number | null | undefined): string => `${path}_${oldLine ?? ''}_${newLine ?? ''}`;

/**
 * The anchor of the line a diff thread is on (`lineAnchor`'s form), from its position: a line added
 * has only its new number, a removed one only its old, an unchanged one both. Null off a line.
 */
export function positionAnchor(position: { old_path?: string | null; new_path?: string | null; old_line?: number | null; new_line?: number | null }): string | null {
  const path = position.new_path ?? position.old_path;
  if (!path || (position.old_line == null && position.new_line == null)) return null;
  return anchorOf(path, position.old_line, position.new_line);
}

/** A line in words, by the number its side shows: `line 12`, or `removed line 11`. */
export const lineLabel = (line: DiffLine): string => (line.kind === 'removed' ? `removed line ${line.oldLine}` : `line ${line.newLine}`);

/**
 * Whether a diff thread is on the changes as they are now: the platform moves a thread's position to
 * each new version of the request while its line is unchanged, so a position of another head is on an
 * old version (outdated), its line numbers not those of today's diff.
 */
export const onCurrentChanges = (position: { head_sha: string }, headSha: string | null | undefined): boolean => position.head_sha === headSha;
