import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { PROTECTION_LEVELS, branchesQueries, type Branch, type ProtectedBranch, type ProtectionLevel } from '../../api/branches.ts';
import { useConnection } from '../../api/react.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormActions, FormError } from '../../components/form-footer.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { createBranchFieldError, createBranchFormSchema, type CreateBranchValues } from './branch-form.ts';
import { useCreateBranch, useDeleteBranch, useDeleteMergedBranches, useProtectBranch, useUnprotectBranch } from './mutations.ts';
import { formatCountOf } from '../../lib/numbers.ts';

interface CreateBranchDialogProps {
  onClose: () => void;
  projectId: number;
  defaultRef: string;
}

export function CreateBranchDialog({ onClose, projectId, defaultRef }: CreateBranchDialogProps) {
  const notify = useNotify();
  const create = useCreateBranch();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<z.input<typeof createBranchFormSchema>, unknown, CreateBranchValues>({
    resolver: zodResolver(createBranchFormSchema),
    defaultValues: { branch: '', ref: defaultRef },
  });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { projectId, branch: values.branch, ref: values.ref },
      {
        onSuccess: (branch) => {
          notify(`Created branch ${branch.name} at ${branch.commit.short_id}.`);
          onClose();
        },
        onError: (error) => {
          const placed = createBranchFieldError(error);
          if (placed) form.setError(placed.field, { type: 'server', message: placed.message });
          else setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => (!next && !create.isPending ? onClose() : undefined)} title="New branch">
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Branch name" error={errors.branch?.message} hint="For example feature/checkout. Letters, digits, / - _ . are safe.">
          <input className="input" autoComplete="off" spellCheck={false} {...form.register('branch')} />
        </Field>
        <Field label="Create from" error={errors.ref?.message} hint="A branch, a tag or a commit SHA.">
          <input className="input" autoComplete="off" spellCheck={false} {...form.register('ref')} />
        </Field>
        <FormError message={formError} />
        <FormActions write={create} onCancel={onClose} submitLabel="Create branch" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

export function DeleteBranchDialog({ branch, projectId, onClose }: { branch: Branch; projectId: number; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeleteBranch();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete branch ${branch.name}?`}
      description={
        <>
          The branch is removed from the repository. Its commits stay only if another branch or tag contains them
          {branch.merged ? ' (this one is merged into the default branch, so they do)' : ': this branch is not merged, so commits only it has are lost'}.
          {branch.protected ? ' It is protected: its protection rule stays and applies again if the branch is recreated.' : ''}
        </>
      }
      confirmLabel="Delete branch"
      destructive
      write={remove}
      error={remove.error ? `The platform refused: ${errorText(remove.error)}` : null}
      onConfirm={() =>
        remove.mutate(
          { projectId, name: branch.name },
          {
            onSuccess: () => {
              notify(`Deleted branch ${branch.name}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

export function DeleteMergedDialog({ onClose, projectId, defaultBranch }: { onClose: () => void; projectId: number; defaultBranch: string | null }) {
  const connection = useConnection();
  const notify = useNotify();
  const remove = useDeleteMergedBranches();
  // computed afresh each time the dialog opens: every branch, page after page
  const preview = useQuery({ ...branchesQueries.mergedPreview(connection, projectId), gcTime: 0 });
  const branches = preview.data ?? [];
  const count = formatCountOf(branches.length, 'merged branch', 'merged branches');
  const confirm = () =>
    remove.mutate(
      { projectId },
      {
        onSuccess: () => {
          notify(`Deleting ${count}; the list refreshes as the platform finishes.`);
          onClose();
        },
      },
    );
  return (
    <Dialog
      open
      onOpenChange={(next) => (!next && !remove.isPending ? onClose() : undefined)}
      title="Delete merged branches?"
      description={
        <>
          Every branch merged into the default branch{defaultBranch ? ` (${defaultBranch})` : ''} is deleted, except protected branches and the default branch itself. The platform decides again
          when it runs: a branch merged in the meantime goes too.
        </>
      }
    >
      {preview.isPending ? (
        <p role="status">Finding the merged branches…</p>
      ) : preview.isError ? (
        <ErrorPanel error={preview.error} onRetry={() => void preview.refetch()} />
      ) : branches.length === 0 ? (
        <p role="status">No branch would be deleted: there is no merged branch that is neither protected nor the default.</p>
      ) : (
        <>
          <p role="status">{`${count} will be deleted:`}</p>
          <ul aria-label="Branches that will be deleted" className="link-list">
            {branches.map((branch) => (
              <li key={branch.name}>
                {branch.name} <span className="muted">{branch.commit.title ?? ''}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {remove.error ? (
        <div className="form-error" role="alert">
          The platform refused: {errorText(remove.error)}
        </div>
      ) : null}
      <UncertainWrite write={remove} />
      <div className="dialog__actions">
        <button type="button" className="button" disabled={remove.isPending} onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={remove.isPending || !preview.isSuccess || branches.length === 0}
          aria-busy={remove.isPending || undefined}
          onClick={confirm}
        >
          {remove.isPending ? 'Deleting…' : preview.isSuccess && branches.length ? `Delete ${count}` : 'Delete merged branches'}
        </button>
      </div>
    </Dialog>
  );
}

const protectFormSchema = z.object({
  push_access_level: z.enum(['0', '30', '40']),
  merge_access_level: z.enum(['0', '30', '40']),
  allow_force_push: z.boolean(),
});
type ProtectFormValues = z.output<typeof protectFormSchema>;

export function ProtectBranchDialog({ branch, projectId, onClose }: { branch: Branch; projectId: number; onClose: () => void }) {
  const notify = useNotify();
  const protect = useProtectBranch();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ProtectFormValues>({
    resolver: zodResolver(protectFormSchema),
    defaultValues: { push_access_level: '40', merge_access_level: '40', allow_force_push: false },
  });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    protect.mutate(
      {
        projectId,
        name: branch.name,
        push_access_level: Number(values.push_access_level) as ProtectionLevel,
        merge_access_level: Number(values.merge_access_level) as ProtectionLevel,
        allow_force_push: values.allow_force_push,
      },
      {
        onSuccess: () => {
          notify(`Protected branch ${branch.name}.`);
          onClose();
        },
        onError: (error) => setFormError(errorText(error)),
      },
    );
  });
  return (
    <Dialog open onOpenChange={(next) => (!next && !protect.isPending ? onClose() : undefined)} title={`Protect branch ${branch.name}`} description="Who may push to the branch and merge into it. Nobody can delete it but Maintainers.">
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Allowed to push">
          <LevelSelect {...form.register('push_access_level')} />
        </Field>
        <Field label="Allowed to merge">
          <LevelSelect {...form.register('merge_access_level')} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register('allow_force_push')} /> Allow force push (for those allowed to push)
        </label>
        <FormError message={formError} />
        <FormActions write={protect} onCancel={onClose} submitLabel="Protect" pendingLabel="Protecting…" />
      </form>
    </Dialog>
  );
}

function LevelSelect(props: React.ComponentProps<'select'>) {
  return (
    <select className="input" {...props}>
      {PROTECTION_LEVELS.map((level) => (
        <option key={level.value} value={String(level.value)}>
          {level.label}
        </option>
      ))}
    </select>
  );
}

interface UnprotectDialogProps {
  branch: Branch;
  /** The rules covering the branch, its own first. */
  rules: readonly ProtectedBranch[];
  projectId: number;
  onClose: () => void;
}

export function UnprotectBranchDialog({ branch, rules, projectId, onClose }: UnprotectDialogProps) {
  const notify = useNotify();
  const unprotect = useUnprotectBranch();
  const own = rules.find((rule) => rule.name === branch.name);
  const rule = own ?? rules[0];
  const others = rules.filter((item) => item !== rule);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={rule && rule.name !== branch.name ? `Remove the protection rule ${rule.name}?` : `Unprotect branch ${branch.name}?`}
      description={
        rule ? (
          <>
            {rule.name === branch.name
              ? `Anyone allowed to push to the project can then push to ${branch.name}, force-push to it and delete it.`
              : `${branch.name} is protected by the wildcard rule ${rule.name}: removing the rule unprotects every branch it matches.`}
            {others.length ? ` It stays protected by ${others.map((item) => item.name).join(', ')}.` : ''}
          </>
        ) : (
          'No protection rule of this project names this branch (it may be inherited from the group, or already removed).'
        )
      }
      confirmLabel={rule && rule.name !== branch.name ? 'Remove rule' : 'Unprotect'}
      destructive
      write={unprotect}
      error={unprotect.error ? `The platform refused: ${errorText(unprotect.error)}` : null}
      onConfirm={() => {
        if (!rule) return onClose();
        unprotect.mutate(
          { projectId, name: rule.name },
          {
            onSuccess: () => {
              notify(rule.name === branch.name ? `Unprotected branch ${branch.name}.` : `Removed the protection rule ${rule.name}.`);
              onClose();
            },
          },
        );
      }}
    />
  );
}
