import fs from 'node:fs';
import { startSandbox } from '../sandbox/server.ts';

/**
 * Runs the sandbox in its own process, so the load generator does not share the server's event
 * loop (worker threads cannot load TypeScript through tsx on Node 20). Sends `ready` once
 * listening; `close`, or the parent going away, stops it and removes its data directory.
 */
if (!process.send) throw new Error('bench/sandbox-process.ts is started by bench/sandbox-child.ts with an IPC channel');

const started = performance.now();
// the throughput figure sends far more than the platform's 2,000 requests a minute
const running = await startSandbox({ port: 0, host: '127.0.0.1', seed: 'demo', config: { rateLimitPerMinute: 0 } });
const startMs = performance.now() - started;

let closing = false;
async function shutDown(): Promise<void> {
  if (closing) return;
  closing = true;
  await running.close();
  fs.rmSync(running.dataDir, { recursive: true, force: true });
  process.exit(0);
}

process.on('message', (message: { type?: string }) => {
  if (message.type === 'close') void shutDown();
});
// the bench died or was interrupted: do not outlive it
process.on('disconnect', () => void shutDown());
process.send({ type: 'ready', apiUrl: running.apiUrl, adminToken: running.adminToken, startMs });
