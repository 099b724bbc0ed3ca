import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertOutcomes, mapAlertPayload, type AlertFieldMapping, type AlertPayloadFormat, type OpenAlert } from '../../src/lib/alert-mapping.ts';
import { createHarness, type Harness } from './harness.ts';
import { apiProject } from './core-fixtures.ts';
import { METRICS_ENVELOPE, createHttpIntegration, createPrometheusIntegration, gql, metricsItem, sendAlert, type Integration } from './alerts-fixtures.ts';

/**
 * The console's tester previews with src/lib/alert-mapping.ts; ingestion must do what the preview
 * says. A corpus of payloads of both formats is previewed against a model of the open alerts, then
 * sent: the answers, and afterwards every alert's title, severity, event count and status, must match.
 */

let h: Harness;
let path: string;
let http: Integration;
let mapped: Integration;
let prometheus: Integration;
const MAPPING: AlertFieldMapping = { title: { path: ['event', 'name'] }, severity: { path: ['event', 'level'] }, fingerprint: { path: ['event', 'key'] } };

beforeAll(async () => {
  h = createHarness();
  const project = await apiProject(h, h.adminToken);
  path = project.path_with_namespace;
  http = await createHttpIntegration(h, path);
  mapped = await createHttpIntegration(h, path, {
    name: 'Mapped',
    payloadExample: JSON.stringify({ event: { name: 'n', level: 'l', key: 'k' } }),
    payloadAttributeMappings: [
      { fieldName: 'TITLE', path: ['event', 'name'], type: 'STRING' },
      { fieldName: 'SEVERITY', path: ['event', 'level'], type: 'STRING' },
      { fieldName: 'FINGERPRINT', path: ['event', 'key'], type: 'STRING' },
    ],
  });
  prometheus = await createPrometheusIntegration(h, path);
});

afterAll(() => h.close());

type Case = { to: 'http' | 'mapped' | 'prometheus'; payload: unknown };

const CORPUS: Case[] = [
  { to: 'http', payload: { title: 'Plain', severity: 'low' } },
  { to: 'http', payload: { title: 'Plain', severity: 'low', hosts: ['other'], start_time: '2026-11-26T00:00:00Z' } },
  { to: 'http', payload: { title: 'Given fingerprint', fingerprint: ['a', ['b', 'c']] } },
  { to: 'http', payload: { title: 'Given fingerprint again', fingerprint: 'abc' } },
  { to: 'http', payload: { title: 42, description: { nested: true }, severity: 'MEDIUM' } },
  { to: 'http', payload: { title: `Long ${'x'.repeat(300)}`, severity: 'p1' } },
  { to: 'http', payload: { title: 'Ünïcödé ✓ <script>alert(1)</script>', service: 'svc', hosts: [['a', ['b']], 'c'] } },
  { to: 'http', payload: { fingerprint: 'abc', end_time: '2026-11-26T06:00:00Z' } },
  { to: 'http', payload: { fingerprint: 'abc', end_time: '2026-11-26T06:00:00Z' } },
  { to: 'http', payload: { title: 'Reopened', fingerprint: 'abc' } },
  { to: 'http', payload: { title: 'Epoch end', fingerprint: 'abc', end_time: 1764136800000 } },
  { to: 'http', payload: {} },
  { to: 'http', payload: {} },
  { to: 'mapped', payload: { event: { name: 'Mapped one', level: 'info', key: 'm1' } } },
  { to: 'mapped', payload: { event: { name: 'Mapped one', level: 'high', key: 'm1' }, title: 'ignored when mapped' } },
  { to: 'mapped', payload: { title: 'Falls back to title', severity: 'low' } },
  { to: 'prometheus', payload: { ...METRICS_ENVELOPE, alerts: [metricsItem(), metricsItem(), metricsItem({ labels: { alertname: 'Second', severity: 'Notice' }, annotations: {} })] } },
  { to: 'prometheus', payload: { ...METRICS_ENVELOPE, alerts: [metricsItem({ status: 'resolved', endsAt: '2026-11-26T11:00:00Z' }), metricsItem()] } },
  { to: 'prometheus', payload: { ...METRICS_ENVELOPE, alerts: [metricsItem({ annotations: {}, labels: {} }), 'not an object', metricsItem({ startsAt: undefined })] } },
  { to: 'prometheus', payload: { ...METRICS_ENVELOPE, alerts: [metricsItem({ status: 'resolved' })] } },
];

describe('preview and ingestion', () => {
  it('agree on every payload of the corpus, in order', async () => {
    // the preview's model of the store: open alerts by fingerprint, the next iid, and each alert's events and status
    const open = new Map<string, OpenAlert>();
    const model = new Map<number, { title: string; severity: string; eventCount: number; status: string }>();
    let nextIid = 1;
    for (const [index, { to, payload }] of CORPUS.entries()) {
      const format: AlertPayloadFormat = to === 'prometheus' ? 'prometheus' : 'http';
      const preview = mapAlertPayload(format, payload, { now: Date.now(), mapping: to === 'mapped' ? MAPPING : null, generateFingerprints: true });
      if (!preview.ok) throw new Error(`case ${index}: ${preview.message}`);
      const outcomes = alertOutcomes(preview.alerts, (fingerprint) => open.get(fingerprint) ?? null);
      const expected: OpenAlert[] = [];
      outcomes.forEach((outcome, item) => {
        const alert = preview.alerts[item];
        if (outcome.kind === 'nothing-to-resolve') return;
        if (outcome.kind === 'new') {
          const created = { iid: nextIid++, title: alert.title };
          if (alert.fingerprint) open.set(alert.fingerprint, created);
          model.set(created.iid, { title: alert.title, severity: alert.severity.toUpperCase(), eventCount: 1, status: 'TRIGGERED' });
          expected.push(created);
          return;
        }
        const target = outcome.alert.iid === 0 ? open.get(alert.fingerprint!)! : outcome.alert;
        if (outcome.kind === 'resolve') {
          open.delete(alert.fingerprint!);
          model.get(target.iid)!.status = 'RESOLVED';
        } else model.get(target.iid)!.eventCount++;
        expected.push({ iid: target.iid, title: target.title });
      });
      const integration = to === 'http' ? http : to === 'mapped' ? mapped : prometheus;
      const answer = await sendAlert(h, integration.url, payload, { bearer: integration.token });
      // the HTTP endpoints answer what they made or touched; one that resolves nothing is refused with 400, nothing stored;
      // the metrics endpoint answers 201 without a body (the store below is compared instead)
      const wanted = format === 'prometheus'
        ? { status: 201, body: null }
        : outcomes[0].kind === 'nothing-to-resolve' ? { status: 400, body: null } : { status: 200, body: expected };
      expect({ index, status: answer.status, body: wanted.body === null ? null : answer.body }).toEqual({ index, ...wanted });
    }
    const stored = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlerts(sort: CREATED_ASC, first: 100) { nodes { iid title severity eventCount status } } } }', { p: path });
    expect(stored.body.data.project.alertManagementAlerts.nodes).toEqual([...model.entries()].map(([iid, alert]) => ({ iid: String(iid), ...alert })));
  });
});
