import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { canonicalUrl, forgetEarly } from './early.ts';
import { firstRequests, knownFrom, sendFirstRequests } from './first-requests.ts';
import { groupListsKey, myAccessKey, projectDetailKey } from './keys.ts';
import type { Connection } from './http.ts';
import type { SessionStore } from './session.ts';
import { membersSearchSchema } from '../features/members/search.ts';
import { runnersSearchSchema } from '../features/runners/search.ts';
import { tokensSearchSchema } from '../features/access-tokens/search.ts';
import { Route as GroupMembers } from '../routes/groups/$groupId/members.tsx';
import { Route as ProjectMembers } from '../routes/projects/$projectId/members.tsx';
import { Route as InstanceRunners } from '../routes/admin/runners.tsx';
import { Route as GroupRunners } from '../routes/groups/$groupId/runners.tsx';
import { Route as ProjectRunners } from '../routes/projects/$projectId/runners.tsx';
import { Route as GroupTokens } from '../routes/groups/$groupId/access-tokens.tsx';
import { Route as Tree } from '../routes/projects/$projectId/tree.$.tsx';
import { Route as Blame } from '../routes/projects/$projectId/blame.$.tsx';
import { Route as Issues } from '../routes/projects/$projectId/issues/index.tsx';
import { Route as MergeRequests } from '../routes/projects/$projectId/merge-requests/index.tsx';
import { Route as Pipelines } from '../routes/projects/$projectId/pipelines/index.tsx';
import { Route as ProjectPackages } from '../routes/projects/$projectId/packages/index.tsx';
import { Route as GroupPackages } from '../routes/groups/$groupId/packages.tsx';
import { Route as GroupIssues } from '../routes/groups/$groupId/issues.tsx';
import { Route as GroupMergeRequests } from '../routes/groups/$groupId/merge-requests.tsx';
import { Route as Home } from '../routes/index.tsx';
import { Route as Groups } from '../routes/groups/index.tsx';
import { Route as Projects } from '../routes/projects/index.tsx';
import { Route as Alerts } from '../routes/projects/$projectId/alerts/index.tsx';
import { Route as RegistryImage } from '../routes/projects/$projectId/registry/$repositoryId.tsx';
import { Route as Issue } from '../routes/projects/$projectId/issues/$issueIid.tsx';
import { Route as MergeRequest } from '../routes/projects/$projectId/merge-requests/$mergeRequestIid/route.tsx';
import { Route as MergeRequestOverview } from '../routes/projects/$projectId/merge-requests/$mergeRequestIid/index.tsx';
import { Route as MergeRequestChanges } from '../routes/projects/$projectId/merge-requests/$mergeRequestIid/changes.tsx';
import { Route as MergeRequestCommits } from '../routes/projects/$projectId/merge-requests/$mergeRequestIid/commits.tsx';
import { Route as Pipeline } from '../routes/projects/$projectId/pipelines/$pipelineId/route.tsx';
import { Route as PipelineGraph } from '../routes/projects/$projectId/pipelines/$pipelineId/index.tsx';
import { Route as PipelineJobs } from '../routes/projects/$projectId/pipelines/$pipelineId/jobs.tsx';
import { Route as Job } from '../routes/projects/$projectId/jobs/$jobId.tsx';

const INSTANCE = 'http://instance.test';
const USER_ID = 7;
const TOKEN = 'glpat-first-requests';
const PROJECT = {
  id: 10, name: 'lumen', name_with_namespace: 'lumen / lumen', path: 'lumen', path_with_namespace: 'lumen/lumen',
  visibility: 'private', default_branch: 'trunk', web_url: `${INSTANCE}/lumen/lumen`, namespace: { id: 1, kind: 'group', full_path: 'lumen', parent_id: null },
};

/** The caller's membership (members/all) with this role. */
const memberWith = (accessLevel: number) => ({ id: USER_ID, username: 'me', name: 'Me', state: 'active', locked: false, avatar_url: null, web_url: `${INSTANCE}/me`, access_level: accessLevel });

/** A GraphQL query's answer for these screens: no alerts, no tags. */
function graphqlAnswer(query: string): unknown {
  if (query.includes('alertManagementAlerts')) {
    return { data: { project: { alertManagementAlerts: { nodes: [], pageInfo: { hasNextPage: false, hasPreviousPage: false } }, alertManagementAlertStatusCounts: { all: 0, open: 0, triggered: 0, acknowledged: 0, resolved: 0, ignored: 0 } } } };
  }
  return { data: { containerRepository: { tags: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } } } } };
}

