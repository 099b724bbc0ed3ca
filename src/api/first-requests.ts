import type { QueryClient } from '@tanstack/react-query';
import { DETAIL_FRESH_MS, ROLE_FRESH_MS, startEarly } from './early.ts';
import { parseLineHash } from '../lib/line-hash.ts';
import { accessLevelIn, groupDetailKey, groupListsKey, listedItem, myAccessKey, myAccessQuery, projectDetailKey, type Scope } from './keys.ts';
import { apiBase, apiPath, encodeQuery, normalizePath, withoutEmpty, type QueryParams } from './params.ts';
import { ALERTS_QUERY, TAGS_QUERY, alertListVariables, graphqlBody, graphqlUrl, tagsVariables } from './graphql-reads.ts';
import { AccessLevel } from './vocabulary.ts';

/**
 * Which requests a screen's loader sends first, known without the screen's code: the boot script
 * sends them for a deep link while the console's code downloads, and a pressed link sends them
 * before its route's code has run (api/early.ts hands the answers to the client). Only plain
 * addresses are known here (a list's first page, a file at the URL's ref); any other search leaves
 * the requests to the loader. first-requests.test.ts runs each loader to check that it asks for
 * exactly these.
 */

/**
 * A GET of the REST API, or a GraphQL query (`graphql`, the body the client sends), and the ones
 * that need its answer (a tree waits for the project's default branch).
 */
export type FirstRequest = ({ path: string; query?: QueryParams } | { graphql: ReturnType<typeof graphqlBody> }) & {
  /** How long the cache shows its answer without asking again, when longer than its default 30 s. */
  freshMs?: number;
  then?: (answer: unknown) => FirstRequest[];
};

export interface Caller {
  isAdmin: boolean;
  userId: number;
}

/** What the console already holds: a pressed link's screen need not wait for an answer it has (the boot script holds none). */
export interface Known {
  /** A project's default branch, from its details in the query cache. */
  defaultBranch?: (projectId: number) => string | undefined;
  /** Whether a group's details are held, or a cached list holds the group (the loader takes them from it: api/groups.ts `ensureGroup`). */
  group?: (groupId: number) => boolean;
  /** The caller's role in a group or project, when held (the loader takes it, even stale: api/members.ts `ensureMyAccess`). */
  role?: (scope: Scope, userId: number) => number | undefined;
  /** A project's full path (GraphQL names projects by it), from its details in the query cache. */
  projectPath?: (projectId: number) => string | undefined;
}

/** What `cache` (the query client; not imported here, the boot script has none) holds for the table. */
export function knownFrom(cache: Pick<QueryClient, 'getQueryData' | 'getQueriesData' | 'getQueryState'>): Known {
  return {
    defaultBranch: (projectId) => cache.getQueryData<{ default_branch?: string | null }>(projectDetailKey(projectId))?.default_branch ?? undefined,
    group: (groupId) => cache.getQueryData(groupDetailKey(groupId)) !== undefined || listedItem(cache, groupListsKey, groupId) !== undefined,
    role: (scope, userId) => cache.getQueryData<number>(myAccessKey(scope, userId)),
    projectPath: (projectId) => cache.getQueryData<{ path_with_namespace?: string }>(projectDetailKey(projectId))?.path_with_namespace,
  };
}

type ScopeKind = 'groups' | 'projects';

/** A group's or project's details, which a screen's title reads. */
const detailOf = (kind: ScopeKind, id: string): FirstRequest =>
  kind === 'groups' ? { path: `/groups/${id}`, query: { with_projects: false }, freshMs: DETAIL_FRESH_MS } : { path: `/projects/${id}`, freshMs: DETAIL_FRESH_MS };

/** The details a screen's title reads, unless the console holds the group already. */
const unknownDetailOf = (kind: ScopeKind, id: string, known: Known): FirstRequest[] => (kind === 'groups' && known.group?.(Number(id)) ? [] : [detailOf(kind, id)]);

