import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';
import { apiUser, type ApiUser } from './core-fixtures.ts';

const h = createHarness({ seed: 'empty' });
afterAll(() => h.close());

const LOG = '/-/sandbox/requests';
type Logged = { id: number; method: string; path: string; status: number | null; time: string };

let user: ApiUser;
beforeAll(async () => {
  user = await apiUser(h);
});

describe('the request log (test control)', () => {
  it('lists the API requests after a mark, by method and path glob, with their status and nothing they carried', async () => {
    const mark = (await h.get<{ last: number }>(LOG)).body.last;
    await h.post('/hooks', { url: 'https://receiver.example/one' });
    await h.post('/hooks', { url: 'not a url' });
    await h.get(`/hooks?private_token=${user.token}`);
    const answer = await h.get<{ last: number; requests: Logged[] }>(`${LOG}?method=post&path=${encodeURIComponent('/api/v4/hooks*')}&after=${mark}`);
    expect(answer.status).toBe(200);
    expect(answer.body.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: '/api/v4/hooks', status: 201 },
      { method: 'POST', path: '/api/v4/hooks', status: 422 },
    ]);
    const all = await h.get<{ requests: Logged[] }>(`${LOG}?after=${mark}`);
    expect(all.body.requests.map((entry) => entry.method)).toEqual(['POST', 'POST', 'GET']);
    // a token in the query string never reaches the log
    expect(JSON.stringify(all.body)).not.toContain(user.token);
    expect(all.body.requests.at(-1)!.path).toBe('/api/v4/hooks');
    expect(Date.parse(all.body.requests[0]!.time)).not.toBeNaN();
  });

  it('logs a request answered by a fault rule, and forgets everything on DELETE', async () => {
    const mark = (await h.get<{ last: number }>(LOG)).body.last;
    const rule = await h.post<{ id: number }>('/-/sandbox/faults', { path: '/api/v4/version', error_rate: 1, error_status: 503, times: 1 });
    expect((await h.get('/version')).status).toBe(503);
    const after = await h.get<{ requests: Logged[] }>(`${LOG}?path=/api/v4/version&after=${mark}`);
    expect(after.body.requests.map((entry) => entry.status)).toEqual([503]);
    await h.delete(`/-/sandbox/faults/${rule.body.id}`);
    expect((await h.delete(LOG)).status).toBe(204);
    expect((await h.get<{ requests: Logged[] }>(LOG)).body.requests).toEqual([]);
  });

  it('is for administrators only, and refuses a bad mark', async () => {
    expect((await h.get(LOG, { token: null })).status).toBe(401);
    expect((await h.get(LOG, { token: user.token })).status).toBe(403);
    expect((await h.delete(LOG, { token: user.token })).status).toBe(403);
    expect((await h.get(`${LOG}?after=soon`)).status).toBe(400);
  });
});
