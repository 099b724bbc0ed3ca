import { lineAnchor } from './line-anchors.ts';
import { fileBody, filePath, fileStatus, hideWhitespaceChanges, parseDiff, splitRows, type DiffFileBody, type DiffFileFacts, type DiffFileStatus, type DiffLine, type ParsedDiff, type SplitRow } from '../../lib/diff.ts';

/** One changed file, parsed once: its lines as the platform sent them and as shown (whitespace hidden or not). */
export interface DiffEntry<File extends DiffFileFacts = DiffFileFacts> {
  file: File;
  /** Position in the request's changes, and the key of its rows. */
  index: number;
  path: string;
  status: DiffFileStatus;
  parsed: ParsedDiff;
  /** `parsed`, or `parsed` without its whitespace-only changes. */
  shown: ParsedDiff;
  body: DiffFileBody | 'whitespace-only';
}

// parsed once per file answer: switching views or whitespace reuses the parse
const parses = new WeakMap<object, ParsedDiff>();
const parsedOf = (file: DiffFileFacts) => {
  let parsed = parses.get(file);
  if (!parsed) parses.set(file, (parsed = parseDiff(file.diff)));
  return parsed;
};

export function diffEntries<File extends DiffFileFacts>(files: readonly File[], hideWhitespace: boolean): Array<DiffEntry<File>> {
  return files.map((file, index) => {
    const parsed = parsedOf(file);
    const body = fileBody(file, parsed);
    const shown = hideWhitespace && body === 'lines' ? hideWhitespaceChanges(parsed) : parsed;
    const whitespaceOnly = shown !== parsed && shown.additions === 0 && shown.deletions === 0 && parsed.additions + parsed.deletions > 0;
    return { file, index, path: filePath(file), status: fileStatus(file), parsed, shown, body: whitespaceOnly ? 'whitespace-only' : body };
  });
}

/**
 * The pages of changes to fetch after the first: all of them at once when the first says how many
 * there are, else each page's `next` as it arrives (`nextOf` answers for the pages loaded so far).
 */
export function pagesAfterFirst(first: { totalPages?: number; nextPage?: number }, nextOf: (page: number) => number | undefined): number[] {
  const pages: number[] = [];
  if (first.totalPages) for (let page = 2; page <= first.totalPages; page++) pages.push(page);
  else for (let next = first.nextPage; next && !pages.includes(next); next = nextOf(next)) pages.push(next);
  return pages;
}

/**
 * The files shown closed: generated ones (as the platform marks them) and those marked viewed unless
 * opened, others once closed (`toggled` holds the reader's presses).
 */
export function collapsedFiles(entries: readonly DiffEntry[], toggled: ReadonlySet<number>, viewed: ReadonlySet<number> = new Set()): Set<number> {
  return new Set(entries.filter((entry) => (Boolean(entry.file.generated_file) || viewed.has(entry.index)) !== toggled.has(entry.index)).map((entry) => entry.index));
}

