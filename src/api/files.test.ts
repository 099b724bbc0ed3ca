import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors.ts';
import type { Connection } from './http.ts';
import {
  PREVIEW_LIMIT_BYTES, bytesToText, createFile, decodeBase64, deleteFile, encodeBase64, fetchRawFile, fileMetaFromHeaders, getFile, getFileMeta, getFileView,
  isStaleEditError, updateFile,
} from './files.ts';
import { clientTestSandbox } from './test-sandbox.ts';

const offline: Connection = { instanceUrl: 'https://code.example.com/', token: 'glpat-secret' };

function answer(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: init.status ?? 200, headers: { 'content-type': 'application/json', ...init.headers } });
}

const meta = {
  file_name: 'a b%.ts', file_path: 'src/dir/a b%.ts', size: 6, encoding: 'base64', content_sha256: 'x', ref: 'feature/x',
  blob_id: 'b1', commit_id: 'c1', last_commit_id: 'l1', execute_filemode: null,
};

describe('base64 and text', () => {
  it('decodes base64 to bytes, also when wrapped, and back', () => {
    expect([...decodeBase64('aGVs\nbG8=')]).toEqual([104, 101, 108, 108, 111]);
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => index % 256);
    expect(decodeBase64(encodeBase64(bytes))).toEqual(bytes);
  });
  it('refuses what is not base64 with a readable error', () => {
    expect(() => decodeBase64('not base64!')).toThrow(ApiError);
  });
  it('reads UTF-8 as text and NUL or invalid UTF-8 as binary', () => {
    expect(bytesToText(new TextEncoder().encode('héllo ✓'))).toBe('héllo ✓');
    expect(bytesToText(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBeNull();
    expect(bytesToText(Uint8Array.from([0x61, 0xff, 0x62]))).toBeNull();
    expect(bytesToText(new Uint8Array())).toBe('');
  });
});

describe('the files client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('encodes the file path as one segment (/ as %2F, space, %) and the ref in the query', async () => {
    const fetchMock = vi.fn(async () => answer({ ...meta, content: btoa('hello\n') }));
    vi.stubGlobal('fetch', fetchMock);
    const file = await getFile(offline, 7, 'src/dir/a b%.ts', 'feature/x');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://code.example.com/api/v4/projects/7/repository/files/src%2Fdir%2Fa%20b%25.ts?ref=feature%2Fx');
    expect((init.headers as Record<string, string>)['PRIVATE-TOKEN']).toBe('glpat-secret');
    expect(file.text).toBe('hello\n');
    expect(file.execute_filemode).toBe(false);
    expect(file.last_commit_id).toBe('l1');
  });

  it('turns a 404 into an ApiError with the platform’s message', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => answer({ message: '404 File Not Found' }, { status: 404 })));
    const error = await getFile(offline, 7, 'missing.txt', 'main').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toBe('404 File Not Found');
  });

  it('reads metadata headers under either name, UTF-8 names included', () => {
    const name = Array.from(new TextEncoder().encode('ü.txt'), (byte) => String.fromCharCode(byte)).join('');
    const headers = new Headers({
      'X-Gitlab-File-Name': name, 'X-Gitlab-File-Path': name, 'X-Gitlab-Size': '12', 'X-Service-Ref': 'main', 'X-Service-Blob-Id': 'b',
      'X-Service-Commit-Id': 'c', 'X-Service-Last-Commit-Id': 'l', 'X-Service-Execute-Filemode': 'true',
    });
    expect(fileMetaFromHeaders(headers)).toMatchObject({ file_name: 'ü.txt', size: 12, ref: 'main', last_commit_id: 'l', execute_filemode: true });
  });

  it('views a file over the preview limit from its HEAD alone, and a small one in full', async () => {
    const headers = (size: number) => ({
      'X-Gitlab-File-Name': 'big.bin', 'X-Gitlab-File-Path': 'big.bin', 'X-Gitlab-Size': String(size), 'X-Gitlab-Ref': 'main', 'X-Gitlab-Blob-Id': 'b',
      'X-Gitlab-Commit-Id': 'c', 'X-Gitlab-Last-Commit-Id': 'l',
    });
    const big = vi.fn(async (_url: string, _init?: RequestInit) => new Response(null, { headers: headers(PREVIEW_LIMIT_BYTES + 1) }));
    vi.stubGlobal('fetch', big);
    expect(await getFileView(offline, 7, 'big.bin', 'main')).toMatchObject({ tooLarge: true, size: PREVIEW_LIMIT_BYTES + 1, text: null, last_commit_id: 'l' });
    expect(big).toHaveBeenCalledOnce();
    expect(big.mock.calls[0][1]?.method).toBe('HEAD');

    const small = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'HEAD' ? new Response(null, { headers: headers(6) }) : answer({ ...meta, content: btoa('hello\n') }));
    vi.stubGlobal('fetch', small);
    expect(await getFileView(offline, 7, 'a', 'main')).toMatchObject({ tooLarge: false, text: 'hello\n' });
    expect(small).toHaveBeenCalledTimes(2);
  });

  it('explains a missing file with the GET’s message (a HEAD answer has no body)', async () => {
    vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'HEAD' ? new Response(null, { status: 404 }) : answer({ message: '404 File Not Found' }, { status: 404 })));
    await expect(getFileView(offline, 7, 'missing', 'main')).rejects.toMatchObject({ status: 404, message: '404 File Not Found' });
  });

  it('fetches raw bytes with the token in a header, never in the URL', async () => {
    const fetchMock = vi.fn(async () => new Response(Uint8Array.from([1, 2, 3]), { headers: { 'content-type': 'image/png' } }));
    vi.stubGlobal('fetch', fetchMock);
    const blob = await fetchRawFile(offline, 7, 'public/images/hero.png', 'main');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://code.example.com/api/v4/projects/7/repository/files/public%2Fimages%2Fhero.png/raw?ref=main');
    expect(url).not.toContain('glpat');
    expect((init.headers as Record<string, string>)['PRIVATE-TOKEN']).toBe('glpat-secret');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(Uint8Array.from([1, 2, 3]));
  });

  it('reports a raw download’s error body and a 401 to the app', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => answer({ message: '401 Unauthorized' }, { status: 401 })));
    const onUnauthorized = vi.fn();
    const error = await fetchRawFile({ ...offline, onUnauthorized }, 7, 'a', 'main').catch((caught: unknown) => caught);
    expect((error as ApiError).message).toBe('401 Unauthorized');
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('sends last_commit_id and start_branch on update, and recognises the stale-edit refusal', async () => {
    const fetchMock = vi.fn(async () => answer({ message: 'You are attempting to update a file that has changed since you started editing it.' }, { status: 400 }));
    vi.stubGlobal('fetch', fetchMock);
    const error = await updateFile(offline, { projectId: 7, path: 'a/b.txt', branch: 'topic', startBranch: 'main', commitMessage: 'Edit', content: 'x', lastCommitId: 'abc' }).catch((caught: unknown) => caught);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://code.example.com/api/v4/projects/7/repository/files/a%2Fb.txt');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ branch: 'topic', commit_message: 'Edit', start_branch: 'main', content: 'x', encoding: 'text', last_commit_id: 'abc' });
    expect(isStaleEditError(error)).toBe(true);
    expect(isStaleEditError(new ApiError(400, 'A file with this name already exists'))).toBe(false);
  });
});

