/**
 * Unified diffs as data: the platform's per-file `diff` text (spec 2, merge request diffs: the
 * hunks of `git diff`, with `---`/`+++` lines only when asked for `unidiff`) parsed into hunks and
 * lines with their old and new line numbers, and the two ways the Changes tab shows them.
 */

export type DiffLineKind = 'context' | 'added' | 'removed';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line's text without its `+`/`-`/space prefix. */
  text: string;
  /** Its number in the old file (null for an added line). */
  oldLine: number | null;
  /** Its number in the new file (null for a removed line). */
  newLine: number | null;
  /** Followed by `\ No newline at end of file`: the last line of its side has no newline. */
  noNewline?: boolean;
}

export interface DiffHunk {
  /** The `@@ -a,b +c,d @@ section` line as it came. */
  header: string;
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
}

export interface ParsedDiff {
  hunks: DiffHunk[];
  additions: number;
  deletions: number;
  /** `Binary files a and b differ`: git shows no lines. */
  binary: boolean;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * One file's diff text as hunks. Lines before the first hunk (`---`/`+++`, `diff --git`, index
 * and mode lines) are headers; inside a hunk its counts decide, so a removed line that reads
 * `--- x` stays a line. A malformed hunk header ends the parse there rather than guessing.
 */
export function parseDiff(text: string): ParsedDiff {
  const hunks: DiffHunk[] = [];
  let additions = 0;
  let deletions = 0;
  let binary = false;
  let hunk: DiffHunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  let oldLine = 0;
  let newLine = 0;
  const lines = text.split('\n');
  // the text ends with a newline: the empty string after it is no line
  if (lines[lines.length - 1] === '') lines.pop();
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('\\')) {
      // "\ No newline at end of file" (in any language git speaks) marks the line before it
      const last = hunk?.lines[hunk.lines.length - 1];
      if (last) last.noNewline = true;
      continue;
    }
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const prefix = line[0];
      const body = line.slice(1);
      if (prefix === '+' && newLeft > 0) {
        hunk.lines.push({ kind: 'added', text: body, oldLine: null, newLine: newLine++ });
        newLeft--;
        additions++;
        continue;
      }
      if (prefix === '-' && oldLeft > 0) {
        hunk.lines.push({ kind: 'removed', text: body, oldLine: oldLine++, newLine: null });
        oldLeft--;
        deletions++;
        continue;
      }
      // a context line; some tools strip the space of an empty one
      if ((prefix === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
        hunk.lines.push({ kind: 'context', text: body, oldLine: oldLine++, newLine: newLine++ });
        oldLeft--;
        newLeft--;
        continue;
      }
    }
    if (line.startsWith('@@')) {
      const match = HUNK_HEADER.exec(line);
      if (!match) break;
      const [, oldStart, oldCount, newStart, newCount] = match;
      hunk = {
        header: line,
        oldStart: Number(oldStart),
        oldCount: oldCount === undefined ? 1 : Number(oldCount),
        newStart: Number(newStart),
        newCount: newCount === undefined ? 1 : Number(newCount),
        lines: [],
      };
      hunks.push(hunk);
      oldLeft = hunk.oldCount;
      newLeft = hunk.newCount;
      // an empty side starts at 0 ("-0,0"): its first line would be 1
      oldLine = Math.max(hunk.oldStart, 1);
      newLine = Math.max(hunk.newStart, 1);
      continue;
    }
    if (!hunk && (line.startsWith('Binary files ') || line === 'GIT binary patch')) binary = true;
  }
  return { hunks, additions, deletions, binary };
}

/** Two lines equal but for spaces, tabs or line endings (a removed and added pair of the same text changed its final newline). */
export function equalIgnoringWhitespace(a: string, b: string): boolean {
  return a.replace(/\s+/g, '') === b.replace(/\s+/g, '');
}

/**
 * The hunks with whitespace-only changes hidden: in each block of removed lines followed by added
 * ones, the n-th removed and n-th added line that differ only in whitespace become one unchanged
 * line (with both numbers, and the new text). Counts are recomputed; hunks keep their headers.
 */
