import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { ApprovalSettings } from '../../api/approvals.ts';
import { errorText } from '../../components/error-panel.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { FormError } from '../../components/form-footer.tsx';
import { useNotify } from '../../components/toast.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { useUpdateApprovalSettings } from './mutations.ts';
import { SETTING_SWITCHES, settingsFormSchema, settingsFormValues, type SettingsFormValues } from './settings-form.ts';

interface SettingsSectionProps {
  projectId: number;
  settings: ApprovalSettings;
  /** Why the caller cannot change them (a role, a read-only token); null when they can. */
  readOnly: string | null;
}

/** The project's approval switches; the platform's rule between two of them is checked before sending. */
export function SettingsSection({ projectId, settings, readOnly }: SettingsSectionProps) {
  const notify = useNotify();
  const save = useUpdateApprovalSettings();
  const [formError, setFormError] = useState<string | null>(null);
  const headingId = useId();
  const hintId = useId();
  const form = useForm<SettingsFormValues>({ resolver: zodResolver(settingsFormSchema), defaultValues: settingsFormValues(settings) });
  const serverValues = settingsFormValues(settings);
  useEffect(() => {
    // what the server holds is the starting point, unless the user is changing it
    if (!form.formState.isDirty) form.reset(serverValues);
  }, [JSON.stringify(serverValues)]);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    // only what the user changed: a switch someone else set meanwhile is not overwritten
    const changes = Object.fromEntries(SETTING_SWITCHES.filter(({ name }) => values[name] !== serverValues[name]).map(({ name }) => [name, values[name]]));
    if (Object.keys(changes).length === 0) {
      setFormError('Nothing to save: no switch was changed.');
      return;
    }
    save.mutate(
      { projectId, changes },
      {
        onSuccess: (saved) => {
          form.reset(settingsFormValues(saved));
          notify('Saved the approval settings.');
        },
        onError: (error) => {
          if (!applyServerErrors(form, error, SETTING_SWITCHES.map((item) => item.name))) setFormError(errorText(error));
        },
      },
    );
  });
  const { errors } = form.formState;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Approval settings</h2>
      <form className="form" noValidate onSubmit={submit} aria-labelledby={headingId}>
        <fieldset className="field" disabled={readOnly !== null} aria-describedby={readOnly ? hintId : undefined}>
          <legend className="sr-only">Approval settings</legend>
          {SETTING_SWITCHES.map((item) => {
            const error = errors[item.name]?.message;
            return (
              <div key={item.name} className="scope">
                <label className="checkbox">
                  <input
                    type="checkbox"
                    aria-describedby={`${hintId}-${item.name}${error ? ` ${hintId}-${item.name}-error` : ''}`}
                    aria-invalid={error ? true : undefined}
                    {...form.register(item.name, {
                      // the rule concerns both switches: turning one off clears the other's error
                      onChange: () => (errors.selective_code_owner_removals ? void form.trigger('selective_code_owner_removals') : undefined),
                    })}
                  />{' '}
                  {item.label}
                </label>
                <span className="field__hint" id={`${hintId}-${item.name}`}>
                  {item.description}
                </span>
                {error ? (
                  <p className="field__error" id={`${hintId}-${item.name}-error`} role="alert">
                    {error}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
        <FormError message={formError} />
        <UncertainWrite write={save} />
        {readOnly ? null : (
          <div className="dialog__actions">
            <button type="submit" className="button button--primary" disabled={save.isPending} aria-busy={save.isPending || undefined}>
              {save.isPending ? 'Saving…' : 'Save approval settings'}
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