describe('the files client against the sandbox', () => {
  const sandbox = clientTestSandbox();
  let connection: Connection;
  let projectId: number;

  beforeAll(async () => {
    connection = sandbox.connection();
    projectId = (await sandbox.post('/projects', { name: 'files-client' })).id;
  });

  it('round-trips a path with /, a space and %, refuses a stale edit, and deletes', async () => {
    const path = 'docs/odd dir/100% done.md';
    await createFile(connection, { projectId, path, branch: 'main', commitMessage: 'Add', content: 'first\n' });
    const first = await getFile(connection, projectId, path, 'main');
    expect(first).toMatchObject({ file_path: path, text: 'first\n' });
    expect((await getFileMeta(connection, projectId, path, 'main')).last_commit_id).toBe(first.last_commit_id);
    expect(await (await fetchRawFile(connection, projectId, path, 'main')).text()).toBe('first\n');

    await updateFile(connection, { projectId, path, branch: 'main', commitMessage: 'Someone else', content: 'theirs\n', lastCommitId: first.last_commit_id });
    const stale = await updateFile(connection, { projectId, path, branch: 'main', commitMessage: 'Mine', content: 'mine\n', lastCommitId: first.last_commit_id }).catch((caught: unknown) => caught);
    expect(isStaleEditError(stale)).toBe(true);
    expect((await getFile(connection, projectId, path, 'main')).text).toBe('theirs\n');

    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
    await createFile(connection, { projectId, path: 'bin/x.png', branch: 'topic', startBranch: 'main', commitMessage: 'Binary', content: encodeBase64(bytes), encoding: 'base64' });
    const binary = await getFile(connection, projectId, 'bin/x.png', 'topic');
    expect(binary.text).toBeNull();
    expect(binary.bytes).toEqual(bytes);

    await deleteFile(connection, { projectId, path, branch: 'main', commitMessage: 'Remove' });
    await expect(getFile(connection, projectId, path, 'main')).rejects.toMatchObject({ status: 404 });
  });
});
