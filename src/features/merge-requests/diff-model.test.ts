import { describe, expect, it } from 'vitest';
import type { DiffFileFacts } from '../../lib/diff.ts';
import { collapsedFiles, currentFile, diffDigest, diffEntries, diffRows, fileTree, filesInView, pagesAfterFirst, rowOfAnchor, viewedFiles } from './diff-model.ts';
import { lineAnchor, positionAnchor } from './line-anchors.ts';

const file = (path: string, diff: string, overrides: Partial<DiffFileFacts> = {}): DiffFileFacts => ({
  old_path: path, new_path: path, new_file: false, deleted_file: false, renamed_file: false, too_large: false, collapsed: false, diff, ...overrides,
});

const files = [
  file('src/a.ts', '@@ -1,2 +1,2 @@\n-x\n+y\n-  z\n+z\n'),
  file('src/lib/deep/b.ts', '@@ -1 +1 @@\n-a  b\n+a b\n'),
  file('README.md', '', { too_large: true }),
  file('old.txt', '@@ -1 +0,0 @@\n-gone\n', { deleted_file: true }),
];

describe('diffEntries', () => {
  it('says which files show lines, and which changed only whitespace once that is hidden', () => {
    expect(diffEntries(files, false).map((entry) => [entry.path, entry.status, entry.body, entry.shown.additions, entry.shown.deletions])).toEqual([
      ['src/a.ts', 'modified', 'lines', 2, 2],
      ['src/lib/deep/b.ts', 'modified', 'lines', 1, 1],
      ['README.md', 'modified', 'too-large', 0, 0],
      ['old.txt', 'deleted', 'lines', 0, 1],
    ]);
    expect(diffEntries(files, true).map((entry) => [entry.body, entry.shown.additions, entry.shown.deletions])).toEqual([
      ['lines', 1, 1],
      ['whitespace-only', 0, 0],
      ['too-large', 0, 0],
      ['lines', 0, 1],
    ]);
  });
});

describe('pagesAfterFirst', () => {
  it('asks for every page at once when the total is known, else follows next as pages arrive', () => {
    expect(pagesAfterFirst({ totalPages: 3, nextPage: 2 }, () => undefined)).toEqual([2, 3]);
    expect(pagesAfterFirst({ totalPages: 1 }, () => undefined)).toEqual([]);
    const loaded = new Map([[2, 3]]);
    expect(pagesAfterFirst({ nextPage: 2 }, (page) => loaded.get(page))).toEqual([2, 3]);
    loaded.set(3, 4);
    expect(pagesAfterFirst({ nextPage: 2 }, (page) => loaded.get(page))).toEqual([2, 3, 4]);
    // a page naming one already asked for ends the walk
    expect(pagesAfterFirst({ nextPage: 2 }, () => 2)).toEqual([2]);
  });
});

describe('collapsedFiles', () => {
  it('starts generated files closed, and flips a file the reader pressed', () => {
    const entries = diffEntries([file('a.ts', ''), file('schema.gen.ts', '', { generated_file: true }), file('b.ts', '')], false);
    expect([...collapsedFiles(entries, new Set())]).toEqual([1]);
    expect([...collapsedFiles(entries, new Set([1, 2]))]).toEqual([2]);
  });
});

describe('viewed files', () => {
  const entries = diffEntries(files, false);

  it('hold while the file’s changes are the ones marked', () => {
    const marks = { 'src/a.ts': diffDigest(files[0].diff), 'src/lib/deep/b.ts': diffDigest('@@ -1 +1 @@\n-a\n+c\n'), 'gone.ts': 'x' };
    expect([...viewedFiles(entries, marks)]).toEqual([0]);
    expect(diffDigest('abc')).not.toBe(diffDigest('abd'));
  });

  it('start closed, and open when pressed', () => {
    expect([...collapsedFiles(entries, new Set(), new Set([1]))]).toEqual([1]);
    expect([...collapsedFiles(entries, new Set([1]), new Set([1]))]).toEqual([]);
  });
});

