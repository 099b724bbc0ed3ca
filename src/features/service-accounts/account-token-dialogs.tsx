import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { latestExpiry, type AccessToken, type NewAccessToken } from '../../api/access-tokens.ts';
import {
  SERVICE_ACCOUNT_TOKEN_SCOPES, createAccountTokenSchema,
  type CreateAccountTokenInput, type CreateAccountTokenValues, type ServiceAccountScope,
} from '../../api/service-accounts.ts';
import { RotateTokenDialog as RotateTokenConfirm } from '../../components/rotate-token-dialog.tsx';
import { TokenFields } from '../../components/token-fields.tsx';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useCreateAccountToken, useRevokeAccountToken, useRotateAccountToken } from './mutations.ts';
import { placeServerErrors } from '../../components/form-errors.ts';
import { FormError, FormActions } from '../../components/form-footer.tsx';

const emptyToken = (): CreateAccountTokenInput => ({ name: '', description: '', scopes: [], expires_at: latestExpiry() });

interface CreateAccountTokenDialogProps {
  onClose: () => void;
  scope: ServiceAccountScope;
  userId: number;
  accountName: string;
  /** Receives the new token, secret included, to show once. */
  onCreated: (token: NewAccessToken) => void;
}

export function CreateAccountTokenDialog({ onClose, scope, userId, accountName, onCreated }: CreateAccountTokenDialogProps) {
  const create = useCreateAccountToken();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateAccountTokenInput, unknown, CreateAccountTokenValues>({ resolver: zodResolver(createAccountTokenSchema), defaultValues: emptyToken() });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { scope, userId, values },
      {
        onSuccess: (token) => {
          onClose();
          onCreated(token);
          // the mutation held the secret: let go of it now that the caller has it
          create.reset();
        },
        onError: (error) => setFormError(placeServerErrors(form, error, ['name', 'description', 'scopes', 'expires_at'])),
      },
    );
  });
  return (
    <Dialog open onOpenChange={(next) => (!next && !create.isPending ? onClose() : undefined)} title={`New token for ${accountName}`}>
      <form className="form" noValidate onSubmit={submit}>
        <TokenFields form={form} scopes={SERVICE_ACCOUNT_TOKEN_SCOPES} />
        <FormError message={formError} />
        <FormActions write={create} onCancel={onClose} submitLabel="Create token" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

interface TokenDialogProps {
  token: AccessToken;
  scope: ServiceAccountScope;
  userId: number;
  onClose: () => void;
}

export function RotateAccountTokenDialog({ token, scope, userId, onClose, onRotated }: TokenDialogProps & { onRotated: (token: NewAccessToken) => void }) {
  const rotate = useRotateAccountToken();
  return (
    <RotateTokenConfirm
      token={token}
      mutation={rotate}
      variables={(target, expiresAt) => ({ scope, userId, tokenId: target.id, expiresAt })}
      onClose={onClose}
      onRotated={onRotated}
    />
  );
}

export function RevokeAccountTokenDialog({ token, scope, userId, accountName, onClose, onRevoked }: TokenDialogProps & { accountName: string; onRevoked: (token: AccessToken) => void }) {
  const revoke = useRevokeAccountToken();
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
      write={revoke}
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
