/** The fixed values of list filters and sorts: URL schemas use these without loading an area's API code. */

export const TOKEN_SORTS = [
  { value: 'created_desc', label: 'Created, newest first' },
  { value: 'created_asc', label: 'Created, oldest first' },
  { value: 'expires_asc', label: 'Expires, soonest first' },
  { value: 'expires_desc', label: 'Expires, latest first' },
  { value: 'last_used_desc', label: 'Used, most recent first' },
  { value: 'last_used_asc', label: 'Used, least recent first' },
  { value: 'name_asc', label: 'Name, A to Z' },
  { value: 'name_desc', label: 'Name, Z to A' },
] as const;
export type TokenSort = (typeof TOKEN_SORTS)[number]['value'];
export const TOKEN_SORT_VALUES = TOKEN_SORTS.map((sort) => sort.value) as [TokenSort, ...TokenSort[]];

export const BILLABLE_SORTS = [
  { value: 'name_asc', label: 'Name, A to Z' },
  { value: 'name_desc', label: 'Name, Z to A' },
  { value: 'access_level_desc', label: 'Role, highest first' },
  { value: 'access_level_asc', label: 'Role, lowest first' },
  { value: 'last_joined', label: 'Joined, newest first' },
  { value: 'oldest_joined', label: 'Joined, oldest first' },
  { value: 'recent_sign_in', label: 'Signed in, most recent first' },
  { value: 'oldest_sign_in', label: 'Signed in, least recent first' },
  { value: 'last_activity_on_desc', label: 'Active, most recent first' },
  { value: 'last_activity_on_asc', label: 'Active, least recent first' },
] as const;
export type BillableSort = (typeof BILLABLE_SORTS)[number]['value'];
export const BILLABLE_SORT_VALUES = BILLABLE_SORTS.map((sort) => sort.value) as [BillableSort, ...BillableSort[]];

export const ACCOUNT_SORTS = [
  { value: 'id_desc', label: 'Newest first' },
  { value: 'id_asc', label: 'Oldest first' },
  { value: 'username_asc', label: 'Username, A to Z' },
  { value: 'username_desc', label: 'Username, Z to A' },
] as const;

export const RUNNER_TYPES = [
  { value: 'instance_type', label: 'Instance' },
  { value: 'group_type', label: 'Group' },
  { value: 'project_type', label: 'Project' },
] as const;
export type RunnerType = (typeof RUNNER_TYPES)[number]['value'];
export const RUNNER_TYPE_VALUES = RUNNER_TYPES.map((type) => type.value) as [RunnerType, ...RunnerType[]];

/** The `status` filter values of spec 1, 4.3 the console offers (active/paused go through `paused`). */
export const RUNNER_STATUSES = [
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
  { value: 'stale', label: 'Stale' },
  { value: 'never_contacted', label: 'Never contacted' },
] as const;
export type RunnerStatus = (typeof RUNNER_STATUSES)[number]['value'];
export const RUNNER_STATUS_VALUES = RUNNER_STATUSES.map((status) => status.value) as [RunnerStatus, ...RunnerStatus[]];

export const RUNNER_ACCESS_LEVELS = [
  { value: 'not_protected', label: 'Any branch or tag' },
  { value: 'ref_protected', label: 'Protected branches and tags only' },
] as const;
export type RunnerAccessLevel = (typeof RUNNER_ACCESS_LEVELS)[number]['value'];

/** Ci::Build::AVAILABLE_STATUSES: the runner jobs list's `status` filter. */
export const JOB_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success',
  'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** The orders of an issue list (spec 2, 4.1). */
export type IssueOrder = 'created_at' | 'updated_at' | 'priority' | 'due_date' | 'relative_position' | 'label_priority' | 'milestone_due' | 'popularity' | 'weight' | 'title';

/** The orders a project's issues may be paged by keyset in. */
export const KEYSET_ISSUE_ORDERS: readonly IssueOrder[] = ['created_at', 'updated_at'];

