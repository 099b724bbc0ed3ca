import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

export interface ConsoleServer {
  /** Origin serving the built console and the sandbox at /api/v4, e.g. http://127.0.0.1:41234 */
  baseURL: string;
  adminToken: string;
  stop(): Promise<void>;
}

/**
 * Starts `server/main.ts` in its own process on a free loopback port, with a fresh data directory
 * seeded with the demo data. Resolves once it prints its URL; rejects with its stderr if it exits
 * or stays silent for a minute. `stop()` ends it and removes the data directory. The bench turns
 * the sandbox's rate limit off (`rateLimitPerMinute: 0`): a throttled read would wait out a minute.
 */
export async function startConsoleServer(options: { rateLimitPerMinute?: number } = {}): Promise<ConsoleServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-e2e-'));
  const adminToken = `glpat-${randomBytes(15).toString('base64url')}`;
  const args = ['--data', dataDir, '--seed', 'demo', '--admin-token', adminToken];
  if (options.rateLimitPerMinute !== undefined) args.push('--rate-limit', String(options.rateLimitPerMinute));
  const running = await runServer(args, adminToken, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { ...running, adminToken };
}

/** `npm start -- --target <instance>`: the console with /api/v4 proxied to that instance. */
export function startProxyConsole(target: string): Promise<{ baseURL: string; stop(): Promise<void> }> {
  return runServer(['--target', target], undefined, () => undefined);
}

/** Spawns the server with `args`, waits for its URL; `secret` is kept out of any error it throws. */
async function runServer(args: string[], secret: string | undefined, cleanUp: () => void): Promise<{ baseURL: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts', '--port', '0', '--host', '127.0.0.1', ...args],
    // server/main.ts serves dist/ relative to the working directory
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    // keep the tail only: a long run must not grow memory
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    cleanUp();
  };

  try {
    const baseURL = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`did not print its URL within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const onData = (chunk: string) => {
        stdout += chunk;
        const match = /^Platform Console: (http:\/\/\S+)$/m.exec(stdout);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off('data', onData);
        // keep draining so a full pipe never blocks the server
        child.stdout.resume();
        resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      // 'close' comes after its output is drained, so the error carries all of stderr
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited (${signal ?? `code ${code}`}) before it was ready`));
      });
    });
    return { baseURL, stop };
  } catch (error) {
    await stop();
    // its banner prints the admin token, which stays out of test logs
    const output = (text: string) => (secret ? text.replaceAll(secret, '<admin token>') : text) || '(empty)';
    throw new Error(`The console server (node --import tsx server/main.ts) ${(error as Error).message}.\n--- its stderr ---\n${output(stderr)}\n--- its stdout ---\n${output(stdout)}`);
  }
}
