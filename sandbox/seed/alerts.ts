/**
 * The demo's alerts: the API gateway has integrations of both kinds (the legacy default endpoint,
 * a Datadog endpoint with a custom mapping, a paused one, and the metrics integration) with known
 * keys, and a few hundred alerts in every status and severity with events, assignees and system
 * notes; the payments service has 10,000 alerts for the list's bench figure. Rows are written in
 * bulk in the demo seed's transaction; dates are relative to the seed's anchor.
 */
import type { Sandbox, UserRow } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { insertIntegration, LEGACY_IDENTIFIER, type AlertStatus } from '../alerts/store.ts';
import { generator, type Random } from './random.ts';
import { timestampAt } from '../model/time.ts';

/** Where the demo's alerts are, and the keys that send to them (tests, the docs and the bench). */
export const DEMO_ALERTS = {
  project: 'acme-engineering/backend/api-gateway',
  /** Alerts of the gateway. */
  count: 320,
  /** The project with 10,000 alerts (the alert list's bench figure). */
  benchProject: 'acme-engineering/backend/payments/payments-service',
  benchCount: 10_000,
  integrations: {
    /** The legacy HTTP integration: `/<project>/alerts/notify.json`. */
    legacy: { name: 'HTTP endpoint', endpointIdentifier: LEGACY_IDENTIFIER, token: 'demo0legacy0alert0key00000000001' },
    /** An HTTP endpoint with a custom mapping of a Datadog-like payload. */
    datadog: { name: 'Datadog', endpointIdentifier: 'd47ad09c0ffee001', token: 'demo0datadog0alert0key0000000001' },
    /** Inactive: sending to it answers 403. */
    paused: { name: 'Old Pingdom', endpointIdentifier: '0ld0p1ngd0m00001', token: 'demo0paused0alert0key00000000001' },
    /** The metrics (Prometheus) integration: `/<project>/prometheus/alerts/notify.json`. */
    prometheus: { name: 'Prometheus', endpointIdentifier: 'legacy-prometheus', token: 'demo0prometheus0alert0key0000001' },
    /** The bench project's HTTP endpoint (sustained ingestion). */
    bench: { name: 'Load generator', endpointIdentifier: 'b3ac40000000load', token: 'demo0bench0alert0key000000000001' },
  },
} as const;

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const DATADOG_EXAMPLE = {
  alert: { title: 'High error rate on /checkout', priority: 'P2', id: 'dd-4312' },
  host: 'gw-eu-1',
  started: '2026-11-20T08:15:00Z',
  tags: ['service:gateway', 'env:production'],
};

const TITLES = [
  ['High 5xx rate on /v1/payments', 'gateway'], ['p99 latency above 2s', 'gateway'], ['Rate limiter rejecting 10% of requests', 'gateway'],
  ['TLS certificate expires in 7 days', 'edge'], ['Disk usage above 90% on db-primary', 'postgres'], ['Replication lag above 30s', 'postgres'],
  ['Pod crash looping: auth-service', 'auth'], ['Queue backlog above 10,000 jobs', 'jobs'], ['Memory usage above 95% on gw-eu-1', 'gateway'],
  ['Upstream timeout from ledger', 'ledger'], ['Health check failing in us-east-1', 'edge'], ['Error budget burn rate too high', 'gateway'],
] as const;
const TOOLS = ['Prometheus', 'Datadog', 'Grafana', 'New Relic', 'Pingdom'];
const HOST_LISTS = [['gw-eu-1'], ['gw-eu-2', 'gw-us-1'], ['db-primary'], ['db-replica-1', 'k8s-node-7']].map((hosts) => JSON.stringify(hosts));
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
const STATUSES: ReadonlyArray<readonly [AlertStatus, number]> = [['triggered', 4], ['acknowledged', 2], ['resolved', 3], ['ignored', 1]];

interface AlertsSpec {
  gateway: ProjectRow;
  bench: ProjectRow;
  people: readonly UserRow[];
}

