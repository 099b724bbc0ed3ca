import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { deployKeyFieldErrors, deployKeysQueries, type DeployKey, type ProjectDeployKey } from '../../api/deploy-keys.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { FormActions, FormError } from '../../components/form-footer.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { EMPTY_DEPLOY_KEY_FORM, deployKeyFormSchema, editDeployKeyFormSchema, type DeployKeyFormValues, type EditDeployKeyFormValues } from './key-form.ts';
import { useAddInstanceDeployKey, useAddProjectDeployKey, useDeleteDeployKey, useEnableDeployKey, useUpdateDeployKey } from './mutations.ts';

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

interface AddKeyDialogProps {
  onClose: () => void;
  /** A project's key (with write access), or an instance-wide one (administrators). */
  target: { project: number } | 'instance';
}

/** Adds a key; the key text is checked here first, so a bad paste never leaves the browser. */
export function AddDeployKeyDialog({ onClose, target }: AddKeyDialogProps) {
  const notify = useNotify();
  const addToProject = useAddProjectDeployKey();
  const addToInstance = useAddInstanceDeployKey();
  const add = target === 'instance' ? addToInstance : addToProject;
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<DeployKeyFormValues>({ resolver: zodResolver(deployKeyFormSchema), defaultValues: EMPTY_DEPLOY_KEY_FORM });
  const onError = (error: unknown) => {
    if (!applyServerErrors(form, deployKeyFieldErrors(error), ['title', 'key', 'expires_at', 'can_push'])) setFormError(errorText(error));
  };
  const onSuccess = (key: DeployKey) => {
    notify(`Added deploy key ${key.title}.`);
    onClose();
  };
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    if (target === 'instance') addToInstance.mutate({ values: { title: values.title, key: values.key, expires_at: values.expires_at } }, { onSuccess, onError });
    else addToProject.mutate({ projectId: target.project, values }, { onSuccess, onError });
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open
      onOpenChange={(next) => (!next && !add.isPending ? onClose() : undefined)}
      title={target === 'instance' ? 'Add an instance deploy key' : 'Add a deploy key'}
      description={target === 'instance' ? 'An instance-wide key: Maintainers of any project can then enable it there.' : 'A key that lets a machine clone (and, if allowed, push to) this repository.'}
    >
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Title" error={errors.title?.message}>
          <input className="input" autoComplete="off" {...form.register('title')} />
        </Field>
        <Field label="Public key" error={errors.key?.message} hint="The contents of the .pub file: it starts with ssh-ed25519, ssh-rsa, ecdsa-sha2-… or sk-…. Never paste a private key.">
          <textarea className="input" rows={4} spellCheck={false} autoComplete="off" {...form.register('key')} />
        </Field>
        {target === 'instance' ? null : (
          <label className="checkbox">
            <input type="checkbox" {...form.register('can_push')} /> Grant write permissions to this key (it can push)
          </label>
        )}
        <Field label="Expires on" error={errors.expires_at?.message} hint="Optional. Leave empty for a key that does not expire.">
          <input className="input" type="date" min={tomorrow()} {...form.register('expires_at')} />
        </Field>
        <FormError message={formError} />
        <FormActions write={add} onCancel={onClose} submitLabel="Add key" pendingLabel="Adding…" />
      </form>
    </Dialog>
  );
}

