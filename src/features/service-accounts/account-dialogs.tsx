import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type * as z from 'zod/mini';
import {
  createAccountSchema, updateAccountSchema, updateInstanceAccountSchema,
  type CreateAccountInput, type CreateAccountValues, type ServiceAccount, type ServiceAccountScope,
} from '../../api/service-accounts.ts';
import { ApiError } from '../../api/errors.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useCreateServiceAccount, useDeleteServiceAccount, useUpdateServiceAccount } from './mutations.ts';
import { placeServerErrors } from '../../components/form-errors.ts';
import { FormActions } from '../../components/form-footer.tsx';

const EMPTY_ACCOUNT: CreateAccountInput = { name: '', username: '', email: '' };

function FormError({ text }: { text: string | null }) {
  return text ? (
    <div className="form-error" role="alert">
      {text}
    </div>
  ) : null;
}

interface CreateAccountDialogProps {
  onClose: () => void;
  scope: ServiceAccountScope;
  /** The group's name, for the title; unused for the instance. */
  groupName: string;
  onCreated: (account: ServiceAccount) => void;
}

export function CreateAccountDialog({ onClose, scope, groupName, onCreated }: CreateAccountDialogProps) {
  const create = useCreateServiceAccount();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateAccountInput, unknown, CreateAccountValues>({ resolver: zodResolver(createAccountSchema), defaultValues: EMPTY_ACCOUNT });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { scope, values },
      {
        onSuccess: (account) => {
          onClose();
          onCreated(account);
        },
        // what the user typed stays; each complaint goes to its field
        onError: (error) => setFormError(placeServerErrors(form, error, ['name', 'username', 'email'])),
      },
    );
  });
  const { errors } = form.formState;
  const generatedPrefix = scope === 'instance' ? 'service_account_' : `service_account_group_${scope.group}_`;
  return (
    <Dialog
      open
      onOpenChange={(next) => (!next && !create.isPending ? onClose() : undefined)}
      title={scope === 'instance' ? 'New instance service account' : `New service account for ${groupName}`}
      description="A service account is a machine user: it signs in with nothing but its tokens and takes no licence seat. Every field is optional."
    >
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Name" error={errors.name?.message} hint="Shown in activity. Left empty: “Service account user”.">
          <input className="input" autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Username" error={errors.username?.message} hint={`Left empty: generated, ${generatedPrefix}…`}>
          <input className="input" autoComplete="off" spellCheck={false} {...form.register('username')} />
        </Field>
        <Field label="Email" error={errors.email?.message} hint="Left empty: a no-reply address is generated. A custom address waits for confirmation.">
          <input className="input" type="email" autoComplete="off" spellCheck={false} {...form.register('email')} />
        </Field>
        <FormError text={formError} />
        <FormActions write={create} onCancel={onClose} submitLabel="Create service account" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

interface EditAccountDialogProps {
  account: ServiceAccount;
  scope: ServiceAccountScope;
  onClose: () => void;
  onSaved: (account: ServiceAccount) => void;
}

/** What the edit form holds: a group's accounts have no email field, the instance's do. */
type EditAccountValues = { name: string; username: string; email?: string };

export function EditAccountDialog({ account, scope, onClose, onSaved }: EditAccountDialogProps) {
  const update = useUpdateServiceAccount();
  const [formError, setFormError] = useState<string | null>(null);
  const instance = scope === 'instance';
  const schema: z.ZodMiniType<EditAccountValues, EditAccountValues> = instance ? updateInstanceAccountSchema : updateAccountSchema;
  // the server's values are the form's starting point only
  const form = useForm<EditAccountValues, unknown, EditAccountValues>({ resolver: zodResolver(schema), defaultValues: { name: account.name, username: account.username, email: account.email ?? '' } });
  const submit = form.handleSubmit(({ name, username, email }) => {
    setFormError(null);
    update.mutate(
      scope === 'instance' ? { scope, userId: account.id, values: { name, username, email: email ?? '' } } : { scope, userId: account.id, values: { name, username } },
      {
        onSuccess: (saved) => {
          onClose();
          onSaved(saved);
        },
        onError: (error) => setFormError(placeServerErrors(form, error, instance ? ['name', 'username', 'email'] : ['name', 'username'])),
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open
      onOpenChange={(next) => (!next && !update.isPending ? onClose() : undefined)}
      title={`Edit ${account.name}`}
      description={instance ? 'A new email address waits for confirmation; until then the account keeps its current one.' : 'The email address is set when the account is created and is not changed here.'}
    >
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Name" error={errors.name?.message}>
          <input className="input" autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Username" error={errors.username?.message} hint="Renaming changes the account’s profile address; its tokens keep working.">
          <input className="input" autoComplete="off" spellCheck={false} {...form.register('username')} />
        </Field>
        {instance ? (
          <Field label="Email" error={errors.email?.message}>
            <input className="input" type="email" autoComplete="off" spellCheck={false} {...form.register('email')} />
          </Field>
        ) : null}
        <FormError text={formError} />
        <FormActions write={update} onCancel={onClose} submitLabel="Save" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

interface DeleteAccountDialogProps {
  account: ServiceAccount;
  scope: ServiceAccountScope;
  onClose: () => void;
  onDeleted: (account: ServiceAccount, hardDelete: boolean) => void;
}

export function DeleteAccountDialog({ account, scope, onClose, onDeleted }: DeleteAccountDialogProps) {
  const remove = useDeleteServiceAccount();
  const [hardDelete, setHardDelete] = useState(false);
  const hardDeleteHelp = useId();
  // spec 1, 4.4: without hard delete, an account that alone owns a group cannot go (409)
  const soleOwner = remove.error instanceof ApiError && remove.error.status === 409;
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Delete ${account.name}?`}
      description={
        <>
          “{account.name}” (@{account.username}) is deleted and every token it holds stops working at once. Unless you choose hard delete, its contributions (issues, merge requests,
          comments) are kept and reassigned to the Ghost User, a placeholder for deleted users.
        </>
      }
      confirmLabel={hardDelete ? 'Hard delete service account' : 'Delete service account'}
      destructive
      write={remove}
      error={remove.error ? `${errorText(remove.error)}${soleOwner && !hardDelete ? ' Choose hard delete to delete it together with the groups it owns alone.' : ''}` : null}
      onConfirm={() =>
        remove.mutate(
          { scope, userId: account.id, hardDelete },
          {
            onSuccess: () => {
              onClose();
              onDeleted(account, hardDelete);
            },
          },
        )
      }
    >
      <div className="field">
        <label className="checkbox">
          <input type="checkbox" checked={hardDelete} aria-describedby={hardDeleteHelp} disabled={remove.isPending} onChange={(event) => setHardDelete(event.target.checked)} /> Hard delete
        </label>
        <p className="field__hint" id={hardDeleteHelp}>
          Contributions are deleted, not reassigned to a placeholder user, and groups owned only by this account are deleted with everything in them. This cannot be undone.
        </p>
      </div>
    </ConfirmDialog>
  );
}
