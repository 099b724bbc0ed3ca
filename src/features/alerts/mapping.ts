import type { AlertDetail, PayloadFieldName, PayloadMapping, PayloadMappingInput, PayloadFieldType } from '../../api/alerts.ts';
import {
  METRICS_REQUIRED_KEYS, METRICS_VERSION, alertOutcomes, mapAlertPayload, parseJsonWithPosition, type AlertFieldMapping, type AlertOutcome, type AlertPayloadFormat, type MappableAlertField, type MappedAlert,
  type OpenAlert, type ParsedJson, type SkippedAlert,
} from '../../lib/alert-mapping.ts';

/** The platform's field names (TITLE ... GITLAB_ENVIRONMENT_NAME) as the mapping module's keys. */
export function mappableField(fieldName: string): MappableAlertField | null {
  const key = fieldName === 'GITLAB_ENVIRONMENT_NAME' ? 'service_environment_name' : fieldName.toLowerCase();
  const known: readonly string[] = ['title', 'description', 'start_time', 'end_time', 'service', 'monitoring_tool', 'hosts', 'severity', 'fingerprint', 'service_environment_name'];
  return known.includes(key) ? (key as MappableAlertField) : null;
}

/** An integration's saved mappings as the mapping module takes them (list indexes kept as text keys). */
export function fieldMappingOf(mappings: ReadonlyArray<Pick<PayloadMapping, 'fieldName' | 'path'>>): AlertFieldMapping {
  const mapping: AlertFieldMapping = {};
  for (const item of mappings) {
    const field = mappableField(item.fieldName);
    if (field) mapping[field] = { path: item.path.map(String) };
  }
  return mapping;
}

/** The editor's picks (alert field -> payload path key) as the update mutation's input. */
export function mappingInput(picks: Partial<Record<PayloadFieldName, string>>, fields: ReadonlyArray<{ path: string[]; label: string; type: string }>): PayloadMappingInput[] {
  const input: PayloadMappingInput[] = [];
  for (const [fieldName, key] of Object.entries(picks) as Array<[PayloadFieldName, string | undefined]>) {
    const field = key ? fields.find((candidate) => pathKey(candidate.path) === key) : undefined;
    if (field) input.push({ fieldName, path: field.path, type: field.type as PayloadFieldType, label: field.label });
  }
  return input;
}

/** A payload path as one option value: its segments joined with a character JSON keys rarely hold. */
export function pathKey(path: ReadonlyArray<string | number>): string {
  return JSON.stringify(path.map(String));
}

export interface PreviewItem {
  alert: MappedAlert;
  outcome: AlertOutcome;
}

export type Preview =
  | { kind: 'empty' }
  | { kind: 'invalid-json'; error: Extract<ParsedJson, { ok: false }> }
  | { kind: 'refused'; message: string }
  | { kind: 'ok'; items: PreviewItem[]; skipped: SkippedAlert[]; fingerprints: string[]; format: AlertPayloadFormat };

/**
 * The format a payload is read in: an HTTP endpoint hands an Alertmanager webhook (its whole
 * envelope, version 4) to the metrics service, as the platform's controller does.
 */
export function payloadFormat(format: AlertPayloadFormat, payload: unknown): AlertPayloadFormat {
  if (format !== 'http' || !payload || typeof payload !== 'object' || Array.isArray(payload)) return format;
  const object = payload as Record<string, unknown>;
  return METRICS_REQUIRED_KEYS.every((key) => key in object) && object.version === METRICS_VERSION ? 'prometheus' : 'http';
}

/**
 * What the platform will make of `source` (spec 3, 4.9), with the same module its ingestion uses:
 * the alerts, and for each whether it opens one, adds an event to `open`'s alert or resolves it.
 */
