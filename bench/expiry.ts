import { scanTokenExpiry, OVERVIEW_CONCURRENCY } from '../src/api/access-tokens.ts';
import { startConsoleServer } from '../e2e/console-server.ts';
import { emit, log, round } from './report.ts';

const GROUPS = 50;
const TOKENS_PER_GROUP = 20;

/**
 * The expiry overview over 50 groups of 20 tokens each: the console's own scan (the same code the
 * screen runs) against a sandbox in another process, timed to completion, with the peak number of
 * requests in flight (the goal is at most OVERVIEW_CONCURRENCY).
 */
export async function expiryFigures(): Promise<void> {
  const server = await startConsoleServer({ rateLimitPerMinute: 0 });
  const api = `${server.baseURL}/api/v4`;
  const admin = { 'PRIVATE-TOKEN': server.adminToken, 'Content-Type': 'application/json' };
  const post = async (path: string, body: unknown) => {
    const answer = await fetch(`${api}${path}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`POST ${path} answered ${answer.status}: ${await answer.text()}`);
    return (await answer.json()) as { id: number };
  };
  try {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (let groupIndex = 0; groupIndex < GROUPS; groupIndex++) {
      const group = await post('/groups', { name: `Bench ${groupIndex}`, path: `bench-${groupIndex}`, visibility: 'private' });
      await Promise.all(
        Array.from({ length: TOKENS_PER_GROUP }, (_unused, tokenIndex) =>
          post(`/groups/${group.id}/access_tokens`, { name: `token ${tokenIndex}`, scopes: ['read_api'], expires_at: day(2 + ((groupIndex * TOKENS_PER_GROUP + tokenIndex) % 90)) }),
        ),
      );
    }
    let inFlight = 0;
    let peak = 0;
    const realFetch = globalThis.fetch;
    globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      try {
        return await realFetch(...args);
      } finally {
        inFlight--;
      }
    };
    try {
      const started = performance.now();
      const overview = await scanTokenExpiry({ instanceUrl: server.baseURL, token: server.adminToken }, { everywhere: false });
      const elapsed = performance.now() - started;
      if (overview.groups !== GROUPS || overview.failures.length) throw new Error(`the scan saw ${overview.groups} groups, ${overview.failures.length} failures`);
      log(`expiry overview: ${GROUPS} groups x ${TOKENS_PER_GROUP} tokens, ${overview.tokens.length} need attention, ${round(elapsed, 1)} ms, at most ${peak} requests in flight (limit ${OVERVIEW_CONCURRENCY})`);
      emit({ name: 'console.expiry_overview_50_groups_ms', value: round(elapsed, 1), unit: 'ms' });
      emit({ name: 'console.expiry_overview_peak_in_flight', value: peak, unit: 'count' });
    } finally {
      globalThis.fetch = realFetch;
    }
  } finally {
    await server.stop();
  }
}
