import { useMemo, useState } from 'react';
import { PAYLOAD_FIELD_NAMES, type Integration, type PayloadFieldName } from '../../api/alerts.ts';
import { errorText } from '../../components/error-panel.tsx';
import { Field } from '../../components/field.tsx';
import { FormError } from '../../components/form-footer.tsx';
import { useNotify } from '../../components/toast.tsx';
import { parseJsonWithPosition, payloadFields } from '../../lib/alert-mapping.ts';
import { fieldMappingOf, mappingInput, pathKey, previewPayload } from './mapping.ts';
import { useUpdateHttpIntegration } from './mutations.ts';
import { SeverityBadge } from './alert-cells.tsx';

const FIELD_LABELS: Readonly<Record<PayloadFieldName, string>> = {
  TITLE: 'Title',
  DESCRIPTION: 'Description',
  START_TIME: 'Start time',
  END_TIME: 'End time',
  SERVICE: 'Service',
  MONITORING_TOOL: 'Monitoring tool',
  HOSTS: 'Hosts',
  SEVERITY: 'Severity',
  FINGERPRINT: 'Fingerprint',
  GITLAB_ENVIRONMENT_NAME: 'Environment name',
};

/**
 * The custom field mapping of an HTTP endpoint (top tier): paste a sample payload, see its fields
 * (found as the platform's alertManagementPayloadFields finds them, by the shared module), pick
 * which one fills each alert field, and see the sample's alert with the mapping before saving.
 */
export function MappingEditor({ fullPath, integration, onClose }: { projectId: number; fullPath: string; integration: Integration; onClose: () => void }) {
  const update = useUpdateHttpIntegration(fullPath);
  const notify = useNotify();
  const [sample, setSample] = useState(integration.payloadExample ?? '');
  const [picks, setPicks] = useState<Partial<Record<PayloadFieldName, string>>>(() =>
    Object.fromEntries(integration.payloadAttributeMappings.map((mapping) => [mapping.fieldName, pathKey(mapping.path)])),
  );
  const parsed = useMemo(() => (sample.trim() ? parseJsonWithPosition(sample) : null), [sample]);
  const fields = useMemo(() => (parsed?.ok ? payloadFields(parsed.value) : []), [parsed]);
  const input = mappingInput(picks, fields);
  const preview = previewPayload(sample, 'http', { now: Date.now(), mapping: fieldMappingOf(input), open: new Map() });
  const label = integration.name || 'the HTTP endpoint';
  const jsonError = parsed && !parsed.ok ? `Line ${parsed.line}, column ${parsed.column}: ${parsed.message}` : undefined;

  return (
    <section aria-labelledby="mapping-heading" className="form">
      <h2 id="mapping-heading">Field mapping of {label}</h2>
      <form
        aria-label={`Field mapping of ${label}`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (jsonError) return;
          update.mutate(
            { id: integration.id, payloadExample: sample, payloadAttributeMappings: input },
            {
              onSuccess: () => {
                notify(`Saved the field mapping of ${label}.`);
                onClose();
              },
            },
          );
        }}
      >
        <Field label="Sample payload" error={jsonError} hint="Paste an alert your tool sends; its fields are listed below for each alert field.">
          <textarea className="input alert-editor" value={sample} spellCheck={false} onChange={(event) => setSample(event.target.value)} />
        </Field>
        {fields.length ? (
          <fieldset>
            <legend>Alert fields from the payload</legend>
            <div className="filter-bar">
              {PAYLOAD_FIELD_NAMES.map((fieldName) => (
                <Field key={fieldName} label={`${FIELD_LABELS[fieldName]} from`}>
                  <select className="input" value={picks[fieldName] ?? ''} onChange={(event) => setPicks((previous) => ({ ...previous, [fieldName]: event.target.value }))}>
                    <option value="">Default (the platform's own field)</option>
                    {fields.map((field) => (
                      <option key={pathKey(field.path)} value={pathKey(field.path)}>
                        {field.path.join('.')} ({field.type.toLowerCase()})
                      </option>
                    ))}
                  </select>
                </Field>
              ))}
            </div>
          </fieldset>
        ) : (
          <p className="muted">{parsed?.ok ? 'The sample has no fields to map: it must be a JSON object.' : 'Paste a sample payload to pick its fields.'}</p>
        )}
        {preview.kind === 'ok' && preview.items[0] ? (
          <div role="group" aria-label="The sample as an alert">
            <p>
              The sample becomes: <strong className="alert-text">{preview.items[0].alert.title}</strong> <SeverityBadge severity={preview.items[0].alert.severity} />
            </p>
          </div>
        ) : null}
        <FormError message={update.status === 'refused' ? errorText(update.error) : null} write={update} />
        <div className="dialog__actions">
          <button type="button" className="button" onClick={onClose} disabled={update.isPending}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={update.isPending} aria-busy={update.isPending || undefined}>
            {update.isPending ? 'Saving…' : 'Save mapping'}
          </button>
        </div>
      </form>
    </section>
  );
}
