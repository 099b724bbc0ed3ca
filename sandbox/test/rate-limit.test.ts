import { afterAll, describe, expect, it } from 'vitest';
import { createHarness } from './harness.ts';

// 12:00:10 UTC: 50 s left in the minute's window
let clock = new Date('2026-03-02T12:00:10Z');
const h = createHarness({ seed: 'empty', now: () => clock, rateLimitPerMinute: 3 });
afterAll(() => h.close());

describe("the authenticated API throttle (the platform's RateLimit headers)", () => {
  it('counts each user apart, tells the budget on every answer and answers 429 past it until the minute ends', async () => {
    const first = h.user();
    const other = h.user();
    for (let request = 1; request <= 3; request++) {
      const answer = await h.get('/user', { token: first.token });
      expect(answer.status, `request ${request}`).toBe(200);
      expect(answer.headers.get('ratelimit-name')).toBe('throttle_authenticated_api');
      expect(answer.headers.get('ratelimit-limit')).toBe('3');
      expect(answer.headers.get('ratelimit-observed')).toBe(String(request));
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(3 - request));
      expect(answer.headers.get('ratelimit-reset')).toBe(String(Date.parse('2026-03-02T12:01:00Z') / 1000));
      expect(answer.headers.get('ratelimit-resettime')).toBe('Mon, 02 Mar 2026 12:01:00 GMT');
      expect(answer.headers.get('retry-after')).toBeNull();
    }
    const refused = await h.get('/user', { token: first.token });
    expect(refused.status).toBe(429);
    expect(refused.text).toBe('Retry later\n');
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-observed')).toBe('4');
    // refused before any work: a write past the limit changes nothing
    const write = await h.post('/groups', { name: 'Throttled', path: 'throttled' }, { token: first.token });
    expect(write.status).toBe(429);
    expect((await h.get('/groups/throttled', { token: other.token })).status).toBe(404);

    clock = new Date('2026-03-02T12:01:00Z');
    const nextMinute = await h.get('/user', { token: first.token });
    expect(nextMinute.status).toBe(200);
    expect(nextMinute.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('leaves anonymous requests uncounted and without the headers', async () => {
    const answer = await h.get('/version', { token: null });
    expect(answer.headers.get('ratelimit-limit')).toBeNull();
  });

  it('lets a browser on another origin read the headers', async () => {
    const answer = await h.get('/user', { headers: { Origin: 'https://console.example.com' } });
    const exposed = (answer.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) expect(exposed).toContain(name);
  });

  it('is off with a limit of 0', async () => {
    h.sandbox.config.rateLimitPerMinute = 0;
    const user = h.user();
    for (let request = 0; request < 5; request++) expect((await h.get('/user', { token: user.token })).status).toBe(200);
    expect((await h.get('/user', { token: user.token })).headers.get('ratelimit-limit')).toBeNull();
  });
});
