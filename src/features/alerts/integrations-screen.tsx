import './alerts.css';
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { alertsQueries, integrationNameSchema, type Integration } from '../../api/alerts.ts';
import { useConnection } from '../../api/react.ts';
import { DataTable, type ColumnDef } from '../../components/data-table.tsx';
import { ConfirmDialog } from '../../components/dialog.tsx';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { QueryStates } from '../../components/query-states.tsx';
import { EmptyState, RoutePending } from '../../components/states.tsx';
import { useNotify } from '../../components/toast.tsx';
import { useProjectCaller, type ProjectCaller } from '../../components/use-project-caller.ts';
import { RoleUnread } from '../../components/role-unread.tsx';
import { CopyButton } from '../../components/copy-button.tsx';
import { useCreateHttpIntegration, useCreatePrometheusIntegration, useDestroyIntegration, useResetIntegrationToken, useSetIntegrationActive } from './mutations.ts';
import { integrationName, integrationTypeLabel } from './integration-labels.ts';
import { AlertsScreen } from './alerts-screen.tsx';
import { chunk, lazyPart } from '../../components/lazy-part.ts';
import { AccessLevel } from '../../api/vocabulary.ts';

// the mapping editor loads when it is opened, not with the list
const MappingEditor = lazyPart(chunk(() => import('./mapping-editor.tsx')), (module) => module.MappingEditor, <RoutePending />);

/** spec 3, 4.9: only Maintainers and above manage alert integrations (and see their keys). */
export function integrationsRefusal(caller: ProjectCaller): string | null {
  if (!caller.isAdmin && caller.role < AccessLevel.MAINTAINER) return 'Only Maintainers and above manage alert integrations.';
  if (!caller.canWrite) return 'This token is read-only (it lacks the api scope): integrations can be viewed, not changed.';
  return null;
}

export function IntegrationsScreen({ projectId }: { projectId: number }) {
  const { caller, pending, failure } = useProjectCaller(projectId);
  const refusal = pending ? null : integrationsRefusal(caller);
  const readable = caller.isAdmin || caller.role >= AccessLevel.MAINTAINER;
  const notice = failure ? (
    <RoleUnread failure={failure} withheld="the integrations are not shown" />
  ) : refusal ? (
    <p className="notice" role="note">
      {refusal}
    </p>
  ) : null;
  return (
    <AlertsScreen projectId={projectId} title="Alert integrations" links={['tester']} notice={notice}>
      {(fullPath) => (failure ? null : pending ? <RoutePending /> : readable ? <Integrations projectId={projectId} fullPath={fullPath} editable={refusal === null} /> : null)}
    </AlertsScreen>
  );
}

function Integrations({ projectId, fullPath, editable }: { projectId: number; fullPath: string; editable: boolean }) {
  const connection = useConnection();
  const list = useQuery(alertsQueries.integrations(connection, fullPath));
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const [resetting, setResetting] = useState<Integration | null>(null);
  const [deleting, setDeleting] = useState<Integration | null>(null);
  const [mappingId, setMappingId] = useState<string | null>(null);
  const toggle = useSetIntegrationActive(fullPath);
  const [toggleError, setToggleError] = useState<string | null>(null);
  const hasMetrics = list.data?.some((integration) => integration.type === 'PROMETHEUS') ?? false;

  const reveal = (id: string) =>
    setRevealed((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: ColumnDef<Integration>[] = [
    {
      id: 'name',
      header: 'Integration',
      cell: ({ row: { original } }) => (
        <>
          <strong>{integrationName(original)}</strong>
          <div className="muted">{integrationTypeLabel(original.type)}</div>
        </>
      ),
    },
    { id: 'active', header: 'Active', cell: ({ row: { original } }) => (original.active ? <span className="badge">Active</span> : <span className="badge badge--warning">Inactive</span>) },
    {
      id: 'url',
      header: 'Webhook URL',
      cell: ({ row: { original } }) =>
        original.url ? (
          <div>
            <code className="alert-text">{original.url}</code>
            <div className="alert-actions">
              <CopyButton text={original.url} label={`Copy URL of ${integrationName(original)}`}>{`Copy URL of ${integrationName(original)}`}</CopyButton>
            </div>
          </div>
        ) : (
          <span className="muted">none</span>
        ),
    },
    {
      id: 'key',
      header: 'Authorization key',
      cell: ({ row: { original } }) => {
        const label = integrationName(original);
        if (!original.token) return <span className="muted">hidden</span>;
        const shown = revealed.has(original.id);
        return (
          <div>
            <code>{shown ? original.token : '•'.repeat(12)}</code>
            {shown ? null : <span className="sr-only">hidden</span>}
            <div className="alert-actions">
              <button type="button" className="button" aria-pressed={shown} onClick={() => reveal(original.id)}>
                {shown ? `Hide key of ${label}` : `Reveal key of ${label}`}
              </button>
              <CopyButton text={original.token} label={`Copy key of ${label}`}>{`Copy key of ${label}`}</CopyButton>
            </div>
          </div>
        );
      },
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original } }) => {
        const label = integrationName(original);
        return (
          <div className="alert-actions">
            <button
              type="button"
              className="button"
              disabled={!editable || toggle.isPending}
              onClick={() => {
                setToggleError(null);
                toggle.mutate({ integration: original, active: !original.active }, { onError: (error) => setToggleError(`${label}: ${errorText(error)}`) });
              }}
            >
              {original.active ? `Deactivate ${label}` : `Activate ${label}`}
            </button>
            <button type="button" className="button" disabled={!editable} onClick={() => setResetting(original)}>
              Reset key of {label}
            </button>
            {original.type !== 'PROMETHEUS' ? (
              <>
                <button type="button" className="button" disabled={!editable} aria-expanded={mappingId === original.id} onClick={() => setMappingId(mappingId === original.id ? null : original.id)}>
                  Field mapping of {label}
                </button>
                <button type="button" className="button button--danger-quiet" disabled={!editable} onClick={() => setDeleting(original)}>
                  Delete {label}
                </button>
              </>
            ) : null}
          </div>
        );
      },
    },
  ];

  const mapping = list.data?.find((integration) => integration.id === mappingId);
  return (
    <>
      {editable ? <AddIntegration fullPath={fullPath} hasMetrics={hasMetrics} /> : null}
      {toggleError ? (
        <p className="form-error" role="alert">
          {toggleError}
        </p>
      ) : null}
      <QueryStates query={list}>
        {(integrations) =>
          integrations.length === 0 ? (
            <EmptyState title="This project has no alert integrations.">
              <p>Add an HTTP endpoint or the metrics integration, then send its URL and key to your monitoring tool.</p>
            </EmptyState>
          ) : (
            <DataTable caption="Alert integrations" columns={columns} data={integrations} getRowId={(integration) => integration.id} />
          )
        }
      </QueryStates>
      {mapping ? (
        <MappingEditor key={mapping.id} projectId={projectId} fullPath={fullPath} integration={mapping} onClose={() => setMappingId(null)} />
      ) : null}
      {resetting ? <ConfirmIntegration kind="reset" fullPath={fullPath} integration={resetting} onClose={() => setResetting(null)} /> : null}
      {deleting ? <ConfirmIntegration kind="delete" fullPath={fullPath} integration={deleting} onClose={() => setDeleting(null)} /> : null}
    </>
  );
}

