import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { prepareSandbox } from '../server.ts';
import { insertIntegration } from '../alerts/store.ts';
import { matchAlertPath, parseAlertPayloadLimit } from '../areas/alerts.ts';
import { createHarness, type Harness } from './harness.ts';
import { apiProject } from './core-fixtures.ts';
import { METRICS_ENVELOPE, alertOf, createHttpIntegration, gql, metricsItem, projectWithIntegrations, sendAlert } from './alerts-fixtures.ts';

let h: Harness;

beforeAll(() => {
  h = createHarness();
});

afterAll(() => h.close());

describe('the HTTP endpoint', () => {
  it('accepts a Bearer key, answers [{iid, title}] and stores every field with the payload kept whole', async () => {
    const { project, http } = await projectWithIntegrations(h);
    expect(http.url).toMatch(new RegExp(`/${project.path_with_namespace}/alerts/notify/datadog/[0-9a-f]{16}\\.json$`));
    const payload = {
      title: 'Disk full on db-1', description: 'Only 2% left', start_time: '2026-11-26T09:00:00Z', service: 'postgres', monitoring_tool: 'Datadog',
      hosts: ['db-1', 'db-2'], severity: 'HIGH', service_environment_name: 'production', runbook: 'https://runbooks.example/disk', extra: { nested: { key: [1, 2] } },
    };
    const answer = await sendAlert(h, http.url, payload, { bearer: http.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ iid: 1, title: 'Disk full on db-1' }]);
    const alert = await alertOf(h, project.path_with_namespace, 1);
    expect(alert).toMatchObject({
      iid: '1', title: 'Disk full on db-1', description: 'Only 2% left', severity: 'HIGH', status: 'TRIGGERED', service: 'postgres', monitoringTool: 'Datadog',
      hosts: ['db-1', 'db-2'], startedAt: '2026-11-26T09:00:00.000Z', endedAt: null, eventCount: 1, environment: null, runbook: 'https://runbooks.example/disk',
    });
    // extra keys kept, nested ones with dotted keys as the platform's details
    expect(alert.details).toMatchObject({ 'extra.nested.key': [1, 2], title: 'Disk full on db-1', service_environment_name: 'production' });
    expect(alert.notes.nodes[0]).toEqual({ body: 'logged an alert from **Datadog**', author: null });
  });

  it('fills the defaults: New: Alert, now, critical', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const before = Date.now();
    expect((await sendAlert(h, http.url, {}, { bearer: http.token })).body).toEqual([{ iid: 1, title: 'New: Alert' }]);
    const alert = await alertOf(h, project.path_with_namespace, 1);
    expect(alert).toMatchObject({ title: 'New: Alert', severity: 'CRITICAL', status: 'TRIGGERED' });
    expect(Date.parse(alert.startedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('accepts Basic with an empty user and the key as the password, and refuses anything else with 401', async () => {
    const { http } = await projectWithIntegrations(h);
    expect((await sendAlert(h, http.url, { title: 'basic' }, { basic: http.token })).status).toBe(200);
    expect((await sendAlert(h, http.url, { title: 'x' }, { bearer: 'wrong' })).status).toBe(401);
    expect((await sendAlert(h, http.url, { title: 'x' })).status).toBe(401);
    expect((await sendAlert(h, http.url, { title: 'x' }, { basic: 'wrong' })).status).toBe(401);
    // the platform reads the password only: a user name does not matter
    const named = `Basic ${Buffer.from(`someone:${http.token}`).toString('base64')}`;
    expect((await sendAlert(h, http.url, { title: 'named' }, { headers: { Authorization: named } })).status).toBe(200);
    expect((await sendAlert(h, http.url, { title: 'x' }, { headers: { Authorization: `Basic ${Buffer.from(http.token).toString('base64')}` } })).status).toBe(401);
    // the key of another integration of the same project is not this one's
    const other = await createHttpIntegration(h, new URL(http.url).pathname.split('/alerts/')[0].slice(1), { name: 'Other' });
    expect((await sendAlert(h, http.url, { title: 'x' }, { bearer: other.token })).status).toBe(401);
    const refused = await sendAlert(h, http.url, { title: 'x' }, { bearer: 'wrong' });
    expect(refused.body).toEqual({ message: 'Unauthorized' });
  });

  it('answers 403 for an inactive or unknown endpoint, 400 for bad JSON or a non-object, 413 above the payload limit, 404 for an unknown project', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const inactive = await createHttpIntegration(h, project.path_with_namespace, { name: 'Paused', active: false });
    expect((await sendAlert(h, inactive.url, { title: 'x' }, { bearer: inactive.token })).status).toBe(403);
    expect((await sendAlert(h, http.url.replace(/[0-9a-f]{16}\.json$/, '0000000000000000.json'), { title: 'x' }, { bearer: http.token })).status).toBe(403);
    const bad = await sendAlert(h, http.url, null, { bearer: http.token, raw: '{"title": ' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/not valid JSON/);
    expect((await sendAlert(h, http.url, [{ title: 'x' }], { bearer: http.token })).status).toBe(400);
    expect((await sendAlert(h, http.url, 'text', { bearer: http.token })).status).toBe(400);
    h.sandbox.config.alertPayloadMaxBytes = 2000;
    try {
      const big = await sendAlert(h, http.url, { title: 'x', description: 'y'.repeat(3000) }, { bearer: http.token });
      expect(big.status).toBe(413);
      expect(big.body.message).toMatch(/2000 bytes/);
      expect((await sendAlert(h, http.url, { title: 'small' }, { bearer: http.token })).status).toBe(200);
    } finally {
      delete h.sandbox.config.alertPayloadMaxBytes;
    }
    expect((await sendAlert(h, 'http://localhost/nobody/nothing/alerts/notify.json', {}, { bearer: 'x' })).status).toBe(404);
    // nothing refused was stored
    expect((await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlertStatusCounts { all } } }', { p: project.path_with_namespace })).body.data.project.alertManagementAlertStatusCounts.all).toBe(1);
  });

  it('maps the six severities case-insensitively, and anything else to critical', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const given = ['critical', 'HIGH', 'Medium', 'low', 'INFO', 'unknown', 'p1', 'warning', '', 42];
    for (const [index, severity] of given.entries()) {
      const answer = await sendAlert(h, http.url, { title: `s${index}`, severity }, { bearer: http.token });
      expect(answer.status).toBe(200);
    }
    const seen = [];
    for (let iid = 1; iid <= given.length; iid++) seen.push((await alertOf(h, project.path_with_namespace, iid)).severity);
    expect(seen).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'UNKNOWN', 'CRITICAL', 'CRITICAL', 'CRITICAL', 'CRITICAL']);
  });

  it('groups by fingerprint, resolves with end_time, and opens a new alert after resolution', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const send = (payload: object) => sendAlert(h, http.url, payload, { bearer: http.token });
    expect((await send({ title: 'CPU high', fingerprint: 'cpu-1' })).body).toEqual([{ iid: 1, title: 'CPU high' }]);
    expect((await send({ title: 'CPU high again', fingerprint: 'cpu-1' })).body).toEqual([{ iid: 1, title: 'CPU high' }]);
    expect((await send({ title: 'Other', fingerprint: 'cpu-2' })).body).toEqual([{ iid: 2, title: 'Other' }]);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ eventCount: 2, status: 'TRIGGERED' });
    expect((await send({ fingerprint: 'cpu-1', end_time: '2026-11-26T11:00:00Z' })).body).toEqual([{ iid: 1, title: 'CPU high' }]);
    const resolved = await alertOf(h, project.path_with_namespace, 1);
    expect(resolved).toMatchObject({ status: 'RESOLVED', endedAt: '2026-11-26T11:00:00.000Z', eventCount: 2 });
    expect(resolved.notes.nodes.map((note: { body: string }) => note.body)).toEqual(['logged an alert from **Datadog**', 'logged a recovery alert from **Datadog**', 'changed the status to **Resolved**']);
    // resolving again finds nothing open: nothing is stored and the platform answers 400
    const nothing = await send({ fingerprint: 'cpu-1', end_time: '2026-11-26T11:05:00Z' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toMatch(/no open alert/);
    expect((await send({ title: 'CPU high', fingerprint: 'cpu-1' })).body).toEqual([{ iid: 3, title: 'CPU high' }]);
    expect(await alertOf(h, project.path_with_namespace, 3)).toMatchObject({ status: 'TRIGGERED', eventCount: 1 });
  });

  it('makes fingerprints from the payload without start_time, end_time and hosts, so repeats group', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const send = (payload: object) => sendAlert(h, http.url, payload, { bearer: http.token });
    expect((await send({ title: 'Queue backlog', service: 'jobs', start_time: '2026-11-26T08:00:00Z', hosts: ['a'] })).body).toEqual([{ iid: 1, title: 'Queue backlog' }]);
    expect((await send({ title: 'Queue backlog', service: 'jobs', start_time: '2026-11-26T08:05:00Z', hosts: ['b'] })).body).toEqual([{ iid: 1, title: 'Queue backlog' }]);
    expect((await send({ title: 'Queue backlog', service: 'mail' })).body).toEqual([{ iid: 2, title: 'Queue backlog' }]);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ eventCount: 2 });
  });

  it('reads fields through a custom mapping', async () => {
    const project = await apiProject(h, h.adminToken);
    const mapped = await createHttpIntegration(h, project.path_with_namespace, {
      name: 'Custom tool',
      payloadExample: JSON.stringify({ alert: { name: 'x', level: 'warn', id: 'a1' }, started: '2026-11-26T07:00:00Z' }),
      payloadAttributeMappings: [
        { fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' },
        { fieldName: 'SEVERITY', path: ['alert', 'level'], type: 'STRING' },
        { fieldName: 'FINGERPRINT', path: ['alert', 'id'], type: 'STRING' },
        { fieldName: 'START_TIME', path: ['started'], type: 'DATETIME' },
      ],
    });
    const send = (payload: object) => sendAlert(h, mapped.url, payload, { bearer: mapped.token });
    expect((await send({ alert: { name: 'Mapped title', level: 'low', id: 'a1' }, started: '2026-11-26T07:00:00Z' })).body).toEqual([{ iid: 1, title: 'Mapped title' }]);
    expect((await send({ alert: { name: 'Mapped title', level: 'low', id: 'a1' } })).body).toEqual([{ iid: 1, title: 'Mapped title' }]);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ severity: 'LOW', startedAt: '2026-11-26T07:00:00.000Z', eventCount: 2 });
  });

  it('answers the legacy default endpoint with the legacy integration only', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const legacyUrl = `http://localhost/${project.path_with_namespace}/alerts/notify.json`;
    // no legacy integration yet: the default endpoint has nothing active behind it
    expect((await sendAlert(h, legacyUrl, { title: 'x' }, { bearer: http.token })).status).toBe(403);
    const legacy = h.sandbox.db.transaction(() => insertIntegration(h.sandbox.db, project.id, { type: 'http', name: 'HTTP endpoint', active: true, endpointIdentifier: 'legacy' }, new Date().toISOString()))();
    expect((await sendAlert(h, legacyUrl, { title: 'x' }, { bearer: http.token })).status).toBe(401);
    expect((await sendAlert(h, legacyUrl, { title: 'Legacy' }, { bearer: legacy.token })).body).toEqual([{ iid: 1, title: 'Legacy' }]);
    const listed = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementHttpIntegrations { nodes { name url } } } }', { p: project.path_with_namespace });
    expect(listed.body.data.project.alertManagementHttpIntegrations.nodes.map((row: { url: string }) => row.url)).toContain(`${h.sandbox.config.externalUrl}/${project.path_with_namespace}/alerts/notify.json`);
  });

  it('loses no event and opens one alert per fingerprint under concurrent requests', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const answers = await Promise.all(Array.from({ length: 60 }, (_, index) => sendAlert(h, http.url, { title: `Burst ${index % 3}`, fingerprint: `burst-${index % 3}` }, { bearer: http.token })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const list = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlerts(sort: EVENT_COUNT_DESC) { nodes { iid eventCount } } } }', { p: project.path_with_namespace });
    const nodes = list.body.data.project.alertManagementAlerts.nodes;
    expect(nodes).toHaveLength(3);
    expect(nodes.map((node: { eventCount: number }) => node.eventCount)).toEqual([20, 20, 20]);
  });
});