/** The caller's role, which decides what a screen offers; an administrator may do everything and is not asked. */
const roleOf = (kind: ScopeKind, id: string, caller: Caller): FirstRequest[] =>
  caller.isAdmin ? [] : [{ path: `/${kind}/${id}/members/all`, query: myAccessQuery(caller.userId), freshMs: ROLE_FRESH_MS }];

/**
 * A list only some roles may read: for anyone but an administrator the list goes if the role is at
 * least `level`, decided at once from a held role, else after the role's answer (the loader waits
 * for the role as well: api/members.ts whenRoleAllows), so the platform is not asked for what it
 * would refuse.
 */
function forRole(kind: ScopeKind, id: string, caller: Caller, known: Known, level: number, requests: FirstRequest[]): FirstRequest[] {
  if (caller.isAdmin) return requests;
  const held = known.role?.(kind === 'groups' ? { group: Number(id) } : { project: Number(id) }, caller.userId);
  if (held !== undefined) return held >= level ? requests : [];
  return roleOf(kind, id, caller).map((role) => ({ ...role, then: (members: unknown) => (accessLevelIn(members, caller.userId) >= level ? requests : []) }));
}

// who may list a group's or a project's runners (features/runners/permissions.ts): its Owners, its Maintainers
const RUNNERS_LEVEL = { groups: AccessLevel.OWNER, projects: AccessLevel.MAINTAINER } as const;
// who may list a group's access tokens (features/access-tokens/route-options.ts): its Owners
const TOKENS_LEVEL = AccessLevel.OWNER;

/** A page of a directory: keyset pages of this size. */
export const TREE_PAGE_SIZE = 100;
/** Lines per blame request: small enough to answer fast, large enough that a screen needs one or two. */
export const RANGE_LINES = 2000;
export const rangeIndexOf = (line: number) => Math.floor((Math.max(1, line) - 1) / RANGE_LINES);
export const rangeStart = (index: number) => index * RANGE_LINES + 1;
export const rangeEnd = (index: number) => (index + 1) * RANGE_LINES;

const FIRST_PAGE = { page: 1, per_page: 20 } as const;
// the open issues, newest first, with their labels' colours (api/issues.ts): a project's in keyset pages, a group's by offset
const ISSUES_FIRST_PAGE = { state: 'opened', order_by: 'created_at', sort: 'desc', per_page: 20, with_labels_details: true } as const;
const ISSUES_FIRST_PAGES = { projects: { ...ISSUES_FIRST_PAGE, pagination: 'keyset' }, groups: { ...ISSUES_FIRST_PAGE, page: 1 } } as const;
// the newest packages of a project or group (features/packages/search.ts's defaults)
const PACKAGES_FIRST_PAGE = { order_by: 'created_at', sort: 'desc', ...FIRST_PAGE } as const;

// the open alerts, newest first (features/alerts/search.ts's defaults)
const ALERTS_FIRST_PAGE = { tab: 'open', search: '', sort: 'STARTED_AT_DESC' } as const;

// the groups and projects lists (features/groups|projects/search.ts's defaults): the caller's own, every one for an administrator
const GROUPS_FIRST_PAGE = { order_by: 'name', sort: 'asc', page: 1 } as const;
const PROJECTS_FIRST_PAGE = { order_by: 'last_activity_at', sort: 'desc', archived: false, page: 1 } as const;
const groupsPage = (perPage: number, all: boolean): FirstRequest => ({ path: '/groups', query: { ...GROUPS_FIRST_PAGE, per_page: perPage, all_available: all } });
const projectsPage = (perPage: number, all: boolean): FirstRequest => ({ path: '/projects', query: { ...PROJECTS_FIRST_PAGE, per_page: perPage, membership: all ? undefined : true } });
// home lists the caller's own first few (features/shell/home-queries.ts)
const HOME_LISTED = 8;

/** `GET /projects/:id/repository/tree`'s query for a directory at a ref. */
export function treeQuery(path: string | undefined, ref: string | undefined, recursive?: boolean): QueryParams {
  return { ...withoutEmpty({ path, ref, recursive }), pagination: 'keyset', per_page: TREE_PAGE_SIZE };
}

