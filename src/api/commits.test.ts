import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from './errors.ts';
import type { Connection } from './http.ts';
import {
  checkPick, cherryPickCommit, commitDiffSchema, commitListQuery, commitSchema, commitsQueries, createCommit, pickErrorCode, revertCommit,
} from './commits.ts';
import { sinceOf, untilOf } from '../lib/time.ts';

const connection: Connection = { instanceUrl: 'https://code.example.com/', token: 'glpat-secret' };

/** A commit as the platform's single-commit endpoint answers it (CommitDetail), recorded from the sandbox. */
const recordedDetail = {
  id: '6104942438c14ec7bd21c6cd5bd995272b3faff6',
  short_id: '6104942438c',
  created_at: '2026-11-20T10:07:00.000+00:00',
  parent_ids: ['ae1d9fb46aa2b07ee9836d49862ec4e2c46fbbba'],
  title: 'Refine order summary (8/8)',
  message: 'Refine order summary (8/8)\n\nSigned-off-by: Hiroshi Tanaka <hiroshi.tanaka@acme.example>\n',
  author_name: 'Maya Chen',
  author_email: 'maya.chen@acme.example',
  authored_date: '2026-11-20T10:07:00.000+00:00',
  committer_name: 'Maya Chen',
  committer_email: 'maya.chen@acme.example',
  committed_date: '2026-11-20T10:07:00.000+00:00',
  trailers: { 'Signed-off-by': 'Hiroshi Tanaka <hiroshi.tanaka@acme.example>' },
  extended_trailers: { 'Signed-off-by': ['Hiroshi Tanaka <hiroshi.tanaka@acme.example>'] },
  web_url: 'http://localhost:3000/acme-engineering/frontend/web-app/-/commit/6104942438c14ec7bd21c6cd5bd995272b3faff6',
  stats: { additions: 1, deletions: 1, total: 2 },
  status: null,
  project_id: 4,
  last_pipeline: null,
};

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };

