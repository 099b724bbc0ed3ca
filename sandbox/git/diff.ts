import { git } from './exec.ts';
import { EMPTY_TREE } from './repository.ts';

// Gitaly prunes one file's patch past this size: the entry says too_large and carries no text
const MAX_PATCH_BYTES = 200 * 1024;

/**
 * The platform's Diff entities of `sha` against `parent` (a commit's first parent, a merge
 * request's merge base; the empty tree for a root commit): renames detected, each patch without
 * its `diff --git` header unless `unidiff`.
 */
export async function commitDiffs(repo: string, sha: string, parent: string | null, unidiff: boolean) {
  const base = parent ?? EMPTY_TREE;
  const raw = (await git(repo, ['diff-tree', '-r', '-M', '-z', '--no-commit-id', '--raw', base, sha])).stdout.toString('utf8').split('\0');
  const patchText = (await git(repo, ['diff-tree', '-r', '-M', '--no-commit-id', '--no-color', '--no-ext-diff', '-p', '--full-index', base, sha])).stdout.toString('utf8');
  // the patch lists the files in the raw listing's order, one `diff --git` section each
  const sections = patchText.split(/^(?=diff --git )/m).filter((section) => section.startsWith('diff --git '));
  const entries: Array<Record<string, unknown>> = [];
  for (let index = 0; index < raw.length - 1;) {
    const meta = /^:(\d{6}) (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/.exec(raw[index]);
    if (!meta) break;
    const [, aMode, bMode, status] = meta;
    const twoPaths = status === 'R' || status === 'C';
    const oldPath = raw[index + 1];
    const newPath = twoPaths ? raw[index + 2] : oldPath;
    index += twoPaths ? 3 : 2;
    const section = sections[entries.length] ?? '';
    // unidiff keeps the `---`/`+++` file lines, as `git diff` prints them
    const body = section.replace(unidiff ? /^(?:(?!--- |@@ |Binary files ).*\n)*/ : /^(?:(?!@@ |Binary files ).*\n)*/, '');
    const tooLarge = Buffer.byteLength(body) > MAX_PATCH_BYTES;
    entries.push({
      diff: tooLarge ? '' : body,
      collapsed: false,
      too_large: tooLarge,
      new_path: newPath,
      old_path: oldPath,
      a_mode: aMode,
      b_mode: bMode,
      new_file: status === 'A',
      renamed_file: status === 'R',
      deleted_file: status === 'D',
      generated_file: false,
    });
  }
  return entries;
}
