import type { AlertSort, AlertStatus, AlertTab } from './vocabulary.ts';

/**
 * The GraphQL reads a screen sends first: their documents and variables, apart from their schemas
 * so the boot script can send them (api/first-requests.ts) while the console's code downloads. The
 * client sends the very same body, so the early answer is taken for it (api/early.ts).
 */

/** The platform's GraphQL endpoint, beside `/api/v4`. */
export const GRAPHQL_PATH = '/api/graphql';

/** `{instance}/api/graphql`. */
export function graphqlUrl(connection: { instanceUrl: string }): string {
  return `${connection.instanceUrl.replace(/\/+$/, '')}${GRAPHQL_PATH}`;
}

/** A GraphQL POST's body, as both the client and the boot script write it. */
export function graphqlBody(query: string, variables: Record<string, unknown>): { query: string; variables: Record<string, unknown> } {
  return { query, variables };
}

// -- a project's alerts

const USER_FIELDS = 'id username name avatarUrl webUrl';
export const ALERT_FIELDS = `iid title severity status startedAt endedAt eventCount createdAt updatedAt assignees { nodes { ${USER_FIELDS} } } issue { iid webUrl title state }`;

export const ALERTS_QUERY = `query alerts($fullPath: ID!, $statuses: [AlertManagementStatus!], $search: String, $sort: AlertManagementAlertSort, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    alertManagementAlerts(statuses: $statuses, search: $search, sort: $sort, first: $first, after: $after) {
      nodes { ${ALERT_FIELDS} }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
    alertManagementAlertStatusCounts(search: $search) { all open triggered acknowledged resolved ignored }
  }
}`;

export const ALERTS_PER_PAGE = 20;

export interface AlertListParams {
  tab: AlertTab;
  search: string;
  sort: AlertSort;
  /** The cursor of the platform's connection the page starts after; none for the first page. */
  after?: string;
}

/** The statuses of a tab of the list (the platform's AlertManagementStatus); all of them for "all". */
export function tabStatuses(tab: AlertTab): AlertStatus[] | undefined {
  if (tab === 'all') return undefined;
  if (tab === 'open') return ['TRIGGERED', 'ACKNOWLEDGED'];
  return [tab.toUpperCase() as AlertStatus];
}

export function alertListVariables(fullPath: string, params: AlertListParams): Record<string, unknown> {
  return {
    fullPath,
    statuses: tabStatuses(params.tab),
    search: params.search || undefined,
    sort: params.sort,
    first: ALERTS_PER_PAGE,
    after: params.after || undefined,
  };
}

// -- an image's tags

export const TAG_PAGE_SIZE = 100;

/**
 * A repository's tags by name, with digest, size and manifest creation time: the platform's
 * REST list has name, path and location only (its details come one tag per request), so tags are
 * read as the platform's own registry pages read them, through GraphQL `containerRepository.tags`.
 */
export const TAGS_QUERY = `query containerRepositoryTags($id: ContainerRepositoryID!, $first: Int, $after: String) {
  containerRepository(id: $id) {
    tags(first: $first, after: $after, sort: NAME_ASC) {
      nodes { name path location digest revision shortRevision totalSize createdAt }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

export function tagsVariables(repositoryId: number, after: string | null): Record<string, unknown> {
  return { id: `gid://gitlab/ContainerRepository/${repositoryId}`, first: TAG_PAGE_SIZE, after };
}
