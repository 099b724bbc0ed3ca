import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createHarness } from './harness.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';
import { deliverSystemEvent, deliveryQueue } from '../areas/system-hooks.ts';

const h = createHarness({ seed: 'empty' });
const queue = deliveryQueue(h.sandbox);

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  base: string;
  received: Received[];
  /** Requests to these paths get no answer at all. */
  hanging: http.ServerResponse[];
  close(): Promise<void>;
}

/** A local receiver: `/fail` answers 500, `/hang` never answers, `/stall` stops halfway, anything else 200 with a small JSON body. */
function handler(received: Received[], hanging: http.ServerResponse[]) {
  return (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (request.url?.startsWith('/hang')) {
        hanging.push(response);
        return;
      }
      if (request.url?.startsWith('/stall')) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"partial":');
        hanging.push(response);
        return;
      }
      if (request.url?.startsWith('/fail')) {
        response.writeHead(500, { 'Content-Type': 'text/plain' }).end('receiver exploded');
        return;
      }
      response.writeHead(200, { 'Content-Type': 'application/json', 'X-Receiver': 'test' }).end('{"ok":true}');
    });
  };
}

async function listen(server: http.Server | https.Server, received: Received[], hanging: http.ServerResponse[], scheme: string): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `${scheme}://127.0.0.1:${port}`,
    received,
    hanging,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  return listen(http.createServer(handler(received, hanging)), received, hanging, 'http');
}

/** An HTTPS receiver with a self-signed certificate made for this run. */
function startTlsReceiver(): Promise<Receiver> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hook-tls-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
  ], { stdio: 'ignore' });
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) }, handler(received, hanging));
  return listen(server, received, hanging, 'https');
}

let receiver: Receiver;
let tlsReceiver: Receiver;
let someone: ApiUser;

beforeAll(async () => {
  [receiver, tlsReceiver, someone] = await Promise.all([startReceiver(), startTlsReceiver(), apiUser(h)]);
});

afterAll(async () => {
  await queue.idle();
  await Promise.all([receiver.close(), tlsReceiver.close()]);
  h.close();
});

beforeEach(async () => {
  // each test starts with no hooks and nothing on the way
  await queue.idle();
  queue.timeoutMs = 10_000;
  h.sandbox.db.prepare('DELETE FROM system_hooks').run();
  receiver.received.length = 0;
  tlsReceiver.received.length = 0;
});

