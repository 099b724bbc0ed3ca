/**
 * The alerts part of `POST /api/graphql`, named and shaped as the platform's schema: a project's
 * `alertManagementIntegrations`, `alertManagementHttpIntegrations`, `alertManagementPayloadFields`,
 * `alertManagementAlerts`, `alertManagementAlert` and `alertManagementAlertStatusCounts`; the
 * mutations `httpIntegrationCreate/Update/ResetToken/Destroy`, `prometheusIntegrationCreate/Update/
 * ResetToken`, `updateAlertStatus`, `alertSetAssignees` and `createAlertIssue`.
 * Roles as the platform's policies: integrations (and so their keys) are Maintainer+
 * (admin_operations), alerts are read and updated by Developer+.
 * A test alert is no mutation: the platform's settings page posts the sample payload to the
 * integration's endpoint with its key, and so does the console (through its relay).
 */
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLError, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLInterfaceType, GraphQLList,
  GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLString, Kind,
  type GraphQLFieldConfig, type GraphQLFieldConfigMap, type GraphQLInputFieldConfigMap, type GraphQLOutputType,
} from 'graphql';
import { ANONYMOUS, type Actor, type Sandbox, type UserRow } from '../context.ts';
import type { Db } from '../db.ts';
import { AccessLevel, effectiveRole, findReadableProject, type ProjectRow } from '../model/access.ts';
import { avatarUrl } from '../model/entities.ts';
import { issueWebUrl, nextIssueIid, positionAtEnd, type IssueRow } from '../model/issues.ts';
import { timestamp } from '../model/time.ts';
import { mergeKeys, payloadFields, parseJsonWithPosition } from '../../src/lib/alert-mapping.ts';
import {
  ALERT_SORTS, ALERT_STATUSES, PAYLOAD_FIELD_NAMES, alertNote, findAlert, findIntegration, insertIntegration, integrationUrl, integrationsOf,
  listAlerts, newToken, statusCounts, statusTitle, type AlertFilter, type AlertRow, type AlertStatus, type AttributeMapping, type IntegrationRow,
} from './store.ts';

/** What every resolver receives (the shape sandbox/areas/graphql.ts builds). */
export interface AlertsGraphContext {
  sandbox: Sandbox;
  actor: Actor;
}

type Ctx = AlertsGraphContext;

const NOT_FOUND = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";
/** At most this many nodes a page, as the platform's connections. */
const MAX_PAGE = 100;

function role(context: Ctx, project: ProjectRow): number {
  return effectiveRole(context.sandbox.db, context.actor, { type: 'Project', id: project.id }, context.sandbox.now());
}
const canAdminOperations = (context: Ctx, project: ProjectRow) => role(context, project) >= AccessLevel.MAINTAINER;
const canReadAlerts = (context: Ctx, project: ProjectRow) => role(context, project) >= AccessLevel.DEVELOPER;

function projectOf(db: Db, id: number): ProjectRow {
  return db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow;
}

/** A project the caller reads, by full path; null when hidden or unknown (as the platform). */
function readableProject(context: Ctx, fullPath: string): ProjectRow | null {
  try {
    return findReadableProject(context.sandbox.db, context.actor, fullPath, context.sandbox.now());
  } catch {
    return null;
  }
}

function requireWrite(context: Ctx): void {
  if (!context.actor.user) throw new GraphQLError(NOT_FOUND);
  if (!context.actor.scopes.has('api')) throw new GraphQLError('Insufficient scope: mutations need a token with the api scope');
}

// ---- scalars and enums ----

const Time = new GraphQLScalarType({ name: 'Time', description: 'Time represented in ISO 8601.', serialize: (value) => value });

const JSONScalar = new GraphQLScalarType({ name: 'JSON', description: 'Represents untyped JSON', serialize: (value) => value });

function parseJsonString(value: unknown): unknown {
  if (typeof value !== 'string') throw new GraphQLError('JsonString must be a string');
  const parsed = parseJsonWithPosition(value);
  if (!parsed.ok) throw new GraphQLError(`Invalid JSON string: ${parsed.message} (line ${parsed.line}, column ${parsed.column})`);
  return value;
}

const JsonString = new GraphQLScalarType({
  name: 'JsonString',
  description: 'JSON object as raw string',
  serialize: (value) => value,
  parseValue: parseJsonString,
  parseLiteral: (ast) => parseJsonString(ast.kind === Kind.STRING ? ast.value : null),
});

const PathSegment = new GraphQLScalarType({
  name: 'PayloadAlertFieldPathSegment',
  description: 'String or integer.',
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value === 'string' || Number.isInteger(value)) return String(value);
    throw new GraphQLError('A path segment is a string or an integer');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return ast.value;
    throw new GraphQLError('A path segment is a string or an integer');
  },
});

/** A global id scalar of one model: `gid://gitlab/<Model>/<id>`, parsed to the numeric id. */
function globalIdScalar(name: string, model: string): GraphQLScalarType<number, string> {
  const parse = (value: unknown): number => {
    const match = typeof value === 'string' ? new RegExp(`^gid://gitlab/${model.replace(/:/g, ':')}/(\\d+)$`).exec(value) : null;
    if (!match) throw new GraphQLError(`${JSON.stringify(value)} does not represent an instance of ${model}`);
    return Number(match[1]);
  };
  return new GraphQLScalarType<number, string>({
    name,
    description: `A \`${name}\` is a global ID. It is encoded as a string. An example \`${name}\` is: \`"gid://gitlab/${model}/1"\`.`,
    serialize: (value) => String(value),
    parseValue: parse,
    parseLiteral: (ast) => parse(ast.kind === Kind.STRING ? ast.value : null),
  });
}

const HTTP_MODEL = 'AlertManagement::HttpIntegration';
const PROMETHEUS_MODEL = 'Integrations::Prometheus';
const HttpIntegrationID = globalIdScalar('AlertManagementHttpIntegrationID', HTTP_MODEL);
const PrometheusID = globalIdScalar('IntegrationsPrometheusID', PROMETHEUS_MODEL);

