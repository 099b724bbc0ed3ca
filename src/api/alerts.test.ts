import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { createServerApp } from '../../server/app.ts';
import {
  alertAuthorization, alertDetailSchema, answeredAlerts, createAlertIssue, createHttpIntegration, fetchAlert, fetchAlerts, fetchIntegrations,
  fetchOpenAlertsByTitle, fetchPayloadFields, resetIntegrationToken, sendTestAlert, setAlertAssignees, setIntegrationActive, tabStatuses, updateAlertStatus,
} from './alerts.ts';
import { ApiError } from './errors.ts';
import type { Connection } from './http.ts';

const connection: Connection = { instanceUrl: 'https://alerts.example.com', token: 'glpat-secret' };

type Call = { url: string; headers: Record<string, string>; body: { query: string; variables: Record<string, unknown> } };
function stubGraphql(...answers: unknown[]) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, options: RequestInit) => {
    calls.push({ url, headers: options.headers as Record<string, string>, body: JSON.parse(String(options.body)) });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// shaped as the platform's GraphQL reference shows them
const httpIntegration = {
  id: 'gid://gitlab/AlertManagement::HttpIntegration/7',
  type: 'HTTP',
  name: 'Datadog',
  active: true,
  token: 'f4c9a2b1',
  url: 'https://alerts.example.com/group/app/alerts/notify/datadog/eddd36969b2d3d6a.json',
  apiUrl: null,
};
const prometheus = { id: 'gid://gitlab/AlertManagement::HttpIntegration/8', type: 'PROMETHEUS', name: 'Prometheus', active: false, token: null, url: 'https://alerts.example.com/group/app/prometheus/alerts/notify.json', apiUrl: null };
const alertNode = {
  iid: '12', title: 'High CPU', severity: 'CRITICAL', status: 'TRIGGERED', startedAt: '2026-11-20T10:00:00Z', endedAt: null, eventCount: 3,
  createdAt: '2026-11-20T10:00:01Z', updatedAt: '2026-11-20T10:05:00Z', assignees: { nodes: [{ id: 'gid://gitlab/User/1', username: 'root', name: 'Administrator', avatarUrl: null, webUrl: 'https://alerts.example.com/root' }] }, issue: null,
};

describe('integrations', () => {
  it('lists every integration and merges the HTTP ones\' sample and mapping in', async () => {
    const calls = stubGraphql({
      data: {
        project: {
          alertManagementIntegrations: { nodes: [httpIntegration, prometheus] },
          alertManagementHttpIntegrations: { nodes: [{ ...httpIntegration, payloadExample: '{"a":1}', payloadAttributeMappings: [{ fieldName: 'TITLE', path: ['a'], type: 'STRING', label: 'a' }] }] },
        },
      },
    });
    const integrations = await fetchIntegrations(connection, 'group/app');
    expect(calls[0].url).toBe('https://alerts.example.com/api/graphql');
    expect(calls[0].body.variables).toEqual({ fullPath: 'group/app' });
    expect(calls[0].body.query).toContain('alertManagementHttpIntegrations { nodes {');
    expect(integrations).toHaveLength(2);
    expect(integrations[0]).toMatchObject({ name: 'Datadog', payloadExample: '{"a":1}', payloadAttributeMappings: [{ fieldName: 'TITLE', path: ['a'] }] });
    expect(integrations[1]).toMatchObject({ type: 'PROMETHEUS', active: false, token: null, payloadAttributeMappings: [] });
  });

  it('reads alertManagementPayloadFields for a sample', async () => {
    const calls = stubGraphql({ data: { project: { alertManagementPayloadFields: [{ path: ['labels', 'host'], label: 'Host', type: 'STRING' }, { path: ['hosts', 0], label: 'hosts', type: 'ARRAY' }] } } });
    const fields = await fetchPayloadFields(connection, 'group/app', '{"labels":{"host":"a"}}');
    expect(fields.map((field) => field.path)).toEqual([['labels', 'host'], ['hosts', 0]]);
    expect(calls[0].body.variables).toEqual({ fullPath: 'group/app', payloadExample: '{"labels":{"host":"a"}}' });
  });

  it('sends the create input and reads the new key; mutation errors become a 422 refusal with their text', async () => {
    const calls = stubGraphql({ data: { httpIntegrationCreate: { errors: [], integration: httpIntegration } } }, { data: { httpIntegrationCreate: { errors: ['Name has already been taken'], integration: null } } });
    const created = await createHttpIntegration(connection, { projectPath: 'group/app', name: 'Datadog', active: true });
    expect(created.token).toBe('f4c9a2b1');
    expect(calls[0].body.query).toContain('mutation httpIntegrationCreate($input: HttpIntegrationCreateInput!)');
    expect(calls[0].body.variables).toEqual({ input: { projectPath: 'group/app', name: 'Datadog', active: true } });
    const error = await createHttpIntegration(connection, { projectPath: 'group/app', name: 'Datadog', active: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, message: 'Name has already been taken', kind: 'http' });
  });

  it('resets and toggles through the mutation of the integration\'s kind', async () => {
    const calls = stubGraphql(
      { data: { prometheusIntegrationResetToken: { errors: [], integration: { ...prometheus, token: 'new' } } } },
      { data: { httpIntegrationUpdate: { errors: [], integration: { ...httpIntegration, active: false } } } },
    );
    expect((await resetIntegrationToken(connection, prometheus)).token).toBe('new');
    expect(calls[0].body.query).toContain('prometheusIntegrationResetToken(input: $input)');
    expect((await setIntegrationActive(connection, httpIntegration, false)).active).toBe(false);
    expect(calls[1].body.variables).toEqual({ input: { id: httpIntegration.id, active: false } });
  });
});

describe('alerts', () => {
  it('maps a tab to statuses and pages by cursor, with the counts of the same search', async () => {
    expect(tabStatuses('open')).toEqual(['TRIGGERED', 'ACKNOWLEDGED']);
    expect(tabStatuses('all')).toBeUndefined();
    expect(tabStatuses('ignored')).toEqual(['IGNORED']);
    const calls = stubGraphql({
      data: {
        project: {
          alertManagementAlerts: { nodes: [alertNode], pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: 'a', endCursor: 'b' } },
          alertManagementAlertStatusCounts: { all: 9, open: 4, triggered: 3, acknowledged: 1, resolved: 5, ignored: null },
        },
      },
    });
    const list = await fetchAlerts(connection, 'group/app', { tab: 'resolved', search: 'cpu', sort: 'SEVERITY_DESC', after: 'x' });
    expect(calls[0].body.variables).toEqual({ fullPath: 'group/app', statuses: ['RESOLVED'], search: 'cpu', sort: 'SEVERITY_DESC', first: 20, after: 'x' });
    expect(list.alerts[0]).toMatchObject({ iid: '12', eventCount: 3, assignees: [{ username: 'root' }] });
    expect(list.counts).toEqual({ all: 9, open: 4, triggered: 3, acknowledged: 1, resolved: 5, ignored: 0 });
    expect(list.pageInfo.hasNextPage).toBe(true);
  });

  it('reads one alert with its payload, and 404s a missing one', async () => {
    stubGraphql({ data: { project: { alertManagementAlerts: { nodes: [{ ...alertNode, description: 'x', hosts: null, details: { 'custom.key': '<b>v</b>' } }] } } } }, { data: { project: { alertManagementAlerts: { nodes: [] } } } });
    const alert = await fetchAlert(connection, 'group/app', 12);
    expect(alert.hosts).toEqual([]);
    expect(alert.details).toEqual({ 'custom.key': '<b>v</b>' });
    await expect(fetchAlert(connection, 'group/app', 13)).rejects.toMatchObject({ status: 404 });
  });

  it('finds open alerts by exact title only, once per title', async () => {
    const calls = stubGraphql({ data: { project: { alertManagementAlerts: { nodes: [{ ...alertNode, iid: '3', title: 'High CPU usage' }, { ...alertNode, iid: '4', title: 'High CPU' }] } } } });
    const found = await fetchOpenAlertsByTitle(connection, 'group/app', ['High CPU', 'High CPU']);
    expect(found.map((alert) => alert.iid)).toEqual(['4']);
    expect(calls).toHaveLength(1);
    expect(calls[0].body.query).toContain('statuses: [TRIGGERED, ACKNOWLEDGED]');
  });

  it('sends the alert writes with the platform\'s inputs', async () => {
    const calls = stubGraphql(
      { data: { updateAlertStatus: { errors: [], alert: { ...alertNode, status: 'RESOLVED' }, issue: null } } },
      { data: { alertSetAssignees: { errors: [], alert: alertNode, issue: null } } },
      { data: { createAlertIssue: { errors: [], alert: null, issue: { iid: '41', webUrl: 'https://alerts.example.com/group/app/-/issues/41' } } } },
    );
    expect((await updateAlertStatus(connection, { projectPath: 'group/app', iid: '12', status: 'RESOLVED' }))?.status).toBe('RESOLVED');
    expect(calls[0].body.variables).toEqual({ input: { projectPath: 'group/app', iid: '12', status: 'RESOLVED' } });
    await setAlertAssignees(connection, { projectPath: 'group/app', iid: '12', assigneeUsernames: ['root'] });
    expect(calls[1].body.variables).toEqual({ input: { projectPath: 'group/app', iid: '12', assigneeUsernames: ['root'], operationMode: 'REPLACE' } });
    expect(await createAlertIssue(connection, { projectPath: 'group/app', iid: '12' })).toMatchObject({ iid: '41' });
  });

  it('keeps extra payload keys and reads null lists as empty', () => {
    const alert = z.parse(alertDetailSchema, { ...alertNode, assignees: null, hosts: null, details: { extra: [1] } });
    expect(alert.assignees).toEqual([]);
    expect(alert.details).toEqual({ extra: [1] });
  });
});