export function hideWhitespaceChanges(diff: ParsedDiff): ParsedDiff {
  let additions = 0;
  let deletions = 0;
  const hunks = diff.hunks.map((hunk) => {
    const lines: DiffLine[] = [];
    forEachBlock(hunk.lines, (context) => lines.push(context), (removed, added) => {
      const paired = Math.min(removed.length, added.length);
      // changes still pending: flushed before each merged line, so both sides keep their order
      let keptRemoved: DiffLine[] = [];
      let keptAdded: DiffLine[] = [];
      const flush = () => {
        lines.push(...keptRemoved, ...keptAdded);
        deletions += keptRemoved.length;
        additions += keptAdded.length;
        keptRemoved = [];
        keptAdded = [];
      };
      for (let index = 0; index < paired; index++) {
        const [old, next] = [removed[index], added[index]];
        if (equalIgnoringWhitespace(old.text, next.text)) {
          flush();
          lines.push({ kind: 'context', text: next.text, oldLine: old.oldLine, newLine: next.newLine, noNewline: next.noNewline });
        } else {
          keptRemoved.push(old);
          keptAdded.push(next);
        }
      }
      keptRemoved.push(...removed.slice(paired));
      keptAdded.push(...added.slice(paired));
      flush();
    });
    return { ...hunk, lines };
  });
  return { ...diff, hunks, additions, deletions };
}

/**
 * Walks a hunk's lines: each context line on its own, each change block (removed lines, then the
 * added lines right after them) as one call.
 */
function forEachBlock(lines: readonly DiffLine[], onContext: (line: DiffLine) => void, onBlock: (removed: DiffLine[], added: DiffLine[]) => void): void {
  let index = 0;
  while (index < lines.length) {
    if (lines[index].kind === 'context') {
      onContext(lines[index++]);
      continue;
    }
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    while (index < lines.length && lines[index].kind === 'removed') removed.push(lines[index++]);
    while (index < lines.length && lines[index].kind === 'added') added.push(lines[index++]);
    onBlock(removed, added);
  }
}

/** A row of the side-by-side view: the old side's line and the new side's, either may be absent. */
export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

/** A hunk's lines side by side: context on both sides, a change block's removed and added lines paired in order. */
export function splitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  forEachBlock(lines, (line) => rows.push({ left: line, right: line }), (removed, added) => {
    for (let index = 0; index < Math.max(removed.length, added.length); index++) rows.push({ left: removed[index] ?? null, right: added[index] ?? null });
  });
  return rows;
}

/** What the platform says of a changed file (spec 2, merge request diffs), whatever the client's schema adds. */
export interface DiffFileFacts {
  old_path: string;
  new_path: string;
  new_file: boolean;
  deleted_file: boolean;
  renamed_file: boolean;
  too_large: boolean;
  collapsed: boolean;
  diff: string;
  a_mode?: string | null;
  b_mode?: string | null;
  /** Marked generated by the platform (`gitlab-generated` attribute): shown closed at first. */
  generated_file?: boolean;
}

export type DiffFileStatus = 'added' | 'deleted' | 'renamed' | 'modified';

export function fileStatus(file: DiffFileFacts): DiffFileStatus {
  if (file.new_file) return 'added';
  if (file.deleted_file) return 'deleted';
  if (file.renamed_file && file.old_path !== file.new_path) return 'renamed';
  return 'modified';
}

/** The path a file is known by in the changes: the new one, or the old one for a deletion. */
export const filePath = (file: DiffFileFacts): string => (file.deleted_file ? file.old_path : file.new_path);

/**
 * Why a file shows no lines, if it does not: the platform left its diff out (`too_large`, or
 * `collapsed` with no text), git found it binary, or it changed only its name or mode.
 */
export type DiffFileBody = 'lines' | 'too-large' | 'collapsed' | 'binary' | 'no-lines';

export function fileBody(file: DiffFileFacts, parsed: ParsedDiff): DiffFileBody {
  if (file.too_large) return 'too-large';
  if (parsed.binary) return 'binary';
  if (parsed.hunks.length) return 'lines';
  return file.collapsed ? 'collapsed' : 'no-lines';
}
