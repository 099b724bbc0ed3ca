import http from 'node:http';
import { DEMO_ALERTS } from '../sandbox/seed/alerts.ts';
import { emit, log, percentile, round } from './report.ts';
import { startSandboxProcess } from './sandbox-child.ts';

const DURATION_MS = 30_000;
const CLIENTS = 20;
/** Distinct fingerprints the load cycles through: every one after the first send is an event on an open alert. */
const FINGERPRINTS = 200;
const TIMEOUT_MS = 10_000;

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { method: 'POST', host: url.hostname, port: url.port, path: url.pathname, agent, timeout: TIMEOUT_MS, headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`timed out after ${TIMEOUT_MS} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * Sustained alert ingestion: CLIENTS senders post HTTP-format alerts to the bench project's
 * endpoint for 30 s, cycling through FINGERPRINTS fingerprints (grouping on: most sends are events
 * on an open alert). Figures: accepted alerts per second, p99 latency, and afterwards the events
 * the store counted against the 200 answers (lost must be 0).
 */
export async function alertIngestionFigures(): Promise<void> {
  const ready = await startSandboxProcess();
  const origin = new URL(ready.apiUrl).origin;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const { bench } = DEMO_ALERTS.integrations;
  const endpoint = new URL(`${origin}/${DEMO_ALERTS.benchProject}/alerts/notify/load-generator/${bench.endpointIdentifier}.json`);
  const auth = { Authorization: `Bearer ${bench.token}` };
  try {
    let sent = 0;
    let accepted = 0;
    let failed = 0;
    const samples: number[] = [];
    const started = performance.now();
    const deadline = started + DURATION_MS;
    const sender = async () => {
      while (performance.now() < deadline) {
        const n = sent++ % FINGERPRINTS;
        const body = JSON.stringify({ title: `bench-load ${n}`, fingerprint: `bench-load-${n}`, severity: 'high', service: 'load', hosts: [`host-${sent % 7}`], sequence: sent });
        const at = performance.now();
        try {
          const answer = await post(agent, endpoint, auth, body);
          if (answer.status === 200) {
            accepted++;
            samples.push(performance.now() - at);
          } else {
            failed++;
            if (failed <= 3) log(`alert answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          }
        } catch (error) {
          failed++;
          if (failed <= 3) log(`alert failed: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, sender));
    const seconds = (performance.now() - started) / 1000;
    samples.sort((a, b) => a - b);
    // what the store counted: the events of the bench alerts, read back through GraphQL
    let stored = 0;
    let alerts = 0;
    let after: string | null = null;
    do {
      const answer = await post(agent, new URL(`${origin}/api/graphql`), { 'PRIVATE-TOKEN': ready.adminToken }, JSON.stringify({
        query: 'query($p: ID!, $after: String) { project(fullPath: $p) { alertManagementAlerts(search: "bench-load", first: 100, after: $after) { nodes { eventCount } pageInfo { hasNextPage endCursor } } } }',
        variables: { p: DEMO_ALERTS.benchProject, after },
      }));
      const page = (JSON.parse(answer.body) as { data: { project: { alertManagementAlerts: { nodes: Array<{ eventCount: number }>; pageInfo: { hasNextPage: boolean; endCursor: string } } } } }).data.project.alertManagementAlerts;
      for (const node of page.nodes) stored += node.eventCount;
      alerts += page.nodes.length;
      after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
    } while (after);
    log(`alerts ingestion: ${accepted} accepted, ${failed} failed in ${round(seconds, 1)} s from ${CLIENTS} clients; ${alerts} alerts hold ${stored} events`);
    emit({ name: 'sandbox.alerts_ingestion.throughput', value: round(accepted / seconds, 1), unit: 'req/s' });
    emit({ name: 'sandbox.alerts_ingestion.p50', value: round(percentile(samples, 0.5)), unit: 'ms' });
    emit({ name: 'sandbox.alerts_ingestion.p99', value: round(percentile(samples, 0.99)), unit: 'ms' });
    emit({ name: 'sandbox.alerts_ingestion.accepted', value: accepted, unit: 'count' });
    emit({ name: 'sandbox.alerts_ingestion.lost', value: accepted - stored, unit: 'count', goal: 0 });
    if (failed > 0) throw new Error(`${failed} alerts were refused or failed`);
    if (stored !== accepted) throw new Error(`${accepted} alerts accepted but ${stored} events stored`);
    if (alerts !== Math.min(FINGERPRINTS, accepted)) throw new Error(`${alerts} alerts for ${FINGERPRINTS} fingerprints: grouping made extra alerts`);
  } finally {
    agent.destroy();
    await ready.stop();
  }
}
