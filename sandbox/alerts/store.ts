/**
 * Alert integrations and alerts of a project, stored as the platform keeps them: HTTP endpoints
 * (several per project, top tier, with custom field mappings) and the metrics (Prometheus)
 * integration, one per project; alerts with an iid per project, status, event count, the payload
 * kept whole, assignees and system notes. What a payload becomes is decided by the shared module
 * src/lib/alert-mapping.ts, so the console's preview and ingestion agree.
 */
import crypto from 'node:crypto';
import type { Sandbox } from '../context.ts';
import type { Db } from '../db.ts';
import type { ProjectRow } from '../model/access.ts';
import { likeContains } from '../model/sql.ts';
import { timestamp } from '../model/time.ts';
import {
  alertOutcomes, mapAlertPayload, type AlertFieldMapping, type AlertPayloadFormat, type MappableAlertField, type MappedAlert, type MappedPayload,
} from '../../src/lib/alert-mapping.ts';

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The platform's endpoint identifier of the integration that answers the default endpoint. */
export const LEGACY_IDENTIFIER = 'legacy';
/** The slug of an HTTP endpoint without a usable name (AlertManagement::HttpIntegration). */
const DEFAULT_NAME_SLUG = 'http-endpoint';

export interface IntegrationRow {
  id: number;
  project_id: number;
  type: 'http' | 'prometheus';
  name: string;
  active: number;
  endpoint_identifier: string;
  token: string;
  api_url: string | null;
  payload_example: string;
  payload_attribute_mapping: string;
  created_at: string;
  updated_at: string;
}

export interface AttributeMapping {
  fieldName: string;
  path: string[];
  type: string;
  label: string | null;
}

export interface AlertRow {
  id: number;
  project_id: number;
  iid: number;
  title: string;
  description: string | null;
  severity: string;
  status: AlertStatus;
  started_at: string;
  ended_at: string | null;
  events: number;
  fingerprint: string | null;
  monitoring_tool: string | null;
  service: string | null;
  hosts: string;
  environment: string | null;
  runbook: string | null;
  payload: string;
  integration_id: number | null;
  issue_id: number | null;
  created_at: string;
  updated_at: string;
}

export const newToken = () => crypto.randomBytes(16).toString('hex');
export const newEndpointIdentifier = () => crypto.randomBytes(8).toString('hex');

/** Gitlab::Utils.slugify: lower case, anything but letters and digits a dash, at most 63 characters, no dashes at the ends. */
export function nameSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]/g, '-').slice(0, 63).replace(/^-+|-+$/g, '');
  return slug || DEFAULT_NAME_SLUG;
}

/** Where an integration accepts alerts (spec 3, 4.9; the HTTP shape as the platform's routes). */
export function integrationUrl(sandbox: Sandbox, project: ProjectRow, row: IntegrationRow): string {
  const base = `${sandbox.config.externalUrl}/${project.path_with_namespace}`;
  if (row.type === 'prometheus') return `${base}/prometheus/alerts/notify.json`;
  if (row.endpoint_identifier === LEGACY_IDENTIFIER) return `${base}/alerts/notify.json`;
  return `${base}/alerts/notify/${nameSlug(row.name)}/${row.endpoint_identifier}.json`;
}

export function integrationsOf(db: Db, projectId: number, type?: IntegrationRow['type']): IntegrationRow[] {
  return (type
    ? db.prepare('SELECT * FROM alert_integrations WHERE project_id = ? AND type = ? ORDER BY id').all(projectId, type)
    : db.prepare('SELECT * FROM alert_integrations WHERE project_id = ? ORDER BY id').all(projectId)) as IntegrationRow[];
}

export function findIntegration(db: Db, id: number): IntegrationRow | undefined {
  return db.prepare('SELECT * FROM alert_integrations WHERE id = ?').get(id) as IntegrationRow | undefined;
}