const upperEnum = (name: string, description: string, values: readonly string[]) =>
  new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((value) => [value.toUpperCase(), { value }])) });

const AlertStatusEnum = upperEnum('AlertManagementStatus', 'Alert status values', ALERT_STATUSES);
const SeverityEnum = upperEnum('AlertManagementSeverity', 'Alert severity values', ['critical', 'high', 'medium', 'low', 'info', 'unknown']);
const SortEnum = new GraphQLEnumType({ name: 'AlertManagementAlertSort', description: 'Values for sorting alerts', values: Object.fromEntries(Object.keys(ALERT_SORTS).map((key) => [key, { value: key }])) });
const DomainEnum = new GraphQLEnumType({ name: 'AlertManagementDomainFilter', description: 'Filters the alerts based on given domain', values: { operations: { value: 'operations' }, threat_monitoring: { value: 'threat_monitoring' } } });
const IntegrationTypeEnum = upperEnum('AlertManagementIntegrationType', 'Values of types of integrations', ['http', 'prometheus']);
const FieldNameEnum = new GraphQLEnumType({ name: 'AlertManagementPayloadAlertFieldName', description: 'Values for alert field names used in the custom mapping', values: Object.fromEntries(PAYLOAD_FIELD_NAMES.map((name) => [name, { value: name }])) });
const FieldTypeEnum = new GraphQLEnumType({ name: 'AlertManagementPayloadAlertFieldType', description: 'Values for alert field types used in the custom mapping', values: { ARRAY: { value: 'ARRAY' }, DATETIME: { value: 'DATETIME' }, STRING: { value: 'STRING' } } });
const OperationModeEnum = new GraphQLEnumType({ name: 'MutationOperationMode', description: 'Different toggles for changing mutator behavior', values: { REPLACE: { value: 'REPLACE' }, APPEND: { value: 'APPEND' }, REMOVE: { value: 'REMOVE' } } });
const IssueStateEnum = new GraphQLEnumType({ name: 'IssueState', description: 'State of a GitLab issue', values: { opened: { value: 'opened' }, closed: { value: 'closed' }, locked: { value: 'locked' }, all: { value: 'all' } } });

// ---- pagination ----

interface Page<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

const pageArgs = {
  first: { type: GraphQLInt, description: 'Returns the first _n_ elements from the list.' },
  after: { type: GraphQLString, description: 'Returns the elements in the list that come after the specified cursor.' },
};

const cursorAt = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString('base64');

function offsetOf(after: string | null | undefined): number {
  if (!after) return 0;
  try {
    const offset = (JSON.parse(Buffer.from(after, 'base64').toString('utf8')) as { offset?: unknown }).offset;
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // falls through
  }
  throw new GraphQLError('Invalid cursor');
}

/** A page of rows fetched with one more than asked, so `hasNextPage` needs no count. */
function paginate<T>(args: { first?: number | null; after?: string | null }, fetch: (offset: number, limit: number) => T[]): Page<T> {
  if (args.first !== undefined && args.first !== null && args.first < 0) throw new GraphQLError('first must be at least 0');
  const limit = Math.min(args.first ?? MAX_PAGE, MAX_PAGE);
  const offset = offsetOf(args.after);
  const rows = fetch(offset, limit + 1);
  const nodes = rows.slice(0, limit);
  return {
    nodes,
    pageInfo: {
      hasNextPage: rows.length > limit,
      hasPreviousPage: offset > 0,
      startCursor: nodes.length ? cursorAt(offset + 1) : null,
      endCursor: nodes.length ? cursorAt(offset + nodes.length) : null,
    },
  };
}

function connection<T>(name: string, node: GraphQLOutputType, PageInfo: GraphQLObjectType) {
  return new GraphQLObjectType<Page<T>>({
    name,
    description: `The connection type for ${name.replace(/Connection$/, '')}.`,
    fields: {
      nodes: { type: new GraphQLList(node), description: 'A list of nodes.' },
      pageInfo: { type: new GraphQLNonNull(PageInfo), description: 'Information to aid in pagination.' },
    },
  });
}

// ---- the types ----

export interface AlertsSchemaShared {
  /** The schema's one PageInfo type. */
  PageInfo: GraphQLObjectType;
}

export interface GraphqlContribution<TContext> {
  projectFields: GraphQLFieldConfigMap<ProjectRow, TContext>;
  mutationFields: GraphQLFieldConfigMap<unknown, TContext>;
}