function bulkAlerts(sandbox: Sandbox, project: ProjectRow, count: number, random: Random, anchor: Date, options: { people: readonly UserRow[]; integrationId: number; notes: boolean }) {
  const { db } = sandbox;
  const insert = db.prepare(
    `INSERT INTO alert_management_alerts (project_id, iid, title, description, severity, status, started_at, ended_at, events, fingerprint,
       monitoring_tool, service, hosts, environment, runbook, payload, integration_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const assign = db.prepare('INSERT INTO alert_management_alert_assignees (alert_id, user_id) VALUES (?, ?)');
  const note = db.prepare('INSERT INTO alert_management_alert_notes (alert_id, author_id, body, created_at) VALUES (?, ?, ?, ?)');
  // payloads as a sender would post them, prepared once per title and tool (the seed writes thousands)
  const payloads = new Map<string, string>();
  const payloadOf = (title: string, service: string, tool: string, severity: string) => {
    const key = `${title}|${tool}|${severity}`;
    let text = payloads.get(key);
    if (text === undefined) {
      text = JSON.stringify({ title, service, monitoring_tool: tool, severity, region: 'eu-west-1', dashboard: `https://grafana.acme.example/d/${service}` });
      payloads.set(key, text);
    }
    return text;
  };
  const spanMs = 90 * DAY_MS;
  for (let iid = 1; iid <= count; iid++) {
    // older alerts first, so iids grow with time
    const startedMs = anchor.getTime() - Math.floor(((count - iid + random.next()) / count) * spanMs);
    const [title, service] = random.pick(TITLES);
    const tool = random.pick(TOOLS);
    // every status and severity appears; the first 24 alerts spell out each pair
    const severity = iid <= 24 ? SEVERITIES[iid % SEVERITIES.length] : random.pick(SEVERITIES);
    const status: AlertStatus = iid <= 24 ? STATUSES[iid % STATUSES.length][0] : random.weighted(STATUSES);
    const started = timestampAt(startedMs);
    const ended = status === 'resolved' ? timestampAt(startedMs + random.int(2, 600) * MINUTE_MS) : null;
    // a fingerprint of its own for each (open alerts may not share one); opaque 40 hex digits as the platform's SHA-1
    const fingerprint = `${project.id.toString(16)}a1e7${iid.toString(16)}`.padStart(40, '0');
    const id = Number(insert.run(
      project.id, iid, title, iid % 3 ? `${title} since ${started.slice(11, 16)} UTC.` : null, severity, status, started, ended,
      iid % 4 ? 1 : random.int(2, 120), fingerprint, tool, service, iid % 2 ? HOST_LISTS[iid % HOST_LISTS.length] : '[]', iid % 2 ? 'production' : null,
      iid % 5 ? null : `https://runbooks.acme.example/${service}`, payloadOf(title, service, tool, severity), options.integrationId, started, ended ?? started,
    ).lastInsertRowid);
    if (options.people.length && random.chance(0.25)) assign.run(id, random.pick(options.people).id);
    if (options.notes) {
      note.run(id, null, `logged an alert from **${tool}**`, started);
      if (status !== 'triggered') note.run(id, options.people.length ? random.pick(options.people).id : null, `changed the status to **${status[0].toUpperCase()}${status.slice(1)}**`, ended ?? started);
    }
  }
}

export function seedDemoAlerts(sandbox: Sandbox, spec: AlertsSpec, anchor: Date): void {
  const { db } = sandbox;
  const random = generator(0xa1e7_2026);
  const at = new Date(anchor.getTime() - 120 * DAY_MS).toISOString();
  const { legacy, datadog, paused, prometheus, bench } = DEMO_ALERTS.integrations;
  const http = (project: ProjectRow, integration: { name: string; endpointIdentifier: string; token: string }, extra: Partial<Parameters<typeof insertIntegration>[2]> = {}) =>
    insertIntegration(db, project.id, { type: 'http', active: true, ...integration, ...extra }, at);
  const legacyRow = http(spec.gateway, legacy);
  http(spec.gateway, datadog, {
    payloadExample: JSON.stringify(DATADOG_EXAMPLE, null, 2),
    mappings: [
      { fieldName: 'TITLE', path: ['alert', 'title'], type: 'STRING', label: 'Title' },
      { fieldName: 'SEVERITY', path: ['alert', 'priority'], type: 'STRING', label: 'Priority' },
      { fieldName: 'FINGERPRINT', path: ['alert', 'id'], type: 'STRING', label: 'Id' },
      { fieldName: 'HOSTS', path: ['host'], type: 'STRING', label: 'Host' },
      { fieldName: 'START_TIME', path: ['started'], type: 'DATETIME', label: 'Started' },
    ],
  });
  http(spec.gateway, paused, { active: false });
  insertIntegration(db, spec.gateway.id, { type: 'prometheus', active: true, apiUrl: 'http://prometheus.acme.example:9090', ...prometheus }, at);
  bulkAlerts(sandbox, spec.gateway, DEMO_ALERTS.count, random, anchor, { people: spec.people, integrationId: legacyRow.id, notes: true });
  const benchRow = http(spec.bench, bench);
  bulkAlerts(sandbox, spec.bench, DEMO_ALERTS.benchCount, random, anchor, { people: [], integrationId: benchRow.id, notes: false });
}
