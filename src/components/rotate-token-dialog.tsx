import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ROTATE_DEFAULT_DAYS, earliestExpiry, latestExpiry, rotateTokenSchema, type AccessToken, type NewAccessToken, type RotateTokenInput } from '../api/access-tokens.ts';
import { ConfirmDialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { errorText } from './error-panel.tsx';
import type { Write } from './use-write.ts';

interface RotateTokenDialogProps<V> {
  token: AccessToken | null;
  /** The area's rotate mutation; it runs at most once per opening. */
  mutation: Write<NewAccessToken, V>;
  /** The mutation's variables for this token and the chosen expiry. */
  variables: (token: AccessToken, expiresAt: string | undefined) => V;
  onClose: () => void;
  onRotated: (token: NewAccessToken) => void;
  /** The console is connected with this very token. */
  self?: boolean;
}

/**
 * Confirms a rotation and sends it once: the confirmation says the old secret dies at once and
 * that a second rotate would revoke the whole token family (the platform's reuse detection).
 */
export function RotateTokenDialog<V>({ token, mutation: rotate, variables, onClose, onRotated, self = false }: RotateTokenDialogProps<V>) {
  const form = useForm<RotateTokenInput>({ resolver: zodResolver(rotateTokenSchema), defaultValues: { expires_at: '' } });
  useEffect(() => {
    rotate.reset();
    form.reset({ expires_at: '' });
  }, [token?.id]);
  if (!token) return null;
  const confirm = form.handleSubmit(({ expires_at: expiresAt }) =>
    rotate.mutate(variables(token, expiresAt || undefined), {
      onSuccess: (rotated) => {
        onClose();
        onRotated(rotated);
        // the answer held the new secret: the caller has its one copy now
        rotate.reset();
      },
    }),
  );
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => (!next ? onClose() : undefined)}
      title={`Rotate ${token.name}?`}
      description={
        <>
          A new secret replaces the current one, which stops working at once: update whatever uses “{token.name}”. Rotate only once: rotating a token that was already rotated
          counts as reuse of a revoked token, and the platform then revokes every token of its family.
          {self ? ' The console is connected with this token and carries on with the new one.' : ''}
        </>
      }
      confirmLabel="Rotate token"
      write={rotate}
      pending={rotate.isSuccess}
      error={rotate.error ? errorText(rotate.error) : null}
      onConfirm={() => void confirm()}
    >
      <Field label="New expiry date" error={form.formState.errors.expires_at?.message} hint={`Optional. Without one the new token expires in ${ROTATE_DEFAULT_DAYS} days; at most one year ahead.`}>
        <input className="input" type="date" min={earliestExpiry()} max={latestExpiry()} {...form.register('expires_at')} />
      </Field>
    </ConfirmDialog>
  );
}
