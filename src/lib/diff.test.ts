import { describe, expect, it } from 'vitest';
import { fileBody, fileStatus, filePath, hideWhitespaceChanges, parseDiff, splitRows, type DiffFileFacts } from './diff.ts';

const file = (overrides: Partial<DiffFileFacts>): DiffFileFacts => ({
  old_path: 'a.ts', new_path: 'a.ts', new_file: false, deleted_file: false, renamed_file: false, too_large: false, collapsed: false, diff: '', ...overrides,
});

const numbers = (text: string) => parseDiff(text).hunks.flatMap((hunk) => hunk.lines.map((line) => [line.kind, line.oldLine, line.newLine, line.text]));

describe('parseDiff', () => {
  it('reads a hunk header with its counts and section, and numbers each side', () => {
    const parsed = parseDiff('@@ -10,4 +10,5 @@ function total() {\n const a = 1;\n-const b = 2;\n+const b = 3;\n+const c = 4;\n const d = 5;\n const e = 6;\n');
    expect(parsed.hunks).toHaveLength(1);
    expect(parsed.hunks[0]).toMatchObject({ header: '@@ -10,4 +10,5 @@ function total() {', oldStart: 10, oldCount: 4, newStart: 10, newCount: 5 });
    expect(numbers('@@ -10,4 +10,5 @@ function total() {\n const a = 1;\n-const b = 2;\n+const b = 3;\n+const c = 4;\n const d = 5;\n const e = 6;\n')).toEqual([
      ['context', 10, 10, 'const a = 1;'],
      ['removed', 11, null, 'const b = 2;'],
      ['added', null, 11, 'const b = 3;'],
      ['added', null, 12, 'const c = 4;'],
      ['context', 12, 13, 'const d = 5;'],
      ['context', 13, 14, 'const e = 6;'],
    ]);
    expect(parsed).toMatchObject({ additions: 2, deletions: 1, binary: false });
  });

  it('reads a header without counts as one line, and several hunks', () => {
    const parsed = parseDiff('@@ -1 +1 @@\n-a\n+b\n@@ -20,2 +20,2 @@\n x\n-y\n+z\n');
    expect(parsed.hunks.map((hunk) => [hunk.oldStart, hunk.oldCount, hunk.newStart, hunk.newCount])).toEqual([[1, 1, 1, 1], [20, 2, 20, 2]]);
    expect(parsed.hunks[1].lines.map((line) => [line.oldLine, line.newLine])).toEqual([[20, 20], [21, null], [null, 21]]);
  });

  it('marks the line before "\\ No newline at end of file"', () => {
    const parsed = parseDiff('@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n');
    expect(parsed.hunks[0].lines.map((line) => [line.kind, line.text, Boolean(line.noNewline)])).toEqual([
      ['context', 'a', false],
      ['removed', 'b', true],
      ['added', 'b', false],
    ]);
  });

  it('numbers a new file from 1 and a deleted one on the old side only', () => {
    expect(numbers('@@ -0,0 +1,2 @@\n+one\n+two\n')).toEqual([['added', null, 1, 'one'], ['added', null, 2, 'two']]);
    expect(numbers('@@ -1,2 +0,0 @@\n-one\n-two\n')).toEqual([['removed', 1, null, 'one'], ['removed', 2, null, 'two']]);
  });

  it('skips unidiff file lines but keeps a removed line that reads like one', () => {
    const text = 'diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n--- not a header\n+++ not one either\n same\n';
    expect(numbers(text)).toEqual([['removed', 1, null, '-- not a header'], ['added', null, 1, '++ not one either'], ['context', 2, 2, 'same']]);
  });

  it('keeps an empty context line whose space was stripped, and reads CRLF text', () => {
    expect(numbers('@@ -1,3 +1,3 @@\r\n a\r\n\r\n-b\r\n+c\r\n')).toEqual([['context', 1, 1, 'a'], ['context', 2, 2, ''], ['removed', 3, null, 'b'], ['added', null, 3, 'c']]);
  });

  it('knows a binary file, an empty diff and a malformed header', () => {
    expect(parseDiff('Binary files a/logo.png and b/logo.png differ\n')).toMatchObject({ binary: true, hunks: [] });
    expect(parseDiff('')).toEqual({ hunks: [], additions: 0, deletions: 0, binary: false });
    expect(parseDiff('@@ nonsense @@\n+a\n').hunks).toEqual([]);
  });

  it('keeps markup in lines as text', () => {
    const [line] = parseDiff('@@ -0,0 +1 @@\n+<img src=x onerror=alert(1)>\n').hunks[0].lines;
    expect(line.text).toBe('<img src=x onerror=alert(1)>');
  });
});

