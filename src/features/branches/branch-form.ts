import * as z from 'zod/mini';
import { ApiError } from '../../api/errors.ts';

/** git check-ref-format's rules for a branch name, as the platform applies them; null when valid. */
export function branchNameProblem(name: string): string | null {
  if (!name) return 'Give the branch a name.';
  if (/\s/.test(name)) return 'A branch name cannot contain spaces.';
  if (/[~^:?*[\\\x00-\x1f\x7f]/.test(name)) return 'A branch name cannot contain ~ ^ : ? * [ \\ or control characters.';
  if (name.includes('..')) return 'A branch name cannot contain “..”.';
  if (name.includes('@{')) return 'A branch name cannot contain “@{”.';
  if (name === '@') return 'A branch cannot be named “@”.';
  if (name.startsWith('-')) return 'A branch name cannot start with “-”.';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'A branch name cannot start or end with “/” or contain “//”.';
  if (name.endsWith('.') || name.endsWith('.lock')) return 'A branch name cannot end with “.” or “.lock”.';
  if (name.split('/').some((part) => part.startsWith('.'))) return 'No part of a branch name can start with “.”.';
  if (/^[0-9a-f]{40}$/.test(name)) return 'A branch name cannot look like a commit SHA.';
  if (name === 'HEAD') return 'A branch cannot be named HEAD.';
  return null;
}

export const createBranchFormSchema = z.object({
  branch: z.string().check(
    z.trim(),
    z.refine((name) => branchNameProblem(name) === null, { error: (issue) => branchNameProblem(String(issue.input)) ?? 'Invalid branch name' }),
  ),
  ref: z.string().check(z.trim(), z.minLength(1, 'Give a branch, tag or commit SHA to start from.')),
});
export type CreateBranchValues = z.output<typeof createBranchFormSchema>;

/** The platform answers create errors as sentences: put each on its field. */
export function createBranchFieldError(error: unknown): { field: 'branch' | 'ref'; message: string } | null {
  if (!(error instanceof ApiError) || error.kind !== 'http' || error.status !== 400) return null;
  if (/^Branch already exists/.test(error.message)) return { field: 'branch', message: 'A branch with this name already exists.' };
  if (/^Branch name is invalid/.test(error.message)) return { field: 'branch', message: 'The platform refused this branch name.' };
  if (/^Invalid reference name/.test(error.message)) return { field: 'ref', message: `No branch, tag or commit is named “${error.message.replace(/^Invalid reference name: /, '')}”.` };
  return null;
}