/** The URL of a request, and its body after it when it has one (a GraphQL query is a POST). */
const asked = (url: string, init?: RequestInit) => (typeof init?.body === 'string' ? `${url}\n${init.body}` : url);
/** `asked`, the same whatever the order of the URL's query parameters. */
const canonical = (request: string) => {
  const [url, ...body] = request.split('\n');
  return [canonicalUrl(url!), ...body].join('\n');
};

/**
 * Every request sent (`asked`), answered as the instance would for these screens: the project, the
 * caller as a member with `role`, GraphQL's empty alerts and tags, else an empty list.
 */
function instance(role = 50): string[] {
  const sent: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    sent.push(asked(url, init));
    const { pathname: path, searchParams } = new URL(url);
    const body =
      path === '/api/graphql' ? graphqlAnswer(JSON.parse(String(init?.body)).query) : path === '/api/v4/projects/10' ? PROJECT : path.endsWith('/members/all') && searchParams.getAll('user_ids[]').includes(String(USER_ID)) ? [memberWith(role)] : [];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Page': '1', 'X-Per-Page': '20' } });
  });
  return sent;
}

function loaderContext(isAdmin: boolean) {
  const connection: Connection = { instanceUrl: INSTANCE, token: TOKEN };
  const session = { getActive: () => ({ connection: { isAdmin, userId: USER_ID }, token: TOKEN }) } as unknown as SessionStore;
  return { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }), api: connection, session };
}

/**
 * A route's own loader, as the router calls it for `address` (its deps are the validated search),
 * after its parents' when `parents` are given. A loader that fails on the fake instance's answers
 * (an issue's details are not an empty list) still counts for what it asked.
 */