/** Lines of a blame screen's first request: the platform's own first page of streamed blame is as small. */
export const FIRST_VIEW_LINES = 200;

/**
 * The lines a blame screen opens with: around its line (`#L40000`, `#L10-20`), else the top. A
 * whole range (about 37 KB) would share a cold link with the console's code for nothing below the fold.
 */
export function firstBlameLines(line: number | null): { start: number; end: number } {
  const start = Math.max(1, (line ?? 1) - FIRST_VIEW_LINES / 2);
  return { start, end: start + FIRST_VIEW_LINES - 1 };
}

/**
 * The URL's search as the router reads it (values are JSON where they parse, text otherwise), or
 * null when it holds anything but `allowed` keys with text values.
 */
function plainSearch(search: string, allowed: readonly string[]): Record<string, string> | null {
  const values: Record<string, string> = {};
  for (const [key, raw] of new URLSearchParams(search)) {
    if (!allowed.includes(key)) return null;
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // plain text
    }
    if (typeof value !== 'string' || !value) return null;
    values[key] = value;
  }
  return values;
}

/** The splat of a pathname, decoded as the router decodes it; null when it does not decode. */
function decodedSplat(splat: string): string | null {
  try {
    return normalizePath(splat.split('/').map(decodeURIComponent).join('/'));
  } catch {
    return null;
  }
}

/** A text field of a project's answer (its default branch, its full path), or null when it has none. */
const projectText = (project: unknown, field: 'default_branch' | 'path_with_namespace') => {
  const value = (project as Record<string, unknown> | null)?.[field];
  return typeof value === 'string' && value ? value : null;
};

/** GraphQL names a project by its full path: the project's details are read first, unless held. */
function byFullPath(projectId: number, known: Known, requests: (fullPath: string) => FirstRequest[]): FirstRequest[] {
  const held = known.projectPath?.(projectId);
  if (held) return requests(held);
  return [{ ...detailOf('projects', String(projectId)), then: (answer) => { const fullPath = projectText(answer, 'path_with_namespace'); return fullPath ? requests(fullPath) : []; } }];
}

/**
 * The file screens resolve the ref first: the URL's, else the project's default branch. The tree
 * reads the project in any case (whether the repository is empty), the blame only for the branch.
 */
function atRef(projectId: number, urlRef: string | undefined, known: Known, { projectFirst }: { projectFirst: boolean }, requests: (ref: string) => FirstRequest[]): FirstRequest[] {
  const project = detailOf('projects', String(projectId));
  // the loader reads the default branch from the cached details too: the same request
  const ref = urlRef ?? known.defaultBranch?.(projectId);
  if (ref) return [...(projectFirst ? [project] : []), ...requests(ref)];
  return [{ ...project, then: (answer) => { const branch = projectText(answer, 'default_branch'); return branch ? requests(branch) : []; } }];
}

// a hundred to a page, the platform's most: a thread, events, a diff's files, commits, a pipeline's jobs
const ALL_ON_ONE_PAGE = { page: 1, per_page: 100 } as const;

/**
 * An issue, a link to which is most often how someone arrives: the issue with its labels' colours,
 * then the first page of its notes, oldest first, and of each kind of its events (its timeline).
 */
function issueFirstRequests(projectId: string, iid: string): FirstRequest[] {
  const issue = `/projects/${projectId}/issues/${iid}`;
  return [
    { path: issue, query: { with_labels_details: true } },
    { path: `${issue}/notes`, query: { sort: 'asc', order_by: 'created_at', ...ALL_ON_ONE_PAGE } },
    ...['resource_label_events', 'resource_state_events', 'resource_milestone_events'].map((events) => ({ path: `${issue}/${events}`, query: ALL_ON_ONE_PAGE })),
  ];
}

/**
 * A merge request, the review's way in: the request (the header of every tab), then the tab's own.
 * The overview's are its first page of threads and its reviewers, and what the review panels show
 * (approvals, their state, the project's approval settings, the project); Changes' its first page
 * of files, Commits' its first page of commits.
 */
