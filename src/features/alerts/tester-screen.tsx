import './alerts.css';
import { useId, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { answeredAlerts, alertsQueries, type AlertAuthMode, type Integration, type TestAlertAnswer } from '../../api/alerts.ts';
import { useConnection } from '../../api/react.ts';
import { ErrorPanel, errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { useSettled } from '../../components/list-hooks.ts';
import { RouteLink } from '../../components/route-link.tsx';
import { RoutePending } from '../../components/states.tsx';
import { Time } from '../../components/time.tsx';
import { useNavigate } from '@tanstack/react-router';
import { SeverityBadge } from './alert-cells.tsx';
import { integrationName, integrationTypeLabel } from './integration-labels.ts';
import { fieldMappingOf, HTTP_TEMPLATE, METRICS_TEMPLATE, openAlertsByFingerprint, previewPayload, type Preview, type PreviewItem } from './mapping.ts';
import { useSendTestAlert } from './mutations.ts';
import type { AlertTesterSearch } from './search.ts';
import { AlertsScreen } from './alerts-screen.tsx';

/**
 * The alert tester (the platform has none): compose a payload for an integration, see while typing
 * what the platform will make of it (the shared mapping module, open alerts looked up by
 * fingerprint through the alerts list), then send it through the console server's relay.
 */
export function TesterScreen({ projectId, search }: { projectId: number; search: AlertTesterSearch }) {
  return (
    <AlertsScreen projectId={projectId} title="Alert tester" links={['settings']}>
      {(fullPath) => <Tester projectId={projectId} fullPath={fullPath} search={search} />}
    </AlertsScreen>
  );
}

function Tester({ projectId, fullPath, search }: { projectId: number; fullPath: string; search: AlertTesterSearch }) {
  const connection = useConnection();
  const navigate = useNavigate();
  const integrations = useQuery(alertsQueries.integrations(connection, fullPath));
  const usable = (integrations.data ?? []).filter((integration) => integration.url);
  const integration = usable.find((candidate) => candidate.id === search.integration) ?? usable[0];
  if (integrations.isPending) return <RoutePending />;
  if (integrations.error) return <ErrorPanel error={integrations.error} onRetry={() => void integrations.refetch()} />;
  if (!integration) {
    return (
      <p className="notice" role="note">
        This project has no alert integration to test yet.{' '}
        <RouteLink to="/projects/$projectId/settings/alerts" params={{ projectId }}>
          Add one
        </RouteLink>{' '}
        first.
      </p>
    );
  }
  return (
    <div className="alert-tester">
      <Field label="Integration">
        <select className="input" value={integration.id} onChange={(event) => void navigate({ to: '.', search: { integration: event.target.value } as never, replace: true })}>
          {usable.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {integrationOptionText(candidate)}
            </option>
          ))}
        </select>
      </Field>
      <Composer key={integration.id} projectId={projectId} fullPath={fullPath} integration={integration} />
    </div>
  );
}

/** "Datadog (HTTP endpoint, inactive)": the type is said once, not again after a name that is the type's own. */
function integrationOptionText(integration: Integration): string {
  const type = integrationTypeLabel(integration.type);
  const name = integrationName(integration);
  const notes = [name === type ? null : type, integration.active ? null : 'inactive'].filter(Boolean);
  return notes.length ? `${name} (${notes.join(', ')})` : name;
}