function stubFetch(...replies: Reply[]) {
  const calls: Array<{ url: string; method: string; body: unknown; headers: Record<string, string> }> = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined, headers: init.headers as Record<string, string> });
    const reply = replies[Math.min(calls.length - 1, replies.length - 1)];
    return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), { status: reply.status ?? 200, headers: { 'content-type': 'application/json', ...reply.headers } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const run = <T>(options: { queryFn?: unknown }) => (options.queryFn as (context: { signal: AbortSignal }) => Promise<T>)({ signal: new AbortController().signal });

describe('the last commits of a directory\'s entries', () => {
  it('asks one commit per path at the ref, and tells a path without history from a failed request', async () => {
    const calls = stubFetch({ body: [recordedDetail] }, { body: [] }, { status: 500, body: { message: '500 Internal Server Error' } });
    const last = await run<Map<string, unknown>>(commitsQueries.lastOfPaths(connection, 7, 'feature/x', ['src/a b.ts', 'docs', 'broken']));
    expect(calls.map((call) => call.url)).toEqual([
      'https://code.example.com/api/v4/projects/7/repository/commits?ref_name=feature%2Fx&path=src%2Fa%20b.ts&per_page=1',
      'https://code.example.com/api/v4/projects/7/repository/commits?ref_name=feature%2Fx&path=docs&per_page=1',
      'https://code.example.com/api/v4/projects/7/repository/commits?ref_name=feature%2Fx&path=broken&per_page=1',
    ]);
    expect(last.get('src/a b.ts')).toMatchObject({ title: 'Refine order summary (8/8)' });
    expect(last.get('docs')).toBeNull();
    expect(last.has('broken') && last.get('broken') === undefined).toBe(true);
  });
});

describe('the commit list query (spec 3, 4.1)', () => {
  it('turns days into inclusive ISO 8601 bounds', () => {
    expect(sinceOf('2026-03-01')).toBe('2026-03-01T00:00:00Z');
    expect(untilOf('2026-03-01')).toBe('2026-03-01T23:59:59Z');
    expect(sinceOf(undefined)).toBeUndefined();
    expect(untilOf('')).toBeUndefined();
  });

  it('leaves out empty filters, false flags and the default order', () => {
    expect(commitListQuery({ ref_name: '', path: undefined, all: false, order: 'default', page: 1, per_page: 20 })).toEqual({ page: 1, per_page: 20 });
    expect(commitListQuery({ ref_name: 'main', first_parent: true, order: 'topo', with_stats: true, page: 3, per_page: 50 })).toEqual({ ref_name: 'main', first_parent: true, order: 'topo', with_stats: true, page: 3, per_page: 50 });
  });

  it('sends ranges, paths, authors and dates encoded, with the token in a header only', async () => {
    const calls = stubFetch({ body: [recordedDetail], headers: { 'x-page': '1', 'x-per-page': '20', 'x-next-page': '2', link: '<https://code.example.com/api/v4/projects/7/repository/commits?page=2&per_page=20>; rel="next"' } });
    const page = await run<Awaited<ReturnType<NonNullable<ReturnType<typeof commitsQueries.list>['queryFn']>>>>(
      commitsQueries.list(connection, 7, { ref_name: 'v1.0.0..feature/x+y', path: 'src/components/Order Summary.tsx', author: 'Maya Chen', since: sinceOf('2026-01-01'), until: '2026-02-01T12:00:00+01:00', page: 1, per_page: 20 }),
    );
    expect(calls[0].url).toBe(
      'https://code.example.com/api/v4/projects/7/repository/commits?ref_name=v1.0.0..feature%2Fx%2By&path=src%2Fcomponents%2FOrder%20Summary.tsx&author=Maya%20Chen&since=2026-01-01T00%3A00%3A00Z&until=2026-02-01T12%3A00%3A00%2B01%3A00&page=1&per_page=20',
    );
    expect(calls[0].url).not.toContain('glpat');
    expect(calls[0].headers['PRIVATE-TOKEN']).toBe('glpat-secret');
    // no x-total: the page still knows there is a next one
    expect(page).toMatchObject({ page: 1, nextPage: 2 });
    expect(page.total).toBeUndefined();
    expect(page.items[0].trailers).toEqual({ 'Signed-off-by': 'Hiroshi Tanaka <hiroshi.tanaka@acme.example>' });
  });

  it('encodes a sha or ref in the detail path as one segment', async () => {
    const calls = stubFetch({ body: recordedDetail });
    await run(commitsQueries.detail(connection, 7, 'release/1.x'));
    expect(calls[0].url).toBe('https://code.example.com/api/v4/projects/7/repository/commits/release%2F1.x');
  });
});

describe('commit schemas', () => {
  it('parses the recorded single-commit answer with stats, trailers and parents', () => {
    const commit = z.parse(commitSchema, recordedDetail);
    expect(commit.stats).toEqual({ additions: 1, deletions: 1, total: 2 });
    expect(commit.parent_ids).toHaveLength(1);
    expect(commit.extended_trailers['Signed-off-by']).toHaveLength(1);
    expect((commit as Record<string, unknown>).project_id).toBe(4);
  });

  it('accepts the platform nulls: no trailers, no parents, no pipeline; and a pipeline when there is one', () => {
    const commit = z.parse(commitSchema, { ...recordedDetail, trailers: null, extended_trailers: undefined, parent_ids: null, stats: undefined, last_pipeline: { id: 9, ref: 'main', sha: recordedDetail.id, status: 'success' } });
    expect(commit.trailers).toEqual({});
    expect(commit.extended_trailers).toEqual({});
    expect(commit.parent_ids).toEqual([]);
    expect(commit.last_pipeline?.status).toBe('success');
  });

  it('refuses a commit without its id', () => {
    expect(z.safeParse(commitSchema, { ...recordedDetail, id: undefined }).success).toBe(false);
  });

  it('parses a diff entry, null flags as false', () => {
    const diff = z.parse(commitDiffSchema, { diff: '@@ -1 +1 @@\n-a\n+b\n', new_path: 'a', old_path: 'a', a_mode: '100644', b_mode: '100644', new_file: false, renamed_file: null, deleted_file: false });
    expect(diff).toMatchObject({ renamed_file: false, too_large: false, generated_file: false });
  });
});

describe('cherry-pick and revert', () => {
  const conflict = { message: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.', error_code: 'conflict', dry_run: 'error' };

  it('reads error_code from a failed pick, and nothing from other errors', () => {
    expect(pickErrorCode(new ApiError(400, 'x', 'http', undefined, undefined, { error_code: 'empty' }))).toBe('empty');
    expect(pickErrorCode(new ApiError(400, 'x', 'http', undefined, undefined, { error_code: 'other' }))).toBeUndefined();
    expect(pickErrorCode(new ApiError(404, '404 Branch Not Found'))).toBeUndefined();
    expect(pickErrorCode(new Error('boom'))).toBeUndefined();
  });

  it('runs a dry run and answers "applies" on success', async () => {
    const calls = stubFetch({ body: { dry_run: 'success' } });
    expect(await checkPick(connection, 7, 'cherry_pick', { sha: 'abc123', branch: 'feature/x' })).toEqual({ applies: true });
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'https://code.example.com/api/v4/projects/7/repository/commits/abc123/cherry_pick', body: { branch: 'feature/x', dry_run: true } });
  });

  it('answers a conflict or an empty change as a result, with the platform message', async () => {
    stubFetch({ status: 400, body: conflict });
    expect(await checkPick(connection, 7, 'revert', { sha: 'abc123', branch: 'main' })).toEqual({ applies: false, code: 'conflict', message: conflict.message });
    stubFetch({ status: 400, body: { ...conflict, error_code: 'empty' } });
    expect(await checkPick(connection, 7, 'cherry_pick', { sha: 'abc123', branch: 'main' })).toMatchObject({ applies: false, code: 'empty' });
  });

  it('throws the other failures of a dry run: no permission, unknown branch', async () => {
    stubFetch({ status: 403, body: { message: '403 Forbidden - You are not allowed to push into this branch' } });
    await expect(checkPick(connection, 7, 'cherry_pick', { sha: 'abc', branch: 'main' })).rejects.toMatchObject({ status: 403, message: '403 Forbidden - You are not allowed to push into this branch' });
    stubFetch({ status: 404, body: { message: '404 Branch Not Found' } });
    await expect(checkPick(connection, 7, 'cherry_pick', { sha: 'abc', branch: 'nope' })).rejects.toBeInstanceOf(ApiError);
  });

  it('cherry-picks and reverts without dry_run, answering the new commit; a real failure keeps its error_code', async () => {
    const calls = stubFetch({ status: 201, body: recordedDetail });
    expect((await cherryPickCommit(connection, 7, { sha: 'abc', branch: 'b', message: '' })).id).toBe(recordedDetail.id);
    expect(calls[0].body).toEqual({ branch: 'b' });
    const reverted = stubFetch({ status: 201, body: recordedDetail });
    await revertCommit(connection, 7, { sha: 'abc', branch: 'b' });
    expect(reverted[0]).toMatchObject({ url: 'https://code.example.com/api/v4/projects/7/repository/commits/abc/revert', body: { branch: 'b' } });
    stubFetch({ status: 400, body: conflict });
    const failure = await cherryPickCommit(connection, 7, { sha: 'abc', branch: 'b' }).catch((error: unknown) => error);
    expect(pickErrorCode(failure)).toBe('conflict');
  });

  it('creates a commit with its actions as JSON', async () => {
    const calls = stubFetch({ status: 201, body: recordedDetail });
    await createCommit(connection, 7, { branch: 'main', commit_message: 'Add', actions: [{ action: 'create', file_path: 'a b.txt', content: 'x' }] });
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'https://code.example.com/api/v4/projects/7/repository/commits', body: { branch: 'main', commit_message: 'Add', actions: [{ action: 'create', file_path: 'a b.txt', content: 'x' }] } });
    expect(calls[0].headers['Content-Type']).toBe('application/json');
  });
});