/** The field name of the GraphQL enum (TITLE, GITLAB_ENVIRONMENT_NAME) as the mapping module names it. */
const FIELD_NAMES: Readonly<Record<string, MappableAlertField>> = {
  TITLE: 'title',
  DESCRIPTION: 'description',
  START_TIME: 'start_time',
  END_TIME: 'end_time',
  SERVICE: 'service',
  MONITORING_TOOL: 'monitoring_tool',
  HOSTS: 'hosts',
  SEVERITY: 'severity',
  FINGERPRINT: 'fingerprint',
  GITLAB_ENVIRONMENT_NAME: 'service_environment_name',
};
export const PAYLOAD_FIELD_NAMES = Object.keys(FIELD_NAMES);

/** The custom mapping of an HTTP integration, in the shape alert-mapping.ts reads. */
export function fieldMappingOf(row: IntegrationRow): AlertFieldMapping {
  const mapping: AlertFieldMapping = {};
  for (const attribute of JSON.parse(row.payload_attribute_mapping) as AttributeMapping[]) {
    const field = FIELD_NAMES[attribute.fieldName];
    if (field && attribute.path.length) mapping[field] = { path: attribute.path };
  }
  return mapping;
}

export interface IntegrationInput {
  name: string;
  active: boolean;
  type: IntegrationRow['type'];
  apiUrl?: string | null;
  payloadExample?: string;
  mappings?: AttributeMapping[];
  endpointIdentifier?: string;
  token?: string;
}

