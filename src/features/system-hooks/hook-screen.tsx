import { useState } from 'react';
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  hookFormValues, systemHooksQueries, urlPlaceholders, urlVariableSchema,
  type HookDelivery, type SystemHook, type UrlVariableInput,
} from '../../api/system-hooks.ts';
import { useActiveSession, useConnection } from '../../api/react.ts';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { EmptyState } from '../../components/states.tsx';
import { useNotify } from '../../components/toast.tsx';
import { Time } from '../../components/time.tsx';
import { RefusedScreen } from '../../components/refused-screen.tsx';
import { HookForm } from './hook-form.tsx';
import { hookTitle } from './hook-title.ts';
import { useDeleteUrlVariable, useSetUrlVariable, useTestHook, useUpdateHook } from './mutations.ts';
import { systemHooksAccess } from './permissions.ts';
import { FormError } from '../../components/form-footer.tsx';
import { Note } from '../../components/note.tsx';
import { UncertainWrite } from '../../components/uncertain-write.tsx';
import { chunk, lazyPart, usePreloadWhenIdle } from '../../components/lazy-part.ts';

// the delivery log sits below the form and brings the table machinery: it loads after
const RecentDeliveries = lazyPart(chunk(() => import('./recent-deliveries.tsx')), (module) => module.RecentDeliveries, <p className="muted" role="status">Loading deliveries…</p>);
const loadDialogs = chunk(() => import('./hook-dialogs.tsx'));
const DeleteHookDialog = lazyPart(loadDialogs, (module) => module.DeleteHookDialog);

/** One system hook: its settings, URL variables, a test call, the recent deliveries, deletion. */
export function HookScreen({ hookId }: { hookId: number }) {
  const access = systemHooksAccess(useActiveSession()?.connection);
  if (!access.canView) return <RefusedScreen title="System hook" reason={access.reason ?? ''} />;
  return <HookDetail hookId={hookId} canManage={access.canManage} reason={access.reason} />;
}

