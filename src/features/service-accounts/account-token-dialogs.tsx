import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ROTATE_DEFAULT_DAYS, earliestExpiry, latestExpiry, rotateTokenSchema,
  type AccessToken, type NewAccessToken, type RotateTokenInput,
} from '../../api/access-tokens.ts';
import { ApiError } from '../../api/errors.ts';
import {
  SERVICE_ACCOUNT_TOKEN_SCOPES, createAccountTokenSchema,
  type CreateAccountTokenInput, type CreateAccountTokenValues, type ServiceAccountScope,
} from '../../api/service-accounts.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useCreateAccountToken, useRevokeAccountToken, useRotateAccountToken } from './mutations.ts';
import { placeServerErrors } from './server-errors.ts';

const emptyToken = (): CreateAccountTokenInput => ({ name: '', description: '', scopes: [], expires_at: latestExpiry() });

interface CreateAccountTokenDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  scope: ServiceAccountScope;
  userId: number;
  accountName: string;
  /** Receives the new token, secret included, to show once. */
  onCreated: (token: NewAccessToken) => void;
}

export function CreateAccountTokenDialog({ open, onOpenChange, scope, userId, accountName, onCreated }: CreateAccountTokenDialogProps) {
  const create = useCreateAccountToken();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateAccountTokenInput, unknown, CreateAccountTokenValues>({ resolver: zodResolver(createAccountTokenSchema), defaultValues: emptyToken() });
  useEffect(() => {
    if (!open) {
      form.reset(emptyToken());
      setFormError(null);
    }
  }, [open]);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { scope, userId, values },
      {
        onSuccess: (token) => {
          onOpenChange(false);
          onCreated(token);
          // the mutation held the secret: let go of it now that the caller has it
          create.reset();
        },
        onError: (error) => setFormError(placeServerErrors(form, error, ['name', 'description', 'scopes', 'expires_at'])),
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open={open} onOpenChange={(next) => (!create.isPending ? onOpenChange(next) : undefined)} title={`New token for ${accountName}`}>
      <form className="form" noValidate onSubmit={submit}>
        <Field label="Token name" error={errors.name?.message}>
          <input className="input" autoComplete="off" {...form.register('name')} />
        </Field>
        <Field label="Description" error={errors.description?.message} hint="Optional: what uses this token.">
          <input className="input" autoComplete="off" {...form.register('description')} />
        </Field>
        <Field label="Expires on" error={errors.expires_at?.message} hint={`At most one year ahead (${latestExpiry()}).`}>
          <input className="input" type="date" min={earliestExpiry()} max={latestExpiry()} {...form.register('expires_at')} />
        </Field>
        <fieldset className="field" aria-invalid={errors.scopes ? true : undefined} aria-describedby={errors.scopes ? 'account-token-scopes-error' : undefined}>
          <legend className="field__label">Scopes</legend>
          <div className="scope-list">
            {SERVICE_ACCOUNT_TOKEN_SCOPES.map((option) => (
              <label key={option.value} className="checkbox" title={option.help}>
                <input type="checkbox" value={option.value} {...form.register('scopes')} /> {option.label}
                <span className="sr-only">: {option.help}</span>
              </label>
            ))}
          </div>
          {errors.scopes ? (
            <p className="field__error" id="account-token-scopes-error">
              {errors.scopes.message}
            </p>
          ) : null}
        </fieldset>
        {formError ? (
          <div className="form-error" role="alert">
            {formError}
          </div>
        ) : null}
        <div className="dialog__actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)} disabled={create.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={create.isPending} aria-busy={create.isPending || undefined}>
            {create.isPending ? 'Creating…' : 'Create token'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

interface TokenDialogProps {
  token: AccessToken | null;
  scope: ServiceAccountScope;
  userId: number;
  onClose: () => void;
}

export function RotateAccountTokenDialog({ token, scope, userId, onClose, onRotated }: TokenDialogProps & { onRotated: (token: NewAccessToken) => void }) {
  const rotate = useRotateAccountToken();
  const form = useForm<RotateTokenInput>({ resolver: zodResolver(rotateTokenSchema), defaultValues: { expires_at: '' } });
  useEffect(() => {
    rotate.arm();
    form.reset({ expires_at: '' });
  }, [token?.id]);
  if (!token) return null;
  const confirm = form.handleSubmit(({ expires_at: expiresAt }) =>
    rotate.rotateOnce(
      { scope, userId, tokenId: token.id, expiresAt: expiresAt || undefined },
      {
        onSuccess: (rotated) => {
          onClose();
          onRotated(rotated);
          rotate.reset();
        },
        onError: (error) => {
          // a refusal rotated nothing, so the corrected request may go; after a lost answer it may have
          if (error instanceof ApiError && error.kind === 'http' && error.status < 500) rotate.release();
        },
      },
    ),
  );
  const uncertain = rotate.error instanceof ApiError && (rotate.error.kind !== 'http' || rotate.error.status >= 500);
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Rotate ${token.name}?`}
      description={
        <>
          A new secret replaces the current one, which stops working at once: update whatever uses “{token.name}”. Rotate only once: rotating a token that was already rotated
          counts as reuse of a revoked token, and the platform then revokes every token of its family.
        </>
      }
      confirmLabel="Rotate token"
      pending={rotate.isPending || rotate.isSuccess}
      error={rotate.error ? `${errorText(rotate.error)}${uncertain ? ' The token may have been rotated: close this and check the list before trying again.' : ''}` : null}
      onConfirm={() => void confirm()}
    >
      <Field label="New expiry date" error={form.formState.errors.expires_at?.message} hint={`Optional. Without one the new token expires in ${ROTATE_DEFAULT_DAYS} days; at most one year ahead.`}>
        <input className="input" type="date" min={earliestExpiry()} max={latestExpiry()} {...form.register('expires_at')} />
      </Field>
    </ConfirmDialog>
  );
}

export function RevokeAccountTokenDialog({ token, scope, userId, accountName, onClose, onRevoked }: TokenDialogProps & { accountName: string; onRevoked: (token: AccessToken) => void }) {
  const revoke = useRevokeAccountToken();
  useEffect(() => revoke.reset(), [token?.id]);
  if (!token) return null;
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Revoke ${token.name}?`}
      description={
        <>
          “{token.name}” of {accountName} (scopes {token.scopes.join(', ')}) stops working at once and for good. Anything still using it will get 401 answers.
        </>
      }
      confirmLabel="Revoke token"
      destructive
      pending={revoke.isPending}
      error={revoke.error ? errorText(revoke.error) : null}
      onConfirm={() =>
        revoke.mutate(
          { scope, userId, tokenId: token.id },
          {
            onSuccess: () => {
              onClose();
              onRevoked(token);
            },
          },
        )
      }
    />
  );
}