export function previewPayload(source: string, format: AlertPayloadFormat, options: { now: number; mapping: AlertFieldMapping | null; open: ReadonlyMap<string, OpenAlert> }): Preview {
  if (!source.trim()) return { kind: 'empty' };
  const parsed = parseJsonWithPosition(source);
  if (!parsed.ok) return { kind: 'invalid-json', error: parsed };
  const read = payloadFormat(format, parsed.value);
  const mapped = mapAlertPayload(read, parsed.value, { now: options.now, mapping: read === 'http' ? options.mapping : null, generateFingerprints: true });
  if (!mapped.ok) return { kind: 'refused', message: mapped.message };
  const outcomes = alertOutcomes(mapped.alerts, (fingerprint) => options.open.get(fingerprint) ?? null);
  const fingerprints = [...new Set(mapped.alerts.map((alert) => alert.fingerprint).filter((value): value is string => value !== null))];
  return { kind: 'ok', items: mapped.alerts.map((alert, index) => ({ alert, outcome: outcomes[index] })), skipped: mapped.skipped, fingerprints, format: read };
}

export const HTTP_TEMPLATE = JSON.stringify(
  {
    title: 'High CPU usage on web-1',
    description: 'CPU above 90% for 5 minutes',
    start_time: '2026-11-26T10:00:00Z',
    service: 'web',
    monitoring_tool: 'Datadog',
    hosts: ['web-1.example.com'],
    severity: 'high',
    fingerprint: 'web-1-cpu',
  },
  null,
  2,
);

export const METRICS_TEMPLATE = JSON.stringify(
  {
    version: '4',
    groupKey: '{}:{alertname="HighLatency"}',
    status: 'firing',
    receiver: 'gitlab',
    groupLabels: { alertname: 'HighLatency' },
    commonLabels: { alertname: 'HighLatency', severity: 'warning' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example.com',
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'HighLatency', severity: 'warning', instance: 'api-1:9100' },
        annotations: { title: 'API latency above 500 ms', description: 'p99 latency is high' },
        startsAt: '2026-11-26T10:00:00Z',
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.example.com/graph',
      },
    ],
  },
  null,
  2,
);

/** `{"labels.host": "a"}` back to `{labels: {host: "a"}}`: the platform flattens nested keys of an alert's details. */
export function unflattenKeys(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let at = out;
    parts.slice(0, -1).forEach((part) => {
      const next = at[part];
      at = (next && typeof next === 'object' && !Array.isArray(next) ? next : (at[part] = {})) as Record<string, unknown>;
    });
    at[parts[parts.length - 1]] = value;
  }
  return out;
}

const METRICS_ENVELOPE = { version: '4', groupKey: '', status: 'firing', receiver: '', groupLabels: {}, commonLabels: {}, commonAnnotations: {}, externalURL: '' };

/**
 * An open alert's fingerprint, recomputed with the shared module from the payload GraphQL gives
 * (`details`): the platform's GraphQL has no fingerprint field. Null when the payload yields none.
 */
export function recomputedFingerprint(format: AlertPayloadFormat, alert: Pick<AlertDetail, 'details'>, mapping: AlertFieldMapping | null): string | null {
  if (!alert.details || typeof alert.details !== 'object' || Array.isArray(alert.details)) return null;
  const payload = unflattenKeys(alert.details as Record<string, unknown>);
  const mapped = format === 'http' ? mapAlertPayload('http', payload, { now: 0, mapping, generateFingerprints: true }) : mapAlertPayload('prometheus', { ...METRICS_ENVELOPE, alerts: [payload] }, { now: 0, generateFingerprints: true });
  return mapped.ok ? (mapped.alerts[0]?.fingerprint ?? null) : null;
}

/** The open alerts by the fingerprint each would group under, for `previewPayload`'s `open`. */
export function openAlertsByFingerprint(format: AlertPayloadFormat, candidates: ReadonlyArray<Pick<AlertDetail, 'iid' | 'title' | 'details'>>, mapping: AlertFieldMapping | null): Map<string, OpenAlert> {
  const open = new Map<string, OpenAlert>();
  for (const alert of candidates) {
    const fingerprint = recomputedFingerprint(format, alert, mapping);
    if (fingerprint && !open.has(fingerprint)) open.set(fingerprint, { iid: Number(alert.iid), title: alert.title ?? '' });
  }
  return open;
}
