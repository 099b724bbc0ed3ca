import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createServerApp } from './app.ts';
import { prepareSandbox } from '../sandbox/server.ts';
import { createApp } from '../sandbox/app.ts';
import { SEED_KINDS, type SeedKind } from '../sandbox/seed/index.ts';
import { parseRateLimit } from '../sandbox/http/rate-limit.ts';
import { parseCiTimeScale } from '../sandbox/ci/worker.ts';

const usage = `Usage: npm start -- [--port 8080] [--host 127.0.0.1] [--target https://instance.example]
                 [--data .sandbox-data] [--seed demo|empty] [--admin-token T] [--rate-limit 2000]
Without --target the bundled sandbox answers /api/v4 (demo seed, data kept in .sandbox-data/),
allowing --rate-limit authenticated requests per user and minute (env SANDBOX_RATE_LIMIT; 0: no limit).
With --target the console talks to that instance through this server (no CORS setup needed).`;

function fail(message: string): never {
  console.error(`server: ${message}\n\n${usage}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      target: { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string' },
      'admin-token': { type: 'string' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const portText = (values.port as string | undefined) ?? process.env.PORT ?? '8080';
const port = Number(portText);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a number from 0 to 65535, not ${JSON.stringify(portText)}`);
const host = (values.host as string | undefined) ?? process.env.HOST ?? '127.0.0.1';
const target = values.target as string | undefined;
if (target && !/^https?:\/\/[^/]+/.test(target)) fail(`--target must be an http(s) URL, not ${JSON.stringify(target)}`);

let sandboxFetch: ((request: Request, env?: unknown) => Response | Promise<Response>) | undefined;
let adminToken: string | undefined;
let dataDir: string | undefined;
let sandboxConfig: { externalUrl: string } | undefined;
if (!target) {
  const seed = (values.seed as string | undefined) ?? process.env.SANDBOX_SEED ?? 'demo';
  if (!(SEED_KINDS as readonly string[]).includes(seed)) fail(`--seed must be one of ${SEED_KINDS.join(', ')}`);
  const rateLimitPerMinute = parseRateLimit((values['rate-limit'] as string | undefined) ?? process.env.SANDBOX_RATE_LIMIT, fail);
  const ciTimeScale = parseCiTimeScale(process.env.SANDBOX_CI_TIME_SCALE, fail);
  const prepared = prepareSandbox({
    dataDir: path.resolve((values.data as string | undefined) ?? process.env.SANDBOX_DATA ?? path.join(root, '.sandbox-data')),
    seed: seed as SeedKind,
    adminToken: (values['admin-token'] as string | undefined) ?? process.env.SANDBOX_ADMIN_TOKEN,
    config: { externalUrl: `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`, ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }), ...(ciTimeScale === undefined ? {} : { ciTimeScale }) },
  });
  const sandboxApp = createApp(prepared.sandbox);
  sandboxFetch = (request, env) => sandboxApp.fetch(request, env as never);
  adminToken = prepared.adminToken;
  dataDir = prepared.sandbox.dataDir;
  sandboxConfig = prepared.sandbox.config;
}

// CONSOLE_DIST lets parallel test runs each serve their own build
const app = createServerApp({ sandboxFetch, target, distDir: path.resolve(process.env.CONSOLE_DIST ?? path.join(root, 'dist')) });
serve({ fetch: app.fetch, port, hostname: host, serverOptions: { maxHeaderSize: 1024 * 1024 } }, (info) => {
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${info.port}`;
  // with --port 0 the real port is known only now; avatars and web_url links use it
  if (sandboxConfig) sandboxConfig.externalUrl = url;
  console.log(`Platform Console: ${url}`);
  if (target) {
    console.log(`API:              ${url}/api/v4 -> ${target}/api/v4`);
  } else {
    console.log(`Sandbox API:      ${url}/api/v4   (data: ${dataDir})`);
    console.log(`Demo token:       ${adminToken}   (user 1, root, administrator)`);
  }
});