/** The alerts' types and fields; the shared PageInfo comes from the schema that mounts them. */
export function alertsGraphql({ PageInfo }: AlertsSchemaShared): GraphqlContribution<Ctx> {
  const UserCore = new GraphQLObjectType<UserRow, Ctx>({
    name: 'UserCore',
    description: 'Core represention of a GitLab user.',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: (user) => `gid://gitlab/User/${user.id}` },
      username: { type: new GraphQLNonNull(GraphQLString) },
      name: { type: new GraphQLNonNull(GraphQLString) },
      state: { type: new GraphQLNonNull(GraphQLString) },
      avatarUrl: { type: GraphQLString, resolve: (user, _args, context) => avatarUrl(context.sandbox, user) },
      webUrl: { type: new GraphQLNonNull(GraphQLString), resolve: (user, _args, context) => `${context.sandbox.config.externalUrl}/${user.username}` },
    },
  });
  const UserCoreConnection = connection<UserRow>('UserCoreConnection', UserCore, PageInfo);

  const Issue = new GraphQLObjectType<IssueRow, Ctx>({
    name: 'Issue',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: (issue) => `gid://gitlab/Issue/${issue.id}` },
      iid: { type: new GraphQLNonNull(GraphQLString), resolve: (issue) => String(issue.iid) },
      title: { type: new GraphQLNonNull(GraphQLString) },
      state: { type: new GraphQLNonNull(IssueStateEnum) },
      reference: { type: new GraphQLNonNull(GraphQLString), resolve: (issue) => `#${issue.iid}` },
      webUrl: { type: new GraphQLNonNull(GraphQLString), resolve: (issue, _args, context) => issueWebUrl(context.sandbox, projectOf(context.sandbox.db, issue.project_id), issue.iid) },
      createdAt: { type: new GraphQLNonNull(Time), resolve: (issue) => issue.created_at },
    },
  });

  interface NoteRow { id: number; alert_id: number; author_id: number | null; body: string; created_at: string }
  const Note = new GraphQLObjectType<NoteRow, Ctx>({
    name: 'Note',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: (note) => `gid://gitlab/AlertManagement::AlertNote/${note.id}` },
      body: { type: new GraphQLNonNull(GraphQLString) },
      system: { type: new GraphQLNonNull(GraphQLBoolean), resolve: () => true },
      createdAt: { type: new GraphQLNonNull(Time), resolve: (note) => note.created_at },
      // null for the alert bot (ingestion), as the platform's notes by its bot user show no member
      author: { type: UserCore, resolve: (note, _args, context) => (note.author_id === null ? null : context.sandbox.db.prepare('SELECT * FROM users WHERE id = ?').get(note.author_id) ?? null) },
    },
  });
  const NoteConnection = connection<NoteRow>('NoteConnection', Note, PageInfo);

  const Environment = new GraphQLObjectType({
    name: 'Environment',
    description: 'Describes where code is deployed for a project',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), description: 'ID of the environment.' },
      name: { type: new GraphQLNonNull(GraphQLString), description: 'Human-readable name of the environment.' },
    },
  });

  const alertProject = (alert: AlertRow, context: Ctx) => projectOf(context.sandbox.db, alert.project_id);
  const detailsUrl = (alert: AlertRow, context: Ctx) => `${context.sandbox.config.externalUrl}/${alertProject(alert, context).path_with_namespace}/-/alert_management/${alert.iid}/details`;

  const Alert = new GraphQLObjectType<AlertRow, Ctx>({
    name: 'AlertManagementAlert',
    description: "Describes an alert from the project's Alert Management",
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), description: 'ID of the alert.', resolve: (alert) => `gid://gitlab/AlertManagement::Alert/${alert.id}` },
      iid: { type: new GraphQLNonNull(GraphQLID), description: 'Internal ID of the alert.', resolve: (alert) => String(alert.iid) },
      title: { type: GraphQLString, description: 'Title of the alert.' },
      description: { type: GraphQLString, description: 'Description of the alert.' },
      severity: { type: SeverityEnum, description: 'Severity of the alert.' },
      status: { type: AlertStatusEnum, description: 'Status of the alert.' },
      service: { type: GraphQLString, description: 'Service the alert came from.' },
      monitoringTool: { type: GraphQLString, description: 'Monitoring tool the alert came from.', resolve: (alert) => alert.monitoring_tool },
      hosts: { type: new GraphQLList(new GraphQLNonNull(GraphQLString)), description: 'List of hosts the alert came from.', resolve: (alert) => JSON.parse(alert.hosts) },
      startedAt: { type: Time, description: 'Timestamp the alert was raised.', resolve: (alert) => alert.started_at },
      endedAt: { type: Time, description: 'Timestamp the alert ended.', resolve: (alert) => alert.ended_at },
      eventCount: { type: GraphQLInt, description: 'Number of events of this alert.', resolve: (alert) => alert.events },
      // the payload with nested keys joined by dots, as the platform's presenter gives it
      details: { type: JSONScalar, description: 'Alert details.', resolve: (alert) => Object.fromEntries(mergeKeys(JSON.parse(alert.payload) as Record<string, unknown>)) },
      // the platform links the project's environment of the payload's name; the sandbox has no environments, so none is found
      // (the name stays in the stored payload, in `details`)
      environment: { type: Environment, description: 'Environment for the alert.', resolve: () => null },
      runbook: { type: GraphQLString, description: 'Runbook for the alert as defined in alert details.' },
      createdAt: { type: Time, description: 'Timestamp the alert was created.', resolve: (alert) => alert.created_at },
      updatedAt: { type: Time, description: 'Timestamp the alert was last updated.', resolve: (alert) => alert.updated_at },
      assignees: {
        type: UserCoreConnection,
        description: 'Assignees of the alert.',
        args: pageArgs,
        resolve: (alert, args: { first?: number | null; after?: string | null }, context) =>
          paginate(args, (offset, limit) => context.sandbox.db
            .prepare('SELECT u.* FROM alert_management_alert_assignees x JOIN users u ON u.id = x.user_id WHERE x.alert_id = ? ORDER BY u.id LIMIT ? OFFSET ?')
            .all(alert.id, limit, offset) as UserRow[]),
      },
      notes: {
        type: new GraphQLNonNull(NoteConnection),
        description: 'All notes on this noteable (the system notes of the alert: creation, status changes, assignees, the incident made from it).',
        args: pageArgs,
        resolve: (alert, args: { first?: number | null; after?: string | null }, context) =>
          paginate(args, (offset, limit) => context.sandbox.db.prepare('SELECT * FROM alert_management_alert_notes WHERE alert_id = ? ORDER BY id LIMIT ? OFFSET ?').all(alert.id, limit, offset) as NoteRow[]),
      },
      issue: { type: Issue, description: 'Issue attached to the alert.', resolve: (alert, _args, context) => (alert.issue_id === null ? null : context.sandbox.db.prepare('SELECT * FROM issues WHERE id = ?').get(alert.issue_id) ?? null) },
      issueIid: {
        type: GraphQLID,
        description: 'Internal ID of the GitLab issue attached to the alert.',
        deprecationReason: 'Use issue field. Deprecated in 13.10.',
        resolve: (alert, _args, context) => {
          const issue = alert.issue_id === null ? undefined : (context.sandbox.db.prepare('SELECT iid FROM issues WHERE id = ?').get(alert.issue_id) as { iid: number } | undefined);
          return issue ? String(issue.iid) : null;
        },
      },
      metricsDashboardUrl: { type: GraphQLString, deprecationReason: 'Returns no data. Underlying feature was removed in 16.0. Deprecated in 16.0.', resolve: () => null },
      detailsUrl: { type: new GraphQLNonNull(GraphQLString), description: 'URL of the alert detail page.', resolve: detailsUrl },
      webUrl: { type: new GraphQLNonNull(GraphQLString), description: 'URL of the alert.', resolve: detailsUrl },
    },
  });
  const AlertConnection = connection<AlertRow>('AlertManagementAlertConnection', Alert, PageInfo);

  const StatusCounts = new GraphQLObjectType({
    name: 'AlertManagementAlertStatusCountsType',
    description: 'Represents total number of alerts for the represented categories',
    fields: {
      ...Object.fromEntries(ALERT_STATUSES.map((status) => [status, { type: GraphQLInt, description: `Number of alerts with status ${status.toUpperCase()} for the project` }])),
      open: { type: GraphQLInt, description: 'Number of alerts with status TRIGGERED or ACKNOWLEDGED for the project.' },
      all: { type: GraphQLInt, description: 'Total number of alerts for the project.' },
    },
  });

  const integrationFields = (): GraphQLFieldConfigMap<IntegrationRow, Ctx> => ({
    id: { type: new GraphQLNonNull(GraphQLID), description: 'ID of the integration.', resolve: (row) => `gid://gitlab/${row.type === 'http' ? HTTP_MODEL : PROMETHEUS_MODEL}/${row.id}` },
    type: { type: new GraphQLNonNull(IntegrationTypeEnum), description: 'Type of integration.' },
    name: { type: GraphQLString, description: 'Name of the integration.' },
    active: { type: GraphQLBoolean, description: 'Whether the endpoint is currently accepting alerts.', resolve: (row) => Boolean(row.active) },
    token: { type: GraphQLString, description: 'Token used to authenticate alert notification requests.' },
    url: { type: GraphQLString, description: 'Endpoint which accepts alert notifications.', resolve: (row, _args, context) => integrationUrl(context.sandbox, projectOf(context.sandbox.db, row.project_id), row) },
    apiUrl: { type: GraphQLString, description: 'URL at which Prometheus metrics can be queried to populate the metrics dashboard.', resolve: (row) => (row.type === 'prometheus' ? row.api_url : null) },
  });

  const PayloadAlertField = new GraphQLObjectType<{ path: string[]; label: string; type: string }>({
    name: 'AlertManagementPayloadAlertField',
    description: 'Parsed field from an alert used for custom mappings',
    fields: {
      path: { type: new GraphQLList(new GraphQLNonNull(PathSegment)), description: 'Path to value inside payload JSON.' },
      label: { type: GraphQLString, description: 'Human-readable label of the payload path.' },
      type: { type: FieldTypeEnum, description: 'Type of the parsed value.' },
    },
  });

  const PayloadAlertMappingField = new GraphQLObjectType<AttributeMapping>({
    name: 'AlertManagementPayloadAlertMappingField',
    description: 'Parsed field (with its name) from an alert used for custom mappings',
    fields: {
      fieldName: { type: FieldNameEnum, description: 'GitLab alert field name.' },
      path: { type: new GraphQLList(new GraphQLNonNull(PathSegment)), description: 'Path to value inside payload JSON.' },
      label: { type: GraphQLString, description: 'Human-readable label of the payload path.' },
      type: { type: FieldTypeEnum, description: 'Type of the parsed value.' },
    },
  });

  const Integration: GraphQLInterfaceType = new GraphQLInterfaceType({
    name: 'AlertManagementIntegration',
    fields: () => integrationFields() as GraphQLFieldConfigMap<unknown, unknown>,
    resolveType: (row: IntegrationRow) => (row.type === 'http' ? 'AlertManagementHttpIntegration' : 'AlertManagementPrometheusIntegration'),
  });

  const HttpIntegration = new GraphQLObjectType<IntegrationRow, Ctx>({
    name: 'AlertManagementHttpIntegration',
    description: 'An endpoint and credentials used to accept alerts for a project',
    interfaces: [Integration],
    fields: () => ({
      ...integrationFields(),
      payloadExample: { type: JsonString, description: 'Example of an alert payload.', resolve: (row) => row.payload_example },
      payloadAttributeMappings: {
        type: new GraphQLList(new GraphQLNonNull(PayloadAlertMappingField)),
        description: 'The custom mapping of GitLab alert attributes to fields from the payload_example.',
        resolve: (row) => JSON.parse(row.payload_attribute_mapping) as AttributeMapping[],
      },
      payloadAlertFields: {
        type: new GraphQLList(new GraphQLNonNull(PayloadAlertField)),
        description: 'Extract alert fields from payload example for custom mapping.',
        resolve: (row) => payloadFields(JSON.parse(row.payload_example)),
      },
    }),
  });

  const PrometheusIntegration = new GraphQLObjectType<IntegrationRow, Ctx>({
    name: 'AlertManagementPrometheusIntegration',
    description: 'An endpoint and credentials used to accept Prometheus alerts for a project',
    interfaces: [Integration],
    fields: integrationFields,
  });

  const IntegrationConnection = connection<IntegrationRow>('AlertManagementIntegrationConnection', Integration, PageInfo);
  const HttpIntegrationConnection = connection<IntegrationRow>('AlertManagementHttpIntegrationConnection', HttpIntegration, PageInfo);

  // ---- project fields ----

  interface AlertArgs { iid?: string | null; statuses?: AlertStatus[] | null; sort?: string | null; domain?: string; search?: string | null; assigneeUsername?: string | null; first?: number | null; after?: string | null }
  const alertArgs = {
    iid: { type: GraphQLString, description: 'IID of the alert. For example, "1".' },
    statuses: { type: new GraphQLList(new GraphQLNonNull(AlertStatusEnum)), description: 'Alerts with the specified statues. For example, `[TRIGGERED]`.' },
    sort: { type: SortEnum, description: 'Sort alerts by the criteria.' },
    domain: { type: new GraphQLNonNull(DomainEnum), defaultValue: 'operations', description: 'Filter query for given domain.' },
    search: { type: GraphQLString, description: 'Search query for title, description, service, or monitoring_tool.' },
    assigneeUsername: { type: GraphQLString, description: 'Username of a user assigned to the issue.' },
  };
  const filterOf = (args: AlertArgs): AlertFilter | null => {
    // every alert here is of the operations domain (threat monitoring alerts come from an agent the sandbox has not)
    if (args.domain === 'threat_monitoring') return null;
    const filter: AlertFilter = { statuses: args.statuses ?? undefined, search: args.search?.trim() || undefined, assigneeUsername: args.assigneeUsername ?? undefined };
    if (args.iid !== undefined && args.iid !== null) {
      if (!/^\d+$/.test(args.iid)) return null;
      filter.iid = Number(args.iid);
    }
    return filter;
  };
  const emptyPage: Page<never> = { nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } };

  const idArg = { id: { type: GraphQLID, description: 'ID of the integration.' } };
  const integrationsMatching = (context: Ctx, project: ProjectRow, id: string | null | undefined, type?: IntegrationRow['type']) => {
    // the whole integration (and its key) is for those who administer operations
    if (!canAdminOperations(context, project)) return [];
    const rows = integrationsOf(context.sandbox.db, project.id, type);
    if (!id) return rows;
    return rows.filter((row) => id === `gid://gitlab/${row.type === 'http' ? HTTP_MODEL : PROMETHEUS_MODEL}/${row.id}`);
  };

  const projectFields: GraphQLFieldConfigMap<ProjectRow, Ctx> = {
    alertManagementIntegrations: {
      type: IntegrationConnection,
      description: 'Integrations which can receive alerts for the project.',
      args: { ...idArg, ...pageArgs },
      resolve: (project, args: { id?: string | null; first?: number | null; after?: string | null }, context) =>
        paginate(args, (offset, limit) => integrationsMatching(context, project, args.id).slice(offset, offset + limit)),
    },
    alertManagementHttpIntegrations: {
      type: HttpIntegrationConnection,
      description: 'HTTP Integrations which can receive alerts for the project.',
      args: { ...idArg, ...pageArgs },
      resolve: (project, args: { id?: string | null; first?: number | null; after?: string | null }, context) =>
        paginate(args, (offset, limit) => integrationsMatching(context, project, args.id, 'http').slice(offset, offset + limit)),
    },
    alertManagementPayloadFields: {
      type: new GraphQLList(new GraphQLNonNull(PayloadAlertField)),
      description: 'Extract alert fields from payload for custom mapping.',
      args: { payloadExample: { type: new GraphQLNonNull(GraphQLString), description: 'Sample payload for extracting alert fields for custom mappings.' } },
      resolve: (project, args: { payloadExample: string }, context) => {
        if (!canAdminOperations(context, project)) throw new GraphQLError('Insufficient permissions');
        const parsed = parseJsonWithPosition(args.payloadExample);
        if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) throw new GraphQLError('Failed to parse payload');
        return payloadFields(parsed.value);
      },
    },
    alertManagementAlerts: {
      type: AlertConnection,
      description: 'Alert Management alerts of the project.',
      args: { ...alertArgs, ...pageArgs },
      resolve: (project, args: AlertArgs, context) => {
        const filter = filterOf(args);
        if (!canReadAlerts(context, project) || !filter) return emptyPage;
        return paginate(args, (offset, limit) => listAlerts(context.sandbox.db, project.id, filter, args.sort ?? 'CREATED_DESC', offset, limit));
      },
    },
    alertManagementAlert: {
      type: Alert,
      description: 'A single Alert Management alert of the project.',
      args: alertArgs,
      resolve: (project, args: AlertArgs, context) => {
        const filter = filterOf(args);
        if (!canReadAlerts(context, project) || !filter) return null;
        return listAlerts(context.sandbox.db, project.id, filter, args.sort ?? 'CREATED_DESC', 0, 1)[0] ?? null;
      },
    },
    alertManagementAlertStatusCounts: {
      type: StatusCounts,
      description: 'Counts of alerts by status for the project.',
      args: { search: alertArgs.search, assigneeUsername: alertArgs.assigneeUsername },
      resolve: (project, args: { search?: string | null; assigneeUsername?: string | null }, context) => {
        if (!canReadAlerts(context, project)) return null;
        return statusCounts(context.sandbox.db, project.id, { search: args.search?.trim() || undefined, assigneeUsername: args.assigneeUsername ?? undefined });
      },
    },
  };

  // ---- mutations ----

  /** A mutation as the platform's: `<Name>Input` with clientMutationId, `<Name>Payload` with `errors: [String!]!`; one transaction. */
  function mutation<TArgs extends object>(
    name: string,
    description: string,
    inputFields: GraphQLInputFieldConfigMap,
    outputFields: GraphQLFieldConfigMap<Record<string, unknown>, Ctx>,
    resolve: (input: TArgs, context: Ctx) => Record<string, unknown>,
  ): GraphQLFieldConfig<unknown, Ctx> {
    const typeName = name[0].toUpperCase() + name.slice(1);
    const input = new GraphQLInputObjectType({
      name: `${typeName}Input`,
      description: `Autogenerated input type of ${typeName}`,
      fields: { ...inputFields, clientMutationId: { type: GraphQLString, description: 'A unique identifier for the client performing the mutation.' } },
    });
    const payload = new GraphQLObjectType<Record<string, unknown>, Ctx>({
      name: `${typeName}Payload`,
      description: `Autogenerated return type of ${typeName}`,
      fields: {
        ...outputFields,
        clientMutationId: { type: GraphQLString, description: 'A unique identifier for the client performing the mutation.' },
        errors: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))), description: 'Errors encountered during execution of the mutation.' },
      },
    });
    return {
      type: payload,
      description,
      args: { input: { type: new GraphQLNonNull(input) } },
      resolve: (_root, args: { input: TArgs & { clientMutationId?: string } }, context) => {
        requireWrite(context);
        const result = context.sandbox.db.transaction(() => resolve(args.input, context))();
        return { errors: [], ...result, clientMutationId: args.input.clientMutationId ?? null };
      },
    };
  }

  const MappingInput = new GraphQLInputObjectType({
    name: 'AlertManagementPayloadAlertFieldInput',
    description: 'Field that are available while modifying the custom mapping attributes for an HTTP integration',
    fields: {
      fieldName: { type: new GraphQLNonNull(FieldNameEnum), description: 'GitLab alert field name.' },
      path: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(PathSegment))), description: 'Path to value inside payload JSON.' },
      label: { type: GraphQLString, description: 'Human-readable label of the payload path.' },
      type: { type: new GraphQLNonNull(FieldTypeEnum), description: 'Type of the parsed value.' },
    },
  });

  interface HttpFields { name?: string | null; active?: boolean | null; payloadExample?: string | null; payloadAttributeMappings?: Array<{ fieldName: string; path: string[]; label?: string | null; type: string }> | null }

  /** The model's validations of an HTTP integration: its messages as the platform words them. */
  function httpErrors(fields: HttpFields): string[] {
    const errors: string[] = [];
    if (fields.name !== undefined && fields.name !== null) {
      if (!fields.name.trim()) errors.push("Name can't be blank");
      if (fields.name.length > 255) errors.push('Name is too long (maximum is 255 characters)');
    }
    if (fields.payloadExample !== undefined && fields.payloadExample !== null) {
      const parsed = JSON.parse(fields.payloadExample) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) errors.push('Payload example must be a valid json schema');
    }
    for (const mapping of fields.payloadAttributeMappings ?? []) {
      if (!mapping.path.length) errors.push(`Payload attribute mapping of ${mapping.fieldName} needs a path`);
    }
    const names = (fields.payloadAttributeMappings ?? []).map((mapping) => mapping.fieldName);
    if (new Set(names).size !== names.length) errors.push('Payload attribute mapping names a field more than once');
    return errors;
  }
  const mappingsOf = (fields: HttpFields): AttributeMapping[] | undefined =>
    fields.payloadAttributeMappings?.map((mapping) => ({ fieldName: mapping.fieldName, path: mapping.path.map(String), type: mapping.type, label: mapping.label ?? null }));

  const projectToAdminister = (context: Ctx, path: string): ProjectRow => {
    const project = readableProject(context, path);
    if (!project || !canAdminOperations(context, project)) throw new GraphQLError(NOT_FOUND);
    return project;
  };
  const integrationToAdminister = (context: Ctx, id: number, type: IntegrationRow['type']): IntegrationRow => {
    const row = findIntegration(context.sandbox.db, id);
    const project = row && row.type === type ? readableProject(context, String(row.project_id)) : null;
    if (!row || !project || !canAdminOperations(context, project)) throw new GraphQLError(NOT_FOUND);
    return row;
  };
  const stamp = (context: Ctx) => timestamp(context.sandbox.now());

  const httpFields = {
    name: { type: GraphQLString, description: 'Name of the integration.' },
    active: { type: GraphQLBoolean, description: 'Whether the integration is receiving alerts.' },
    payloadExample: { type: JsonString, description: 'Example of an alert payload.' },
    payloadAttributeMappings: { type: new GraphQLList(new GraphQLNonNull(MappingInput)), description: 'Custom mapping of GitLab alert attributes to fields from the payload example.' },
  };
  const httpOut = { integration: { type: HttpIntegration, description: 'HTTP integration.' } };
  const prometheusOut = { integration: { type: PrometheusIntegration, description: 'Newly created integration.' } };

  function updateHttp(context: Ctx, row: IntegrationRow, fields: HttpFields) {
    const errors = httpErrors(fields);
    if (errors.length) return { integration: null, errors };
    const mappings = mappingsOf(fields);
    context.sandbox.db.prepare(
      `UPDATE alert_integrations SET name = coalesce(?, name), active = coalesce(?, active), payload_example = coalesce(?, payload_example),
         payload_attribute_mapping = coalesce(?, payload_attribute_mapping), updated_at = ? WHERE id = ?`,
    ).run(fields.name?.trim() ?? null, fields.active === undefined || fields.active === null ? null : Number(fields.active), fields.payloadExample ?? null, mappings ? JSON.stringify(mappings) : null, stamp(context), row.id);
    return { integration: findIntegration(context.sandbox.db, row.id) };
  }

  const resetToken = (context: Ctx, row: IntegrationRow) => {
    context.sandbox.db.prepare('UPDATE alert_integrations SET token = ?, updated_at = ? WHERE id = ?').run(newToken(), stamp(context), row.id);
    return { integration: findIntegration(context.sandbox.db, row.id) };
  };

  const alertInput = {
    projectPath: { type: new GraphQLNonNull(GraphQLID), description: 'Project the alert to mutate is in.' },
    iid: { type: new GraphQLNonNull(GraphQLString), description: 'IID of the alert to mutate.' },
  };
  const alertOut = { alert: { type: Alert, description: 'Alert after mutation.' }, issue: { type: Issue, description: 'Issue created after mutation.' } };
  const alertToUpdate = (context: Ctx, input: { projectPath: string; iid: string }): { project: ProjectRow; alert: AlertRow } => {
    const project = readableProject(context, input.projectPath);
    const alert = project && /^\d+$/.test(input.iid) ? findAlert(context.sandbox.db, project.id, Number(input.iid)) : undefined;
    if (!project || !alert || !canReadAlerts(context, project)) throw new GraphQLError(NOT_FOUND);
    return { project, alert };
  };
  const reloadAlert = (context: Ctx, alert: AlertRow) => context.sandbox.db.prepare('SELECT * FROM alert_management_alerts WHERE id = ?').get(alert.id) as AlertRow;

  const mutationFields: GraphQLFieldConfigMap<unknown, Ctx> = {
    httpIntegrationCreate: mutation<HttpFields & { projectPath: string; name: string; active: boolean }>(
      'httpIntegrationCreate', 'Creates an HTTP endpoint for alerts (several per project: top tier).',
      {
        projectPath: { type: new GraphQLNonNull(GraphQLID), description: 'Project to create the integration in.' },
        ...httpFields,
        name: { type: new GraphQLNonNull(GraphQLString), description: 'Name of the integration.' },
        active: { type: new GraphQLNonNull(GraphQLBoolean), description: 'Whether the integration is receiving alerts.' },
      },
      httpOut,
      (input, context) => {
        const project = projectToAdminister(context, input.projectPath);
        const errors = httpErrors(input);
        if (errors.length) return { integration: null, errors };
        return {
          integration: insertIntegration(context.sandbox.db, project.id, {
            type: 'http', name: input.name.trim(), active: input.active, payloadExample: input.payloadExample ?? '{}', mappings: mappingsOf(input) ?? [],
          }, stamp(context)),
        };
      },
    ),
    httpIntegrationUpdate: mutation<HttpFields & { id: number }>(
      'httpIntegrationUpdate', 'Updates an HTTP endpoint: name, active, sample payload and custom mapping.',
      { id: { type: new GraphQLNonNull(HttpIntegrationID), description: 'ID of the integration to mutate.' }, ...httpFields },
      httpOut,
      (input, context) => updateHttp(context, integrationToAdminister(context, input.id, 'http'), input),
    ),
    httpIntegrationResetToken: mutation<{ id: number }>(
      'httpIntegrationResetToken', 'Makes a new authorization key for an HTTP endpoint: the old one is refused from now on.',
      { id: { type: new GraphQLNonNull(HttpIntegrationID), description: 'ID of the integration to mutate.' } },
      httpOut,
      (input, context) => resetToken(context, integrationToAdminister(context, input.id, 'http')),
    ),
    httpIntegrationDestroy: mutation<{ id: number }>(
      'httpIntegrationDestroy', 'Removes an HTTP endpoint; its alerts stay.',
      { id: { type: new GraphQLNonNull(HttpIntegrationID), description: 'ID of the integration to remove.' } },
      httpOut,
      (input, context) => {
        const row = integrationToAdminister(context, input.id, 'http');
        context.sandbox.db.prepare('DELETE FROM alert_integrations WHERE id = ?').run(row.id);
        return { integration: row };
      },
    ),
    prometheusIntegrationCreate: mutation<{ projectPath: string; active: boolean; apiUrl?: string | null }>(
      'prometheusIntegrationCreate', 'Creates the metrics (Prometheus) integration of a project, one per project.',
      {
        projectPath: { type: new GraphQLNonNull(GraphQLID), description: 'Project to create the integration in.' },
        active: { type: new GraphQLNonNull(GraphQLBoolean), description: 'Whether the integration is receiving alerts.' },
        apiUrl: { type: GraphQLString, description: 'Endpoint at which Prometheus can be queried.' },
      },
      prometheusOut,
      (input, context) => {
        const project = projectToAdminister(context, input.projectPath);
        if (integrationsOf(context.sandbox.db, project.id, 'prometheus').length) return { integration: null, errors: ['Multiple Prometheus integrations are not supported'] };
        return { integration: insertIntegration(context.sandbox.db, project.id, { type: 'prometheus', name: 'Prometheus', active: input.active, apiUrl: input.apiUrl || null }, stamp(context)) };
      },
    ),
    prometheusIntegrationUpdate: mutation<{ id: number; active?: boolean | null; apiUrl?: string | null }>(
      'prometheusIntegrationUpdate', 'Activates, deactivates or points the metrics integration elsewhere.',
      {
        id: { type: new GraphQLNonNull(PrometheusID), description: 'ID of the integration to mutate.' },
        active: { type: GraphQLBoolean, description: 'Whether the integration is receiving alerts.' },
        apiUrl: { type: GraphQLString, description: 'Endpoint at which Prometheus can be queried.' },
      },
      prometheusOut,
      (input, context) => {
        const row = integrationToAdminister(context, input.id, 'prometheus');
        context.sandbox.db.prepare('UPDATE alert_integrations SET active = coalesce(?, active), api_url = CASE WHEN ? THEN ? ELSE api_url END, updated_at = ? WHERE id = ?')
          .run(input.active === undefined || input.active === null ? null : Number(input.active), input.apiUrl !== undefined ? 1 : 0, input.apiUrl || null, stamp(context), row.id);
        return { integration: findIntegration(context.sandbox.db, row.id) };
      },
    ),
    prometheusIntegrationResetToken: mutation<{ id: number }>(
      'prometheusIntegrationResetToken', 'Makes a new authorization key for the metrics integration.',
      { id: { type: new GraphQLNonNull(PrometheusID), description: 'ID of the integration to mutate.' } },
      prometheusOut,
      (input, context) => resetToken(context, integrationToAdminister(context, input.id, 'prometheus')),
    ),
    updateAlertStatus: mutation<{ projectPath: string; iid: string; status: AlertStatus }>(
      'updateAlertStatus', 'Sets the status of an alert.',
      { ...alertInput, status: { type: new GraphQLNonNull(AlertStatusEnum), description: 'Status to set the alert.' } },
      alertOut,
      (input, context) => {
        const { alert } = alertToUpdate(context, input);
        if (alert.status === input.status) return { alert };
        const { db } = context.sandbox;
        if (alert.status === 'resolved' && alert.fingerprint) {
          const clash = db.prepare("SELECT 1 FROM alert_management_alerts WHERE project_id = ? AND fingerprint = ? AND status <> 'resolved' AND id <> ?").get(alert.project_id, alert.fingerprint, alert.id);
          if (clash) return { alert, errors: ['Fingerprint Cannot have more than one alert with the same fingerprint'] };
        }
        const at = stamp(context);
        // resolving sets the end time; leaving resolved clears it (the platform's state machine)
        const endedAt = input.status === 'resolved' ? at : null;
        db.prepare('UPDATE alert_management_alerts SET status = ?, ended_at = ?, updated_at = ? WHERE id = ?').run(input.status, endedAt, at, alert.id);
        alertNote(db, alert.id, context.actor.user!.id, `changed the status to **${statusTitle(input.status)}**`, at);
        return { alert: reloadAlert(context, alert) };
      },
    ),
    alertSetAssignees: mutation<{ projectPath: string; iid: string; assigneeUsernames: string[]; operationMode?: 'REPLACE' | 'APPEND' | 'REMOVE' | null }>(
      'alertSetAssignees', 'Sets, adds or removes the assignees of an alert.',
      {
        ...alertInput,
        assigneeUsernames: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))), description: 'Usernames to assign to the alert. Replaces existing assignees by default.' },
        operationMode: { type: OperationModeEnum, description: 'Operation to perform. Defaults to REPLACE.' },
      },
      alertOut,
      (input, context) => {
        const { project, alert } = alertToUpdate(context, input);
        const { db } = context.sandbox;
        const targets = input.assigneeUsernames.length
          ? (db.prepare(`SELECT * FROM users WHERE username IN (${input.assigneeUsernames.map(() => '?').join(', ')}) COLLATE NOCASE ORDER BY id`).all(...input.assigneeUsernames) as UserRow[])
          : [];
        const current = db.prepare('SELECT user_id FROM alert_management_alert_assignees WHERE alert_id = ?').pluck().all(alert.id) as number[];
        const targetIds = targets.map((user) => user.id);
        const mode = input.operationMode ?? 'REPLACE';
        const next = mode === 'REPLACE' ? targetIds : mode === 'APPEND' ? [...new Set([...current, ...targetIds])] : current.filter((id) => !targetIds.includes(id));
        const now = context.sandbox.now();
        const added = next.filter((id) => !current.includes(id));
        // the platform's update service: an assignee must be able to read the alert
        const refused = targets.filter((user) => added.includes(user.id) && effectiveRole(db, { ...ANONYMOUS, user, via: 'access_token' }, { type: 'Project', id: project.id }, now) < AccessLevel.DEVELOPER);
        if (refused.length) return { alert, errors: ['Assignee has no permissions'] };
        db.prepare('DELETE FROM alert_management_alert_assignees WHERE alert_id = ?').run(alert.id);
        const insert = db.prepare('INSERT INTO alert_management_alert_assignees (alert_id, user_id) VALUES (?, ?)');
        for (const id of next) insert.run(alert.id, id);
        const at = timestamp(now);
        db.prepare('UPDATE alert_management_alerts SET updated_at = ? WHERE id = ?').run(at, alert.id);
        if (added.length) {
          const names = (db.prepare(`SELECT username FROM users WHERE id IN (${added.map(() => '?').join(', ')}) ORDER BY id`).pluck().all(...added) as string[]).map((name) => `@${name}`);
          alertNote(db, alert.id, context.actor.user!.id, `assigned to ${names.join(', ')}`, at);
        }
        return { alert: reloadAlert(context, alert) };
      },
    ),
    createAlertIssue: mutation<{ projectPath: string; iid: string }>(
      'createAlertIssue', 'Creates an incident issue from an alert and links it.',
      alertInput,
      alertOut,
      (input, context) => {
        const { project, alert } = alertToUpdate(context, input);
        const { db } = context.sandbox;
        if (alert.issue_id !== null && db.prepare('SELECT 1 FROM issues WHERE id = ?').get(alert.issue_id)) return { alert, errors: ['An issue already exists'] };
        const at = stamp(context);
        const iid = nextIssueIid(db, project.id);
        const id = Number(db.prepare(
          `INSERT INTO issues (iid, project_id, title, description, issue_type, author_id, milestone_id, confidential, discussion_locked, due_date, weight,
             relative_position, created_at, updated_at) VALUES (?, ?, ?, ?, 'incident', ?, NULL, 0, NULL, NULL, NULL, ?, ?, ?)`,
        ).run(iid, project.id, alert.title, incidentDescription(context, alert), context.actor.user!.id, positionAtEnd(db, project.id), at, at).lastInsertRowid);
        db.prepare('UPDATE alert_management_alerts SET issue_id = ?, updated_at = ? WHERE id = ?').run(id, at, alert.id);
        db.prepare('UPDATE projects SET last_activity_at = ? WHERE id = ?').run(at, project.id);
        alertNote(db, alert.id, context.actor.user!.id, `created incident #${iid} for this alert`, at);
        return { alert: reloadAlert(context, alert), issue: db.prepare('SELECT * FROM issues WHERE id = ?').get(id) };
      },
    ),
  };

  /** The incident's description: the alert's summary as the platform's presenter writes it, then the link back. */
  function incidentDescription(context: Ctx, alert: AlertRow): string {
    const hosts = JSON.parse(alert.hosts) as string[];
    const lines = [
      `**Start time:** ${alert.started_at}`,
      `**Severity:** ${alert.severity}`,
      alert.service ? `**Service:** ${alert.service}` : null,
      alert.monitoring_tool ? `**Monitoring tool:** ${alert.monitoring_tool}` : null,
      hosts.length ? `**Hosts:** ${hosts.join(' ')}` : null,
      alert.description ? `**Description:** ${alert.description}` : null,
    ].filter((line) => line !== null);
    return `${lines.join('  \n')}\n\n[View alert details](${detailsUrl(alert, context)})`;
  }

  return { projectFields, mutationFields };
}