describe('hideWhitespaceChanges', () => {
  it('turns a removed and added pair that differs only in whitespace into one unchanged line, in order', () => {
    const parsed = parseDiff('@@ -1,3 +1,3 @@\n-if (a){\n-  call();\n-end\n+if (a) {\n+  other();\n+end  \n');
    const hidden = hideWhitespaceChanges(parsed);
    expect(hidden.hunks[0].lines.map((line) => [line.kind, line.oldLine, line.newLine, line.text])).toEqual([
      ['context', 1, 1, 'if (a) {'],
      ['removed', 2, null, '  call();'],
      ['added', null, 2, '  other();'],
      ['context', 3, 3, 'end  '],
    ]);
    expect([hidden.additions, hidden.deletions]).toEqual([1, 1]);
  });

  it('leaves unpaired lines and real changes alone, and a file of whitespace changes with none', () => {
    const parsed = parseDiff('@@ -1,2 +1,3 @@\n-\tindent\n-x\n+    indent\n+x\n+new\n');
    const hidden = hideWhitespaceChanges(parsed);
    expect(hidden.hunks[0].lines.map((line) => line.kind)).toEqual(['context', 'context', 'added']);
    expect(hideWhitespaceChanges(parseDiff('@@ -1 +1 @@\n-a  b\n+a b\n'))).toMatchObject({ additions: 0, deletions: 0 });
    // only the final newline changed
    expect(hideWhitespaceChanges(parseDiff('@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n'))).toMatchObject({ additions: 0, deletions: 0 });
  });
});

describe('splitRows', () => {
  it('pairs a change block side by side and puts context on both sides', () => {
    const [hunk] = parseDiff('@@ -1,4 +1,3 @@\n a\n-b\n-c\n+B\n d\n').hunks;
    expect(splitRows(hunk.lines).map((row) => [row.left?.text ?? null, row.right?.text ?? null])).toEqual([['a', 'a'], ['b', 'B'], ['c', null], ['d', 'd']]);
  });
});

describe('files', () => {
  it('names the status, the path and why a file shows no lines', () => {
    expect(fileStatus(file({ new_file: true }))).toBe('added');
    expect(fileStatus(file({ deleted_file: true }))).toBe('deleted');
    expect(fileStatus(file({ renamed_file: true, old_path: 'old.ts' }))).toBe('renamed');
    expect(fileStatus(file({}))).toBe('modified');
    expect(filePath(file({ deleted_file: true, old_path: 'gone.ts', new_path: 'gone.ts' }))).toBe('gone.ts');
    expect(fileBody(file({ too_large: true }), parseDiff(''))).toBe('too-large');
    expect(fileBody(file({ collapsed: true }), parseDiff(''))).toBe('collapsed');
    expect(fileBody(file({}), parseDiff('Binary files a/x and b/x differ\n'))).toBe('binary');
    expect(fileBody(file({ renamed_file: true }), parseDiff(''))).toBe('no-lines');
    expect(fileBody(file({}), parseDiff('@@ -1 +1 @@\n-a\n+b\n'))).toBe('lines');
  });
});
