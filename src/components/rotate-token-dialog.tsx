import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ROTATE_DEFAULT_DAYS, earliestExpiry, latestExpiry, rotateDefaultExpiry, rotateTokenSchema, sameLifetimeExpiry, tokenLifetimeDays,
  type AccessToken, type NewAccessToken, type RotateTokenInput,
} from '../api/access-tokens.ts';
import { formatDate } from '../lib/time.ts';
import { ConfirmDialog } from './dialog.tsx';
import { Field } from './field.tsx';
import { errorText } from './error-panel.tsx';
import type { Write } from './use-write.ts';
import { formatCountOf } from '../lib/numbers.ts';

interface RotateTokenDialogProps<V> {
  token: AccessToken;
  /** The area's rotate mutation, made per opening by the dialog's caller; it runs at most once. */
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
  // the platform gives a rotated token without a date 7 days: the token's own lifetime is the default instead
  const keepLifetime = sameLifetimeExpiry(token);
  const form = useForm<RotateTokenInput>({ resolver: zodResolver(rotateTokenSchema), defaultValues: { expires_at: keepLifetime } });
  const lifetime = tokenLifetimeDays(token);
  const chosen = form.watch('expires_at');
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
      <Field
        label="New expiry date"
        error={form.formState.errors.expires_at?.message}
        hint={
          <>
            {lifetime === null
              ? 'This token never expires, but a rotated token always does: the date given is the longest the platform allows, one year.'
              : `The date given keeps the token's current lifetime of ${formatCountOf(lifetime, 'day', 'days')}; at most one year ahead.`}{' '}
            <strong>Without a date the platform gives the new token only {ROTATE_DEFAULT_DAYS} days, until {formatDate(rotateDefaultExpiry())}.</strong>
          </>
        }
      >
        <input className="input" type="date" min={earliestExpiry()} max={latestExpiry()} {...form.register('expires_at')} />
      </Field>
      {chosen !== keepLifetime ? (
        <button type="button" className="button" onClick={() => form.setValue('expires_at', keepLifetime, { shouldValidate: true })}>
          {lifetime === null ? 'Use the longest lifetime' : 'Keep the current lifetime'} ({formatDate(keepLifetime)})
        </button>
      ) : null}
    </ConfirmDialog>
  );
}