describe('the metrics endpoint', () => {
  it('makes one alert per item, titles and severities from labels and annotations, and answers 201 without a body', async () => {
    const { project, prometheus } = await projectWithIntegrations(h);
    expect(prometheus.url).toBe(`${h.sandbox.config.externalUrl}/${project.path_with_namespace}/prometheus/alerts/notify.json`);
    const payload = {
      ...METRICS_ENVELOPE,
      alerts: [
        metricsItem({ annotations: { title: 'From title', summary: 's', description: 'Latency is high' }, labels: { alertname: 'A', severity: 'P2' } }),
        metricsItem({ annotations: { summary: 'From summary' }, labels: { alertname: 'B', severity: 'warning' }, startsAt: '2026-11-26T10:01:00Z' }),
        metricsItem({ annotations: {}, labels: { alertname: 'From alertname', severity: 'nonsense' }, startsAt: '2026-11-26T10:02:00Z' }),
      ],
    };
    const answer = await sendAlert(h, prometheus.url, payload, { bearer: prometheus.token });
    // the platform's metrics notify service answers `created`: 201 and no body
    expect(answer.status).toBe(201);
    expect(answer.text).toBe('');
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ title: 'From title', severity: 'HIGH', description: 'Latency is high', monitoringTool: 'Prometheus' });
    expect((await alertOf(h, project.path_with_namespace, 2)).title).toBe('From summary');
    expect((await alertOf(h, project.path_with_namespace, 3)).title).toBe('From alertname');
    expect((await alertOf(h, project.path_with_namespace, 2)).severity).toBe('LOW');
    expect((await alertOf(h, project.path_with_namespace, 3)).severity).toBe('CRITICAL');
  });

  it('maps every alias of the severity table, case-insensitively', async () => {
    const { project, prometheus } = await projectWithIntegrations(h);
    const table: Record<string, string[]> = {
      CRITICAL: ['critical', 'S1', 'p1', 'Emergency', 'fatal'],
      HIGH: ['high', 's2', 'P2', 'major', 'PAGE'],
      MEDIUM: ['medium', 's3', 'p3', 'error', 'Alert'],
      LOW: ['low', 's4', 'p4', 'warn', 'WARNING'],
      INFO: ['info', 's5', 'p5', 'debug', 'information', 'Notice'],
    };
    const aliases = Object.entries(table).flatMap(([severity, names]) => names.map((name) => ({ severity, name })));
    const items = aliases.map(({ name }, index) => metricsItem({ annotations: {}, labels: { alertname: `Alias ${name}`, severity: name }, startsAt: `2026-11-26T10:${String(index).padStart(2, '0')}:00Z` }));
    expect((await sendAlert(h, prometheus.url, { ...METRICS_ENVELOPE, alerts: items }, { bearer: prometheus.token })).status).toBe(201);
    const list = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlerts(sort: STARTED_AT_ASC) { nodes { title severity } } } }', { p: project.path_with_namespace });
    expect(list.body.data.project.alertManagementAlerts.nodes).toEqual(aliases.map(({ name, severity }) => ({ title: `Alias ${name}`, severity })));
  });

  it('groups repeats, resolves with status resolved, opens anew afterwards, and counts events within one payload', async () => {
    const { project, prometheus } = await projectWithIntegrations(h);
    const send = (...alerts: object[]) => sendAlert(h, prometheus.url, { ...METRICS_ENVELOPE, alerts }, { bearer: prometheus.token });
    expect((await send(metricsItem(), metricsItem())).status).toBe(201);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ title: 'p99 latency above 2s', eventCount: 2 });
    expect(await alertOf(h, project.path_with_namespace, 2)).toBeNull();
    expect((await send(metricsItem({ status: 'resolved', endsAt: '2026-11-26T10:30:00Z' }))).status).toBe(201);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ status: 'RESOLVED', endedAt: '2026-11-26T10:30:00.000Z' });
    // resolving what is not open stores nothing, and the metrics endpoint still answers 201
    expect((await send(metricsItem({ status: 'resolved', endsAt: '2026-11-26T10:40:00Z' }))).status).toBe(201);
    expect((await send(metricsItem())).status).toBe(201);
    expect(await alertOf(h, project.path_with_namespace, 2)).toMatchObject({ status: 'TRIGGERED', eventCount: 1 });
    expect(await alertOf(h, project.path_with_namespace, 3)).toBeNull();
  });

  it('is also what an HTTP endpoint does with an Alertmanager payload (version 4 and its envelope)', async () => {
    const { project, http } = await projectWithIntegrations(h);
    const answer = await sendAlert(h, http.url, { ...METRICS_ENVELOPE, alerts: [metricsItem()] }, { bearer: http.token });
    expect(answer.status).toBe(201);
    expect(await alertOf(h, project.path_with_namespace, 1)).toMatchObject({ title: 'p99 latency above 2s', monitoringTool: 'Prometheus' });
    // another version is no Alertmanager payload: the HTTP format reads it (no title: the default)
    expect((await sendAlert(h, http.url, { ...METRICS_ENVELOPE, version: '3', alerts: [metricsItem()] }, { bearer: http.token })).body).toEqual([{ iid: 2, title: 'New: Alert' }]);
  });

  it('answers 422 without the Alertmanager envelope (before the key), 401 for a wrong key, 403 when inactive', async () => {
    const project = await apiProject(h, h.adminToken);
    const created = await gql(h, 'mutation($input: PrometheusIntegrationCreateInput!) { prometheusIntegrationCreate(input: $input) { integration { id token url } errors } }', { input: { projectPath: project.path_with_namespace, active: false } });
    const prometheus = created.body.data.prometheusIntegrationCreate.integration;
    const missing = await sendAlert(h, prometheus.url, { alerts: [metricsItem()] }, { bearer: 'wrong' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/commonAnnotations/);
    expect((await sendAlert(h, prometheus.url, { ...METRICS_ENVELOPE, alerts: [metricsItem()] }, { bearer: prometheus.token })).status).toBe(403);
    await gql(h, 'mutation($input: PrometheusIntegrationUpdateInput!) { prometheusIntegrationUpdate(input: $input) { errors } }', { input: { id: prometheus.id, active: true } });
    expect((await sendAlert(h, prometheus.url, { ...METRICS_ENVELOPE, alerts: [metricsItem()] }, { bearer: 'wrong' })).status).toBe(401);
    expect((await sendAlert(h, prometheus.url, { ...METRICS_ENVELOPE, alerts: [metricsItem()] }, { basic: prometheus.token })).status).toBe(201);
  });
});

