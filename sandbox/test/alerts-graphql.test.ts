import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '../model/access.ts';
import { createHarness, type Harness } from './harness.ts';
import { apiProject, userWithProjectRole, type ApiUser } from './core-fixtures.ts';
import { INTEGRATION_FIELDS, alertOf, createHttpIntegration, gql, projectWithIntegrations, sendAlert, type Integration } from './alerts-fixtures.ts';
import type { ApiProject } from './core-fixtures.ts';

const NOT_FOUND = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

let h: Harness;
let project: ApiProject;
let http: Integration;
let prometheus: Integration;
let maintainer: ApiUser;
let developer: ApiUser;
let reporter: ApiUser;

beforeAll(async () => {
  h = createHarness();
  ({ project, http, prometheus } = await projectWithIntegrations(h));
  maintainer = await userWithProjectRole(h, project.id, AccessLevel.MAINTAINER);
  developer = await userWithProjectRole(h, project.id, AccessLevel.DEVELOPER);
  reporter = await userWithProjectRole(h, project.id, AccessLevel.REPORTER);
});

afterAll(() => h.close());

const INTEGRATIONS = `query($p: ID!) { project(fullPath: $p) {
  alertManagementIntegrations { nodes { __typename ${INTEGRATION_FIELDS} } }
  alertManagementHttpIntegrations { nodes { id name payloadExample payloadAttributeMappings { fieldName path type label } payloadAlertFields { path label type } } }
} }`;

const mutate = (name: string, inputType: string, fields: string) => `mutation($input: ${inputType}!) { ${name}(input: $input) { ${fields} errors } }`;

