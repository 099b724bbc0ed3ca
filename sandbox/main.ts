import { parseArgs } from 'node:util';
import { startSandbox } from './server.ts';
import { SEED_KINDS, type SeedKind } from './seed/index.ts';
import { parseRateLimit } from './http/rate-limit.ts';
import { parseCiTimeScale } from './ci/worker.ts';
import { parseAlertPayloadLimit } from './areas/alerts.ts';

const usage = `Usage: npm run sandbox -- [--port 3000] [--host 127.0.0.1] [--data DIR] [--seed demo|empty] [--admin-token T] [--rate-limit 2000] [--ci-time-scale 1] [--alert-payload-limit 1048576]
Environment fallbacks: SANDBOX_PORT, SANDBOX_HOST, SANDBOX_DATA, SANDBOX_SEED, SANDBOX_ADMIN_TOKEN, SANDBOX_RATE_LIMIT, SANDBOX_CI_TIME_SCALE, SANDBOX_ALERT_PAYLOAD_LIMIT.
--rate-limit: authenticated API requests per user and minute before 429 (0: no limit).
--ci-time-scale: CI jobs' sleep commands and delayed jobs take this many real seconds per second (1: real time, 0: no waiting).
--alert-payload-limit: alert payloads above this many bytes answer 413 (default 1048576, the platform's 1 MB).
Without --data the sandbox keeps its state in a fresh temporary directory.`;

function fail(message: string): never {
  console.error(`sandbox: ${message}\n\n${usage}`);
  process.exit(2);
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'string' },
        'admin-token': { type: 'string' },
        'rate-limit': { type: 'string' },
        'ci-time-scale': { type: 'string' },
        'alert-payload-limit': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const env = process.env;
const portText = values.port ?? env.SANDBOX_PORT ?? '3000';
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not ${JSON.stringify(portText)}`);
const seed = values.seed ?? env.SANDBOX_SEED ?? 'demo';
if (!(SEED_KINDS as readonly string[]).includes(seed)) fail(`--seed must be one of ${SEED_KINDS.join(', ')}`);
const rateLimitPerMinute = parseRateLimit(values['rate-limit'] ?? env.SANDBOX_RATE_LIMIT, fail);
const ciTimeScale = parseCiTimeScale(values['ci-time-scale'] ?? env.SANDBOX_CI_TIME_SCALE, fail);
const alertPayloadMaxBytes = parseAlertPayloadLimit(values['alert-payload-limit'] ?? env.SANDBOX_ALERT_PAYLOAD_LIMIT, fail);

const running = await startSandbox({
  port,
  host: values.host ?? env.SANDBOX_HOST ?? '127.0.0.1',
  dataDir: values.data ?? env.SANDBOX_DATA,
  seed: seed as SeedKind,
  // an empty value means none: the data directory's token, or a new one
  adminToken: values['admin-token'] || env.SANDBOX_ADMIN_TOKEN || undefined,
  config: {
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
    ...(ciTimeScale === undefined ? {} : { ciTimeScale }),
    ...(alertPayloadMaxBytes === undefined ? {} : { alertPayloadMaxBytes }),
  },
});
console.log(`Sandbox API: ${running.apiUrl}`);
console.log(`Data:        ${running.dataDir}`);
console.log(`Admin token: ${running.adminToken}   (user 1, root)`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