const addSchema = z.object({ name: integrationNameSchema });

function AddIntegration({ fullPath, hasMetrics }: { fullPath: string; hasMetrics: boolean }) {
  const createHttp = useCreateHttpIntegration();
  const createMetrics = useCreatePrometheusIntegration();
  const notify = useNotify();
  const [type, setType] = useState<'HTTP' | 'PROMETHEUS'>('HTTP');
  const [name, setName] = useState('');
  const [active, setActive] = useState(true);
  const [nameError, setNameError] = useState<string | undefined>();
  const write = type === 'HTTP' ? createHttp : createMetrics;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (type === 'PROMETHEUS') {
      createMetrics.mutate({ projectPath: fullPath, active }, { onSuccess: () => notify('Added the metrics integration.') });
      return;
    }
    const parsed = z.safeParse(addSchema, { name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? 'Enter a name.');
      return;
    }
    setNameError(undefined);
    createHttp.mutate(
      { projectPath: fullPath, name: parsed.data.name, active },
      {
        onSuccess: (integration) => {
          setName('');
          notify(`Added ${integration.name ?? 'the HTTP endpoint'}.`);
        },
      },
    );
  };
  return (
    <form className="form" aria-label="Add an alert integration" onSubmit={submit} noValidate>
      <h2>Add an integration</h2>
      <div className="filter-bar">
        <Field label="Integration type">
          <select className="input" value={type} onChange={(event) => setType(event.target.value as 'HTTP' | 'PROMETHEUS')}>
            <option value="HTTP">HTTP endpoint</option>
            <option value="PROMETHEUS" disabled={hasMetrics}>
              {hasMetrics ? 'Metrics (Prometheus): the project has one' : 'Metrics (Prometheus)'}
            </option>
          </select>
        </Field>
        {type === 'HTTP' ? (
          <Field label="Integration name" error={nameError}>
            <input className="input" value={name} maxLength={255} onChange={(event) => setName(event.target.value)} />
          </Field>
        ) : null}
        <label className="inline-field">
          <input type="checkbox" checked={active} onChange={(event) => setActive(event.target.checked)} />
          <span>Active</span>
        </label>
        <button type="submit" className="button button--primary" disabled={write.isPending} aria-busy={write.isPending || undefined}>
          {write.isPending ? 'Adding…' : 'Add integration'}
        </button>
      </div>
      <FormError message={write.status === 'refused' ? errorText(write.error) : null} write={write} />
    </form>
  );
}

/** The two confirmations of a row: what happens to the key or the endpoint, named. */
function ConfirmIntegration({ kind, fullPath, integration, onClose }: { kind: 'reset' | 'delete'; fullPath: string; integration: Integration; onClose: () => void }) {
  const reset = useResetIntegrationToken(fullPath);
  const destroy = useDestroyIntegration(fullPath);
  const notify = useNotify();
  const label = integrationName(integration);
  const write = kind === 'reset' ? reset : destroy;
  const done = () => {
    notify(kind === 'reset' ? `Reset the key of ${label}: reveal the new one in the list.` : `Deleted ${label}.`);
    onClose();
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (!open ? onClose() : undefined)}
      title={kind === 'reset' ? `Reset the key of ${label}?` : `Delete ${label}?`}
      description={
        kind === 'reset'
          ? 'A new authorization key is made. The current key stops working at once: every tool that sends alerts with it is refused until it has the new one.'
          : 'Its URL stops taking alerts and its key is gone. The alerts it made stay.'
      }
      confirmLabel={kind === 'reset' ? 'Reset key' : 'Delete integration'}
      destructive
      write={write}
      error={write.status === 'refused' ? errorText(write.error) : null}
      onConfirm={() => (kind === 'reset' ? reset.mutate(integration, { onSuccess: done }) : destroy.mutate(integration.id, { onSuccess: done }))}
    />
  );
}