export function EditDeployKeyDialog({ projectId, deployKey, onClose }: { projectId: number; deployKey: ProjectDeployKey; onClose: () => void }) {
  const notify = useNotify();
  const update = useUpdateDeployKey();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EditDeployKeyFormValues>({ resolver: zodResolver(editDeployKeyFormSchema), defaultValues: { title: deployKey.title, can_push: deployKey.can_push } });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    const changes = { ...(values.title !== deployKey.title ? { title: values.title } : {}), ...(values.can_push !== deployKey.can_push ? { can_push: values.can_push } : {}) };
    if (!Object.keys(changes).length) return onClose();
    update.mutate(
      { projectId, keyId: deployKey.id, changes },
      {
        onSuccess: (updated) => {
          // the platform keeps an instance-wide key's title unless an administrator changes it
          if (changes.title !== undefined && updated.title !== changes.title) notify(`Saved. The title stays “${updated.title}”: this is an instance-wide key, and only administrators rename those.`);
          else notify(`Saved deploy key ${updated.title}.`);
          onClose();
        },
        onError: (error) => {
          if (!applyServerErrors(form, deployKeyFieldErrors(error), ['title', 'can_push'])) setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => (!next && !update.isPending ? onClose() : undefined)} title={`Edit deploy key ${deployKey.title}`}>
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Title" error={errors.title?.message}>
          <input className="input" autoComplete="off" {...form.register('title')} />
        </Field>
        <label className="checkbox">
          <input type="checkbox" {...form.register('can_push')} /> Grant write permissions to this key (it can push)
        </label>
        <FormError message={formError} />
        <FormActions write={update} onCancel={onClose} submitLabel="Save" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}

export function DeleteDeployKeyDialog({ projectId, projectName, deployKey, onClose }: { projectId: number; projectName: string; deployKey: ProjectDeployKey; onClose: () => void }) {
  const notify = useNotify();
  const remove = useDeleteDeployKey();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Remove deploy key ${deployKey.title}?`}
      description={
        <>
          Machines using this key can no longer {deployKey.can_push ? 'clone or push to' : 'clone'} {projectName}. When no other project uses it, the key is deleted from the
          instance altogether (an instance-wide key an administrator added stays).
        </>
      }
      confirmLabel="Remove key"
      destructive
      write={remove}
      error={remove.error ? errorText(remove.error) : null}
      onConfirm={() =>
        remove.mutate(
          { projectId, keyId: deployKey.id },
          {
            onSuccess: () => {
              notify(`Removed deploy key ${deployKey.title}.`);
              onClose();
            },
          },
        )
      }
    />
  );
}

/** Keys of other projects (or the instance's) the caller may enable here, read-only at first. */
export function EnableDeployKeyDialog({ onClose, projectId }: { onClose: () => void; projectId: number }) {
  const connection = useConnection();
  const notify = useNotify();
  const me = useActiveSession()?.connection;
  const caller = { userId: me?.userId ?? 0, isAdmin: Boolean(me?.isAdmin) };
  const keys = useQuery(deployKeysQueries.enableable(connection, caller));
  const enabledHere = useQuery(deployKeysQueries.projectKeyIds(connection, projectId));
  const enable = useEnableDeployKey();
  const [filter, setFilter] = useState('');
  const here = enabledHere.data ?? new Set<number>();
  const needle = filter.trim().toLowerCase();
  const shown = (keys.data ?? []).filter((key) => !here.has(key.id) && (!needle || key.title.toLowerCase().includes(needle) || (key.fingerprint_sha256 ?? '').toLowerCase().includes(needle)));
  const error = keys.error ?? enabledHere.error;
  return (
    <Dialog
      open
      onOpenChange={(next) => (!next && !enable.isPending ? onClose() : undefined)}
      title="Enable an existing deploy key"
      description={caller.isAdmin ? 'Every deploy key of the instance. It is enabled read-only; grant write access afterwards with Edit.' : 'The keys of the projects you maintain. It is enabled read-only; grant write access afterwards with Edit.'}
    >
      <label className="field">
        <span className="field__label">Filter keys by title or fingerprint</span>
        <input type="search" className="input" placeholder="Title or SHA256:…" value={filter} onChange={(event) => setFilter(event.target.value)} />
      </label>
      {error ? (
        <ErrorPanel
          error={error}
          onRetry={() => {
            void keys.refetch();
            void enabledHere.refetch();
          }}
        />
      ) : keys.isPending || enabledHere.isPending ? (
        <p role="status">Loading the keys you can enable…</p>
      ) : shown.length === 0 ? (
        <p role="status">{needle ? 'No key matches this filter.' : 'There is no other key you can enable here.'}</p>
      ) : (
        <ul className="link-list" aria-label="Keys you can enable">
          {shown.map((key) => (
            <li key={key.id}>
              <span>
                <strong>{key.title}</strong> <code className="muted">{key.fingerprint_sha256 ?? key.fingerprint ?? ''}</code>
              </span>{' '}
              <button
                type="button"
                className="button"
                aria-label={`Enable ${key.title}`}
                disabled={enable.isPending}
                onClick={() =>
                  enable.mutate(
                    { projectId, keyId: key.id },
                    {
                      onSuccess: () => {
                        notify(`Enabled deploy key ${key.title} (read-only).`);
                        onClose();
                      },
                    },
                  )
                }
              >
                Enable
              </button>
            </li>
          ))}
        </ul>
      )}
      {enable.error ? (
        <div className="form-error" role="alert">
          {errorText(enable.error)}
        </div>
      ) : null}
      <UncertainWrite write={enable} />
      <div className="dialog__actions">
        <button type="button" className="button" disabled={enable.isPending} onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
