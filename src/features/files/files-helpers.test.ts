import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { commitActions, describeChange } from './changes-screen.tsx';
import { lineFromHash, splitLines } from './code-view.tsx';
import { branchNameProblem, defaultTargetBranch } from './commit-fields.tsx';
import { formatBytes, imageTypeFor } from './file-kind.ts';
import { fileErrorField, isStaleEditError } from './file-errors.ts';

describe('lines and anchors', () => {
  it('counts lines as git does: a final newline ends the last line', () => {
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
  it('reads #L12 and nothing else', () => {
    expect(lineFromHash('#L12')).toBe(12);
    expect(lineFromHash('L3')).toBe(3);
    expect(lineFromHash('#L12-14')).toBeNull();
    expect(lineFromHash('')).toBeNull();
  });
});

describe('the multi-file commit', () => {
  it('describes staged changes and turns them into commit actions', () => {
    const staged = [
      { action: 'create' as const, file_path: 'docs/a.md', content: '' },
      { action: 'update' as const, file_path: 'src/App.tsx', content: 'x', last_commit_id: 'abc' },
      { action: 'move' as const, file_path: 'b.ts', previous_path: 'a.ts' },
      { action: 'delete' as const, file_path: 'old.txt' },
      { action: 'chmod' as const, file_path: 'run.sh', execute_filemode: true },
      { action: 'chmod' as const, file_path: 'data.csv', execute_filemode: false },
    ];
    expect(staged.map(describeChange)).toEqual(['Create docs/a.md', 'Update src/App.tsx', 'Move a.ts → b.ts', 'Delete old.txt', 'Make run.sh executable', 'Make data.csv not executable']);
    expect(commitActions(staged)).toEqual([
      { action: 'create', file_path: 'docs/a.md', content: '', encoding: 'text' },
      { action: 'update', file_path: 'src/App.tsx', content: 'x', encoding: 'text', last_commit_id: 'abc' },
      { action: 'move', file_path: 'b.ts', previous_path: 'a.ts' },
      { action: 'delete', file_path: 'old.txt' },
      { action: 'chmod', file_path: 'run.sh', execute_filemode: true },
      { action: 'chmod', file_path: 'data.csv', execute_filemode: false },
    ]);
  });
});

describe('commit fields', () => {
  it('checks branch names the way git does', () => {
    expect(branchNameProblem('feature/login-fix')).toBeNull();
    expect(branchNameProblem('')).toBe('Name the branch to commit to');
    expect(branchNameProblem('has space')).toBe('A branch name cannot contain spaces');
    for (const bad of ['a..b', 'a.lock', '-x', 'x/', '/x', 'a~b', 'a:b', 'a//b', 'x.']) expect(branchNameProblem(bad), bad).toBe('That is not a valid branch name');
  });
  it('commits to this branch when allowed, else to a new one', () => {
    expect(defaultTargetBranch('topic', { canEdit: true, canPushToRef: true, reason: null }, 'maya')).toBe('topic');
    expect(defaultTargetBranch('main', { canEdit: true, canPushToRef: false, reason: 'protected' }, 'maya')).toMatch(/^maya-patch-\d+$/);
  });
});

describe('file errors', () => {
  it('puts the platform’s refusals on the field they are about', () => {
    expect(fileErrorField(new ApiError(400, 'A file with this name already exists'))).toBe('file_path');
    expect(fileErrorField(new ApiError(400, "A branch called 'x' already exists. Switch to that branch in order to make changes"))).toBe('branch');
    expect(fileErrorField(new ApiError(400, 'You are not allowed to push into this branch'))).toBe('branch');
    expect(fileErrorField(new ApiError(400, 'No changes were made'))).toBe('content');
    expect(fileErrorField(new ApiError(500, 'A file with this name already exists'))).toBeNull();
    expect(fileErrorField(new Error('boom'))).toBeNull();
  });
  it('recognises a stale edit and a stale delete', () => {
    expect(isStaleEditError(new ApiError(400, 'You are attempting to update a file that has changed since you started editing it.'))).toBe(true);
    expect(isStaleEditError(new ApiError(400, 'You are attempting to delete a file that has been previously updated.'))).toBe(true);
    expect(isStaleEditError(new ApiError(409, 'You are attempting to update a file that has changed since you started editing it.'))).toBe(false);
  });
});

describe('file kinds and sizes', () => {
  it('knows raster images by name and writes sizes for people', () => {
    expect(imageTypeFor('hero.PNG')).toBe('image/png');
    expect(imageTypeFor('logo.svg')).toBeNull();
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(318)).toBe('318 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MiB');
  });
});