describe('diffRows', () => {
  it('lays every file out in one list: a header, then hunks and lines, or a note', () => {
    const { rows, fileStarts, tableRows } = diffRows(diffEntries(files, false), 'inline', new Set());
    expect(rows.map((row) => row.type)).toEqual(['file', 'hunk', 'line', 'line', 'line', 'line', 'file', 'hunk', 'line', 'line', 'file', 'note', 'file', 'hunk', 'line']);
    expect(fileStarts).toEqual([0, 6, 10, 12]);
    expect(tableRows).toEqual([5, 3, 0, 2]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it('pairs lines side by side, leaves a collapsed file its header, and notes a whitespace-only file', () => {
    const entries = diffEntries(files, true);
    const { rows, tableRows } = diffRows(entries, 'parallel', new Set([3]));
    expect(rows.map((row) => (row.type === 'note' ? row.body : row.type))).toEqual(['file', 'hunk', 'split', 'split', 'file', 'whitespace-only', 'file', 'too-large', 'file']);
    expect(tableRows).toEqual([3, 0, 0, 0]);
  });
});

describe('fileTree', () => {
  it('puts folders first, joins a chain of single folders, and keeps each file’s index', () => {
    const tree = fileTree(diffEntries(files, false));
    expect(tree).toEqual([
      {
        type: 'folder', name: 'src', path: 'src', children: [
          { type: 'folder', name: 'lib/deep', path: 'src/lib/deep', children: [{ type: 'file', name: 'b.ts', path: 'src/lib/deep/b.ts', file: 1 }] },
          { type: 'file', name: 'a.ts', path: 'src/a.ts', file: 0 },
        ],
      },
      { type: 'file', name: 'README.md', path: 'README.md', file: 2 },
      { type: 'file', name: 'old.txt', path: 'old.txt', file: 3 },
    ]);
  });
});

describe('line anchors', () => {
  it('name a line by its file and numbers, and find its row in either view', () => {
    const entries = diffEntries([file('src/my_file.ts', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n')], false);
    const [context, removed, added] = entries[0].parsed.hunks[0].lines;
    expect([lineAnchor('src/my_file.ts', context), lineAnchor('src/my_file.ts', removed), lineAnchor('src/my_file.ts', added)]).toEqual(['src/my_file.ts_1_1', 'src/my_file.ts_2_', 'src/my_file.ts__2']);
    const inline = diffRows(entries, 'inline', new Set()).rows;
    expect(rowOfAnchor(entries, inline, 'src/my_file.ts__2')).toBe(4);
    const parallel = diffRows(entries, 'parallel', new Set()).rows;
    expect(rowOfAnchor(entries, parallel, 'src/my_file.ts__2')).toBe(3);
    expect(rowOfAnchor(entries, parallel, 'src/my_file.ts_2_')).toBe(3);
    expect(rowOfAnchor(entries, inline, 'src/my_file.ts__9')).toBe(-1);
    expect(rowOfAnchor(entries, inline, 'other.ts_1_1')).toBe(-1);
    expect(rowOfAnchor(entries, inline, 'src/my_file.ts__')).toBe(-1);
  });

  it('read from a thread position as the platform sends it: new number only when added, old only when removed, both unchanged', () => {
    const shas = { base_sha: 'b', start_sha: 's', head_sha: 'h' };
    expect(positionAnchor({ ...shas, old_path: 'src/my_file.ts', new_path: 'src/my_file.ts', old_line: null, new_line: 2 })).toBe('src/my_file.ts__2');
    expect(positionAnchor({ ...shas, old_path: 'src/my_file.ts', new_path: 'src/my_file.ts', old_line: 2, new_line: null })).toBe('src/my_file.ts_2_');
    expect(positionAnchor({ ...shas, old_path: 'old/name.ts', new_path: 'src/my_file.ts', old_line: 1, new_line: 1 })).toBe('src/my_file.ts_1_1');
    // a thread on a file, not a line
    expect(positionAnchor({ ...shas, old_path: 'src/my_file.ts', new_path: 'src/my_file.ts', old_line: null, new_line: null })).toBeNull();
  });
});

describe('threads under their lines', () => {
  const entries = diffEntries([file('src/my_file.ts', '@@ -1,2 +1,2 @@\n a\n-b\n+c\n')], false);

  it('follow each line that has one, counted in the table', () => {
    const { rows, tableRows } = diffRows(entries, 'inline', new Set(), new Set(['src/my_file.ts_2_', 'src/my_file.ts__2', 'elsewhere.ts__1']));
    expect(rows.map((row) => (row.type === 'threads' ? row.anchors : row.type))).toEqual(['file', 'hunk', 'line', 'line', ['src/my_file.ts_2_'], 'line', ['src/my_file.ts__2']]);
    expect(tableRows).toEqual([6]);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it('side by side: one row under a pair for both sides, and an unchanged line once', () => {
    const rows = diffRows(entries, 'parallel', new Set(), new Set(['src/my_file.ts_1_1', 'src/my_file.ts_2_', 'src/my_file.ts__2'])).rows;
    expect(rows.map((row) => (row.type === 'threads' ? row.anchors : row.type))).toEqual(['file', 'hunk', 'split', ['src/my_file.ts_1_1'], 'split', ['src/my_file.ts_2_', 'src/my_file.ts__2']]);
  });
});

describe('the file the tree marks', () => {
  const entries = diffEntries(files, false);
  const { rows } = diffRows(entries, 'inline', new Set());
  // rows of 20 px, one after the other
  const items = rows.map((_, index) => ({ index, start: index * 20, end: index * 20 + 20 }));

  it('reads the first and last file with a row in the viewport, the overscan left out', () => {
    const secondFileStart = rows.findIndex((row) => row.file === 1);
    expect(filesInView(items, rows, 0, 40)).toEqual({ top: 0, bottom: 0 });
    // the first file's last row and the second file's first rows
    expect(filesInView(items, rows, (secondFileStart - 1) * 20 + 5, 60)).toEqual({ top: 0, bottom: 1 });
    expect(filesInView(items, rows, items.length * 20 + 100, 40)).toBeNull();
  });

  it('keeps the picked file while it is in view, then follows the top of the list', () => {
    expect(currentFile(3, { top: 2, bottom: 3 })).toBe(3);
    expect(currentFile(0, { top: 2, bottom: 3 })).toBe(2);
    expect(currentFile(-1, { top: 1, bottom: 2 })).toBe(1);
    expect(currentFile(2, null)).toBe(2);
  });
});