function mergeRequestFirstRequests(projectId: string, iid: string, tab: 'changes' | 'commits' | undefined): FirstRequest[] {
  const request = `/projects/${projectId}/merge_requests/${iid}`;
  if (tab) return [{ path: request }, { path: `${request}/${tab === 'changes' ? 'diffs' : 'commits'}`, query: ALL_ON_ONE_PAGE }];
  return [
    { path: request },
    { path: `${request}/discussions`, query: ALL_ON_ONE_PAGE },
    { path: `${request}/reviewers` },
    { path: `${request}/approvals` },
    { path: `${request}/approval_state` },
    { path: `/projects/${projectId}/approvals` },
    detailOf('projects', projectId),
  ];
}

/** A pipeline's graph or jobs tab, where a failed pipeline's notification leads: the pipeline (the header) and the first page of its jobs. */
const pipelineFirstRequests = (projectId: string, pipelineId: string): FirstRequest[] => [
  { path: `/projects/${projectId}/pipelines/${pipelineId}` },
  { path: `/projects/${projectId}/pipelines/${pipelineId}/jobs`, query: ALL_ON_ONE_PAGE },
];

export function firstRequests(pathname: string, search: string, hash: string, caller: Caller, known: Known = {}): FirstRequest[] {
  if (pathname === '/') return plainSearch(search, []) ? [groupsPage(HOME_LISTED, false), projectsPage(HOME_LISTED, false)] : [];
  let match = /^\/(groups|projects)\/?$/.exec(pathname);
  if (match) {
    if (!plainSearch(search, [])) return [];
    return [match[1] === 'groups' ? groupsPage(FIRST_PAGE.per_page, caller.isAdmin) : projectsPage(FIRST_PAGE.per_page, caller.isAdmin)];
  }

  match = /^\/(groups|projects)\/(\d+)\/members\/?$/.exec(pathname);
  if (match) {
    const [, kind, id] = match as unknown as [string, ScopeKind, string];
    return plainSearch(search, []) ? [{ path: `/${kind}/${id}/members`, query: FIRST_PAGE }, ...unknownDetailOf(kind, id, known), ...roleOf(kind, id, caller)] : [];
  }

  match = /^\/(?:admin|(groups|projects)\/(\d+))\/runners\/?$/.exec(pathname);
  if (match) {
    const [, kind, id] = match as unknown as [string, ScopeKind | undefined, string];
    // a non-administrator is not sent to the instance's fleet at all
    if (!plainSearch(search, []) || (!kind && !caller.isAdmin)) return [];
    return kind ? forRole(kind, id, caller, known, RUNNERS_LEVEL[kind], [{ path: `/${kind}/${id}/runners`, query: FIRST_PAGE }]) : [{ path: '/runners/all', query: FIRST_PAGE }];
  }

  match = /^\/(groups|projects)\/(\d+)\/(issues|merge-requests|pipelines)\/?$/.exec(pathname);
  if (match) {
    const [, kind, id, list] = match as unknown as [string, ScopeKind, string, string];
    if (!plainSearch(search, []) || (kind === 'groups' && list === 'pipelines')) return [];
    const details = unknownDetailOf(kind, id, known);
    if (list === 'issues') return [{ path: `/${kind}/${id}/issues`, query: ISSUES_FIRST_PAGES[kind] }, ...details, { path: `/${kind}/${id}/issues_statistics` }];
    if (list === 'merge-requests') return [{ path: `/${kind}/${id}/merge_requests`, query: { state: 'opened', order_by: 'created_at', sort: 'desc', ...FIRST_PAGE } }, ...details];
    return [{ path: `/projects/${id}/pipelines`, query: { order_by: 'id', sort: 'desc', ...FIRST_PAGE } }, ...details, ...roleOf('projects', id, caller)];
  }

  match = /^\/(groups|projects)\/(\d+)\/packages\/?$/.exec(pathname);
  if (match) {
    const [, kind, id] = match as unknown as [string, ScopeKind, string];
    return plainSearch(search, []) ? [{ path: `/${kind}/${id}/packages`, query: PACKAGES_FIRST_PAGE }, ...unknownDetailOf(kind, id, known)] : [];
  }

  match = /^\/groups\/(\d+)\/access-tokens\/?$/.exec(pathname);
  // anyone else's role is read first: the list may not be theirs to see
  if (match) return plainSearch(search, []) ? [...forRole('groups', match[1], caller, known, TOKENS_LEVEL, [{ path: `/groups/${match[1]}/access_tokens`, query: { sort: 'created_desc', ...FIRST_PAGE } }]), ...unknownDetailOf('groups', match[1], known)] : [];

  match = /^\/projects\/(\d+)\/(?:issues\/(\d+)|merge-requests\/(\d+)(?:\/(changes|commits))?)\/?$/.exec(pathname);
  if (match) {
    if (!plainSearch(search, [])) return [];
    const [, id, issueIid, requestIid, tab] = match;
    return issueIid ? issueFirstRequests(id!, issueIid) : mergeRequestFirstRequests(id!, requestIid!, tab as 'changes' | 'commits' | undefined);
  }

  match = /^\/projects\/(\d+)\/pipelines\/(\d+)(?:\/jobs)?\/?$/.exec(pathname);
  if (match) return plainSearch(search, []) ? pipelineFirstRequests(match[1]!, match[2]!) : [];

  match = /^\/projects\/(\d+)\/jobs\/(\d+)\/?$/.exec(pathname);
  // the job (its log is text, which the client reads apart)
  if (match) return plainSearch(search, []) ? [{ path: `/projects/${match[1]}/jobs/${match[2]}` }] : [];

  match = /^\/projects\/(\d+)\/alerts\/?$/.exec(pathname);
  if (match) return plainSearch(search, []) ? byFullPath(Number(match[1]), known, (fullPath) => [{ graphql: graphqlBody(ALERTS_QUERY, alertListVariables(fullPath, ALERTS_FIRST_PAGE)) }]) : [];

  match = /^\/projects\/\d+\/registry\/(\d+)\/?$/.exec(pathname);
  // the image, and its first page of tags by name
  if (match) return plainSearch(search, []) ? [{ path: `/registry/repositories/${match[1]}`, query: { tags_count: true, size: true } }, { graphql: graphqlBody(TAGS_QUERY, tagsVariables(Number(match[1]), null)) }] : [];

  match = /^\/projects\/(\d+)\/(tree|blame)(?:\/(.*))?$/.exec(pathname);
  if (match) {
    const values = plainSearch(search, ['ref']);
    const path = decodedSplat(match[3] ?? '');
    if (!values || path === null) return [];
    const projectId = Number(match[1]);
    if (match[2] === 'tree') return atRef(projectId, values.ref, known, { projectFirst: true }, (ref) => [{ path: apiPath`/projects/${projectId}/repository/tree`, query: treeQuery(path, ref) }]);
    if (!path) return [];
    return atRef(projectId, values.ref, known, { projectFirst: false }, (ref) => [{ path: apiPath`/projects/${projectId}/repository/files/${path}/blame`, query: { ref, range: firstBlameLines(parseLineHash(hash)?.first ?? null) } }]);
  }
  return [];
}

/** Sends `requests` to `instance` with `token` (api/early.ts), each dependent one once its parent has answered. */
export function sendFirstRequests(instance: { instanceUrl: string }, token: string, requests: FirstRequest[]): void {
  for (const request of requests) {
    let response: Promise<Response> | null;
    if ('graphql' in request) {
      response = startEarly(graphqlUrl(instance), token, request.freshMs, undefined, JSON.stringify(request.graphql));
    } else {
      const query = encodeQuery(request.query);
      response = startEarly(`${apiBase(instance)}${request.path}${query ? `?${query}` : ''}`, token, request.freshMs);
    }
    const then = request.then;
    if (!response || !then) continue;
    // read from a copy, before the client reads the answer itself
    response
      .then((answer) => (answer.ok ? answer.clone().json() : undefined))
      .then((data: unknown) => data !== undefined && sendFirstRequests(instance, token, then(data)))
      .catch(() => undefined);
  }
}