function Composer({ projectId, fullPath, integration }: { projectId: number; fullPath: string; integration: Integration }) {
  const connection = useConnection();
  const format = integration.type === 'PROMETHEUS' ? 'prometheus' : 'http';
  const [payload, setPayload] = useState(format === 'prometheus' ? METRICS_TEMPLATE : HTTP_TEMPLATE);
  const [key, setKey] = useState(integration.token ?? '');
  const [showKey, setShowKey] = useState(false);
  const [auth, setAuth] = useState<AlertAuthMode>('bearer');
  const send = useSendTestAlert(fullPath);
  // a custom mapping applies while the integration is active (spec 3, 4.9)
  const mapping = integration.type !== 'PROMETHEUS' && integration.active && integration.payloadAttributeMappings.length ? fieldMappingOf(integration.payloadAttributeMappings) : null;
  // the JSON check runs per keystroke; open alerts are asked once typing pauses
  const local = useMemo(() => previewPayload(payload, format, { now: Date.now(), mapping, open: new Map() }), [payload, format, mapping]);
  const titles = local.kind === 'ok' ? [...new Set(local.items.map((item) => item.alert.title))] : [];
  const settled = useSettled(JSON.stringify(titles), 400);
  const settledTitles = JSON.parse(settled) as string[];
  const open = useQuery({ ...alertsQueries.openByTitle(connection, fullPath, settledTitles), enabled: settledTitles.length > 0 });
  // an HTTP endpoint reads an Alertmanager payload as the metrics service does: the open alerts' payloads too
  const readAs = local.kind === 'ok' ? local.format : format;
  const openMap = useMemo(() => openAlertsByFingerprint(readAs, open.data ?? [], readAs === 'http' ? mapping : null), [open.data, readAs, mapping]);
  const preview = useMemo(() => (openMap.size ? previewPayload(payload, format, { now: Date.now(), mapping, open: openMap }) : local), [local, openMap, payload, format, mapping]);
  const lookupPending = settledTitles.length > 0 && (open.isFetching || settled !== JSON.stringify(titles));
  const keyId = useId();
  const invalid = preview.kind === 'invalid-json' || preview.kind === 'empty';

  return (
    <form
      className="alert-tester"
      aria-label="Test alert"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (invalid || !key || !integration.url) return;
        send.mutate({ url: integration.url, key, auth, payload });
      }}
    >
      <div className="alert-actions" role="group" aria-label="Templates">
        <button type="button" className="button" onClick={() => setPayload(HTTP_TEMPLATE)}>
          Use the HTTP template
        </button>
        <button type="button" className="button" onClick={() => setPayload(METRICS_TEMPLATE)}>
          Use the metrics template
        </button>
      </div>
      <Field
        label="Payload"
        error={preview.kind === 'invalid-json' ? `Line ${preview.error.line}, column ${preview.error.column}: ${preview.error.message}` : preview.kind === 'empty' ? 'Enter a payload.' : undefined}
        hint={format === 'prometheus' ? 'The metrics (Prometheus Alertmanager) format: one alert per item of alerts.' : "The HTTP endpoint's format, with the integration's field mapping when it has one."}
      >
        <textarea className="input alert-editor" value={payload} spellCheck={false} onChange={(event) => setPayload(event.target.value)} />
      </Field>
      {preview.kind === 'invalid-json' ? <ErrorLine source={payload} line={preview.error.line} column={preview.error.column} /> : null}
      <PreviewPanel preview={preview} format={format} projectId={projectId} lookupPending={lookupPending} lookupError={open.error} />
      <fieldset className="field">
        <legend className="field__label">Authorization</legend>
        <label className="checkbox">
          <input type="radio" name="auth" checked={auth === 'bearer'} onChange={() => setAuth('bearer')} /> Bearer
        </label>
        <label className="checkbox">
          <input type="radio" name="auth" checked={auth === 'basic'} onChange={() => setAuth('basic')} /> Basic
        </label>
        <div className="field">
          <label className="field__label" htmlFor={keyId}>
            Authorization key
          </label>
          <div className="alert-actions">
            <input id={keyId} className="input" type={showKey ? 'text' : 'password'} autoComplete="off" spellCheck={false} value={key} onChange={(event) => setKey(event.target.value)} />
            <button type="button" className="button" aria-pressed={showKey} onClick={() => setShowKey(!showKey)}>
              {showKey ? 'Hide key' : 'Reveal key'}
            </button>
          </div>
          {!key ? <p className="field__hint">Maintainers see the key in the integrations settings; paste it here.</p> : null}
        </div>
      </fieldset>
      <FormError message={send.status === 'refused' ? errorText(send.error) : null} write={send} />
      <button type="submit" className="button button--primary" disabled={send.isPending || invalid || !key} aria-busy={send.isPending || undefined}>
        {send.isPending ? 'Sending…' : 'Send test alert'}
      </button>
      {send.data ? <Answer answer={send.data} projectId={projectId} /> : null}
    </form>
  );
}

/** The line the JSON breaks on, with a caret under the column: shown where it was typed. */
function ErrorLine({ source, line, column }: { source: string; line: number; column: number }) {
  const text = source.split('\n')[line - 1] ?? '';
  return (
    <pre className="alert-payload" role="region" aria-label={`Line ${line} of the payload`}>
      {text}
      {'\n'}
      {' '.repeat(Math.max(0, column - 1))}^
    </pre>
  );
}