describe('alert paths', () => {
  it('tells the three endpoints apart, and nothing else is one', () => {
    expect(matchAlertPath('/g/sub/p/alerts/notify/datadog/0123456789abcdef.json')).toEqual({ format: 'http', projectPath: 'g/sub/p', endpointIdentifier: '0123456789abcdef' });
    expect(matchAlertPath('/g/p/alerts/notify.json')).toEqual({ format: 'http', projectPath: 'g/p', endpointIdentifier: undefined });
    expect(matchAlertPath('/g/p/prometheus/alerts/notify.json')).toEqual({ format: 'prometheus', projectPath: 'g/p', endpointIdentifier: undefined });
    for (const other of ['/api/v4/projects/1/alerts/notify.json', '/-/sandbox/alerts/notify.json', '/g/p/alerts/notify', '/g/p/alerts/notify/a/b/c.json', '/g/p/issues']) expect(matchAlertPath(other)).toBeNull();
  });
});

describe('the payload limit option', () => {
  it('reads a whole number of bytes, and refuses anything else', () => {
    const fail = (message: string): never => {
      throw new Error(message);
    };
    expect(parseAlertPayloadLimit(undefined, fail)).toBeUndefined();
    expect(parseAlertPayloadLimit('2048', fail)).toBe(2048);
    for (const bad of ['0', '-1', '1.5', '1MB']) expect(() => parseAlertPayloadLimit(bad, fail)).toThrow(/alert-payload-limit/);
  });
});

