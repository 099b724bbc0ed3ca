import { useId, type ReactNode } from 'react';
import type { FieldErrors, Path, UseFormReturn } from 'react-hook-form';
import { earliestExpiry, latestExpiry, type CreateTokenInput } from '../api/access-tokens.ts';
import { Field } from './field.tsx';

type TokenForm = Pick<CreateTokenInput, 'name' | 'description' | 'scopes' | 'expires_at'>;

interface TokenFieldsProps<T extends TokenForm> {
  form: UseFormReturn<T, unknown, any>;
  scopes: ReadonlyArray<{ value: string; label: string; help: string }>;
  /** Fields between the description and the expiry (a group token's role). */
  children?: ReactNode;
}

/** The fields of a new token: name, description, expiry within one year, scopes as checkboxes. */
export function TokenFields<T extends TokenForm>({ form, scopes, children }: TokenFieldsProps<T>) {
  const scopesErrorId = useId();
  const scopesId = useId();
  const errors = form.formState.errors as FieldErrors<TokenForm>;
  const field = (name: keyof TokenForm) => name as unknown as Path<T>;
  return (
    <>
      <Field label="Token name" error={errors.name?.message}>
        <input className="input" autoComplete="off" {...form.register(field('name'))} />
      </Field>
      <Field label="Description" error={errors.description?.message} hint="Optional: what uses this token.">
        <input className="input" autoComplete="off" {...form.register(field('description'))} />
      </Field>
      {children}
      <Field label="Expires on" error={errors.expires_at?.message} hint={`At most one year ahead (${latestExpiry()}).`}>
        <input className="input" type="date" min={earliestExpiry()} max={latestExpiry()} {...form.register(field('expires_at'))} />
      </Field>
      <fieldset className="field" aria-describedby={errors.scopes ? scopesErrorId : undefined}>
        <legend className="field__label">Scopes</legend>
        <div className="scope-list">
          {scopes.map((scope) => (
            <div key={scope.value} className="scope">
              <label className="checkbox">
                <input type="checkbox" value={scope.value} aria-describedby={`${scopesId}-${scope.value}`} aria-invalid={errors.scopes ? true : undefined} {...form.register(field('scopes'))} /> {scope.label}
              </label>
              <span className="field__hint" id={`${scopesId}-${scope.value}`}>
                {scope.help}
              </span>
            </div>
          ))}
        </div>
        {errors.scopes ? (
          <p className="field__error" id={scopesErrorId}>
            {errors.scopes.message}
          </p>
        ) : null}
      </fieldset>
    </>
  );
}