describe('integrations', () => {
  it('lists both kinds with their keys to Maintainers, and nothing to Developers', async () => {
    const asMaintainer = await gql(h, INTEGRATIONS, { p: project.path_with_namespace }, maintainer.token);
    const nodes = asMaintainer.body.data.project.alertManagementIntegrations.nodes;
    expect(nodes).toEqual([
      { __typename: 'AlertManagementHttpIntegration', ...http, id: expect.stringMatching(/^gid:\/\/gitlab\/AlertManagement::HttpIntegration\/\d+$/) },
      { __typename: 'AlertManagementPrometheusIntegration', ...prometheus, id: expect.stringMatching(/^gid:\/\/gitlab\/Integrations::Prometheus\/\d+$/), type: 'PROMETHEUS', name: 'Prometheus' },
    ]);
    expect(http.token).toMatch(/^[0-9a-f]{32}$/);
    const asDeveloper = await gql(h, INTEGRATIONS, { p: project.path_with_namespace }, developer.token);
    expect(asDeveloper.body.data.project.alertManagementIntegrations.nodes).toEqual([]);
    expect(asDeveloper.body.data.project.alertManagementHttpIntegrations.nodes).toEqual([]);
    expect((await gql(h, INTEGRATIONS, { p: project.path_with_namespace }, reporter.token)).body.data.project.alertManagementIntegrations.nodes).toEqual([]);
    const one = await gql(h, 'query($p: ID!, $id: ID) { project(fullPath: $p) { alertManagementIntegrations(id: $id) { nodes { name } } } }', { p: project.path_with_namespace, id: prometheus.id });
    expect(one.body.data.project.alertManagementIntegrations.nodes).toEqual([{ name: 'Prometheus' }]);
  });

  it('creates with a sample payload and custom mapping, and extracts payload fields', async () => {
    const example = JSON.stringify({ alert: { name: 'x', at: '2026-11-26T07:00:00Z' }, count: 3, hosts: ['a'] });
    const created = await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id name active url }'), {
      input: { projectPath: project.path_with_namespace, name: 'Grafana OnCall', active: true, payloadExample: example, payloadAttributeMappings: [{ fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' }] },
    }, maintainer.token);
    const integration = created.body.data.httpIntegrationCreate.integration;
    expect(created.body.data.httpIntegrationCreate.errors).toEqual([]);
    expect(integration.url).toMatch(/\/alerts\/notify\/grafana-oncall\/[0-9a-f]{16}\.json$/);
    const listed = await gql(h, INTEGRATIONS, { p: project.path_with_namespace });
    const row = listed.body.data.project.alertManagementHttpIntegrations.nodes.find((node: { id: string }) => node.id === integration.id);
    expect(row).toMatchObject({
      payloadExample: example,
      payloadAttributeMappings: [{ fieldName: 'TITLE', path: ['alert', 'name'], type: 'STRING', label: 'Name' }],
      payloadAlertFields: [{ path: ['alert', 'name'], label: 'Name', type: 'STRING' }, { path: ['alert', 'at'], label: 'At', type: 'DATETIME' }, { path: ['hosts'], label: 'Hosts', type: 'ARRAY' }],
    });
    const fields = await gql(h, 'query($p: ID!, $e: String!) { project(fullPath: $p) { alertManagementPayloadFields(payloadExample: $e) { path label type } } }', { p: project.path_with_namespace, e: '{"title": "x", "started_at": "2026-11-26T07:00:00Z"}' }, maintainer.token);
    expect(fields.body.data.project.alertManagementPayloadFields).toEqual([{ path: ['title'], label: 'Title', type: 'STRING' }, { path: ['started_at'], label: 'Started at', type: 'DATETIME' }]);
    const broken = await gql(h, 'query($p: ID!, $e: String!) { project(fullPath: $p) { alertManagementPayloadFields(payloadExample: $e) { path } } }', { p: project.path_with_namespace, e: '{"title": ' }, maintainer.token);
    expect(broken.body.errors[0].message).toBe('Failed to parse payload');
    const refused = await gql(h, 'query($p: ID!, $e: String!) { project(fullPath: $p) { alertManagementPayloadFields(payloadExample: $e) { path } } }', { p: project.path_with_namespace, e: '{}' }, developer.token);
    expect(refused.body.errors[0].message).toBe('Insufficient permissions');
  });

  it('refuses Developers, read_api tokens and bad input, keeping the errors field for validation', async () => {
    const input = { projectPath: project.path_with_namespace, name: 'Nope', active: true };
    const asDeveloper = await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id }'), { input }, developer.token);
    expect(asDeveloper.body.errors[0].message).toBe(NOT_FOUND);
    expect(asDeveloper.body.data.httpIntegrationCreate).toBeNull();
    const readOnly = h.user({ scopes: ['read_api'], isAdmin: true });
    expect((await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id }'), { input }, readOnly.token)).body.errors[0].message).toMatch(/scope/);
    const blank = await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id }'), { input: { ...input, name: '  ' } });
    expect(blank.body.data.httpIntegrationCreate).toEqual({ integration: null, errors: ["Name can't be blank"] });
    const badJson = await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id }'), { input: { ...input, payloadExample: '{"a":' } });
    expect(badJson.body.errors[0].message).toMatch(/Invalid JSON string/);
    const badEnum = await gql(h, mutate('httpIntegrationCreate', 'HttpIntegrationCreateInput', 'integration { id }'), { input: { ...input, payloadAttributeMappings: [{ fieldName: 'COLOUR', path: ['a'], type: 'STRING' }] } });
    expect(badEnum.body.errors[0].message).toMatch(/COLOUR/);
    const badId = await gql(h, mutate('httpIntegrationUpdate', 'HttpIntegrationUpdateInput', 'integration { id }'), { input: { id: 'gid://gitlab/Project/1', active: false } });
    expect(badId.body.errors[0].message).toMatch(/does not represent an instance of AlertManagement::HttpIntegration/);
    const unknown = await gql(h, mutate('httpIntegrationUpdate', 'HttpIntegrationUpdateInput', 'integration { id }'), { input: { id: 'gid://gitlab/AlertManagement::HttpIntegration/99999', active: false } });
    expect(unknown.body.errors[0].message).toBe(NOT_FOUND);
  });

  it('updates, resets the key (the old one is refused), and destroys', async () => {
    const own = await createHttpIntegration(h, project.path_with_namespace, { name: 'Short lived' });
    const renamed = await gql(h, mutate('httpIntegrationUpdate', 'HttpIntegrationUpdateInput', 'integration { name active url }'), { input: { id: own.id, name: 'Renamed', active: false } }, maintainer.token);
    expect(renamed.body.data.httpIntegrationUpdate.integration).toMatchObject({ name: 'Renamed', active: false, url: expect.stringContaining('/alerts/notify/renamed/') });
    expect((await sendAlert(h, own.url, { title: 'x' }, { bearer: own.token })).status).toBe(403);
    await gql(h, mutate('httpIntegrationUpdate', 'HttpIntegrationUpdateInput', 'integration { active }'), { input: { id: own.id, active: true } });
    const reset = await gql(h, mutate('httpIntegrationResetToken', 'HttpIntegrationResetTokenInput', 'integration { token }'), { input: { id: own.id } }, maintainer.token);
    const token = reset.body.data.httpIntegrationResetToken.integration.token;
    expect(token).not.toBe(own.token);
    expect((await sendAlert(h, own.url, { title: 'x' }, { bearer: own.token })).status).toBe(401);
    expect((await sendAlert(h, own.url, { title: 'After reset' }, { bearer: token })).status).toBe(200);
    const destroyed = await gql(h, mutate('httpIntegrationDestroy', 'HttpIntegrationDestroyInput', 'integration { name }'), { input: { id: own.id } }, maintainer.token);
    expect(destroyed.body.data.httpIntegrationDestroy).toEqual({ integration: { name: 'Renamed' }, errors: [] });
    expect((await sendAlert(h, own.url, { title: 'x' }, { bearer: token })).status).toBe(403);
  });

  it('has one metrics integration per project, updated and reset by its own mutations', async () => {
    const again = await gql(h, mutate('prometheusIntegrationCreate', 'PrometheusIntegrationCreateInput', 'integration { id }'), { input: { projectPath: project.path_with_namespace, active: true, apiUrl: 'http://p:9090' } });
    expect(again.body.data.prometheusIntegrationCreate).toEqual({ integration: null, errors: ['Multiple Prometheus integrations are not supported'] });
    const updated = await gql(h, mutate('prometheusIntegrationUpdate', 'PrometheusIntegrationUpdateInput', 'integration { apiUrl active }'), { input: { id: prometheus.id, apiUrl: 'http://other:9090' } }, maintainer.token);
    expect(updated.body.data.prometheusIntegrationUpdate.integration).toEqual({ apiUrl: 'http://other:9090', active: true });
    const reset = await gql(h, mutate('prometheusIntegrationResetToken', 'PrometheusIntegrationResetTokenInput', 'integration { token }'), { input: { id: prometheus.id } });
    const token = reset.body.data.prometheusIntegrationResetToken.integration.token;
    expect(token).not.toBe(prometheus.token);
    prometheus = { ...prometheus, token };
    expect((await gql(h, mutate('prometheusIntegrationResetToken', 'PrometheusIntegrationResetTokenInput', 'integration { token }'), { input: { id: prometheus.id } }, developer.token)).body.errors[0].message).toBe(NOT_FOUND);
  });
});