/** spec 3, 2.5: a pipeline's status values, in the platform's order. */
export const PIPELINE_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual', 'scheduled',
] as const;
export type PipelineStatus = (typeof PIPELINE_STATUSES)[number];

/** The `source` values of the platform's pipelines list filter (Ci::Pipeline sources). */
export const PIPELINE_SOURCES = [
  'push', 'web', 'trigger', 'schedule', 'api', 'external', 'pipeline', 'chat', 'webide', 'merge_request_event',
  'external_pull_request_event', 'parent_pipeline', 'ondemand_dast_scan', 'ondemand_dast_validation', 'security_orchestration_policy', 'container_registry_push',
] as const;
export type PipelineSource = (typeof PIPELINE_SOURCES)[number];

/** spec 3, 4.5: `scope` of the pipelines list. */
export const PIPELINE_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
export type PipelineScope = (typeof PIPELINE_SCOPES)[number];

/** spec 3, 4.5: `order_by` of the pipelines list (id is the default). */
export const PIPELINE_ORDERS = ['id', 'status', 'ref', 'updated_at', 'user_id'] as const;
export type PipelineOrder = (typeof PIPELINE_ORDERS)[number];

/** A pipeline variable's `variable_type` (spec 3, 4.5: env_var is the default). */
export const VARIABLE_TYPES = ['env_var', 'file'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

// -- packages (spec 3, 4.6)
export const PACKAGE_TYPES = ['conan', 'maven', 'npm', 'pypi', 'composer', 'nuget', 'helm', 'terraform_module', 'golang', 'generic'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];
/** spec 3, 4.6: the group list has no terraform_module filter. */
export const GROUP_PACKAGE_TYPES = PACKAGE_TYPES.filter((type) => type !== 'terraform_module');

/** The `status` filter's values (spec 3, 4.6); `deprecated` is a status a package has, not one to filter by. */
export const PACKAGE_STATUS_FILTERS = ['default', 'hidden', 'processing', 'error', 'pending_destruction'] as const;
export type PackageStatusFilter = (typeof PACKAGE_STATUS_FILTERS)[number];
export const PACKAGE_STATUSES = ['default', 'deprecated', 'error', 'hidden', 'processing', 'pending_destruction'] as const;

export const PACKAGE_ORDERS = ['created_at', 'name', 'version', 'type'] as const;
export const GROUP_PACKAGE_ORDERS = [...PACKAGE_ORDERS, 'project_path'] as const;
export type PackageOrder = (typeof GROUP_PACKAGE_ORDERS)[number];

// -- alerts (the platform's AlertManagementStatus and AlertManagementAlertSort, and the status tabs)
export const ALERT_STATUSES = ['TRIGGERED', 'ACKNOWLEDGED', 'RESOLVED', 'IGNORED'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_SORTS = [
  { value: 'STARTED_AT_DESC', label: 'Start time, newest first' },
  { value: 'STARTED_AT_ASC', label: 'Start time, oldest first' },
  { value: 'SEVERITY_DESC', label: 'Severity, highest first' },
  { value: 'SEVERITY_ASC', label: 'Severity, lowest first' },
  { value: 'EVENT_COUNT_DESC', label: 'Events, most first' },
  { value: 'EVENT_COUNT_ASC', label: 'Events, fewest first' },
  { value: 'STATUS_ASC', label: 'Status, triggered first' },
  { value: 'UPDATED_TIME_DESC', label: 'Updated, newest first' },
] as const;
export type AlertSort = (typeof ALERT_SORTS)[number]['value'];

/** The list's tabs: the platform's status counts name `open` (triggered and acknowledged) and `all`. */
export const ALERT_TABS = ['open', 'triggered', 'acknowledged', 'resolved', 'ignored', 'all'] as const;
export type AlertTab = (typeof ALERT_TABS)[number];

/** The roles (spec 1, 2.7) the permission rules compare a caller's access level against. */
export const AccessLevel = { PLANNER: 15, REPORTER: 20, DEVELOPER: 30, MAINTAINER: 40, OWNER: 50 } as const;
