import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  GROUP_TOKEN_SCOPES, TOKEN_ROLES, createTokenSchema, latestExpiry,
  type AccessToken, type CreateTokenInput, type CreateTokenValues, type NewAccessToken, type RotateTokenVariables,
} from '../../api/access-tokens.ts';
import { roleName } from '../../api/members.ts';
import { ConfirmDialog, Dialog } from '../../components/dialog.tsx';
import { RotateTokenDialog as RotateTokenConfirm } from '../../components/rotate-token-dialog.tsx';
import { TokenFields } from '../../components/token-fields.tsx';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { RoleSelect } from '../../components/role-select.tsx';
import { useCreateToken, useRevokeToken, useRotateToken } from './mutations.ts';
import { FormError, FormActions } from '../../components/form-footer.tsx';

interface CreateTokenDialogProps {
  onClose: () => void;
  groupId: number;
  groupName: string;
  /** Receives the new token, secret included, to show once. */
  onCreated: (token: NewAccessToken) => void;
}

export function CreateTokenDialog({ onClose, groupId, groupName, onCreated }: CreateTokenDialogProps) {
  const create = useCreateToken();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<CreateTokenInput, unknown, CreateTokenValues>({
    resolver: zodResolver(createTokenSchema),
    defaultValues: { name: '', description: '', scopes: [], access_level: 40, expires_at: latestExpiry() },
  });
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    create.mutate(
      { groupId, values },
      {
        onSuccess: (token) => {
          onClose();
          onCreated(token);
          // the mutation held the secret: let go of it now that the caller has it
          create.reset();
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, ['name', 'description', 'scopes', 'access_level', 'expires_at'])) setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <Dialog open onOpenChange={(next) => (!next && !create.isPending ? onClose() : undefined)} title={`New access token for ${groupName}`}>
      <form className="form" noValidate onSubmit={submit}>
        <TokenFields form={form} scopes={GROUP_TOKEN_SCOPES}>
          <Field label="Role" error={errors.access_level?.message} hint="The token acts as a member of the group with this role.">
            <RoleSelect roles={TOKEN_ROLES} {...form.register('access_level')} />
          </Field>
        </TokenFields>
        <FormError message={formError} />
        <FormActions write={create} onCancel={onClose} submitLabel="Create token" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}

interface RotateGroupTokenDialogProps {
  token: AccessToken;
  groupId: number;
  onClose: () => void;
  onRotated: (token: NewAccessToken) => void;
  /** Rotating the token the console is connected with (token_id=self). */
  self?: boolean;
}

export function RotateTokenDialog({ token, groupId, onClose, onRotated, self = false }: RotateGroupTokenDialogProps) {
  const rotate = useRotateToken();
  return (
    <RotateTokenConfirm
      token={token}
      self={self}
      mutation={rotate}
      variables={(target, expiresAt): RotateTokenVariables => ({ groupId, tokenId: self ? 'self' : target.id, expiresAt })}
      onClose={onClose}
      onRotated={onRotated}
    />
  );
}

export function RevokeTokenDialog({ token, groupId, onClose, onRevoked }: { token: AccessToken; groupId: number; onClose: () => void; onRevoked: (token: AccessToken) => void }) {
  const revoke = useRevokeToken();
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Revoke ${token.name}?`}
      description={
        <>
          “{token.name}” ({roleName(token.access_level ?? 0)}, scopes {token.scopes.join(', ')}) stops working at once and for good. Anything still using it will get 401 answers.
        </>
      }
      confirmLabel="Revoke token"
      destructive
      write={revoke}
      error={revoke.error ? errorText(revoke.error) : null}
      onConfirm={() =>
        revoke.mutate(
          { groupId, tokenId: token.id },
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
