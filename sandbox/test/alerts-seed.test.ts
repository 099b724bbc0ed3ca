import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ALERTS, DEMO_TOKENS } from '../seed/demo.ts';
import { createHarness, type Harness } from './harness.ts';
import { METRICS_ENVELOPE, gql, metricsItem, sendAlert } from './alerts-fixtures.ts';

let h: Harness;

beforeAll(() => {
  h = createHarness({ seed: 'demo' });
});

afterAll(() => h.close());

const base = () => `http://localhost/${DEMO_ALERTS.project}`;

describe('the demo alerts', () => {
  it('has every status and severity on the gateway, and 10,000 alerts on the bench project', async () => {
    const answer = await gql(h, `query($p: ID!, $b: ID!) {
      gateway: project(fullPath: $p) { alertManagementAlertStatusCounts { triggered acknowledged resolved ignored all } }
      bench: project(fullPath: $b) { alertManagementAlertStatusCounts { all } alertManagementAlerts(first: 1, sort: STARTED_AT_DESC) { nodes { iid } } }
    }`, { p: DEMO_ALERTS.project, b: DEMO_ALERTS.benchProject }, DEMO_TOKENS.developer.secret);
    const counts = answer.body.data.gateway.alertManagementAlertStatusCounts;
    expect(counts.all).toBe(DEMO_ALERTS.count);
    for (const status of ['triggered', 'acknowledged', 'resolved', 'ignored']) expect(counts[status]).toBeGreaterThan(10);
    expect(answer.body.data.bench.alertManagementAlertStatusCounts.all).toBe(DEMO_ALERTS.benchCount);
    expect(answer.body.data.bench.alertManagementAlerts.nodes).toEqual([{ iid: String(DEMO_ALERTS.benchCount) }]);
    const severities = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlerts(sort: SEVERITY_DESC, first: 100) { nodes { severity } } } }', { p: DEMO_ALERTS.project }, DEMO_TOKENS.developer.secret);
    const pairs = h.sandbox.db.prepare("SELECT count(DISTINCT status || severity) AS n FROM alert_management_alerts a JOIN projects p ON p.id = a.project_id WHERE p.path_with_namespace = ?").get(DEMO_ALERTS.project) as { n: number };
    expect(pairs.n).toBe(24);
    expect(severities.body.data.project.alertManagementAlerts.nodes[0].severity).toBe('CRITICAL');
  });

  it('shows the integrations and their keys to the maintainer, not to the developer', async () => {
    const query = 'query($p: ID!) { project(fullPath: $p) { alertManagementIntegrations { nodes { name type active token url } } } }';
    const asMaintainer = await gql(h, query, { p: DEMO_ALERTS.project }, DEMO_TOKENS.maintainer.secret);
    const nodes = asMaintainer.body.data.project.alertManagementIntegrations.nodes;
    expect(nodes.map((node: { name: string }) => node.name)).toEqual(['HTTP endpoint', 'Datadog', 'Old Pingdom', 'Prometheus']);
    expect(nodes[0]).toMatchObject({ token: DEMO_ALERTS.integrations.legacy.token, url: expect.stringMatching(/\/acme-engineering\/backend\/api-gateway\/alerts\/notify\.json$/) });
    expect(nodes[1].url).toMatch(/\/alerts\/notify\/datadog\/d47ad09c0ffee001\.json$/);
    expect(nodes[2].active).toBe(false);
    expect((await gql(h, query, { p: DEMO_ALERTS.project }, DEMO_TOKENS.developer.secret)).body.data.project.alertManagementIntegrations.nodes).toEqual([]);
  });

  it('accepts alerts with the known keys on every demo endpoint', async () => {
    const { legacy, datadog, paused, prometheus, bench } = DEMO_ALERTS.integrations;
    const first = DEMO_ALERTS.count + 1;
    expect((await sendAlert(h, `${base()}/alerts/notify.json`, { title: 'Demo legacy' }, { bearer: legacy.token })).body).toEqual([{ iid: first, title: 'Demo legacy' }]);
    const mapped = await sendAlert(h, `${base()}/alerts/notify/datadog/${datadog.endpointIdentifier}.json`, { alert: { title: 'Mapped from Datadog', priority: 'high', id: 'dd-1' }, host: 'gw-eu-1' }, { basic: datadog.token });
    expect(mapped.body).toEqual([{ iid: first + 1, title: 'Mapped from Datadog' }]);
    expect((await sendAlert(h, `${base()}/alerts/notify/old-pingdom/${paused.endpointIdentifier}.json`, { title: 'x' }, { bearer: paused.token })).status).toBe(403);
    expect((await sendAlert(h, `${base()}/prometheus/alerts/notify.json`, { ...METRICS_ENVELOPE, alerts: [metricsItem()] }, { bearer: prometheus.token })).status).toBe(201);
    expect((await sendAlert(h, `http://localhost/${DEMO_ALERTS.benchProject}/alerts/notify/load-generator/${bench.endpointIdentifier}.json`, { title: 'Load' }, { bearer: bench.token })).body).toEqual([{ iid: DEMO_ALERTS.benchCount + 1, title: 'Load' }]);
  });
});
