import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './errors.ts';
import { rateLimitStore } from './rate-limit.ts';
import { FRESH_MS } from './early.ts';

const MAX_QUERY_RETRIES = 3;

/** Retries queries only when a retry can help (network, 5xx, 429); never other 4xx or mutations. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_QUERY_RETRIES && error instanceof ApiError && error.retryable;
}

/** Exponential backoff from 500 ms, or the server's Retry-After when it sent one; a throttled read says so on screen. */
export function retryDelay(attempt: number, error: unknown): number {
  const delay = error instanceof ApiError && error.retryAfter !== undefined ? Math.min(error.retryAfter, 60) * 1000 : Math.min(500 * 2 ** attempt, 8000);
  if (error instanceof ApiError && error.status === 429) rateLimitStore.retrying(Math.ceil(delay / 1000));
  return delay;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: FRESH_MS, refetchOnWindowFocus: false },
      // a repeated rotate revokes a whole token family: mutations run exactly once
      mutations: { retry: false },
    },
  });
}
