import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { canonicalUrl, forgetEarly } from './early.ts';
import { firstRequests, sendFirstRequests } from './first-requests.ts';
import { apiBase } from './params.ts';
import type { Connection } from './http.ts';
import type { SessionStore } from './session.ts';
import { loadMembers } from '../features/members/route-options.ts';
import { membersSearchSchema } from '../features/members/search.ts';
import { loadFleet } from '../features/runners/route-options.ts';
import { runnersSearchSchema } from '../features/runners/search.ts';
import { loadGroupTokens } from '../features/access-tokens/route-options.ts';
import { tokensSearchSchema } from '../features/access-tokens/search.ts';
import { loadTree } from '../features/files/route-options.ts';
import { prefetchFirstBlameRange } from '../features/files/blame-route-options.ts';

const INSTANCE = 'http://instance.test';
const TOKEN = 'glpat-first-requests';
const PROJECT = {
  id: 10, name: 'lumen', name_with_namespace: 'lumen / lumen', path: 'lumen', path_with_namespace: 'lumen/lumen',
  visibility: 'private', default_branch: 'trunk', web_url: `${INSTANCE}/lumen/lumen`, namespace: { id: 1, kind: 'group', full_path: 'lumen', parent_id: null },
};

/** Every GET sent, answered as the instance would for these screens: the project, else an empty list. */
function instance(): string[] {
  const sent: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    sent.push(url);
    const body = new URL(url).pathname === '/api/v4/projects/10' ? PROJECT : [];
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Page': '1', 'X-Per-Page': '20' } });
  });
  return sent;
}

function loaderContext(isAdmin: boolean) {
  const connection: Connection = { instanceUrl: INSTANCE, token: TOKEN };
  const session = { getActive: () => ({ connection: { isAdmin, userId: 7 }, token: TOKEN }) } as unknown as SessionStore;
  return { queryClient: new QueryClient({ defaultOptions: { queries: { retry: false } } }), api: connection, session };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

interface Case {
  name: string;
  address: [pathname: string, search: string, hash: string];
  isAdmin: boolean;
  load: (context: ReturnType<typeof loaderContext>) => unknown;
}

const members = z.parse(membersSearchSchema.schema(), {});
const runners = z.parse(runnersSearchSchema.schema(), {});
const tokens = z.parse(tokensSearchSchema.schema(), {});

const CASES: Case[] = [
  { name: 'group members', address: ['/groups/5/members', '', ''], isAdmin: false, load: (context) => loadMembers(context, { group: 5 }, members) },
  { name: 'project members', address: ['/projects/10/members', '', ''], isAdmin: true, load: (context) => loadMembers(context, { project: 10 }, members) },
  { name: "the instance's runners", address: ['/admin/runners', '', ''], isAdmin: true, load: (context) => loadFleet(context, 'instance', runners) },
  { name: "a group's runners", address: ['/groups/5/runners', '', ''], isAdmin: false, load: (context) => loadFleet(context, { group: 5 }, runners) },
  { name: "a group's access tokens", address: ['/groups/5/access-tokens', '', ''], isAdmin: true, load: (context) => loadGroupTokens(context, 5, tokens) },
  { name: 'the root directory at the default branch', address: ['/projects/10/tree/', '', ''], isAdmin: false, load: (context) => loadTree(context, 10, '', '') },
  { name: 'a directory at a ref', address: ['/projects/10/tree/src/text%20tools', '?ref=v1.0', ''], isAdmin: false, load: (context) => loadTree(context, 10, 'src/text tools', 'v1.0') },
  {
    name: "a blame's line at a ref", address: ['/projects/10/blame/src/text/glyph_table.rs', '?ref=main', '#L40000'], isAdmin: false,
    load: async (context) => {
      prefetchFirstBlameRange(context, 10, 'src/text/glyph_table.rs', 'main', '#L40000');
      for (let tick = 0; tick < 5; tick++) await settle();
    },
  },
  {
    name: "a blame's top at the default branch", address: ['/projects/10/blame/README.md', '', ''], isAdmin: false,
    load: async (context) => {
      prefetchFirstBlameRange(context, 10, 'README.md', '', '');
      for (let tick = 0; tick < 5; tick++) await settle();
    },
  },
];

afterEach(() => {
  vi.unstubAllGlobals();
  forgetEarly();
});

describe('the first requests of a screen, sent before its code is there', () => {
  it.each(CASES)('$name: each is one its loader sends', async ({ address, isAdmin, load }) => {
    const requests = firstRequests(...address, { isAdmin });
    expect(requests.length).toBeGreaterThan(0);
    const sentByLoader = instance();
    await load(loaderContext(isAdmin));
    const loaderUrls = new Set(sentByLoader.map(canonicalUrl));
    vi.unstubAllGlobals();
    // the loader's answers would count as fresh: nothing would be sent early
    forgetEarly();

    const early = instance();
    sendFirstRequests(apiBase({ instanceUrl: INSTANCE }), TOKEN, requests);
    for (let tick = 0; tick < 5; tick++) await settle();
    expect(early.length).toBeGreaterThan(0);
    for (const url of early) expect(loaderUrls, `${url} is not among the loader's requests`).toContain(canonicalUrl(url));
  });

  it.each(CASES)('$name: the loader takes the early answers instead of asking again', async ({ address, isAdmin, load }) => {
    const sent = instance();
    sendFirstRequests(apiBase({ instanceUrl: INSTANCE }), TOKEN, firstRequests(...address, { isAdmin }));
    for (let tick = 0; tick < 5; tick++) await settle();
    await load(loaderContext(isAdmin));
    const canonical = sent.map(canonicalUrl);
    expect(canonical.length).toBe(new Set(canonical).size);
  });

  it('leaves a filtered list, or a search it does not know, to the loader', () => {
    expect(firstRequests('/groups/5/members', '?query=ana', '', { isAdmin: true })).toEqual([]);
    expect(firstRequests('/admin/runners', '?status=%22online%22', '', { isAdmin: true })).toEqual([]);
    expect(firstRequests('/projects/10/tree/src', '?ref=123', '', { isAdmin: true })).toEqual([]);
    expect(firstRequests('/projects/10/tree/src', '?ref=main&page=2', '', { isAdmin: true })).toEqual([]);
    expect(firstRequests('/projects/10/issues', '', '', { isAdmin: true })).toEqual([]);
  });

  it('asks nothing that the caller may not read', () => {
    expect(firstRequests('/admin/runners', '', '', { isAdmin: false })).toEqual([]);
    expect(firstRequests('/groups/5/access-tokens', '', '', { isAdmin: false })).toEqual([]);
  });

  it('takes a ref in the URL as text, as the router reads it', () => {
    const [project, tree] = firstRequests('/projects/10/tree/', '?ref=%22v1.0%22', '', { isAdmin: false });
    expect(project.path).toBe('/projects/10');
    expect(tree.query).toMatchObject({ ref: 'v1.0' });
  });
});