async function addHook(body: Record<string, unknown>): Promise<{ id: number } & Record<string, unknown>> {
  const answer = await h.post('/hooks', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const deliveries = async (hookId: number) => {
  const answer = await h.get(`/-/sandbox/hooks/${hookId}/deliveries`);
  expect(answer.status, answer.text).toBe(200);
  return answer.body as Array<Record<string, any>>;
};

describe('system hooks CRUD', () => {
  it('adds a hook with the platform defaults and never returns its token', async () => {
    const hook = await addHook({ url: `${receiver.base}/plain`, token: 'top-secret' });
    expect(hook).toEqual({
      id: expect.any(Number), url: `${receiver.base}/plain`, name: '', description: '', created_at: expect.any(String),
      push_events: false, tag_push_events: false, merge_requests_events: false, repository_update_events: true,
      enable_ssl_verification: true, organization_id: 1, alert_status: 'executable', disabled_until: null, url_variables: [],
      push_events_branch_filter: null, branch_filter_strategy: 'wildcard',
    });
    const listed = await h.get('/hooks');
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-total')).toBe('1');
    expect(listed.text).not.toContain('top-secret');
    expect((await h.get(`/hooks/${hook.id}`)).body).toEqual(hook);
  });

  it('takes every attribute on add and on update', async () => {
    const hook = await addHook({
      url: `${receiver.base}/all`, name: 'Audit', description: 'Sends pushes to audit', push_events: true, tag_push_events: true,
      merge_requests_events: true, repository_update_events: false, enable_ssl_verification: false,
      push_events_branch_filter: 'release/*', branch_filter_strategy: 'wildcard',
    });
    expect(hook).toMatchObject({ name: 'Audit', description: 'Sends pushes to audit', push_events: true, tag_push_events: true, merge_requests_events: true, repository_update_events: false, enable_ssl_verification: false, push_events_branch_filter: 'release/*' });
    const updated = await h.put(`/hooks/${hook.id}`, { push_events: false, branch_filter_strategy: 'regex', push_events_branch_filter: '^main$', name: 'Renamed' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: hook.id, push_events: false, tag_push_events: true, branch_filter_strategy: 'regex', push_events_branch_filter: '^main$', name: 'Renamed' });
    const all = await h.put(`/hooks/${hook.id}`, { branch_filter_strategy: 'all_branches' });
    expect(all.body).toMatchObject({ branch_filter_strategy: 'all_branches', push_events_branch_filter: null });
  });

  it('deletes a hook', async () => {
    const hook = await addHook({ url: `${receiver.base}/gone` });
    const answer = await h.delete(`/hooks/${hook.id}`);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    const missing = await h.get(`/hooks/${hook.id}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Not found' });
    expect((await h.delete(`/hooks/${hook.id}`)).status).toBe(404);
  });

  it('answers the platform errors for bad input', async () => {
    expect((await h.post('/hooks', {})).body).toEqual({ error: 'url is missing' });
    for (const url of ['not a url', 'ftp://example.com/hook', '', `${receiver.base}/{missing}`]) {
      const answer = await h.post('/hooks', { url });
      expect(answer.status, url).toBe(422);
      expect(answer.body).toEqual({ error: 'Invalid url given' });
    }
    for (const [strategy, filter] of [['regex', '(unclosed'], ['wildcard', 'a..b'], ['wildcard', 'has space']]) {
      const answer = await h.post('/hooks', { url: `${receiver.base}/x`, branch_filter_strategy: strategy, push_events_branch_filter: filter });
      expect(answer.status, filter).toBe(422);
      expect(answer.body).toEqual({ error: 'Invalid branch filter given' });
    }
    expect((await h.post('/hooks', { url: `${receiver.base}/x`, branch_filter_strategy: 'glob' })).body).toEqual({ error: 'branch_filter_strategy does not have a valid value' });
    expect((await h.post('/hooks', { url: `${receiver.base}/x`, push_events: 'sometimes' })).body).toEqual({ error: 'push_events is invalid' });
    const hook = await addHook({ url: `${receiver.base}/x` });
    expect((await h.put(`/hooks/${hook.id}`, {})).body).toEqual({ error: 'No parameters provided' });
    expect((await h.put(`/hooks/${hook.id}`, { url: 'nope' })).status).toBe(422);
    expect((await h.get('/hooks/abc')).body).toEqual({ error: 'hook_id is invalid' });
    expect((await h.put('/hooks/999999', { name: 'x' })).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const hook = await addHook({ url: `${receiver.base}/admin` });
    for (const [method, url] of [['GET', '/hooks'], ['GET', `/hooks/${hook.id}`], ['POST', '/hooks'], ['PUT', `/hooks/${hook.id}`], ['POST', `/hooks/${hook.id}`], ['DELETE', `/hooks/${hook.id}`], ['PUT', `/hooks/${hook.id}/url_variables/a`]] as const) {
      const json = method === 'GET' ? undefined : { url: 'http://example.com', value: 'v' };
      const answer = await h.call(method, url, { token: someone.token, json });
      expect(answer.status, `${method} ${url}`).toBe(403);
      expect(answer.body).toEqual({ message: '403 Forbidden' });
      expect((await h.call(method, url, { token: null })).status).toBe(401);
    }
    expect((await h.get(`/-/sandbox/hooks/${hook.id}/deliveries`, { token: someone.token })).status).toBe(403);
    expect((await h.get(`/-/sandbox/hooks/${hook.id}/deliveries`, { token: null })).status).toBe(401);
  });
});

describe('URL variables', () => {
  it('keeps values out of every answer and lists the keys', async () => {
    const hook = await addHook({
      url: `${receiver.base}/{path}?key={api.key}`,
      url_variables: [{ key: 'path', value: 'vars' }, { key: 'api.key', value: 's3cr3t-value' }],
    });
    expect(hook.url).toBe(`${receiver.base}/{path}?key={api.key}`);
    expect(hook.url_variables).toEqual([{ key: 'path' }, { key: 'api.key' }]);
    expect((await h.get('/hooks')).text).not.toContain('s3cr3t-value');
    expect((await h.get(`/hooks/${hook.id}`)).text).not.toContain('s3cr3t-value');
  });

  it('sets and deletes variables with 204 and substitutes them on delivery', async () => {
    const hook = await addHook({ url: `${receiver.base}/{path}?key={token}`, url_variables: [{ key: 'path', value: 'first' }, { key: 'token', value: 'abc' }] });
    const set = await h.put(`/hooks/${hook.id}/url_variables/token`, { value: 'rotated value' });
    expect(set.status).toBe(204);
    expect(set.text).toBe('');
    const extra = await h.put(`/hooks/${hook.id}/url_variables/unused`, { value: 'x' });
    expect(extra.status).toBe(204);
    expect((await h.get(`/hooks/${hook.id}`)).body.url_variables).toEqual([{ key: 'path' }, { key: 'token' }, { key: 'unused' }]);
    expect((await h.delete(`/hooks/${hook.id}/url_variables/unused`)).status).toBe(204);
    expect((await h.get(`/hooks/${hook.id}`)).body.url_variables).toEqual([{ key: 'path' }, { key: 'token' }]);

    expect((await h.post(`/hooks/${hook.id}`)).status).toBe(201);
    await queue.idle();
    expect(receiver.received.map((request) => request.path)).toEqual(['/first?key=rotated value'.replace(' ', '%20')]);
    const [delivery] = await deliveries(hook.id);
    // the log shows the template, never the values
    expect(delivery.url).toBe(`${receiver.base}/{path}?key={token}`);
    expect(JSON.stringify(delivery)).not.toContain('rotated');
  });

  it('refuses bad keys and values, unknown keys and keys the URL still uses', async () => {
    const hook = await addHook({ url: `${receiver.base}/{path}`, url_variables: [{ key: 'path', value: 'p' }] });
    for (const [key, value] of [['bad key!', 'v'], ['ok', ''], ['ok', 'v'.repeat(2049)], ['9lives', 'v']]) {
      const answer = await h.put(`/hooks/${hook.id}/url_variables/${encodeURIComponent(key)}`, { value });
      expect(answer.status, key).toBe(422);
      expect(answer.body).toEqual({ error: 'Illegal key or value' });
    }
    expect((await h.put(`/hooks/${hook.id}/url_variables/path`, {})).body).toEqual({ error: 'value is missing' });
    const unknown = await h.delete(`/hooks/${hook.id}/url_variables/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 URL variable Not Found' });
    const used = await h.delete(`/hooks/${hook.id}/url_variables/path`);
    expect(used.status).toBe(422);
    expect(used.body).toEqual({ error: 'Could not unset variable' });
    expect((await h.put(`/hooks/999999/url_variables/path`, { value: 'v' })).status).toBe(404);
    const tooMany = Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
    expect((await h.post('/hooks', { url: `${receiver.base}/many`, url_variables: tooMany })).status).toBe(422);
    expect((await h.post('/hooks', { url: `${receiver.base}/x`, url_variables: [{ key: 'a' }] })).body).toEqual({ error: 'url_variables[0][value] is missing' });
  });

  it('drops the token and the variables when the URL changes without them', async () => {
    const hook = await addHook({ url: `${receiver.base}/{path}`, token: 'old-secret', url_variables: [{ key: 'path', value: 'p' }] });
    const refused = await h.put(`/hooks/${hook.id}`, { url: `${receiver.base}/moved/{path}` });
    expect(refused.status).toBe(422);
    const moved = await h.put(`/hooks/${hook.id}`, { url: `${receiver.base}/moved` });
    expect(moved.status).toBe(200);
    expect(moved.body.url_variables).toEqual([]);
    await h.post(`/hooks/${hook.id}`);
    await queue.idle();
    expect(receiver.received[0].path).toBe('/moved');
    expect(receiver.received[0].headers['x-gitlab-token']).toBeUndefined();
  });
});

describe('delivery', () => {
  it('tests a hook: answers the mock data and posts it with the platform headers and the secret token', async () => {
    const hook = await addHook({ url: `${receiver.base}/test`, token: 'hook-secret' });
    const answer = await h.post(`/hooks/${hook.id}`);
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ event_name: 'project_create', name: 'Ruby', path: 'ruby', project_id: 1, owner_name: 'Someone', owner_email: 'example@gitlabhq.com' });
    await queue.idle();
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request.path).toBe('/test');
    expect(JSON.parse(request.body)).toEqual(answer.body);
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitlab-event': 'System Hook',
      'x-gitlab-token': 'hook-secret',
      'x-gitlab-instance': 'http://localhost',
      'user-agent': expect.stringMatching(/^GitLab\//),
    });
    expect(request.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({
      hook_id: hook.id, trigger: 'system_hooks', response_status: '200', response_body: '{"ok":true}', internal_error_message: null,
      request_data: answer.body,
    });
    expect(delivery.request_headers['X-Gitlab-Token']).toBe('[REDACTED]');
    expect(delivery.response_headers['x-receiver']).toBe('test');
    expect(delivery.execution_duration).toBeGreaterThan(0);
  });

  it('sends each event kind to the hooks that subscribed to it', async () => {
    const push = await addHook({ url: `${receiver.base}/push`, push_events: true, repository_update_events: false });
    const tags = await addHook({ url: `${receiver.base}/tags`, tag_push_events: true, repository_update_events: false });
    const mrs = await addHook({ url: `${receiver.base}/mrs`, merge_requests_events: true, repository_update_events: false });
    const updates = await addHook({ url: `${receiver.base}/updates` });
    const paths = async (kind: 'push' | 'tag_push' | 'merge_request' | 'repository_update', data: Record<string, unknown>) => {
      receiver.received.length = 0;
      const outcomes = await deliverSystemEvent(h.sandbox, { kind, data });
      expect(outcomes.every((outcome) => outcome.responseStatus === '200')).toBe(true);
      return receiver.received.map((request) => request.path).sort();
    };
    expect(await paths('push', { event_name: 'push', ref: 'refs/heads/main' })).toEqual(['/push']);
    expect(await paths('tag_push', { event_name: 'tag_push', ref: 'refs/tags/v1.0.0' })).toEqual(['/tags']);
    expect(await paths('merge_request', { object_kind: 'merge_request' })).toEqual(['/mrs']);
    expect(await paths('repository_update', { event_name: 'repository_update' })).toEqual(['/updates']);
    expect((await deliveries(push.id))[0].trigger).toBe('push_hooks');
    expect((await deliveries(tags.id))[0].trigger).toBe('tag_push_hooks');
    expect((await deliveries(mrs.id))[0].trigger).toBe('merge_request_hooks');
    expect((await deliveries(updates.id))[0].request_data).toEqual({ event_name: 'repository_update' });
  });

  it('applies the branch filter to pushes: wildcard, regex and all branches', async () => {
    await addHook({ url: `${receiver.base}/wildcard`, push_events: true, push_events_branch_filter: 'release/*' });
    await addHook({ url: `${receiver.base}/exact`, push_events: true, push_events_branch_filter: 'main' });
    await addHook({ url: `${receiver.base}/regex`, push_events: true, branch_filter_strategy: 'regex', push_events_branch_filter: '^(main|dev-\\d+)$' });
    await addHook({ url: `${receiver.base}/all`, push_events: true, branch_filter_strategy: 'all_branches', push_events_branch_filter: 'ignored' });
    await addHook({ url: `${receiver.base}/unfiltered`, push_events: true });
    const reached = async (ref: string) => {
      receiver.received.length = 0;
      await deliverSystemEvent(h.sandbox, { kind: 'push', data: { event_name: 'push', ref } });
      return receiver.received.map((request) => request.path).sort();
    };
    expect(await reached('refs/heads/main')).toEqual(['/all', '/exact', '/regex', '/unfiltered']);
    expect(await reached('refs/heads/release/2.1')).toEqual(['/all', '/unfiltered', '/wildcard']);
    expect(await reached('refs/heads/dev-42')).toEqual(['/all', '/regex', '/unfiltered']);
    expect(await reached('refs/heads/dev-x')).toEqual(['/all', '/unfiltered']);
  });

  it('records a hanging receiver as a timeout without slowing the request that caused it', async () => {
    queue.timeoutMs = 400;
    const hook = await addHook({ url: `${receiver.base}/hang` });
    const started = performance.now();
    const answer = await h.post(`/hooks/${hook.id}`);
    const elapsed = performance.now() - started;
    expect(answer.status).toBe(201);
    expect(elapsed).toBeLessThan(200);
    // the API keeps answering while the delivery waits
    const other = performance.now();
    expect((await h.get('/hooks')).status).toBe(200);
    expect(performance.now() - other).toBeLessThan(200);
    await queue.idle();
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ response_status: 'internal error', internal_error_message: 'Request timed out after 0.4 seconds', response_body: '' });
    expect(delivery.execution_duration).toBeGreaterThanOrEqual(0.39);
    expect(receiver.hanging.length).toBeGreaterThan(0);
  });

  it('times out a receiver that stops in the middle of its answer', async () => {
    queue.timeoutMs = 300;
    const hook = await addHook({ url: `${receiver.base}/stall` });
    await deliverSystemEvent(h.sandbox, { kind: 'repository_update', data: {} });
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ response_status: 'internal error', internal_error_message: 'Request timed out after 0.3 seconds' });
  });

  it('records a receiver answering 500, and an unreachable one', async () => {
    const failing = await addHook({ url: `${receiver.base}/fail` });
    const closed = await addHook({ url: 'http://127.0.0.1:9/nothing-listens' });
    await deliverSystemEvent(h.sandbox, { kind: 'repository_update', data: { event_name: 'repository_update' } });
    const [failed] = await deliveries(failing.id);
    expect(failed).toMatchObject({ response_status: '500', response_body: 'receiver exploded', internal_error_message: null });
    const [refused] = await deliveries(closed.id);
    expect(refused.response_status).toBe('internal error');
    expect(refused.internal_error_message).toMatch(/ECONNREFUSED/);
  });

  it('verifies TLS unless the hook turns it off', async () => {
    const verified = await addHook({ url: `${tlsReceiver.base}/verified` });
    const unverified = await addHook({ url: `${tlsReceiver.base}/unverified`, enable_ssl_verification: false });
    await deliverSystemEvent(h.sandbox, { kind: 'repository_update', data: { event_name: 'repository_update' } });
    const [refused] = await deliveries(verified.id);
    expect(refused.response_status).toBe('internal error');
    expect(refused.internal_error_message).toMatch(/self[- ]signed/i);
    const [accepted] = await deliveries(unverified.id);
    expect(accepted.response_status).toBe('200');
    expect(tlsReceiver.received.map((request) => request.path)).toEqual(['/unverified']);
  });

  it('sends credentials in the URL as basic auth', async () => {
    await addHook({ url: `${receiver.base.replace('http://', 'http://hook%20user:p%40ss@')}/basic` });
    await deliverSystemEvent(h.sandbox, { kind: 'repository_update', data: {} });
    expect(receiver.received[0].path).toBe('/basic');
    expect(receiver.received[0].headers.authorization).toBe(`Basic ${Buffer.from('hook user:p@ss').toString('base64')}`);
  });

  it('keeps the last 50 deliveries of a hook', async () => {
    const hook = await addHook({ url: `${receiver.base}/many` });
    await Promise.all(Array.from({ length: 55 }, (_, i) => deliverSystemEvent(h.sandbox, { kind: 'repository_update', data: { n: i } })));
    const log = await deliveries(hook.id);
    expect(log).toHaveLength(50);
    expect(log[0].id).toBeGreaterThan(log[49].id);
    expect(receiver.received).toHaveLength(55);
  });

  it('answers 404 for the deliveries of a missing hook', async () => {
    const answer = await h.get('/-/sandbox/hooks/999999/deliveries');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: '404 Not found' });
  });
});