function outcomeText(item: PreviewItem): string {
  switch (item.outcome.kind) {
    case 'new':
      return 'Opens a new alert';
    case 'event':
      return item.outcome.alert.iid ? `Adds an event to open alert #${item.outcome.alert.iid}` : 'Adds an event to the alert an earlier item opens';
    case 'resolve':
      return item.outcome.alert.iid ? `Resolves open alert #${item.outcome.alert.iid}` : 'Resolves the alert an earlier item opens';
    case 'nothing-to-resolve':
      return 'Resolves nothing: no open alert has its fingerprint';
  }
}

function PreviewPanel({ preview, format, projectId, lookupPending, lookupError }: { preview: Preview; format: 'http' | 'prometheus'; projectId: number; lookupPending: boolean; lookupError: unknown }) {
  return (
    <section aria-labelledby="preview-heading" aria-live="polite">
      <h2 id="preview-heading">Preview</h2>
      {preview.kind === 'refused' ? (
        <p className="form-error" role="alert">
          The platform refuses this payload: {preview.message}
        </p>
      ) : preview.kind !== 'ok' ? (
        <p className="muted">The preview shows once the payload is valid JSON.</p>
      ) : (
        <>
          {preview.format === 'prometheus' && format === 'http' ? <p>This HTTP endpoint hands an Alertmanager payload (version 4) to the metrics service: it is read in that format.</p> : null}
          <p>
            {preview.items.length === 1 ? '1 alert' : `${preview.items.length} alerts`}
            {lookupPending ? ' (looking up open alerts…)' : ''}
          </p>
          {lookupError ? <p className="form-error">Open alerts could not be looked up: {errorText(lookupError)}. The outcomes assume none is open.</p> : null}
          <ol className="alert-preview" aria-label="Alerts of the payload">
            {preview.items.map((item, index) => (
              <li key={index} className="alert-preview__item" aria-label={`Alert ${index + 1}: ${item.alert.title}`}>
                <dl className="details">
                  <dt>Title</dt>
                  <dd className="alert-text">{item.alert.title}</dd>
                  <dt>Severity</dt>
                  <dd>
                    <SeverityBadge severity={item.alert.severity} />
                  </dd>
                  <dt>Start</dt>
                  <dd>
                    <Time value={item.alert.startedAt} />
                  </dd>
                  <dt>End</dt>
                  <dd>
                    <Time value={item.alert.endedAt} fallback="none" />
                  </dd>
                  <dt>Fingerprint</dt>
                  <dd>{item.alert.fingerprint ? <code>{item.alert.fingerprint}</code> : <span className="muted">none (no grouping)</span>}</dd>
                  <dt>Outcome</dt>
                  <dd>
                    {outcomeText(item)}
                    {item.outcome.kind === 'event' || item.outcome.kind === 'resolve' ? (
                      item.outcome.alert.iid ? (
                        <>
                          {' '}
                          <RouteLink to="/projects/$projectId/alerts/$alertIid" params={{ projectId, alertIid: item.outcome.alert.iid }}>
                            Open alert #{item.outcome.alert.iid}
                          </RouteLink>
                        </>
                      ) : null
                    ) : null}
                  </dd>
                </dl>
              </li>
            ))}
          </ol>
          {preview.skipped.length ? (
            <p className="muted">
              Skipped: {preview.skipped.map((skip) => `item ${skip.index + 1} (${skip.reason})`).join('; ')}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function Answer({ answer, projectId }: { answer: TestAlertAnswer; projectId: number }) {
  const alerts = answeredAlerts(answer);
  const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2);
  return (
    <section aria-labelledby="answer-heading" role="status">
      <h2 id="answer-heading">The instance answered {answer.status}</h2>
      {alerts.length ? (
        <ul aria-label="Resulting alerts">
          {alerts.map((alert) => (
            <li key={alert.iid}>
              <RouteLink to="/projects/$projectId/alerts/$alertIid" params={{ projectId, alertIid: alert.iid }}>
                Alert #{alert.iid}: {alert.title}
              </RouteLink>
            </li>
          ))}
        </ul>
      ) : null}
      {body ? (
        <pre className="alert-payload" role="region" aria-label="Response body" tabIndex={0}>
          {body}
        </pre>
      ) : null}
    </section>
  );
}
