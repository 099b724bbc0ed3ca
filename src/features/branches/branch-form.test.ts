import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from '../../api/errors.ts';
import { branchNameProblem, createBranchFieldError, createBranchFormSchema } from './branch-form.ts';

describe('branch name rules', () => {
  it('accepts names git accepts', () => {
    for (const name of ['feature/checkout', 'fix-1.2', 'release/v1.x', 'a@b']) expect(branchNameProblem(name), name).toBeNull();
  });

  it('refuses names git refuses, saying why', () => {
    expect(branchNameProblem('')).toMatch(/name/);
    expect(branchNameProblem('my branch')).toMatch(/spaces/);
    expect(branchNameProblem('a..b')).toMatch(/\.\./);
    expect(branchNameProblem('feat/')).toMatch(/\//);
    expect(branchNameProblem('x.lock')).toMatch(/\.lock/);
    expect(branchNameProblem('a/.hidden')).toMatch(/start with “\.”/);
    expect(branchNameProblem('what?')).toMatch(/\?/);
    expect(branchNameProblem('a'.repeat(40))).toMatch(/SHA/);
  });

  it('puts the rule’s message on the field', () => {
    const result = z.safeParse(createBranchFormSchema, { branch: 'has space', ref: '' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['branch', 'A branch name cannot contain spaces.'],
      ['ref', 'Give a branch, tag or commit SHA to start from.'],
    ]);
  });

  it('places the platform’s sentences on their fields', () => {
    expect(createBranchFieldError(new ApiError(400, 'Branch already exists'))).toEqual({ field: 'branch', message: 'A branch with this name already exists.' });
    expect(createBranchFieldError(new ApiError(400, 'Invalid reference name: v9'))).toEqual({ field: 'ref', message: 'No branch, tag or commit is named “v9”.' });
    expect(createBranchFieldError(new ApiError(403, '403 Forbidden'))).toBeNull();
  });
});