/** A short digest of a file's diff (FNV-1a): a file marked viewed is unmarked once its changes change, as on the platform. */
export function diffDigest(diff: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < diff.length; index++) {
    hash ^= diff.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${diff.length.toString(36)}.${(hash >>> 0).toString(36)}`;
}

/** The files marked viewed whose changes are still the ones marked (`marks`: path → digest). */
export function viewedFiles(entries: readonly DiffEntry[], marks: Readonly<Record<string, string>>): Set<number> {
  return new Set(entries.filter((entry) => marks[entry.path] !== undefined && marks[entry.path] === diffDigest(entry.file.diff)).map((entry) => entry.index));
}

/** A row of the virtualized list: a file's header, a hunk's header, a line (or a pair side by side), or a note about a file without lines. */
export type DiffRow =
  | { type: 'file'; key: string; file: number }
  | { type: 'hunk'; key: string; file: number; header: string; rowIndex: number }
  | { type: 'line'; key: string; file: number; line: DiffLine; rowIndex: number }
  | { type: 'split'; key: string; file: number; row: SplitRow; rowIndex: number }
  | { type: 'note'; key: string; file: number; body: Exclude<DiffEntry['body'], 'lines'> }
  /** The threads on the line above (and a new one being written), under it as on the platform. */
  | { type: 'threads'; key: string; file: number; anchors: string[]; rowIndex: number };

export interface DiffRows {
  rows: DiffRow[];
  /** Index in `rows` of each file's header. */
  fileStarts: number[];
  /** Line and hunk rows of each file (its table's row count). */
  tableRows: number[];
}

/**
 * Every file's rows in one list, so one virtualizer serves them all: a collapsed file has its
 * header only; a file without lines a note. `rowIndex` counts within its file's table from 1.
 */
export function diffRows(entries: readonly DiffEntry[], view: 'inline' | 'parallel', collapsed: ReadonlySet<number>, threaded: ReadonlySet<string> = new Set()): DiffRows {
  const rows: DiffRow[] = [];
  const fileStarts: number[] = [];
  const tableRows: number[] = [];
  for (const entry of entries) {
    const file = entry.index;
    fileStarts.push(rows.length);
    rows.push({ type: 'file', key: `f${file}`, file });
    let rowIndex = 0;
    if (!collapsed.has(file)) {
      if (entry.body !== 'lines') rows.push({ type: 'note', key: `f${file}n`, file, body: entry.body });
      else {
        entry.shown.hunks.forEach((hunk, hunkIndex) => {
          rows.push({ type: 'hunk', key: `f${file}h${hunkIndex}`, file, header: hunk.header, rowIndex: ++rowIndex });
          // a line's threads follow it: both sides' side by side
          const threads = (key: string, lines: Array<DiffLine | null>) => {
            const anchors = threaded.size ? lines.flatMap((line) => (line && threaded.has(lineAnchor(entry.path, line)) ? [lineAnchor(entry.path, line)] : [])) : [];
            if (anchors.length) rows.push({ type: 'threads', key: `${key}t`, file, anchors, rowIndex: ++rowIndex });
          };
          if (view === 'inline') {
            hunk.lines.forEach((line, lineIndex) => {
              const key = `f${file}h${hunkIndex}l${lineIndex}`;
              rows.push({ type: 'line', key, file, line, rowIndex: ++rowIndex });
              threads(key, [line]);
            });
          } else {
            splitRows(hunk.lines).forEach((row, lineIndex) => {
              const key = `f${file}h${hunkIndex}s${lineIndex}`;
              rows.push({ type: 'split', key, file, row, rowIndex: ++rowIndex });
              // a context line is on both sides: its thread once
              threads(key, row.left && row.right && lineAnchor(entry.path, row.left) === lineAnchor(entry.path, row.right) ? [row.left] : [row.left, row.right]);
            });
          }
        });
      }
    }
    tableRows.push(rowIndex);
  }
  return { rows, fileStarts, tableRows };
}

/** A folder of the file tree (single-child chains joined: `src/tokens`), or a file with its index in the changes. */
export type TreeNode = { type: 'folder'; name: string; path: string; children: TreeNode[] } | { type: 'file'; name: string; path: string; file: number };

/** The changed files as folders and files, folders first, each level by name. */
export function fileTree(entries: ReadonlyArray<Pick<DiffEntry, 'path' | 'index'>>): TreeNode[] {
  type Folder = { folders: Map<string, Folder>; files: Array<{ name: string; path: string; file: number }> };
  const root: Folder = { folders: new Map(), files: [] };
  for (const entry of entries) {
    const parts = entry.path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { folders: new Map(), files: [] }));
      folder = next;
    }
    folder.files.push({ name: parts[parts.length - 1], path: entry.path, file: entry.index });
  }
  const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const nodesOf = (folder: Folder, prefix: string): TreeNode[] => {
    const folders = [...folder.folders].map(([name, child]): TreeNode => {
      let label = name;
      let inner = child;
      // a folder holding only one folder is shown as one step
      while (inner.files.length === 0 && inner.folders.size === 1) {
        const [[nextName, next]] = inner.folders;
        label = `${label}/${nextName}`;
        inner = next;
      }
      const path = prefix ? `${prefix}/${label}` : label;
      return { type: 'folder', name: label, path, children: nodesOf(inner, path) };
    });
    const files = folder.files.map((file): TreeNode => ({ type: 'file', ...file }));
    return [...folders.sort(byName), ...files.sort(byName)];
  };
  return nodesOf(root, '');
}

/** The row of `rows` holding the line an anchor names (either side of a side-by-side row), or -1. */
export function rowOfAnchor(entries: readonly DiffEntry[], rows: readonly DiffRow[], anchor: string): number {
  const match = /^(.+)_(\d*)_(\d*)$/.exec(anchor);
  if (!match || (!match[2] && !match[3])) return -1;
  const file = entries.find((entry) => entry.path === match[1]);
  if (!file) return -1;
  const matches = (line: DiffLine | null) => line !== null && lineAnchor(file.path, line) === anchor;
  return rows.findIndex((row) => row.file === file.index && ((row.type === 'line' && matches(row.line)) || (row.type === 'split' && (matches(row.row.left) || matches(row.row.right)))));
}

/** The files with a row in the list's viewport: the first and the last (files follow one another). */
export function filesInView(items: ReadonlyArray<{ index: number; start: number; end: number }>, rows: readonly DiffRow[], offset: number, height: number): { top: number; bottom: number } | null {
  const seen = items.filter((item) => item.end > offset && item.start < offset + height);
  if (!seen.length) return null;
  return { top: rows[seen[0].index].file, bottom: rows[seen[seen.length - 1].index].file };
}

/**
 * The file the tree marks: the one picked while any of it is in view (the last files cannot reach
 * the top of the list), else the one at the top of the list, as the reader scrolls.
 */
export function currentFile(picked: number, inView: { top: number; bottom: number } | null): number {
  if (!inView || (picked >= inView.top && picked <= inView.bottom)) return picked;
  return inView.top;
}