export function insertIntegration(db: Db, projectId: number, input: IntegrationInput, at: string): IntegrationRow {
  const id = Number(db.prepare(
    `INSERT INTO alert_integrations (project_id, type, name, active, endpoint_identifier, token, api_url, payload_example, payload_attribute_mapping, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    projectId, input.type, input.name, input.active ? 1 : 0,
    input.endpointIdentifier ?? (input.type === 'prometheus' ? 'legacy-prometheus' : newEndpointIdentifier()),
    input.token ?? newToken(), input.apiUrl ?? null, input.payloadExample ?? '{}', JSON.stringify(input.mappings ?? []), at, at,
  ).lastInsertRowid);
  return findIntegration(db, id)!;
}

// ---- alerts ----

export function findAlert(db: Db, projectId: number, iid: number): AlertRow | undefined {
  return db.prepare('SELECT * FROM alert_management_alerts WHERE project_id = ? AND iid = ?').get(projectId, iid) as AlertRow | undefined;
}

export function alertNote(db: Db, alertId: number, authorId: number | null, body: string, at: string): void {
  db.prepare('INSERT INTO alert_management_alert_notes (alert_id, author_id, body, created_at) VALUES (?, ?, ?, ?)').run(alertId, authorId, body, at);
}

/** The platform's title case of a status in its system notes. */
export const statusTitle = (status: AlertStatus) => status[0].toUpperCase() + status.slice(1);

export interface IngestResult {
  /** The alerts made or touched, in payload order, as the endpoint answers them. */
  alerts: Array<{ iid: number; title: string }>;
}

function openAlert(db: Db, projectId: number, fingerprint: string): AlertRow | undefined {
  return db.prepare("SELECT * FROM alert_management_alerts WHERE project_id = ? AND fingerprint = ? AND status <> 'resolved'").get(projectId, fingerprint) as AlertRow | undefined;
}

function insertAlert(db: Db, projectId: number, alert: MappedAlert, integration: IntegrationRow | null, at: string): AlertRow {
  const iid = (db.prepare('SELECT coalesce(max(iid), 0) + 1 AS next FROM alert_management_alerts WHERE project_id = ?').get(projectId) as { next: number }).next;
  const id = Number(db.prepare(
    `INSERT INTO alert_management_alerts (project_id, iid, title, description, severity, status, started_at, ended_at, events, fingerprint,
       monitoring_tool, service, hosts, environment, runbook, payload, integration_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'triggered', ?, NULL, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    projectId, iid, alert.title, alert.description, alert.severity, alert.startedAt, alert.fingerprint, alert.monitoringTool, alert.service,
    JSON.stringify(alert.hosts), alert.environmentName, alert.runbook, JSON.stringify(alert.payload), integration?.id ?? null, at, at,
  ).lastInsertRowid);
  return db.prepare('SELECT * FROM alert_management_alerts WHERE id = ?').get(id) as AlertRow;
}

/** What a payload becomes under an integration (its custom mapping for HTTP; fingerprints made as the top tier makes them). */
export function mapForIntegration(sandbox: Sandbox, integration: IntegrationRow | null, format: AlertPayloadFormat, payload: unknown): MappedPayload {
  return mapAlertPayload(format, payload, {
    now: sandbox.now().getTime(),
    mapping: integration && integration.type === 'http' ? fieldMappingOf(integration) : null,
    generateFingerprints: true,
  });
}

/**
 * Stores a mapped payload in the caller's transaction: each alert opens a new alert, counts an
 * event on the open alert of its fingerprint, or resolves it (spec 3, 3 and 4.9), in payload order.
 */
export function ingestMapped(sandbox: Sandbox, project: ProjectRow, integration: IntegrationRow | null, mapped: Extract<MappedPayload, { ok: true }>): IngestResult {
  const { db } = sandbox;
  const at = timestamp(sandbox.now());
  const outcomes = alertOutcomes(mapped.alerts, (fingerprint) => {
    const open = openAlert(db, project.id, fingerprint);
    return open ? { iid: open.iid, title: open.title } : null;
  });
  // alerts this payload opened, by fingerprint: later items of the payload join them
  const openedHere = new Map<string, AlertRow>();
  const answered: IngestResult['alerts'] = [];
  // AlertProcessing#alert_source: the payload's monitoring tool, else the integration's name
  const sourceOf = (alert: MappedAlert) => alert.monitoringTool ?? (integration?.type === 'prometheus' ? 'Prometheus' : null) ?? integration?.name ?? 'Generic Alert Endpoint';
  outcomes.forEach((outcome, index) => {
    const alert = mapped.alerts[index];
    if (outcome.kind === 'nothing-to-resolve') return;
    if (outcome.kind === 'new') {
      const row = insertAlert(db, project.id, alert, integration, at);
      if (alert.fingerprint) openedHere.set(alert.fingerprint, row);
      alertNote(db, row.id, null, `logged an alert from **${sourceOf(alert)}**`, at);
      answered.push({ iid: row.iid, title: row.title });
      return;
    }
    const target = outcome.alert.iid === 0 ? openedHere.get(alert.fingerprint!)! : findAlert(db, project.id, outcome.alert.iid)!;
    if (outcome.kind === 'event') {
      db.prepare('UPDATE alert_management_alerts SET events = events + 1, updated_at = ? WHERE id = ?').run(at, target.id);
    } else {
      db.prepare("UPDATE alert_management_alerts SET status = 'resolved', ended_at = ?, updated_at = ? WHERE id = ?").run(alert.endedAt ?? at, at, target.id);
      // the platform's two notes of the alert bot: the recovery alert, then the status change
      alertNote(db, target.id, null, `logged a recovery alert from **${sourceOf(alert)}**`, at);
      alertNote(db, target.id, null, 'changed the status to **Resolved**', at);
      if (alert.fingerprint) openedHere.delete(alert.fingerprint);
    }
    answered.push({ iid: target.iid, title: target.title });
  });
  return { alerts: answered };
}

// ---- the list ----

const SEVERITY_RANK = "CASE severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 WHEN 'info' THEN 4 ELSE 5 END";
const STATUS_RANK = "CASE status WHEN 'triggered' THEN 0 WHEN 'acknowledged' THEN 1 WHEN 'resolved' THEN 2 ELSE 3 END";

/** AlertManagementAlertSort values and their ORDER BY; ties by id, newest first. */
export const ALERT_SORTS: Readonly<Record<string, string>> = {
  STARTED_AT_ASC: 'started_at ASC, id ASC',
  STARTED_AT_DESC: 'started_at DESC, id DESC',
  ENDED_AT_ASC: 'ended_at IS NULL, ended_at ASC, id ASC',
  ENDED_AT_DESC: 'ended_at IS NULL, ended_at DESC, id DESC',
  CREATED_TIME_ASC: 'created_at ASC, id ASC',
  CREATED_TIME_DESC: 'created_at DESC, id DESC',
  UPDATED_TIME_ASC: 'updated_at ASC, id ASC',
  UPDATED_TIME_DESC: 'updated_at DESC, id DESC',
  CREATED_ASC: 'created_at ASC, id ASC',
  CREATED_DESC: 'created_at DESC, id DESC',
  UPDATED_ASC: 'updated_at ASC, id ASC',
  UPDATED_DESC: 'updated_at DESC, id DESC',
  EVENT_COUNT_ASC: 'events ASC, id ASC',
  EVENT_COUNT_DESC: 'events DESC, id DESC',
  // less critical first; `SEVERITY_DESC` puts critical first
  SEVERITY_ASC: `${SEVERITY_RANK} DESC, id DESC`,
  SEVERITY_DESC: `${SEVERITY_RANK} ASC, id DESC`,
  // Ignored > Resolved > Acknowledged > Triggered, and the reverse
  STATUS_ASC: `${STATUS_RANK} DESC, id DESC`,
  STATUS_DESC: `${STATUS_RANK} ASC, id DESC`,
};

export interface AlertFilter {
  iid?: number;
  statuses?: readonly AlertStatus[];
  search?: string;
  assigneeUsername?: string;
}

/** The WHERE clause of a project's alerts for a filter (AlertsFinder: search in title, description, service and monitoring tool). */
export function alertWhere(projectId: number, filter: AlertFilter, withStatuses = true): { sql: string; args: unknown[] } {
  const clauses = ['a.project_id = ?'];
  const args: unknown[] = [projectId];
  if (filter.iid !== undefined) {
    clauses.push('a.iid = ?');
    args.push(filter.iid);
  }
  if (withStatuses && filter.statuses?.length) {
    clauses.push(`a.status IN (${filter.statuses.map(() => '?').join(', ')})`);
    args.push(...filter.statuses);
  }
  if (filter.search) {
    clauses.push("(a.title LIKE ? ESCAPE '\\' OR a.description LIKE ? ESCAPE '\\' OR a.service LIKE ? ESCAPE '\\' OR a.monitoring_tool LIKE ? ESCAPE '\\')");
    const like = likeContains(filter.search);
    args.push(like, like, like, like);
  }
  if (filter.assigneeUsername !== undefined) {
    clauses.push('EXISTS (SELECT 1 FROM alert_management_alert_assignees x JOIN users u ON u.id = x.user_id WHERE x.alert_id = a.id AND u.username = ?)');
    args.push(filter.assigneeUsername);
  }
  return { sql: clauses.join(' AND '), args };
}

export function listAlerts(db: Db, projectId: number, filter: AlertFilter, sort: string, offset: number, limit: number): AlertRow[] {
  const where = alertWhere(projectId, filter);
  const order = (ALERT_SORTS[sort] ?? ALERT_SORTS.CREATED_DESC).replace(/\b(started_at|ended_at|created_at|updated_at|events|id|severity|status)\b/g, 'a.$1');
  return db.prepare(`SELECT a.* FROM alert_management_alerts a WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).all(...where.args, limit, offset) as AlertRow[];
}

export interface StatusCounts {
  triggered: number;
  acknowledged: number;
  resolved: number;
  ignored: number;
  open: number;
  all: number;
}

/** Gitlab::AlertManagement::AlertStatusCounts: counts per status for a search, without the status filter. */
export function statusCounts(db: Db, projectId: number, filter: AlertFilter): StatusCounts {
  const where = alertWhere(projectId, filter, false);
  const rows = db.prepare(`SELECT a.status AS status, count(*) AS n FROM alert_management_alerts a WHERE ${where.sql} GROUP BY a.status`).all(...where.args) as Array<{ status: AlertStatus; n: number }>;
  const counts: StatusCounts = { triggered: 0, acknowledged: 0, resolved: 0, ignored: 0, open: 0, all: 0 };
  for (const row of rows) counts[row.status] = row.n;
  counts.open = counts.triggered + counts.acknowledged;
  counts.all = counts.open + counts.resolved + counts.ignored;
  return counts;
}