function routeLoader(route: { options: { loader?: unknown } }, params: Record<string, string>, deps: unknown, [pathname, search, hash]: [string, string, string], parents: Array<{ options: { loader?: unknown } }> = []) {
  return async (context: ReturnType<typeof loaderContext>) => {
    const location = { pathname, search, hash: hash.replace(/^#/, '') };
    await Promise.all([...parents, route].map((each) => Promise.resolve((each.options.loader as (options: unknown) => unknown)({ context, params, deps, location, cause: 'enter' })).catch(() => undefined)));
    // loaders start some requests without waiting for them
    for (let tick = 0; tick < 5; tick++) await settle();
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

interface Case {
  name: string;
  address: [pathname: string, search: string, hash: string];
  isAdmin: boolean;
  load: (context: ReturnType<typeof loaderContext>) => unknown;
}

/** A route's deps for a plain address: its search schema's defaults, through its loaderDeps where it has them. */
function searchOf(route: { options: { validateSearch?: unknown; loaderDeps?: unknown } }): unknown {
  const search = z.parse((route.options.validateSearch as { schema: () => z.ZodMiniType }).schema(), {});
  const loaderDeps = route.options.loaderDeps as ((options: { search: unknown }) => unknown) | undefined;
  return loaderDeps ? loaderDeps({ search }) : search;
}

const members = z.parse(membersSearchSchema.schema(), {});
const runners = z.parse(runnersSearchSchema.schema(), {});
const tokens = z.parse(tokensSearchSchema.schema(), {});

const CASES: Case[] = [
  ['group members', ['/groups/5/members', '', ''], false, GroupMembers, { groupId: '5' }, members],
  ['project members', ['/projects/10/members', '', ''], true, ProjectMembers, { projectId: '10' }, members],
  ["the instance's runners", ['/admin/runners', '', ''], true, InstanceRunners, {}, runners],
  ["a group's runners", ['/groups/5/runners', '', ''], false, GroupRunners, { groupId: '5' }, runners],
  ["a project's runners", ['/projects/10/runners', '', ''], true, ProjectRunners, { projectId: '10' }, runners],
  ["a project's runners, for its Maintainer", ['/projects/10/runners', '', ''], false, ProjectRunners, { projectId: '10' }, runners],
  ["a group's access tokens", ['/groups/5/access-tokens', '', ''], true, GroupTokens, { groupId: '5' }, tokens],
  ['the root directory at the default branch', ['/projects/10/tree/', '', ''], false, Tree, { projectId: '10', _splat: '' }, { ref: '' }],
  ['a directory at a ref', ['/projects/10/tree/src/text%20tools', '?ref=v1.0', ''], false, Tree, { projectId: '10', _splat: 'src/text tools' }, { ref: 'v1.0' }],
  ["a blame's line at a ref", ['/projects/10/blame/src/text/glyph_table.rs', '?ref=main', '#L40000'], false, Blame, { projectId: '10', _splat: 'src/text/glyph_table.rs' }, { ref: 'main' }],
  ["a blame's top at the default branch", ['/projects/10/blame/README.md', '', ''], false, Blame, { projectId: '10', _splat: 'README.md' }, { ref: '' }],
  ['a project\'s open issues', ['/projects/10/issues', '', ''], false, Issues, { projectId: '10' }, searchOf(Issues)],
  ['a project\'s open merge requests', ['/projects/10/merge-requests', '', ''], true, MergeRequests, { projectId: '10' }, searchOf(MergeRequests)],
  ['a project\'s pipelines', ['/projects/10/pipelines', '', ''], false, Pipelines, { projectId: '10' }, searchOf(Pipelines)],
  ["a project's packages", ['/projects/10/packages', '', ''], false, ProjectPackages, { projectId: '10' }, searchOf(ProjectPackages)],
  ["a group's packages", ['/groups/5/packages', '', ''], false, GroupPackages, { groupId: '5' }, searchOf(GroupPackages)],
  ["a group's open issues", ['/groups/5/issues', '', ''], false, GroupIssues, { groupId: '5' }, searchOf(GroupIssues)],
  ["a group's open merge requests", ['/groups/5/merge-requests', '', ''], true, GroupMergeRequests, { groupId: '5' }, searchOf(GroupMergeRequests)],
  ["a user's home", ['/', '', ''], false, Home, {}, {}],
  ["an administrator's home", ['/', '', ''], true, Home, {}, {}],
  ['the groups I belong to', ['/groups', '', ''], false, Groups, {}, searchOf(Groups)],
  ["every group, for an administrator", ['/groups/', '', ''], true, Groups, {}, searchOf(Groups)],
  ['the projects I belong to', ['/projects', '', ''], false, Projects, {}, searchOf(Projects)],
  ["every project, for an administrator", ['/projects', '', ''], true, Projects, {}, searchOf(Projects)],
  ["a project's open alerts (GraphQL, by the project's full path)", ['/projects/10/alerts', '', ''], false, Alerts, { projectId: '10' }, searchOf(Alerts)],
  ["an image's first tags (GraphQL) and the image", ['/projects/10/registry/3', '', ''], false, RegistryImage, { projectId: '10', repositoryId: '3' }, {}],
  ['an issue (its notes and events with it)', ['/projects/10/issues/4', '', '#note_12'], false, Issue, { projectId: '10', issueIid: '4' }, {}],
  ["a merge request's overview (its threads and review panels with it)", ['/projects/10/merge-requests/2', '', ''], false, MergeRequestOverview, { projectId: '10', mergeRequestIid: '2' }, {}, [MergeRequest]],
  ["a merge request's changes (its first page of files)", ['/projects/10/merge-requests/2/changes', '', ''], false, MergeRequestChanges, { projectId: '10', mergeRequestIid: '2' }, {}, [MergeRequest]],
  ["a merge request's commits", ['/projects/10/merge-requests/2/commits', '', ''], false, MergeRequestCommits, { projectId: '10', mergeRequestIid: '2' }, { page: 1 }, [MergeRequest]],
  ["a pipeline's graph (the pipeline and its jobs)", ['/projects/10/pipelines/31', '', ''], false, PipelineGraph, { projectId: '10', pipelineId: '31' }, {}, [Pipeline]],
  ["a pipeline's jobs", ['/projects/10/pipelines/31/jobs', '', ''], false, PipelineJobs, { projectId: '10', pipelineId: '31' }, {}, [Pipeline]],
  ['a job', ['/projects/10/jobs/77', '', ''], false, Job, { projectId: '10', jobId: '77' }, {}],
].map(([name, address, isAdmin, route, params, deps, parents]) => ({ name, address, isAdmin, load: routeLoader(route as never, params as Record<string, string>, deps, address as Case['address'], parents as never) }) as Case);

afterEach(() => {
  vi.unstubAllGlobals();
  forgetEarly();
});

describe('the first requests of a screen, sent before its code is there', () => {
  it.each(CASES)('$name: each is one its loader sends', async ({ address, isAdmin, load }) => {
    const requests = firstRequests(...address, { isAdmin, userId: USER_ID });
    expect(requests.length).toBeGreaterThan(0);
    const sentByLoader = instance();
    await load(loaderContext(isAdmin));
    const loaderUrls = new Set(sentByLoader.map(canonical));
    vi.unstubAllGlobals();
    // the loader's answers would count as fresh: nothing would be sent early
    forgetEarly();

    const early = instance();
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, requests);
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(early.length).toBeGreaterThan(0);
    for (const url of early) expect(loaderUrls, `${url} is not among the loader's requests`).toContain(canonical(url));
  });

  it.each(CASES)('$name: the loader takes the early answers instead of asking again', async ({ address, isAdmin, load }) => {
    const sent = instance();
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests(...address, { isAdmin, userId: USER_ID }));
    for (let tick = 0; tick < 5; tick++) await settle();
    await load(loaderContext(isAdmin));
    const requests = sent.map(canonical);
    expect(requests.length).toBe(new Set(requests).size);
  });

  it.each(CASES)("$name: a press while its loader is already asking (a hover's preload) asks nothing twice", async ({ address, isAdmin, load }) => {
    const sent = instance();
    const loading = load(loaderContext(isAdmin));
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests(...address, { isAdmin, userId: USER_ID }));
    await loading;
    const requests = sent.map(canonical);
    expect(requests.length).toBe(new Set(requests).size);
  });

  it("a project's alerts with the project held: the press sends the query at once, and the loader asks nothing more", async () => {
    const context = loaderContext(false);
    context.queryClient.setQueryData(projectDetailKey(10), PROJECT);
    const requests = firstRequests('/projects/10/alerts', '', '', { isAdmin: false, userId: USER_ID }, knownFrom(context.queryClient));
    expect(requests).toHaveLength(1);
    expect(requests[0]).toHaveProperty('graphql.variables.fullPath', 'lumen/lumen');
    const sent = instance();
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, requests);
    await routeLoader(Alerts as never, { projectId: '10' }, searchOf(Alerts), ['/projects/10/alerts', '', ''])(context);
    expect(sent.map((request) => new URL(request.split('\n')[0]!).pathname)).toEqual(['/api/graphql']);
  });

  it('leaves a filtered list, or a search it does not know, to the loader', () => {
    expect(firstRequests('/projects/10/alerts', '?tab=%22all%22', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/groups/5/members', '?query=ana', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/admin/runners', '?status=%22online%22', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/projects/10/tree/src', '?ref=123', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/projects/10/tree/src', '?ref=main&page=2', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/projects/10/issues', '?state=%22closed%22', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/projects/10/boards', '', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/groups/5/packages', '?package_type=%22npm%22', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/groups/5/pipelines', '', '', { isAdmin: true, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/projects', '?scope=%22starred%22', '', { isAdmin: false, userId: USER_ID })).toEqual([]);
    expect(firstRequests('/', '?from=%22connect%22', '', { isAdmin: false, userId: USER_ID })).toEqual([]);
  });

  it.each([
    ["a group's runners, of its Owners", GroupRunners, '/groups/5/runners', { groupId: '5' }, 40],
    ["a project's runners, of its Maintainers", ProjectRunners, '/projects/10/runners', { projectId: '10' }, 30],
  ])('%s: a lesser role is read first, and the list it would be refused is asked for neither early nor by the loader', async (_, route, pathname, params, role) => {
    const early = instance(role);
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests(pathname, '', '', { isAdmin: false, userId: USER_ID }));
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(early.map((url) => new URL(url).pathname)).toEqual([`/api/v4${pathname.replace('/runners', '')}/members/all`]);
    vi.unstubAllGlobals();
    forgetEarly();

    const byLoader = instance(role);
    await routeLoader(route as never, params, runners, [pathname, '', ''])(loaderContext(false));
    expect(byLoader.map((url) => new URL(url).pathname)).not.toContain(`/api/v4${pathname}`);
    // the role suffices: the list follows it, early and from the loader
    vi.unstubAllGlobals();
    forgetEarly();
    const allowed = instance(role + 10);
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests(pathname, '', '', { isAdmin: false, userId: USER_ID }));
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(allowed.map((url) => new URL(url).pathname)).toContain(`/api/v4${pathname}`);
  });

  it.each([
    ['a Maintainer', 40, ['/api/v4/projects/10/runners']],
    ['a Developer', 30, []],
  ])("a project's runners, with %s's role held: the press decides at once, without asking the role again", async (_, role, early) => {
    const context = loaderContext(false);
    context.queryClient.setQueryData(myAccessKey({ project: 10 }, USER_ID), role);
    const requests = firstRequests('/projects/10/runners', '', '', { isAdmin: false, userId: USER_ID }, knownFrom(context.queryClient));
    expect(requests.some((request) => request.then)).toBe(false);
    const sent = instance(role);
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, requests);
    expect(sent.map((url) => new URL(url).pathname)).toEqual(early);
    // and the loader takes the held role too: it asks neither the role nor anything the press did not (but the heading's project)
    await routeLoader(ProjectRunners as never, { projectId: '10' }, runners, ['/projects/10/runners', '', ''])(context);
    expect(sent.map((url) => new URL(url).pathname).filter((path) => path !== '/api/v4/projects/10')).toEqual(early);
  });

  it('asks nothing that the caller may not read', () => {
    expect(firstRequests('/admin/runners', '', '', { isAdmin: false, userId: USER_ID })).toEqual([]);
  });

  it("a group's access tokens, of its Owners: a Maintainer's role is read first and the list is asked for neither early nor by the loader; an Owner's brings the list", async () => {
    const early = instance(40);
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests('/groups/5/access-tokens', '', '', { isAdmin: false, userId: USER_ID }));
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(early.map((url) => new URL(url).pathname).sort()).toEqual(['/api/v4/groups/5', '/api/v4/groups/5/members/all']);
    vi.unstubAllGlobals();
    forgetEarly();
    const byLoader = instance(40);
    await routeLoader(GroupTokens as never, { groupId: '5' }, tokens, ['/groups/5/access-tokens', '', ''])(loaderContext(false));
    expect(byLoader.map((url) => new URL(url).pathname)).not.toContain('/api/v4/groups/5/access_tokens');
    vi.unstubAllGlobals();
    forgetEarly();
    const owner = instance(50);
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, firstRequests('/groups/5/access-tokens', '', '', { isAdmin: false, userId: USER_ID }));
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(owner.map((url) => new URL(url).pathname)).toContain('/api/v4/groups/5/access_tokens');
  });

  it.each([
    ['group members', GroupMembers, '/groups/5/members', false, members],
    ["a group's access tokens", GroupTokens, '/groups/5/access-tokens', true, tokens],
    ["a group's packages", GroupPackages, '/groups/5/packages', false, searchOf(GroupPackages)],
    ["a group's open issues", GroupIssues, '/groups/5/issues', false, searchOf(GroupIssues)],
  ])('%s reached from a list of groups: neither the press nor the loader asks for the group, which the list holds', async (_, route, pathname, isAdmin, deps) => {
    const context = loaderContext(isAdmin);
    const group = { id: 5, name: 'Platform', path: 'platform', full_name: 'Platform', full_path: 'platform', description: null, visibility: 'private', parent_id: null, web_url: `${INSTANCE}/groups/platform`, avatar_url: null };
    context.queryClient.setQueryData([...groupListsKey, { scope: 'member' }], { items: [group], total: 1 });
    const requests = firstRequests(pathname, '', '', { isAdmin, userId: USER_ID }, knownFrom(context.queryClient));
    expect(requests.map((request) => ('path' in request ? request.path : null))).not.toContain('/groups/5');

    const sent = instance();
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, requests);
    await routeLoader(route as never, { groupId: '5' }, deps, [pathname, '', ''])(context);
    expect(sent.map((url) => new URL(url).pathname)).not.toContain('/api/v4/groups/5');
    expect(context.queryClient.getQueryData(['groups', { group: 5 }, 'detail'])).toEqual(group);
  });

  it.each([
    ['the root directory', Tree, '/projects/10/tree/', { projectId: '10', _splat: '' }],
    ["a blame's top", Blame, '/projects/10/blame/README.md', { projectId: '10', _splat: 'README.md' }],
  ])('%s at the default branch: with the project held, the file request leaves at once and the loader takes it', async (_, route, pathname, params) => {
    const context = loaderContext(false);
    context.queryClient.setQueryData(projectDetailKey(10), PROJECT);
    const requests = firstRequests(pathname, '', '', { isAdmin: false, userId: USER_ID }, knownFrom(context.queryClient));
    expect(requests.some((request) => request.then)).toBe(false);
    expect(requests.at(-1)).toMatchObject({ query: { ref: 'trunk' } });

    const sent = instance();
    sendFirstRequests({ instanceUrl: INSTANCE }, TOKEN, requests);
    const early = [...sent];
    expect(early.some((url) => new URL(url).searchParams.get('ref') === 'trunk')).toBe(true);
    await routeLoader(route as never, params, { ref: '' }, [pathname, '', ''])(context);
    // the loader asked for nothing the press had sent already
    expect(sent.slice(early.length).map(canonicalUrl).filter((url) => early.map(canonicalUrl).includes(url))).toEqual([]);
  });

  it('takes a ref in the URL as text, as the router reads it', () => {
    const [project, tree] = firstRequests('/projects/10/tree/', '?ref=%22v1.0%22', '', { isAdmin: false, userId: USER_ID });
    expect(project).toMatchObject({ path: '/projects/10' });
    expect(tree).toMatchObject({ query: { ref: 'v1.0' } });
  });
});