describe('alerts', () => {
  let alertsProject: ApiProject;
  let alertsDeveloper: ApiUser;
  let alertsReporter: ApiUser;
  beforeAll(async () => {
    const setup = await projectWithIntegrations(h);
    alertsProject = setup.project;
    alertsDeveloper = await userWithProjectRole(h, alertsProject.id, AccessLevel.DEVELOPER);
    alertsReporter = await userWithProjectRole(h, alertsProject.id, AccessLevel.REPORTER);
    const send = (payload: object) => sendAlert(h, setup.http.url, payload, { bearer: setup.http.token });
    await send({ title: 'Database down', service: 'postgres', severity: 'critical', start_time: '2026-11-26T01:00:00Z', fingerprint: 'db' });
    await send({ title: 'Database down', fingerprint: 'db' });
    await send({ title: 'Slow checkout', service: 'checkout', severity: 'medium', start_time: '2026-11-26T02:00:00Z', fingerprint: 'checkout' });
    await send({ title: 'Disk warning', monitoring_tool: 'Nagios', severity: 'low', start_time: '2026-11-26T03:00:00Z', fingerprint: 'disk' });
    await send({ title: 'Cert expiry', description: 'The database certificate expires', severity: 'info', start_time: '2026-11-26T04:00:00Z', fingerprint: 'cert' });
  });
  const list = (args: string, token?: string) =>
    gql(h, `query($p: ID!) { project(fullPath: $p) { alertManagementAlerts${args ? `(${args})` : ''} { nodes { iid title severity status eventCount } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`, { p: alertsProject.path_with_namespace }, token);

  it('lists with sort, search, statuses and pages, and counts by status', async () => {
    expect((await list('sort: STARTED_AT_ASC')).body.data.project.alertManagementAlerts.nodes.map((node: { title: string }) => node.title)).toEqual(['Database down', 'Slow checkout', 'Disk warning', 'Cert expiry']);
    expect((await list('sort: SEVERITY_DESC')).body.data.project.alertManagementAlerts.nodes.map((node: { severity: string }) => node.severity)).toEqual(['CRITICAL', 'MEDIUM', 'LOW', 'INFO']);
    expect((await list('sort: EVENT_COUNT_DESC, first: 1')).body.data.project.alertManagementAlerts.nodes).toEqual([{ iid: '1', title: 'Database down', severity: 'CRITICAL', status: 'TRIGGERED', eventCount: 2 }]);
    // search reaches title, description, service and monitoring tool
    expect((await list('search: "database"')).body.data.project.alertManagementAlerts.nodes.map((node: { iid: string }) => node.iid).sort()).toEqual(['1', '4']);
    expect((await list('search: "nagios"')).body.data.project.alertManagementAlerts.nodes.map((node: { iid: string }) => node.iid)).toEqual(['3']);
    const first = (await list('sort: STARTED_AT_ASC, first: 2')).body.data.project.alertManagementAlerts;
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await list(`sort: STARTED_AT_ASC, first: 2, after: "${first.pageInfo.endCursor}"`)).body.data.project.alertManagementAlerts;
    expect(second.nodes.map((node: { title: string }) => node.title)).toEqual(['Disk warning', 'Cert expiry']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect((await list('after: "nonsense"')).body.errors[0].message).toBe('Invalid cursor');
    expect((await list('domain: threat_monitoring')).body.data.project.alertManagementAlerts.nodes).toEqual([]);
    expect((await list('domain: operations')).body.data.project.alertManagementAlerts.nodes).toHaveLength(4);
    await gql(h, mutate('updateAlertStatus', 'UpdateAlertStatusInput', 'alert { status }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '2', status: 'ACKNOWLEDGED' } });
    await gql(h, mutate('updateAlertStatus', 'UpdateAlertStatusInput', 'alert { status }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '3', status: 'IGNORED' } });
    expect((await list('statuses: [ACKNOWLEDGED, IGNORED], sort: STATUS_DESC')).body.data.project.alertManagementAlerts.nodes.map((node: { status: string }) => node.status)).toEqual(['ACKNOWLEDGED', 'IGNORED']);
    const counts = await gql(h, 'query($p: ID!) { project(fullPath: $p) { all: alertManagementAlertStatusCounts { triggered acknowledged resolved ignored open all } db: alertManagementAlertStatusCounts(search: "database") { all open } } }', { p: alertsProject.path_with_namespace });
    expect(counts.body.data.project).toEqual({ all: { triggered: 2, acknowledged: 1, resolved: 0, ignored: 1, open: 3, all: 4 }, db: { all: 2, open: 2 } });
    // Reporters do not see alerts (Developer+, as the platform's alert list)
    expect((await list('', alertsReporter.token)).body.data.project.alertManagementAlerts.nodes).toEqual([]);
    expect((await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlertStatusCounts { all } } }', { p: alertsProject.path_with_namespace }, alertsReporter.token)).body.data.project.alertManagementAlertStatusCounts).toBeNull();
  });

  it('sets the status with a system note, ends a resolved alert and clears the end when reopened', async () => {
    const devOnAlerts = await userWithProjectRole(h, alertsProject.id, AccessLevel.DEVELOPER);
    const set = (status: string, token?: string) => gql(h, mutate('updateAlertStatus', 'UpdateAlertStatusInput', 'alert { status endedAt }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '4', status } }, token);
    const resolved = await set('RESOLVED', devOnAlerts.token);
    expect(resolved.body.data.updateAlertStatus).toMatchObject({ alert: { status: 'RESOLVED', endedAt: expect.any(String) }, errors: [] });
    expect((await set('TRIGGERED')).body.data.updateAlertStatus.alert).toEqual({ status: 'TRIGGERED', endedAt: null });
    const alert = await alertOf(h, alertsProject.path_with_namespace, 4);
    expect(alert.notes.nodes.map((note: { body: string }) => note.body)).toEqual(['logged an alert from **Datadog**', 'changed the status to **Resolved**', 'changed the status to **Triggered**']);
    expect(alert.notes.nodes[1].author.username).toBe(devOnAlerts.username);
    const reporterOnAlerts = await userWithProjectRole(h, alertsProject.id, AccessLevel.REPORTER);
    expect((await set('ACKNOWLEDGED', reporterOnAlerts.token)).body.errors[0].message).toBe(NOT_FOUND);
    const missing = await gql(h, mutate('updateAlertStatus', 'UpdateAlertStatusInput', 'alert { status }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '999', status: 'RESOLVED' } });
    expect(missing.body.errors[0].message).toBe(NOT_FOUND);
  });

  it('refuses to reopen a resolved alert while another alert with its fingerprint is open', async () => {
    const setup = await projectWithIntegrations(h);
    const send = (payload: object) => sendAlert(h, setup.http.url, payload, { bearer: setup.http.token });
    await send({ title: 'Flapping', fingerprint: 'flap' });
    await send({ fingerprint: 'flap', end_time: '2026-11-26T05:00:00Z' });
    await send({ title: 'Flapping', fingerprint: 'flap' });
    const reopen = await gql(h, mutate('updateAlertStatus', 'UpdateAlertStatusInput', 'alert { status }'), { input: { projectPath: setup.project.path_with_namespace, iid: '1', status: 'TRIGGERED' } });
    expect(reopen.body.data.updateAlertStatus).toEqual({ alert: { status: 'RESOLVED' }, errors: ['Fingerprint Cannot have more than one alert with the same fingerprint'] });
  });

  it('sets assignees by replacing, appending and removing, only people who can read alerts', async () => {
    const [ana, ben] = [await userWithProjectRole(h, alertsProject.id, AccessLevel.DEVELOPER), await userWithProjectRole(h, alertsProject.id, AccessLevel.MAINTAINER)];
    const outsider = await userWithProjectRole(h, alertsProject.id, AccessLevel.REPORTER);
    const assign = (usernames: string[], operationMode?: string, token?: string) =>
      gql(h, mutate('alertSetAssignees', 'AlertSetAssigneesInput', 'alert { assignees { nodes { username } } }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '1', assigneeUsernames: usernames, operationMode } }, token);
    const names = (answer: Awaited<ReturnType<typeof assign>>) => answer.body.data.alertSetAssignees.alert.assignees.nodes.map((node: { username: string }) => node.username);
    expect(names(await assign([ana.username], undefined, alertsDeveloper.token))).toEqual([ana.username]);
    expect(names(await assign([ben.username], 'APPEND'))).toEqual([ana.username, ben.username]);
    expect(names(await assign([ana.username], 'REMOVE'))).toEqual([ben.username]);
    expect((await assign([outsider.username], 'APPEND')).body.data.alertSetAssignees.errors).toEqual(['Assignee has no permissions']);
    const filtered = await gql(h, 'query($p: ID!, $u: String) { project(fullPath: $p) { alertManagementAlerts(assigneeUsername: $u) { nodes { iid } } } }', { p: alertsProject.path_with_namespace, u: ben.username });
    expect(filtered.body.data.project.alertManagementAlerts.nodes).toEqual([{ iid: '1' }]);
    expect(names(await assign([]))).toEqual([]);
  });

  it('creates an incident issue from an alert, linked both ways, once', async () => {
    const create = (token?: string) => gql(h, mutate('createAlertIssue', 'CreateAlertIssueInput', 'alert { iid issue { iid title webUrl } issueIid } issue { iid title state }'), { input: { projectPath: alertsProject.path_with_namespace, iid: '2' } }, token);
    const created = await create(alertsDeveloper.token);
    const { alert, issue, errors } = created.body.data.createAlertIssue;
    expect(errors).toEqual([]);
    expect(issue).toMatchObject({ title: 'Slow checkout', state: 'opened' });
    expect(alert.issue).toMatchObject({ iid: issue.iid, title: 'Slow checkout', webUrl: expect.stringContaining(`/${alertsProject.path_with_namespace}/-/issues/${issue.iid}`) });
    expect(alert.issueIid).toBe(issue.iid);
    const rest = await h.get(`/projects/${alertsProject.id}/issues/${issue.iid}`);
    expect(rest.body).toMatchObject({ title: 'Slow checkout', issue_type: 'incident' });
    expect(rest.body.description).toMatch(/\*\*Severity:\*\* medium/);
    expect(rest.body.description).toContain(`/-/alert_management/2/details`);
    expect((await create()).body.data.createAlertIssue.errors).toEqual(['An issue already exists']);
    expect((await alertOf(h, alertsProject.path_with_namespace, 2)).notes.nodes.at(-1).body).toBe(`created incident #${issue.iid} for this alert`);
  });

  it('hides the alerts of a project the caller cannot read', async () => {
    const hidden = await apiProject(h, h.adminToken);
    const stranger = h.user();
    const answer = await gql(h, 'query($p: ID!) { project(fullPath: $p) { alertManagementAlerts { nodes { iid } } } }', { p: hidden.path_with_namespace }, stranger.token);
    expect(answer.body.data.project).toBeNull();
    const mutation = await gql(h, mutate('createAlertIssue', 'CreateAlertIssueInput', 'issue { iid }'), { input: { projectPath: hidden.path_with_namespace, iid: '1' } }, stranger.token);
    expect(mutation.body.errors[0].message).toBe(NOT_FOUND);
  });
});