describe('test alerts through the relay', () => {
  it('builds Bearer and Basic (empty user, the key as password) headers', () => {
    expect(alertAuthorization('bearer', 'k3y')).toBe('Bearer k3y');
    expect(alertAuthorization('basic', 'k3y')).toBe(`Basic ${Buffer.from(':k3y').toString('base64')}`);
  });

  it("posts the payload as typed to the console server's relay with the key in Authorization only, and reads the instance's answer", async () => {
    const seen: Array<{ url: string; authorization: string | null; body: string }> = [];
    const app = createServerApp({
      sandboxFetch: async (request) => {
        seen.push({ url: request.url, authorization: request.headers.get('authorization'), body: await request.text() });
        return Response.json([{ iid: 5, title: 'Disk full' }]);
      },
    });
    const relayed: string[] = [];
    vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
      relayed.push(url);
      return app.request(`http://console.test${url}`, init);
    });
    const payload = '{ "title": "Disk full" }';
    const answer = await sendTestAlert({ url: httpIntegration.url, key: 'f4c9a2b1', auth: 'bearer', payload });
    expect(answer.status).toBe(200);
    expect(answeredAlerts(answer)).toEqual([{ iid: 5, title: 'Disk full' }]);
    expect(relayed).toEqual(['/-/alerts-relay']);
    expect(seen[0]).toEqual({ url: 'http://console.test/group/app/alerts/notify/datadog/eddd36969b2d3d6a.json', authorization: 'Bearer f4c9a2b1', body: payload });
  });

  it('rejects with the relay\'s own refusal, and says so when there is no relay', async () => {
    vi.stubGlobal('fetch', async () => Response.json({ message: 'The payload is larger than the relay\'s limit of 10 bytes.' }, { status: 413 }));
    await expect(sendTestAlert({ url: httpIntegration.url, key: 'k', auth: 'basic', payload: '{}' })).rejects.toMatchObject({ status: 413, message: expect.stringContaining('limit') });
    vi.stubGlobal('fetch', async () => new Response('<html></html>', { status: 405 }));
    await expect(sendTestAlert({ url: httpIntegration.url, key: 'k', auth: 'basic', payload: '{}' })).rejects.toMatchObject({ message: expect.stringContaining('without its alert relay') });
  });
});
