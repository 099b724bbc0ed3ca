import { DEMO_PATHS } from '../sandbox/seed/demo.ts';
import { emit, log, median, percentile, round } from './report.ts';
import { CONSOLE_PARTS } from './ui.ts';
import { keepAliveClient, type KeepAliveClient } from './http-client.ts';
import { startSandboxProcess } from './sandbox-child.ts';
import { ciEngineFigures } from './ci-engine.ts';
import { alertIngestionFigures } from './alerts-ingestion.ts';

/**
 * `npm run bench`: starts a demo sandbox on a free loopback port (in a child process), measures
 * latency of sequential requests and throughput at 50 concurrent clients, then the console's
 * figures in a browser (bench/ui.ts), and prints one JSON object per figure on stdout, with the
 * issue's goal beside it where there is one. Diagnostics go to stderr. Exits 1 if any request
 * failed or a figure could not be measured. `npm run bench -- --only <prefix>` (repeatable) runs
 * only the parts whose name starts with a prefix, e.g. `--only console.cold` or `--only sandbox`.
 * Requests carry the administrator's token, the console's usual caller (GET /users then answers
 * the full administrator entity, its most expensive form).
 */

const WARMUP_REQUESTS = 100;
const SEQUENTIAL_REQUESTS = 400;
const CONCURRENT_CLIENTS = 50;
const CONCURRENT_MAX_MS = 3_000;
const CONCURRENT_MAX_REQUESTS = 5_000;
// each part stops the run by itself if it hangs (a console build and browsers included); the
// parts together take longer than any one may
const PART_TIMEOUT_MS = 600_000;
const REQUEST_TIMEOUT_MS = 10_000;
// one start of the seeded sandbox swung by half a second between runs on a busy two-core machine
const SEED_STARTS = 3;

type Client = KeepAliveClient;

let failures = 0;
// each kind of failure is logged once, however often it happens
const reported = new Set<string>();

/** One timed request; anything but 200 counts as a failure. Returns the latency in ms, or null. */
async function timedGet(api: Client, path: string): Promise<number | null> {
  const started = performance.now();
  try {
    const answer = await api.get(path);
    const elapsed = performance.now() - started;
    if (answer.status === 200) return elapsed;
    const key = `${path} ${answer.status}`;
    if (!reported.has(key)) log(`GET ${path} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
    reported.add(key);
  } catch (error) {
    const key = `${path} ${(error as Error).message}`;
    if (!reported.has(key)) log(`GET ${path} failed: ${(error as Error).message}`);
    reported.add(key);
  }
  failures++;
  return null;
}

async function sequential(api: Client, name: string, path: string): Promise<void> {
  for (let i = 0; i < WARMUP_REQUESTS; i++) await timedGet(api, path);
  const samples: number[] = [];
  for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
    const elapsed = await timedGet(api, path);
    if (elapsed !== null) samples.push(elapsed);
  }
  if (samples.length === 0) throw new Error(`every request to ${path} failed`);
  samples.sort((a, b) => a - b);
  log(`${name}: ${samples.length} requests, min ${round(samples[0])} ms, max ${round(samples[samples.length - 1])} ms`);
  emit({ name: `${name}.p50`, value: round(percentile(samples, 0.5)), unit: 'ms' });
  emit({ name: `${name}.p99`, value: round(percentile(samples, 0.99)), unit: 'ms' });
}

async function concurrent(api: Client, paths: readonly string[]): Promise<void> {
  let issued = 0;
  let completed = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + CONCURRENT_MAX_MS;
  const worker = async () => {
    while (issued < CONCURRENT_MAX_REQUESTS && performance.now() < deadline) {
      const path = paths[issued++ % paths.length];
      if ((await timedGet(api, path)) === null) errors++;
      completed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_CLIENTS }, worker));
  const seconds = (performance.now() - started) / 1000;
  log(`concurrent: ${completed} requests from ${CONCURRENT_CLIENTS} clients in ${round(seconds, 2)} s`);
  emit({ name: `sandbox.concurrent_${CONCURRENT_CLIENTS}.throughput`, value: round(completed / seconds, 1), unit: 'req/s' });
  emit({ name: `sandbox.concurrent_${CONCURRENT_CLIENTS}.errors`, value: errors, unit: 'count' });
}


async function sandboxFigures(): Promise<void> {
  const starts: number[] = [];
  for (let start = 1; start < SEED_STARTS; start++) {
    const discarded = await startSandboxProcess();
    starts.push(discarded.startMs);
    await discarded.stop();
  }
  const ready = await startSandboxProcess();
  starts.push(ready.startMs);
  const stopServer = ready.stop;
  log(`sandbox at ${ready.apiUrl}; ${starts.length} starts with the demo seed took ${starts.map((ms) => round(ms)).join(', ')} ms`);
  emit({ name: 'sandbox.start_with_demo_seed', value: round(median(starts), 1), unit: 'ms', goal: 2000 });
  const api = keepAliveClient(ready.apiUrl, ready.adminToken, { maxSockets: CONCURRENT_CLIENTS, timeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const project = await api.get(`/projects/${encodeURIComponent(DEMO_PATHS.inheritedProject)}`);
    if (project.status !== 200) throw new Error(`project ${DEMO_PATHS.inheritedProject} answered ${project.status}`);
    const projectId = (JSON.parse(project.body) as { id: number }).id;
    const membersPath = `/projects/${projectId}/members/all`;
    const usersPath = '/users?per_page=100';
    await sequential(api, 'sandbox.members_all', membersPath);
    await sequential(api, 'sandbox.users_per_page_100', usersPath);
    await concurrent(api, [membersPath, usersPath]);
  } finally {
    api.close();
    await stopServer();
  }
  if (failures > 0) throw new Error(`${failures} requests failed`);
}

const PARTS: ReadonlyArray<readonly [string, () => void | Promise<void>]> = [['sandbox.http', sandboxFigures], ['sandbox.ci_engine', ciEngineFigures], ['sandbox.alerts_ingestion', alertIngestionFigures], ...CONSOLE_PARTS];

/** The prefixes of `--only <prefix>` (or `--only=<prefix>`); empty: every part. */
function onlyPrefixes(args: readonly string[]): string[] {
  const prefixes: string[] = [];
  args.forEach((arg, index) => {
    if (arg === '--only') prefixes.push(args[index + 1] ?? '');
    else if (arg.startsWith('--only=')) prefixes.push(arg.slice('--only='.length));
  });
  return prefixes;
}

async function main(): Promise<number> {
  const prefixes = onlyPrefixes(process.argv.slice(2));
  const chosen = PARTS.filter(([name]) => !prefixes.length || prefixes.some((prefix) => name.startsWith(prefix) || prefix.startsWith(`${name}.`)));
  if (!chosen.length) throw new Error(`no part of the bench matches ${prefixes.join(', ')} (parts: ${PARTS.map(([name]) => name).join(', ')})`);
  let ok = true;
  // each part on its own: a failed part is logged, the others still measured
  for (const [name, part] of chosen) {
    const started = performance.now();
    const watchdog = setTimeout(() => {
      log(`${name}: gave up after ${PART_TIMEOUT_MS / 1000} s`);
      process.exit(1);
    }, PART_TIMEOUT_MS);
    watchdog.unref();
    try {
      await part();
    } catch (error) {
      ok = false;
      log(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    clearTimeout(watchdog);
    log(`${name}: ${round((performance.now() - started) / 1000, 1)} s`);
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
