import type { Answer, Harness } from './harness.ts';
import { apiProject, type ApiProject } from './core-fixtures.ts';
import { METRICS_ENVELOPE_EXAMPLE } from '../../src/lib/alert-mapping.ts';

/** POST /api/graphql as `token` (the administrator's by default). */
export async function gql<T = any>(h: Harness, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<Answer<{ data: T; errors: Array<{ message: string }> }>> {
  return h.post('http://localhost/api/graphql', { query, variables }, token === undefined ? {} : { token });
}

export const INTEGRATION_FIELDS = 'id type name active token url apiUrl';

export interface Integration {
  id: string;
  type: 'HTTP' | 'PROMETHEUS';
  name: string;
  active: boolean;
  token: string;
  url: string;
  apiUrl: string | null;
}

export async function createHttpIntegration(h: Harness, projectPath: string, input: Record<string, unknown> = {}): Promise<Integration> {
  const answer = await gql(h, `mutation($input: HttpIntegrationCreateInput!) { httpIntegrationCreate(input: $input) { integration { ${INTEGRATION_FIELDS} } errors } }`, {
    input: { projectPath, name: 'Datadog', active: true, ...input },
  });
  if (answer.body.errors || answer.body.data.httpIntegrationCreate.errors.length) throw new Error(`httpIntegrationCreate: ${answer.text}`);
  return answer.body.data.httpIntegrationCreate.integration;
}

export async function createPrometheusIntegration(h: Harness, projectPath: string, active = true): Promise<Integration> {
  const answer = await gql(h, `mutation($input: PrometheusIntegrationCreateInput!) { prometheusIntegrationCreate(input: $input) { integration { ${INTEGRATION_FIELDS} } errors } }`, {
    input: { projectPath, active, apiUrl: 'http://prometheus.example:9090' },
  });
  if (answer.body.errors || answer.body.data.prometheusIntegrationCreate.errors.length) throw new Error(`prometheusIntegrationCreate: ${answer.text}`);
  return answer.body.data.prometheusIntegrationCreate.integration;
}

/** POSTs a payload to an alert endpoint: a Bearer key by default, or Basic with an empty user, or raw headers. */
export async function sendAlert(h: Harness, url: string, payload: unknown, auth: { bearer?: string; basic?: string; headers?: Record<string, string>; raw?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...auth.headers };
  if (auth.bearer !== undefined) headers.Authorization = `Bearer ${auth.bearer}`;
  if (auth.basic !== undefined) headers.Authorization = `Basic ${Buffer.from(`:${auth.basic}`).toString('base64')}`;
  const path = new URL(url).pathname;
  const response = await h.app.request(`http://localhost${path}`, { method: 'POST', headers, body: auth.raw ?? JSON.stringify(payload) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // stays text
  }
  return { status: response.status, headers: response.headers, body, text };
}

export const ALERT_FIELDS = 'iid title description severity status service monitoringTool hosts startedAt endedAt eventCount details environment { name } runbook issue { iid title webUrl } assignees { nodes { username } } notes { nodes { body author { username } } }';

export async function alertOf(h: Harness, projectPath: string, iid: number, token?: string) {
  const answer = await gql(h, `query($path: ID!, $iid: String) { project(fullPath: $path) { alertManagementAlert(iid: $iid) { ${ALERT_FIELDS} } } }`, { path: projectPath, iid: String(iid) }, token);
  return answer.body.data.project?.alertManagementAlert ?? null;
}

/** A project of the administrator's with an HTTP endpoint and the metrics integration. */
export async function projectWithIntegrations(h: Harness): Promise<{ project: ApiProject; http: Integration; prometheus: Integration }> {
  const project = await apiProject(h, h.adminToken);
  const http = await createHttpIntegration(h, project.path_with_namespace);
  const prometheus = await createPrometheusIntegration(h, project.path_with_namespace);
  return { project, http, prometheus };
}

export const METRICS_ENVELOPE = METRICS_ENVELOPE_EXAMPLE;

export function metricsItem(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: 'firing',
    labels: { alertname: 'HighLatency', severity: 'critical' },
    annotations: { summary: 'p99 latency above 2s' },
    startsAt: '2026-11-26T10:00:00Z',
    generatorURL: 'http://prometheus:9090/graph?g0.expr=latency_p99+%3E+2',
    ...overrides,
  };
}
