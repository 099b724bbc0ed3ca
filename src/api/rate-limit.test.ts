import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { send } from './http.ts';
import { ApiError } from './errors.ts';
import { retryDelay } from './query-client.ts';
import { rateLimitStore } from './rate-limit.ts';

const connection = { instanceUrl: 'https://gitlab.example.com', token: 'glpat-rate-limit-test' };

function answer(status: number, headers: Record<string, string>, body = '[]') {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(body, { status, headers: { 'Content-Type': status === 429 ? 'text/plain' : 'application/json', ...headers } })));
}

beforeEach(() => rateLimitStore.clear());
afterEach(() => vi.unstubAllGlobals());

describe('the request budget', () => {
  it('is read from the RateLimit headers of any answer, and kept when an answer has none', async () => {
    answer(200, { 'RateLimit-Limit': '2000', 'RateLimit-Remaining': '1994' });
    await send(connection, '/projects');
    expect(rateLimitStore.get().budget).toEqual({ remaining: 1994, limit: 2000 });
    answer(200, {});
    await send(connection, '/version');
    expect(rateLimitStore.get().budget).toEqual({ remaining: 1994, limit: 2000 });
  });

  it('is unknown where the instance sends no headers (or the browser may not read them)', async () => {
    answer(200, {});
    await send(connection, '/projects');
    expect(rateLimitStore.get().budget).toBeNull();
  });
});

describe('a 429', () => {
  it('says who refused and for how long, with Retry-After for the retry', async () => {
    answer(429, { 'Retry-After': '30', 'RateLimit-Limit': '2000', 'RateLimit-Remaining': '0' }, 'Retry later\n');
    const error = (await send(connection, '/projects').catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Rate limited by the instance: try again in 30 s.');
    expect(error.retryAfter).toBe(30);
    expect(rateLimitStore.get().budget).toEqual({ remaining: 0, limit: 2000 });
  });

  it('of a read is announced while its retry waits for Retry-After', () => {
    expect(retryDelay(0, new ApiError(429, 'x', 'http', undefined, 3))).toBe(3000);
    expect(rateLimitStore.get().retry).toMatchObject({ seconds: 3 });
    expect(rateLimitStore.get().retry!.at).toBeGreaterThan(Date.now() + 2000);
    // other retries are no rate limit
    rateLimitStore.clear();
    retryDelay(0, new ApiError(503, 'x'));
    expect(rateLimitStore.get().retry).toBeNull();
  });
});
