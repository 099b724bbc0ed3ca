import { useState } from 'react';
import { useFieldArray, useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  BRANCH_FILTER_STRATEGIES, HOOK_EVENTS, createHookSchema, hookErrorField, updateHookSchema, urlPlaceholders,
  type CreateHookInput, type CreateHookValues, type SystemHook,
} from '../../api/system-hooks.ts';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { applyServerErrors } from '../../components/form-errors.ts';
import { FormActions, FormError } from '../../components/form-footer.tsx';
import type { UncertainSignal } from '../../components/uncertain-write.tsx';

interface HookFormProps {
  /** The hook being edited; absent when adding one. */
  hook?: SystemHook;
  defaultValues: CreateHookInput;
  submitLabel: string;
  pendingLabel: string;
  /** The create or update write: sent once per press, its uncertain outcome explained. */
  write: UncertainSignal & { isPending: boolean };
  /** Runs the mutation; `onError` puts the instance's refusal on the form. */
  onSubmit: (values: CreateHookValues, onError: (error: unknown) => void) => void;
  onCancel: () => void;
}

const FIELDS = ['url', 'name', 'description', 'token', 'push_events_branch_filter', 'branch_filter_strategy', 'url_variables'] as const;

/** Add or edit a system hook; what the user typed stays on any error. */
export function HookForm({ hook, defaultValues, submitLabel, pendingLabel, write, onSubmit, onCancel }: HookFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const [schema] = useState(() => (hook ? updateHookSchema(hook) : createHookSchema));
  const form = useForm<CreateHookInput, unknown, CreateHookValues>({
    // the edit schema has no name or description: the documented update does not take them
    resolver: zodResolver(schema) as unknown as Resolver<CreateHookInput, unknown, CreateHookValues>,
    defaultValues,
  });
  const variables = useFieldArray({ control: form.control, name: 'url_variables' });
  const { errors } = form.formState;
  const strategy = form.watch('branch_filter_strategy');
  const url = form.watch('url');
  const urlChanged = hook !== undefined && url.trim() !== hook.url;
  const placeholders = urlPlaceholders(url);

  const submit = form.handleSubmit((values) => {
    setFormError(null);
    onSubmit(values, (error) => {
      const field = hookErrorField(error);
      if (field) form.setError(field, { type: 'server', message: errorText(error) });
      else if (!applyServerErrors(form, error, FIELDS)) setFormError(errorText(error));
    });
  });

  return (
    <form className="form" noValidate onSubmit={submit} aria-label={hook ? 'Hook settings' : 'New system hook'}>
      <Field
        label="URL"
        error={errors.url?.message}
        hint={
          <>
            Events are POSTed here as JSON. <code>{'{key}'}</code> placeholders are replaced by the URL variable of that key, so secrets stay out of the URL.
            {placeholders.length ? ` Placeholders: ${placeholders.map((key) => `{${key}}`).join(', ')}.` : ''}
          </>
        }
      >
        <input className="input" type="url" autoComplete="off" spellCheck={false} {...form.register('url')} />
      </Field>
      {/* the platform's update takes no name or description (spec 1, 4.6): shown, and said so, rather than hidden */}
      <Field label="Name" error={errors.name?.message} hint={hook ? undefined : 'Set once: the platform cannot rename a hook afterwards.'}>
        <input className="input" autoComplete="off" readOnly={hook !== undefined} {...form.register('name')} />
      </Field>
      <Field
        label="Description"
        error={errors.description?.message}
        hint={hook ? 'The name and description stay as they were set when the hook was added: the platform’s update does not change them. To change them, add a new hook and delete this one.' : undefined}
      >
        <textarea className="input" rows={2} readOnly={hook !== undefined} {...form.register('description')} />
      </Field>
      <Field
        label="Secret token"
        error={errors.token?.message}
        hint={
          hook
            ? urlChanged
              ? 'The URL changes: the current token and URL variables are cleared unless you enter them again here.'
              : 'Leave empty to keep the current token. It is sent in the X-Gitlab-Token header and never shown again.'
            : 'Sent in the X-Gitlab-Token header so the receiver can check the call is ours. It is never shown again.'
        }
      >
        <input className="input" type="password" autoComplete="new-password" spellCheck={false} {...form.register('token')} />
      </Field>

      <fieldset className="field">
        <legend className="field__label">Trigger</legend>
        {HOOK_EVENTS.map((event) => (
          <label key={event.field} className="checkbox" title={event.help}>
            <input type="checkbox" {...form.register(event.field)} /> {event.label}
          </label>
        ))}
      </fieldset>

      <fieldset className="field">
        <legend className="field__label">Branch filter for push events</legend>
        {BRANCH_FILTER_STRATEGIES.map((option) => (
          <label key={option.value} className="checkbox" title={option.help}>
            <input type="radio" value={option.value} {...form.register('branch_filter_strategy')} /> {option.label}
          </label>
        ))}
        {strategy === 'all_branches' ? null : (
          <Field label={strategy === 'regex' ? 'Branch regular expression' : 'Branch pattern'} error={errors.push_events_branch_filter?.message} hint="Empty: every branch.">
            <input className="input" autoComplete="off" spellCheck={false} {...form.register('push_events_branch_filter')} />
          </Field>
        )}
      </fieldset>

      <label className="checkbox">
        <input type="checkbox" {...form.register('enable_ssl_verification')} /> Verify the receiver's TLS certificate
      </label>

      <fieldset className="field">
        <legend className="field__label">{hook ? 'URL variables to add with this save' : 'URL variables'}</legend>
        {variables.fields.map((item, index) => (
          <div key={item.id} className="filter-bar" role="group" aria-label={`URL variable ${index + 1}`}>
            <Field label={`Key of variable ${index + 1}`} error={errors.url_variables?.[index]?.key?.message}>
              <input className="input" autoComplete="off" spellCheck={false} {...form.register(`url_variables.${index}.key`)} />
            </Field>
            <Field label={`Value of variable ${index + 1}`} error={errors.url_variables?.[index]?.value?.message} hint="Write-only: never shown again.">
              <input className="input" type="password" autoComplete="new-password" spellCheck={false} {...form.register(`url_variables.${index}.value`)} />
            </Field>
            <button type="button" className="button button--danger-quiet" onClick={() => variables.remove(index)}>
              Remove variable {index + 1}
            </button>
          </div>
        ))}
        {errors.url_variables?.message ? <p className="field__error">{errors.url_variables.message}</p> : null}
        {errors.url_variables?.root?.message ? <p className="field__error">{errors.url_variables.root.message}</p> : null}
        <button type="button" className="button" onClick={() => variables.append({ key: '', value: '' })}>
          Add a URL variable
        </button>
      </fieldset>

      <FormError message={formError} />
      <FormActions write={write} onCancel={onCancel} submitLabel={submitLabel} pendingLabel={pendingLabel} />
    </form>
  );
}
