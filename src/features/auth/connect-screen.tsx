import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from '@tanstack/react-router';
import { checkConnection, connectFormSchema, type ConnectInput } from '../../api/auth.ts';
import { ApiError } from '../../api/errors.ts';
import { useSavedConnections, useSessionStore } from '../../api/react.ts';
import { Field } from '../../components/field.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { useWrite } from '../../components/use-write.ts';

/** Only same-origin paths are followed after connecting, never a URL from elsewhere. */
function safeRedirect(target: string | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/connect')) return '/';
  return target;
}

export function ConnectScreen({ redirect, expired }: { redirect?: string; expired: boolean }) {
  const session = useSessionStore();
  const saved = useSavedConnections();
  const navigate = useNavigate();
  const [switchError, setSwitchError] = useState<string | null>(null);
  const form = useForm<ConnectInput>({
    resolver: zodResolver(connectFormSchema),
    defaultValues: { instanceUrl: saved.at(-1)?.instanceUrl ?? window.location.origin, token: '', remember: false },
  });
  const enter = () => void navigate({ to: safeRedirect(redirect) });
  // a read, not a write: it goes through the same one-request-per-press gate and refreshes nothing
  const connect = useWrite({ send: checkConnection, refresh: () => Promise.resolve() });
  const submit = form.handleSubmit((values) =>
    connect.mutate(values, {
      onSuccess: (checked, input) => {
        session.connect(checked, input.token.trim());
        form.reset({ ...input, token: '' });
        enter();
      },
      onError: (error) => {
        // the whole explanation goes on the field: what the instance said and what may be wrong
        if (error instanceof ApiError && error.fieldErrors?.token) form.setError('token', { message: error.message });
      },
    }),
  );
  const { errors } = form.formState;
  return (
    <main className="connect">
      <h1>Platform Console</h1>
      <p className="muted">Connect to your instance with an access token. The token stays in this browser tab{' '}unless you ask to be remembered on this device.</p>
      {session.memoryOnly ? (
        <div className="notice" role="status">
          This browser blocks site data for this console, so the token is kept in this page&apos;s memory only: reloading or closing the tab signs you out.
        </div>
      ) : null}
      {expired ? (
        <div className="notice" role="status">
          Your session ended: the instance no longer accepts the token. Connect again to continue where you were.
        </div>
      ) : null}
      {saved.length ? (
        <section aria-labelledby="saved-connections">
          <h2 id="saved-connections">Saved connections</h2>
          <ul className="saved-connections">
            {saved.map((connection) => {
              const usable = session.hasToken(connection.id);
              return (
                <li key={connection.id}>
                  <span>
                    <strong>{connection.name}</strong> <span className="muted">@{connection.username} on {connection.instanceUrl}</span>
                  </span>
                  <span className="row-actions">
                    <button
                      type="button"
                      className="button"
                      disabled={!usable}
                      title={usable ? undefined : 'Its token is no longer stored: enter it again below'}
                      aria-label={`Use ${connection.username} on ${connection.instanceUrl}`}
                      onClick={() => {
                        setSwitchError(null);
                        if (session.switchTo(connection.id)) enter();
                        else setSwitchError('That connection has no token stored any more. Enter it again below.');
                      }}
                    >
                      Use
                    </button>
                    <button type="button" className="button" aria-label={`Forget ${connection.username} on ${connection.instanceUrl}`} onClick={() => session.remove(connection.id)}>
                      Forget
                    </button>
                  </span>
                </li>
              );
            })}
          </ul>
          {switchError ? <p className="form-error" role="alert">{switchError}</p> : null}
        </section>
      ) : null}
      <form className="form" noValidate onSubmit={submit} aria-labelledby="connect-heading">
        <h2 id="connect-heading">{saved.length ? 'New connection' : 'Connect'}</h2>
        <Field label="Instance URL" error={errors.instanceUrl?.message} hint="The address of your instance; this console's own address when it serves the API.">
          <input className="input" type="url" autoComplete="url" {...form.register('instanceUrl')} />
        </Field>
        <Field label="Access token" error={errors.token?.message} hint="A personal, group or project access token. With only read_api the console is read-only.">
          <input className="input" type="password" autoComplete="off" spellCheck={false} {...form.register('token')} />
        </Field>
        {session.memoryOnly ? null : (
          <label className="checkbox">
            <input type="checkbox" {...form.register('remember')} /> Remember on this device
          </label>
        )}
        {connect.error && !(connect.error instanceof ApiError && connect.error.fieldErrors?.token) ? (
          <div className="form-error" role="alert">
            {errorText(connect.error)}
          </div>
        ) : null}
        <button type="submit" className="button button--primary" disabled={connect.isPending} aria-busy={connect.isPending || undefined}>
          {connect.isPending ? 'Connecting…' : 'Connect'}
        </button>
      </form>
    </main>
  );
}
