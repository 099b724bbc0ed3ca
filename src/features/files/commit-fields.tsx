import * as z from 'zod/mini';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Field } from '../../components/field.tsx';
import type { FileEditAccess } from './permissions.ts';

/** git check-ref-format's main rules, so a bad name is caught before the commit is sent. */
export function branchNameProblem(name: string): string | null {
  if (!name) return 'Name the branch to commit to';
  if (/\s/.test(name)) return 'A branch name cannot contain spaces';
  if (/[~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|\/\/|^\/|\/$|^-|\.lock$|\.$|^@$/.test(name)) return 'That is not a valid branch name';
  return null;
}

export const commitFieldsSchema = {
  commit_message: z.string().check(z.trim(), z.minLength(1, 'Write a commit message')),
  branch: z.string().check(
    z.trim(),
    z.refine((name) => branchNameProblem(name) === null, { error: (issue) => branchNameProblem(String(issue.input)) ?? 'That is not a valid branch name' }),
  ),
};

export interface CommitFieldValues {
  commit_message: string;
  branch: string;
}

/** A name for a new branch when the caller cannot push to this one: `<user>-patch-<n>`, like the platform's web editor. */
export function suggestedBranch(username: string | undefined): string {
  return `${username || 'patch'}-patch-${Math.floor(Date.now() / 1000) % 100_000}`;
}

/** The branch a commit lands on by default: this one if the caller may push to it, else a new one. */
export function defaultTargetBranch(gitRef: string, access: FileEditAccess, username: string | undefined): string {
  return access.canPushToRef ? gitRef : suggestedBranch(username);
}

/** Commit message and target branch; a branch other than `gitRef` is created from it. */
export function CommitFields<T extends CommitFieldValues>({
  register, errors, gitRef, access, disabled, only,
}: { register: UseFormRegister<T>; errors: FieldErrors<T>; gitRef: string; access: FileEditAccess; disabled?: boolean; /** Leave the message to the form. */ only?: 'branch' }) {
  const reg = register as unknown as UseFormRegister<CommitFieldValues>;
  const errs = errors as FieldErrors<CommitFieldValues>;
  return (
    <>
      {only === 'branch' ? null : (
        <Field label="Commit message" error={errs.commit_message?.message}>
          <textarea className="input" rows={3} disabled={disabled} {...reg('commit_message')} />
        </Field>
      )}
      <Field
        label="Target branch"
        error={errs.branch?.message}
        hint={access.canPushToRef ? `Another name creates that branch from ${gitRef}.` : `You cannot push to ${gitRef}: the commit goes to a new branch created from it.`}
      >
        <input className="input" spellCheck={false} autoComplete="off" disabled={disabled} {...reg('branch')} />
      </Field>
    </>
  );
}