describe('restart safety', () => {
  it('keeps integrations and alerts across a restart of the store', async () => {
    const own = createHarness();
    const { project, http } = await projectWithIntegrations(own);
    await sendAlert(own, http.url, { title: 'Survives', fingerprint: 'keep' }, { bearer: http.token });
    await sendAlert(own, http.url, { title: 'Survives', fingerprint: 'keep' }, { bearer: http.token });
    own.close();
    const { sandbox, adminToken } = prepareSandbox({ dataDir: own.dataDir, seed: 'empty', config: { rateLimitPerMinute: 0 } });
    try {
      const app = createApp(sandbox);
      const response = await app.request('http://localhost/api/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': adminToken },
        body: JSON.stringify({ query: `{ project(fullPath: "${project.path_with_namespace}") { alertManagementAlert(iid: "1") { title eventCount } alertManagementHttpIntegrations { nodes { token } } } }` }),
      });
      const body = (await response.json()) as any;
      expect(body.data.project.alertManagementAlert).toEqual({ title: 'Survives', eventCount: 2 });
      expect(body.data.project.alertManagementHttpIntegrations.nodes[0].token).toBe(http.token);
      const again = await app.request(new URL(http.url).pathname, { method: 'POST', headers: { Authorization: `Bearer ${http.token}` }, body: JSON.stringify({ title: 'Survives', fingerprint: 'keep' }) });
      expect(await again.json()).toEqual([{ iid: 1, title: 'Survives' }]);
    } finally {
      sandbox.db.close();
    }
  });
});
