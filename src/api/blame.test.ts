import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { commitTitle, fetchBlameRange, isPastEndOfFile } from './blame.ts';
import { ApiError } from './errors.ts';
import type { Connection } from './http.ts';

const offline: Connection = { instanceUrl: 'https://code.example.com', token: 'glpat-secret' };
const recorded = [
  {
    commit: {
      id: 'f2dd6d531985c252579c294b8266eb4a38ecd53b', parent_ids: [], message: 'Lumen: first light\n', authored_date: '2023-12-28T10:07:00.000+00:00',
      author_name: 'Sofia Lindqvist', author_email: 'sofia@example.com', committed_date: '2023-12-28T10:07:00.000+00:00', committer_name: 'Sofia Lindqvist', committer_email: 'sofia@example.com',
    },
    lines: ['// Glyph metrics', 'pub static GLYPHS: &[[i32; 3]] = &['],
  },
];

describe('the blame client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('encodes the file path as one segment and the range as range[start] and range[end]', async () => {
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(recorded), { headers: { 'content-type': 'application/json', 'X-Gitlab-Size': '1075929', 'X-Gitlab-Commit-Id': 'a'.repeat(40) } }));
    vi.stubGlobal('fetch', fetchMock);
    const answer = await fetchBlameRange(offline, { projectId: 7, filePath: 'src/text/glyph table.rs', ref: 'feature/x', start: 2001, end: 4000 });
    expect(fetchMock.mock.calls[0][0]).toBe('https://code.example.com/api/v4/projects/7/repository/files/src%2Ftext%2Fglyph%20table.rs/blame?ref=feature%2Fx&range[start]=2001&range[end]=4000');
    expect(answer.sizeBytes).toBe(1_075_929);
    expect(answer.commitId).toBe('a'.repeat(40));
    expect(answer.groups[0].lines).toHaveLength(2);
    expect(commitTitle(answer.groups[0].commit.message)).toBe('Lumen: first light');
  });

  it('works without readable metadata headers (a cross-origin instance that does not expose them)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(recorded), { headers: { 'content-type': 'application/json' } })));
    expect(await fetchBlameRange(offline, { projectId: 7, filePath: 'a.rs', ref: 'main', start: 1, end: 2000 })).toMatchObject({ sizeBytes: null, commitId: null });
  });

  it('reads a range past the end apart from other refusals', () => {
    expect(isPastEndOfFile(new ApiError(400, 'range is outside of the file length'))).toBe(true);
    expect(isPastEndOfFile(new ApiError(400, 'ref is missing'))).toBe(false);
    expect(isPastEndOfFile(new ApiError(404, '404 File Not Found'))).toBe(false);
  });
});

describe('the blame client against the sandbox', () => {
  let sandbox: RunningSandbox;
  let connection: Connection;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'demo' });
    connection = { instanceUrl: sandbox.url, token: sandbox.adminToken };
  });
  afterAll(() => sandbox.close());

  it('blames the 50,000-line file in ranges, and tells where it ends', async () => {
    const request = { projectId: 0, filePath: 'src/text/glyph_table.rs', ref: 'main' };
    const project = (await (await fetch(`${sandbox.url}/api/v4/projects/lumen%2Fcore%2Flumen`, { headers: { 'PRIVATE-TOKEN': sandbox.adminToken } })).json()) as { id: number };
    request.projectId = project.id;
    const first = await fetchBlameRange(connection, { ...request, start: 1, end: 2000 });
    expect(first.groups.reduce((sum, group) => sum + group.lines.length, 0)).toBe(2000);
    expect(first.sizeBytes).toBeGreaterThan(1_000_000);
    expect(first.commitId).toMatch(/^[0-9a-f]{40}$/);
    const last = await fetchBlameRange(connection, { ...request, ref: first.commitId!, start: 48_001, end: 50_000 });
    expect(last.groups.reduce((sum, group) => sum + group.lines.length, 0)).toBe(2000);
    const past = await fetchBlameRange(connection, { ...request, start: 50_001, end: 52_000 }).catch((error: unknown) => error);
    expect(isPastEndOfFile(past)).toBe(true);
  }, 60_000);
});
