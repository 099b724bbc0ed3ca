import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { openDb, type Db } from './db.ts';
import { createApp } from './app.ts';
import { Faults } from './http/faults.ts';
import type { Sandbox, SandboxConfig } from './context.ts';
import { ensureAdminToken, seedInstance, type SeedKind } from './seed/index.ts';
import { ciWorker } from './ci/worker.ts';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Data directory; a fresh temporary one when absent. */
  dataDir?: string;
  seed?: SeedKind;
  /** The administrator's token; taken from the data directory, or generated, when absent. */
  adminToken?: string;
  /** Overrides of the instance settings. */
  config?: Partial<SandboxConfig>;
  now?: () => Date;
}

export interface RunningSandbox {
  url: string;
  apiUrl: string;
  adminToken: string;
  dataDir: string;
  sandbox: Sandbox;
  faults: Faults;
  close(): Promise<void>;
}

export const DEFAULT_CONFIG: SandboxConfig = {
  externalUrl: 'http://localhost',
  maxTokenLifetimeDays: 365,
  maxRequestLineBytes: 8192,
  // the platform's authenticated API limit on its own service
  rateLimitPerMinute: 2000,
  ciTimeScale: 1,
  passwordCost: 16_384,
};

/** Opens the store, seeds it when new, and returns the sandbox with its admin token. */
export function prepareSandbox(options: SandboxOptions): { sandbox: Sandbox; adminToken: string; db: Db } {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-'));
  const db = openDb(dataDir);
  const now = options.now ?? (() => new Date());
  const sandbox: Sandbox = { db, config: { ...DEFAULT_CONFIG, ...options.config }, now, dataDir };
  seedInstance(sandbox, options.seed ?? 'demo');
  const adminToken = ensureAdminToken(sandbox, options.adminToken);
  return { sandbox, adminToken, db };
}

/** Starts the sandbox's HTTP server; `port: 0` picks a free port. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  const { sandbox, adminToken, db } = prepareSandbox(options);
  const faults = new Faults();
  const app = createApp(sandbox, { faults });
  const server: ServerType = await new Promise((resolve) => {
    const started = serve(
      // long request lines reach the app, which answers 414 the way the platform's proxy does
      { fetch: app.fetch, port: options.port ?? 0, hostname: host, serverOptions: { maxHeaderSize: 1024 * 1024 } },
      () => resolve(started),
    );
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${port}`;
  if (!options.config?.externalUrl) sandbox.config.externalUrl = url;
  return {
    url,
    apiUrl: `${url}/api/v4`,
    adminToken,
    dataDir: sandbox.dataDir,
    sandbox,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        ciWorker(sandbox).stop();
        server.close(() => {
          db.close();
          resolve();
        });
      }),
  };
}
