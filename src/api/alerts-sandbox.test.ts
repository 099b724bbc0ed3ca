import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServerApp } from '../../server/app.ts';
import { METRICS_TEMPLATE, fieldMappingOf, openAlertsByFingerprint, previewPayload } from '../features/alerts/mapping.ts';
import {
  answeredAlerts, createAlertIssue, createHttpIntegration, createPrometheusIntegration, fetchAlert, fetchAlerts, fetchIntegrations, fetchOpenAlertsByTitle,
  fetchPayloadFields, resetIntegrationToken, sendTestAlert, setAlertAssignees, setIntegrationActive, updateAlertStatus, updateHttpIntegration, type Integration,
} from './alerts.ts';
import { clientTestSandbox } from './test-sandbox.ts';

// the client's documents against the sandbox's GraphQL schema, and test alerts through the real relay
describe('alerts client against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let fullPath = '';
  let http: Integration;

  beforeAll(async () => {
    fullPath = (await sandbox.post<{ path_with_namespace: string }>('/projects', { name: 'alerts-client' })).path_with_namespace;
    http = await createHttpIntegration(sandbox.connection(), { projectPath: fullPath, name: 'Datadog', active: true });
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** The console server in --target mode before the sandbox: the browser's fetch of the relay goes to it. */
  function relayThroughConsole() {
    const app = createServerApp({ target: sandbox.connection().instanceUrl });
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (url: string | URL | Request, init?: RequestInit) => (String(url) === '/-/alerts-relay' ? app.request('http://console.test/-/alerts-relay', init) : realFetch(url, init)));
  }

  it('creates, lists and changes integrations of both kinds', async () => {
    const connection = sandbox.connection();
    expect(http).toMatchObject({ type: 'HTTP', name: 'Datadog', active: true });
    expect(http.token).toBeTruthy();
    const metrics = await createPrometheusIntegration(connection, { projectPath: fullPath, active: true });
    expect(metrics.type).toBe('PROMETHEUS');
    const listed = await fetchIntegrations(connection, fullPath);
    expect(listed.map((integration) => integration.type).sort()).toEqual(['HTTP', 'PROMETHEUS']);
    expect((await setIntegrationActive(connection, metrics, false)).active).toBe(false);
    await expect(createHttpIntegration(connection, { projectPath: fullPath, name: '', active: true })).rejects.toMatchObject({ status: 422 });
  });

  it('reads the fields of a sample and saves a custom mapping', async () => {
    const connection = sandbox.connection();
    const sample = JSON.stringify({ alert: { name: 'Queue backlog', level: 'low' }, when: '2026-11-26T10:00:00Z' });
    const fields = await fetchPayloadFields(connection, fullPath, sample);
    expect(fields.map((field) => field.path)).toEqual([['alert', 'name'], ['alert', 'level'], ['when']]);
    const updated = await updateHttpIntegration(connection, {
      id: http.id,
      payloadExample: sample,
      payloadAttributeMappings: [
        { fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' },
        { fieldName: 'SEVERITY', path: ['alert', 'level'], type: 'STRING', label: 'Level' },
      ],
    });
    expect(updated.payloadAttributeMappings.map((mapping) => mapping.fieldName).sort()).toEqual(['SEVERITY', 'TITLE']);
    http = (await fetchIntegrations(connection, fullPath)).find((integration) => integration.id === http.id)!;
  });

  it("sends test alerts through the console's relay with both auth modes, and the preview is what the sandbox did", async () => {
    const connection = sandbox.connection();
    relayThroughConsole();
    const mapping = fieldMappingOf(http.payloadAttributeMappings);
    const payload = JSON.stringify({ alert: { name: 'Queue backlog', level: 'low' }, service: 'worker' });
    const before = previewPayload(payload, 'http', { now: Date.now(), mapping, open: new Map() });
    expect(before).toMatchObject({ kind: 'ok', items: [{ alert: { title: 'Queue backlog', severity: 'low' }, outcome: { kind: 'new' } }] });

    const first = await sendTestAlert({ url: http.url!, key: http.token!, auth: 'bearer', payload });
    expect(first.status).toBe(200);
    const [made] = answeredAlerts(first);
    expect(made.title).toBe('Queue backlog');
    expect(await fetchAlert(connection, fullPath, made.iid)).toMatchObject({ title: 'Queue backlog', severity: 'LOW', status: 'TRIGGERED', eventCount: 1 });

    // the same payload again: the preview finds the open alert, and the sandbox counts an event on it
    const open = openAlertsByFingerprint('http', await fetchOpenAlertsByTitle(connection, fullPath, ['Queue backlog']), mapping);
    const again = previewPayload(payload, 'http', { now: Date.now(), mapping, open });
    expect(again).toMatchObject({ kind: 'ok', items: [{ outcome: { kind: 'event', alert: { iid: made.iid } } }] });
    const second = await sendTestAlert({ url: http.url!, key: http.token!, auth: 'basic', payload });
    expect(answeredAlerts(second)).toEqual([{ iid: made.iid, title: 'Queue backlog' }]);
    expect((await fetchAlert(connection, fullPath, made.iid)).eventCount).toBe(2);

    // an Alertmanager webhook sent to the HTTP endpoint: previewed in the metrics format, and stored so
    const webhook = METRICS_TEMPLATE.replace('API latency above 500 ms', 'Webhook to HTTP');
    expect(previewPayload(webhook, 'http', { now: Date.now(), mapping, open: new Map() })).toMatchObject({ kind: 'ok', format: 'prometheus', items: [{ alert: { title: 'Webhook to HTTP' } }] });
    expect((await sendTestAlert({ url: http.url!, key: http.token!, auth: 'bearer', payload: webhook })).status).toBe(201);
    expect((await fetchOpenAlertsByTitle(connection, fullPath, ['Webhook to HTTP'])).length).toBe(1);

    // a wrong key is the instance's 401, shown as data
    expect((await sendTestAlert({ url: http.url!, key: 'wrong', auth: 'bearer', payload })).status).toBe(401);
  });

  it('resets a key: the old one is refused, the new one taken', async () => {
    relayThroughConsole();
    const reset = await resetIntegrationToken(sandbox.connection(), http);
    expect(reset.token).not.toBe(http.token);
    const payload = '{"title":"after reset"}';
    expect((await sendTestAlert({ url: http.url!, key: http.token!, auth: 'bearer', payload })).status).toBe(401);
    expect((await sendTestAlert({ url: http.url!, key: reset.token!, auth: 'bearer', payload })).status).toBe(200);
    http = reset;
  });

  it('lists alerts with counts, changes status and assignees, and makes an issue', async () => {
    const connection = sandbox.connection();
    const list = await fetchAlerts(connection, fullPath, { tab: 'open', search: '', sort: 'STARTED_AT_DESC' });
    expect(list.alerts.length).toBeGreaterThan(0);
    expect(list.counts.open).toBe(list.alerts.length);
    const iid = list.alerts[0].iid;
    expect(await updateAlertStatus(connection, { projectPath: fullPath, iid, status: 'ACKNOWLEDGED' })).toMatchObject({ status: 'ACKNOWLEDGED' });
    expect((await setAlertAssignees(connection, { projectPath: fullPath, iid, assigneeUsernames: ['root'] }))?.assignees.map((user) => user.username)).toEqual(['root']);
    const issue = await createAlertIssue(connection, { projectPath: fullPath, iid });
    expect(Number(issue.iid)).toBeGreaterThan(0);
    expect((await fetchAlert(connection, fullPath, Number(iid))).issue?.iid).toBe(issue.iid);
    const resolved = await fetchAlerts(connection, fullPath, { tab: 'resolved', search: '', sort: 'STARTED_AT_DESC' });
    expect(resolved.alerts).toEqual([]);
  });
});
