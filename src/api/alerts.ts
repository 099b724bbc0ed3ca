import { queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { ApiError, describeErrorBody } from './errors.ts';
import { graphqlRequest } from './graphql.ts';
import type { Connection } from './http.ts';
import { loose } from './schema.ts';
import { ALERTS_QUERY, ALERT_FIELDS, alertListVariables, type AlertListParams } from './graphql-reads.ts';
import type { AlertStatus } from './vocabulary.ts';

/**
 * Alerts and alert integrations of a project, through the platform's GraphQL API (spec 3, 4.9;
 * names as the platform's schema: AlertManagementHttpIntegration, alertManagementAlerts,
 * httpIntegrationCreate ...). Test alerts go to the instance's alert endpoint through the
 * console server's relay (`sendTestAlert`), never from here to the endpoint: it answers no CORS.
 */

// -- vocabulary (a tab's statuses and the list's params: api/graphql-reads.ts, which the boot script sends)

export { ALERTS_PER_PAGE, tabStatuses, type AlertListParams } from './graphql-reads.ts';

export { ALERT_STATUSES, type AlertStatus } from './vocabulary.ts';
export const ALERT_STATUS_LABELS: Readonly<Record<AlertStatus, string>> = { TRIGGERED: 'Triggered', ACKNOWLEDGED: 'Acknowledged', RESOLVED: 'Resolved', IGNORED: 'Ignored' };

export const ALERT_SEVERITY_VALUES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO', 'UNKNOWN'] as const;
export type AlertSeverityValue = (typeof ALERT_SEVERITY_VALUES)[number];

/** AlertManagementPayloadAlertFieldName: the alert fields a custom mapping may fill. */
export const PAYLOAD_FIELD_NAMES = ['TITLE', 'DESCRIPTION', 'START_TIME', 'END_TIME', 'SERVICE', 'MONITORING_TOOL', 'HOSTS', 'SEVERITY', 'FINGERPRINT', 'GITLAB_ENVIRONMENT_NAME'] as const;
export type PayloadFieldName = (typeof PAYLOAD_FIELD_NAMES)[number];
export const PAYLOAD_FIELD_TYPES = ['STRING', 'NUMBER', 'DATETIME', 'ARRAY'] as const;
export type PayloadFieldType = (typeof PAYLOAD_FIELD_TYPES)[number];

// -- schemas

const nodes = <T extends z.ZodMiniType>(item: T) => z.pipe(z.nullish(loose({ nodes: z.nullish(z.array(z.nullable(item))) })), z.transform((value) => (value?.nodes ?? []).filter((node): node is NonNullable<typeof node> => node !== null)));

/** A path segment of a payload field: a key, or an index into a list. */
const pathSchema = z.array(z.union([z.string(), z.number()]));

/** AlertManagementPayloadAlertMappingField: which payload path fills which alert field. */
export const payloadMappingSchema = loose({
  fieldName: z.string(),
  path: pathSchema,
  type: z.nullish(z.string()),
  label: z.nullish(z.string()),
});
export type PayloadMapping = z.infer<typeof payloadMappingSchema>;

/** AlertManagementPayloadAlertField: a field found in a sample payload. */
export const payloadFieldSchema = loose({
  path: pathSchema,
  label: z.nullish(z.string()),
  type: z.nullish(z.string()),
});
export type PayloadField = z.infer<typeof payloadFieldSchema>;

/** AlertManagementIntegration (HTTP or PROMETHEUS); `token` only for Maintainers and above. */
export const integrationSchema = loose({
  id: z.string(),
  type: z.string(),
  name: z.nullish(z.string()),
  active: z.pipe(z.nullish(z.boolean()), z.transform((value) => value ?? false)),
  token: z.nullish(z.string()),
  url: z.nullish(z.string()),
  apiUrl: z.nullish(z.string()),
  payloadExample: z.nullish(z.string()),
  payloadAttributeMappings: z.pipe(z.nullish(z.array(payloadMappingSchema)), z.transform((value) => value ?? [])),
});
export type Integration = z.infer<typeof integrationSchema>;

const userSchema = loose({ id: z.string(), username: z.string(), name: z.nullish(z.string()), avatarUrl: z.nullish(z.string()), webUrl: z.nullish(z.string()) });
export type AlertUser = z.infer<typeof userSchema>;

/** AlertManagementAlert, as the list shows it. */
export const alertSchema = loose({
  iid: z.string(),
  title: z.nullish(z.string()),
  severity: z.nullish(z.string()),
  status: z.nullish(z.string()),
  startedAt: z.nullish(z.string()),
  endedAt: z.nullish(z.string()),
  eventCount: z.pipe(z.nullish(z.number()), z.transform((value) => value ?? 0)),
  createdAt: z.nullish(z.string()),
  updatedAt: z.nullish(z.string()),
  assignees: nodes(userSchema),
  issue: z.nullish(loose({ iid: z.string(), webUrl: z.nullish(z.string()), title: z.nullish(z.string()), state: z.nullish(z.string()) })),
});
export type Alert = z.infer<typeof alertSchema>;

/** One alert with what its page shows: the payload (`details`, the extra keys) kept as it came. */
export const alertDetailSchema = z.extend(alertSchema, {
  description: z.nullish(z.string()),
  service: z.nullish(z.string()),
  monitoringTool: z.nullish(z.string()),
  hosts: z.pipe(z.nullish(z.array(z.string())), z.transform((value) => value ?? [])),
  runbook: z.nullish(z.string()),
  /** The payload's other keys, nested ones flattened to dotted names (the platform's InlineHash). */
  details: z.nullish(z.unknown()),
});
export type AlertDetail = z.infer<typeof alertDetailSchema>;

const countSchema = z.pipe(z.nullish(z.number()), z.transform((value) => value ?? 0));
/** AlertManagementAlertStatusCountsType. */
export const statusCountsSchema = loose({ all: countSchema, open: countSchema, triggered: countSchema, acknowledged: countSchema, resolved: countSchema, ignored: countSchema });
export type StatusCounts = z.infer<typeof statusCountsSchema>;

const pageInfoSchema = loose({ hasNextPage: z.boolean(), hasPreviousPage: z.boolean(), startCursor: z.nullish(z.string()), endCursor: z.nullish(z.string()) });
export type PageInfo = z.infer<typeof pageInfoSchema>;

// -- documents

const INTEGRATION_FIELDS = 'id type name active token url apiUrl';
const HTTP_INTEGRATION_FIELDS = `${INTEGRATION_FIELDS} payloadExample payloadAttributeMappings { fieldName path type label }`;
const ALERT_DETAIL_FIELDS = `${ALERT_FIELDS} description service monitoringTool hosts runbook details`;

const INTEGRATIONS_QUERY = `query alertIntegrations($fullPath: ID!) {
  project(fullPath: $fullPath) {
    alertManagementIntegrations { nodes { ${INTEGRATION_FIELDS} } }
    alertManagementHttpIntegrations { nodes { ${HTTP_INTEGRATION_FIELDS} } }
  }
}`;

const PAYLOAD_FIELDS_QUERY = `query alertPayloadFields($fullPath: ID!, $payloadExample: String!) {
  project(fullPath: $fullPath) { alertManagementPayloadFields(payloadExample: $payloadExample) { path label type } }
}`;

const ALERT_QUERY = `query alert($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) { alertManagementAlerts(iid: $iid) { nodes { ${ALERT_DETAIL_FIELDS} } } }
}`;

const OPEN_BY_TITLE_QUERY = `query openAlerts($fullPath: ID!, $search: String) {
  project(fullPath: $fullPath) {
    alertManagementAlerts(statuses: [TRIGGERED, ACKNOWLEDGED], search: $search, first: 100) { nodes { ${ALERT_DETAIL_FIELDS} } }
  }
}`;

const projectData = <T extends z.ZodMiniType>(project: T) => loose({ project: z.nullable(project) });

function projectOf<T>(data: { project: T | null }): T {
  if (!data.project) throw new ApiError(404, 'Project not found, or you may not read its alerts.', 'http');
  return data.project;
}

/** A mutation's `errors: [String!]!` are a refusal: an ApiError 422 with their text, as a REST 4xx would be. */
function checkedPayload<T extends { errors: string[] }>(payload: T | null | undefined, what: string): T {
  if (!payload) throw new ApiError(404, `${what}: not found, or you may not change it.`, 'http');
  if (payload.errors.length > 0) throw new ApiError(422, payload.errors.join('; '), 'http');
  return payload;
}

const mutationPayload = <T extends Record<string, z.ZodMiniType>>(name: string, fields: T) =>
  loose({ [name]: z.nullish(loose({ errors: z.pipe(z.nullish(z.array(z.string())), z.transform((value) => value ?? [])), ...fields })) });

// -- reads

/** The project's integrations, the HTTP ones with payloadExample and mappings merged in. */
export async function fetchIntegrations(connection: Connection, fullPath: string, signal?: AbortSignal): Promise<Integration[]> {
  const schema = projectData(loose({ alertManagementIntegrations: nodes(integrationSchema), alertManagementHttpIntegrations: nodes(integrationSchema) }));
  const project = projectOf(await graphqlRequest(connection, INTEGRATIONS_QUERY, { fullPath }, schema, signal));
  const http = new Map(project.alertManagementHttpIntegrations.map((integration) => [integration.id, integration]));
  return project.alertManagementIntegrations.map((integration) => ({ ...integration, ...http.get(integration.id) }));
}

/** alertManagementPayloadFields: the fields of a sample payload, as the mapping editor offers them. */
export async function fetchPayloadFields(connection: Connection, fullPath: string, payloadExample: string, signal?: AbortSignal): Promise<PayloadField[]> {
  const schema = projectData(loose({ alertManagementPayloadFields: z.pipe(z.nullish(z.array(payloadFieldSchema)), z.transform((value) => value ?? [])) }));
  return projectOf(await graphqlRequest(connection, PAYLOAD_FIELDS_QUERY, { fullPath, payloadExample }, schema, signal)).alertManagementPayloadFields;
}

export interface AlertList {
  alerts: Alert[];
  pageInfo: PageInfo;
  counts: StatusCounts;
}

/** One page of alerts (cursor paging) and the status counts for the same search. */
export async function fetchAlerts(connection: Connection, fullPath: string, params: AlertListParams, signal?: AbortSignal): Promise<AlertList> {
  const schema = projectData(
    loose({
      alertManagementAlerts: z.nullish(loose({ nodes: z.array(alertSchema), pageInfo: pageInfoSchema })),
      alertManagementAlertStatusCounts: z.nullish(statusCountsSchema),
    }),
  );
  const project = projectOf(await graphqlRequest(connection, ALERTS_QUERY, alertListVariables(fullPath, params), schema, signal));
  const counts = project.alertManagementAlertStatusCounts ?? { all: 0, open: 0, triggered: 0, acknowledged: 0, resolved: 0, ignored: 0 };
  return {
    alerts: project.alertManagementAlerts?.nodes ?? [],
    pageInfo: project.alertManagementAlerts?.pageInfo ?? { hasNextPage: false, hasPreviousPage: false },
    counts,
  };
}

/** One alert by iid with its payload; a 404 ApiError when there is none. */
export async function fetchAlert(connection: Connection, fullPath: string, iid: number, signal?: AbortSignal): Promise<AlertDetail> {
  const schema = projectData(loose({ alertManagementAlerts: z.nullish(loose({ nodes: z.array(alertDetailSchema) })) }));
  const alert = projectOf(await graphqlRequest(connection, ALERT_QUERY, { fullPath, iid: String(iid) }, schema, signal)).alertManagementAlerts?.nodes[0];
  if (!alert) throw new ApiError(404, `Alert ${iid} not found.`, 'http');
  return alert;
}

/**
 * The open alerts (triggered or acknowledged) whose title is one of `titles`, with their payloads,
 * for the tester's preview. The platform's GraphQL has no fingerprint field and its alert search
 * covers title, description, service and monitoring tool: the tester searches by the title an
 * alert will have and recomputes each candidate's fingerprint from its payload.
 */
export async function fetchOpenAlertsByTitle(connection: Connection, fullPath: string, titles: readonly string[], signal?: AbortSignal): Promise<AlertDetail[]> {
  const schema = projectData(loose({ alertManagementAlerts: z.nullish(loose({ nodes: z.array(alertDetailSchema) })) }));
  const found = new Map<string, AlertDetail>();
  for (const title of new Set(titles)) {
    const project = projectOf(await graphqlRequest(connection, OPEN_BY_TITLE_QUERY, { fullPath, search: title }, schema, signal));
    for (const alert of project.alertManagementAlerts?.nodes ?? []) if (alert.title === title) found.set(alert.iid, alert);
  }
  return [...found.values()];
}

export const alertsQueries = {
  all: () => ['alerts'] as const,
  integrations: (connection: Connection, fullPath: string) =>
    queryOptions({
      queryKey: [...alertsQueries.all(), { project: fullPath }, 'integrations'] as const,
      queryFn: ({ signal }) => fetchIntegrations(connection, fullPath, signal),
    }),
  payloadFields: (connection: Connection, fullPath: string, payloadExample: string) =>
    queryOptions({
      queryKey: [...alertsQueries.all(), { project: fullPath }, 'payload-fields', payloadExample] as const,
      queryFn: ({ signal }) => fetchPayloadFields(connection, fullPath, payloadExample, signal),
      staleTime: Infinity,
    }),
  lists: (fullPath: string) => [...alertsQueries.all(), { project: fullPath }, 'list'] as const,
  list: (connection: Connection, fullPath: string, params: AlertListParams) =>
    queryOptions({
      queryKey: [...alertsQueries.lists(fullPath), params] as const,
      queryFn: ({ signal }) => fetchAlerts(connection, fullPath, params, signal),
    }),
  details: (fullPath: string) => [...alertsQueries.all(), { project: fullPath }, 'detail'] as const,
  detail: (connection: Connection, fullPath: string, iid: number) =>
    queryOptions({
      queryKey: [...alertsQueries.details(fullPath), iid] as const,
      queryFn: ({ signal }) => fetchAlert(connection, fullPath, iid, signal),
    }),
  openByTitle: (connection: Connection, fullPath: string, titles: readonly string[]) =>
    queryOptions({
      queryKey: [...alertsQueries.lists(fullPath), 'open-by-title', [...titles].sort()] as const,
      queryFn: ({ signal }) => fetchOpenAlertsByTitle(connection, fullPath, titles, signal),
    }),
};

// -- integration writes

export interface PayloadMappingInput {
  fieldName: PayloadFieldName;
  path: Array<string | number>;
  type: PayloadFieldType;
  label?: string | null;
}

export interface CreateHttpIntegrationVariables {
  projectPath: string;
  name: string;
  active: boolean;
  payloadExample?: string;
  payloadAttributeMappings?: PayloadMappingInput[];
}

/** spec 3, 4.9: a name is required; the platform caps it at 255 characters. */
export const integrationNameSchema = z.string().check(z.trim(), z.minLength(1, 'Enter a name.'), z.maxLength(255, 'At most 255 characters.'));

const integrationPayload = { integration: z.nullish(integrationSchema) };

async function integrationMutation(connection: Connection, name: string, inputType: string, input: Record<string, unknown>, what: string): Promise<Integration> {
  const query = `mutation ${name}($input: ${inputType}!) { ${name}(input: $input) { errors integration { ${name.startsWith('http') ? HTTP_INTEGRATION_FIELDS : INTEGRATION_FIELDS} } } }`;
  const data = await graphqlRequest(connection, query, { input }, mutationPayload(name, integrationPayload));
  const payload = checkedPayload(data[name] as { errors: string[]; integration?: Integration | null } | null | undefined, what);
  if (!payload.integration && !name.endsWith('Destroy')) throw new ApiError(422, `${what}: the platform answered without the integration.`, 'http');
  return payload.integration as Integration;
}

/** httpIntegrationCreate: a new HTTP endpoint, answered with its URL and authorization key. */
export function createHttpIntegration(connection: Connection, variables: CreateHttpIntegrationVariables): Promise<Integration> {
  return integrationMutation(connection, 'httpIntegrationCreate', 'HttpIntegrationCreateInput', { ...variables }, 'Creating the integration');
}

export interface UpdateHttpIntegrationVariables {
  id: string;
  name?: string;
  active?: boolean;
  payloadExample?: string;
  payloadAttributeMappings?: PayloadMappingInput[];
}

/** httpIntegrationUpdate: name, active, sample payload and custom mapping. */
export function updateHttpIntegration(connection: Connection, variables: UpdateHttpIntegrationVariables): Promise<Integration> {
  return integrationMutation(connection, 'httpIntegrationUpdate', 'HttpIntegrationUpdateInput', { ...variables }, 'Updating the integration');
}

/** httpIntegrationResetToken / prometheusIntegrationResetToken: a new key; the old one is refused from now on. */
export function resetIntegrationToken(connection: Connection, integration: Pick<Integration, 'id' | 'type'>): Promise<Integration> {
  return integration.type === 'PROMETHEUS'
    ? integrationMutation(connection, 'prometheusIntegrationResetToken', 'PrometheusIntegrationResetTokenInput', { id: integration.id }, 'Resetting the key')
    : integrationMutation(connection, 'httpIntegrationResetToken', 'HttpIntegrationResetTokenInput', { id: integration.id }, 'Resetting the key');
}

/** httpIntegrationDestroy: the endpoint stops taking alerts; its alerts stay. */
export function destroyHttpIntegration(connection: Connection, id: string): Promise<Integration> {
  return integrationMutation(connection, 'httpIntegrationDestroy', 'HttpIntegrationDestroyInput', { id }, 'Deleting the integration');
}

/** prometheusIntegrationCreate: the project's one metrics-format integration. */
export function createPrometheusIntegration(connection: Connection, variables: { projectPath: string; active: boolean; apiUrl?: string | null }): Promise<Integration> {
  return integrationMutation(connection, 'prometheusIntegrationCreate', 'PrometheusIntegrationCreateInput', { ...variables }, 'Creating the metrics integration');
}

/** Activates or deactivates either kind (prometheusIntegrationUpdate or httpIntegrationUpdate). */
export function setIntegrationActive(connection: Connection, integration: Pick<Integration, 'id' | 'type'>, active: boolean): Promise<Integration> {
  return integration.type === 'PROMETHEUS'
    ? integrationMutation(connection, 'prometheusIntegrationUpdate', 'PrometheusIntegrationUpdateInput', { id: integration.id, active }, 'Updating the integration')
    : updateHttpIntegration(connection, { id: integration.id, active });
}

// -- alert writes

const alertPayload = { alert: z.nullish(alertDetailSchema), issue: z.nullish(loose({ iid: z.string(), webUrl: z.nullish(z.string()) })) };

async function alertMutation(connection: Connection, name: string, inputType: string, input: Record<string, unknown>, what: string) {
  const query = `mutation ${name}($input: ${inputType}!) { ${name}(input: $input) { errors alert { ${ALERT_DETAIL_FIELDS} } issue { iid webUrl } } }`;
  const data = await graphqlRequest(connection, query, { input }, mutationPayload(name, alertPayload));
  return checkedPayload(data[name] as { errors: string[]; alert?: AlertDetail | null; issue?: { iid: string; webUrl?: string | null } | null } | null | undefined, what);
}

export interface AlertRef {
  projectPath: string;
  iid: string;
}

/** updateAlertStatus. */
export async function updateAlertStatus(connection: Connection, variables: AlertRef & { status: AlertStatus }): Promise<AlertDetail | null> {
  return (await alertMutation(connection, 'updateAlertStatus', 'UpdateAlertStatusInput', { ...variables }, 'Changing the status')).alert ?? null;
}

/** alertSetAssignees with operationMode REPLACE: the alert's assignees become exactly these. */
export async function setAlertAssignees(connection: Connection, variables: AlertRef & { assigneeUsernames: string[] }): Promise<AlertDetail | null> {
  return (await alertMutation(connection, 'alertSetAssignees', 'AlertSetAssigneesInput', { ...variables, operationMode: 'REPLACE' }, 'Setting the assignees')).alert ?? null;
}

/** createAlertIssue: an issue in the project made from the alert, linked from it. */
export async function createAlertIssue(connection: Connection, variables: AlertRef): Promise<{ iid: string; webUrl?: string | null }> {
  const payload = await alertMutation(connection, 'createAlertIssue', 'CreateAlertIssueInput', { ...variables }, 'Creating the issue');
  const issue = payload.issue ?? payload.alert?.issue;
  if (!issue) throw new ApiError(422, 'Creating the issue: the platform answered without the issue.', 'http');
  return issue;
}

// -- test alerts, through the console server's relay

export const ALERTS_RELAY_PATH = '/-/alerts-relay';
export type AlertAuthMode = 'bearer' | 'basic';

/** The Authorization header for an integration key: Bearer, or Basic with an empty user and the key as password. */
export function alertAuthorization(mode: AlertAuthMode, key: string): string {
  if (mode === 'bearer') return `Bearer ${key}`;
  const bytes = new TextEncoder().encode(`:${key}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** The path of an integration's URL (`/group/project/alerts/notify/...json`), which the relay forwards to. */
export function alertPathOf(url: string): string {
  return new URL(url).pathname;
}

export interface TestAlertVariables {
  /** The integration's URL as the platform gives it. */
  url: string;
  key: string;
  auth: AlertAuthMode;
  /** The payload as typed: sent as is, so the platform parses what the tester previewed. */
  payload: string;
}

export const relayAnswerSchema = loose({ status: z.number(), contentType: z.nullish(z.string()), body: z.unknown() });
export type TestAlertAnswer = z.infer<typeof relayAnswerSchema>;

/** The `[{iid, title}]` an HTTP endpoint answers with, when that is what it answered. */
export function answeredAlerts(answer: TestAlertAnswer): Array<{ iid: number; title: string }> {
  const parsed = z.safeParse(z.array(loose({ iid: z.union([z.number(), z.string()]), title: z.nullish(z.string()) })), answer.body);
  return parsed.success ? parsed.data.map((alert) => ({ iid: Number(alert.iid), title: alert.title ?? '' })).filter((alert) => Number.isInteger(alert.iid) && alert.iid > 0) : [];
}

/**
 * POST a test alert through the console server's relay. Resolves with what the instance answered
 * (any status: the tester shows refusals too); rejects with an ApiError when the relay itself
 * refused (400 path, 413 size, 502 instance down) or is absent (a console served without its
 * server). The key goes in the Authorization header only.
 */
export async function sendTestAlert(variables: TestAlertVariables, relayUrl: string = ALERTS_RELAY_PATH): Promise<TestAlertAnswer> {
  let response: Response;
  try {
    response = await fetch(relayUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Alert-Path': alertPathOf(variables.url), Authorization: alertAuthorization(variables.auth, variables.key) },
      body: variables.payload,
      credentials: 'omit',
    });
  } catch {
    throw new ApiError(0, "The console's server could not be reached to relay the alert.", 'network');
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const message = response.status === 404 || response.status === 405 ? 'This console is served without its alert relay (npm start serves it): test alerts cannot be sent from here.' : describeErrorBody(body, response.status).message;
    throw new ApiError(response.status, message, 'http', undefined, undefined, body);
  }
  const parsed = z.safeParse(relayAnswerSchema, body);
  if (!parsed.success) throw new ApiError(response.status, 'The alert relay answered something other than the instance\'s answer.', 'parse');
  return parsed.data;
}