function HookDetail({ hookId, canManage, reason }: { hookId: number; canManage: boolean; reason: string | null }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const notify = useNotify();
  const hook = useSuspenseQuery(systemHooksQueries.detail(connection, hookId)).data;
  const update = useUpdateHook();
  // a fresh form after each save: the token and new variables fields start empty again
  const [formVersion, setFormVersion] = useState(0);
  const [deleting, setDeleting] = useState(false);
  usePreloadWhenIdle(loadDialogs, canManage);
  const title = hookTitle(hook);
  return (
    <section className="screen" aria-labelledby="system-hook-heading">
      <header className="screen__header">
        <h1 id="system-hook-heading">System hook {title}</h1>
        {canManage ? (
          <button type="button" className="button button--danger" onClick={() => setDeleting(true)}>
            Delete hook
          </button>
        ) : null}
      </header>
      <Note>{reason}</Note>
      <dl className="details">
        <dt>Created</dt>
        <dd>
          <Time value={hook.created_at} />
        </dd>
        {hook.description ? (
          <>
            <dt>Description</dt>
            <dd>{hook.description}</dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="hook-settings-heading">
        <h2 id="hook-settings-heading">Settings</h2>
        {canManage ? (
          <HookForm
            key={formVersion}
            hook={hook}
            defaultValues={{ ...hookFormValues(hook), name: hook.name ?? '', description: hook.description ?? '' }}
            submitLabel="Save changes"
            pendingLabel="Saving…"
            write={update}
            onCancel={() => void navigate({ to: '/admin/hooks' })}
            onSubmit={(values, onError) =>
              update.mutate(
                { hookId, values },
                {
                  onSuccess: () => {
                    setFormVersion((version) => version + 1);
                    notify(`Saved ${title}.`);
                  },
                  onError,
                },
              )
            }
          />
        ) : (
          <p>
            Posts to <code>{hook.url}</code>.
          </p>
        )}
      </section>

      <UrlVariables hook={hook} canManage={canManage} />
      {canManage ? <TestHook hookId={hookId} /> : null}
      <RecentDeliveries hookId={hookId} />

      {canManage && deleting ? (
        <DeleteHookDialog
          hook={hook}
          onClose={() => setDeleting(false)}
          onDeleted={(deleted) => {
            notify(`Deleted ${hookTitle(deleted)}.`);
            void navigate({ to: '/admin/hooks' });
          }}
        />
      ) : null}
    </section>
  );
}

/** Keys only: the platform never returns a variable's value. */
function UrlVariables({ hook, canManage }: { hook: SystemHook; canManage: boolean }) {
  const setVariable = useSetUrlVariable();
  const removeVariable = useDeleteUrlVariable();
  const [formError, setFormError] = useState<string | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const form = useForm<UrlVariableInput>({ resolver: zodResolver(urlVariableSchema), defaultValues: { key: '', value: '' } });
  const { errors } = form.formState;
  const used = urlPlaceholders(hook.url);
  const submit = form.handleSubmit((values) => {
    setFormError(null);
    setVariable.mutate(
      { hookId: hook.id, key: values.key, value: values.value },
      {
        onSuccess: () => form.reset({ key: '', value: '' }),
        onError: (error) => setFormError(errorText(error)),
      },
    );
  });
  return (
    <section aria-labelledby="url-variables-heading">
      <h2 id="url-variables-heading">URL variables</h2>
      <p className="field__hint">
        Each <code>{'{key}'}</code> in the URL is replaced by the value of the variable with that key when the hook is called. Values are write-only: only the keys are shown.
      </p>
      {hook.url_variables.length === 0 ? (
        <EmptyState title="This hook has no URL variables." />
      ) : (
        <ul className="link-list" aria-label="URL variable keys">
          {hook.url_variables.map(({ key }) => (
            <li key={key}>
              <code>{key}</code> {used.includes(key) ? <span className="muted">(used in the URL)</span> : null}{' '}
              {canManage ? (
                <button
                  type="button"
                  className="button button--danger-quiet"
                  aria-label={`Delete variable ${key}`}
                  disabled={removeVariable.isPending}
                  onClick={() => {
                    setRemoveError(null);
                    removeVariable.mutate({ hookId: hook.id, key }, { onError: (error) => setRemoveError(errorText(error)) });
                  }}
                >
                  Delete
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <FormError message={removeError} write={removeVariable} />
      {canManage ? (
        <form className="form" noValidate onSubmit={submit} aria-label="Set a URL variable">
          <div className="filter-bar">
            <Field label="Variable key" error={errors.key?.message}>
              <input className="input" autoComplete="off" spellCheck={false} {...form.register('key')} />
            </Field>
            <Field label="Variable value" error={errors.value?.message} hint="A key that exists gets the new value.">
              <input className="input" type="password" autoComplete="new-password" spellCheck={false} {...form.register('value')} />
            </Field>
            <button type="submit" className="button" disabled={setVariable.isPending} aria-busy={setVariable.isPending || undefined}>
              {setVariable.isPending ? 'Saving…' : 'Save variable'}
            </button>
          </div>
          <FormError message={formError} write={setVariable} />
        </form>
      ) : null}
    </section>
  );
}

/** A delivery the receiver took: it answered 2xx and nothing failed on the way. */
const delivered = (delivery: HookDelivery) => !delivery.internal_error_message && /^2\d\d$/.test(delivery.response_status);

/**
 * The platform posts a sample to the receiver and answers with that sample whatever the receiver
 * did, so the outcome comes from the delivery log (where the instance keeps one), beside the button.
 */
function TestHook({ hookId }: { hookId: number }) {
  const connection = useConnection();
  const queryClient = useQueryClient();
  const test = useTestHook();
  const deliveriesQuery = systemHooksQueries.deliveries(connection, hookId);
  const log = useQuery(deliveriesQuery).data;
  // the newest delivery before this test: the test's own comes after it
  const [sinceId, setSinceId] = useState<number | null>(null);
  const outcome = sinceId === null || !log?.available ? undefined : log.deliveries.find((delivery) => delivery.id > sinceId && delivery.trigger === 'system_hooks');
  const run = async () => {
    const known = await queryClient.ensureQueryData(deliveriesQuery).catch(() => null);
    setSinceId(known?.available ? Math.max(0, ...known.deliveries.map((delivery) => delivery.id)) : null);
    test.mutate({ hookId });
  };
  return (
    <section aria-labelledby="test-hook-heading">
      <h2 id="test-hook-heading">Test</h2>
      <p className="field__hint">Sends a sample project_create event to the receiver now.</p>
      <button type="button" className="button" disabled={test.isPending} aria-busy={test.isPending || undefined} onClick={() => void run()}>
        {test.isPending ? 'Testing…' : 'Test hook'}
      </button>
      {test.isError ? (
        <div className="form-error" role="alert">
          {errorText(test.error)}
        </div>
      ) : null}
      <UncertainWrite write={test} />
      {test.isSuccess ? (
        <>
          {!log?.available ? (
            <p role="status">Sent. The instance does not report whether the receiver accepted it: check on the receiver.</p>
          ) : !outcome ? (
            <p role="status">Sent. Waiting for the receiver’s answer…</p>
          ) : delivered(outcome) ? (
            <p role="status">Delivered: the receiver answered {outcome.response_status}.</p>
          ) : (
            <div className="form-error" role="alert">
              The delivery failed: {outcome.internal_error_message ?? `the receiver answered ${outcome.response_status}`}.
            </div>
          )}
          <figure>
            <figcaption>The sample the instance sent:</figcaption>
            <pre aria-label="Test answer">{typeof test.data === 'string' ? test.data : JSON.stringify(test.data, null, 2)}</pre>
          </figure>
        </>
      ) : null}
    </section>
  );
}
